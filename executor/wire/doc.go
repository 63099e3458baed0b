// Package wire is the channel between the driver and its executors: a TCP
// connection authenticated by the application's secret and encrypted, that
// carries one protobuf Envelope (wire.proto) per frame.
//
// The driver generates the secret (NewSecret, 32 random bytes) and hands it
// to each executor out of band, in a file only they can read; it never
// appears on a command line, in an environment variable, in an error or in
// a log. Both ends pass it to this package as []byte: the driver to Listen,
// an executor to Dial.
//
// # Handshake
//
// Each side sends a hello (magic, version, role, a fresh 32-byte nonce),
// both derive this connection's keys from the secret and the two nonces,
// and each proves it holds the secret with a MAC over both hellos. The
// executor proves first; the driver answers a wrong proof, or anything that
// is not a hello, by closing the connection, so a peer without the secret
// receives nothing but the driver's hello and learns nothing from it.
//
//	executor                                              driver (Listener)
//	   |  hello_E = "SPWR" | 1 | 'E' | nonce_E (32)           |
//	   |----------------------------------------------------->|  bad magic, version
//	   |                                                      |  or role: close
//	   |  hello_D = "SPWR" | 1 | 'D' | nonce_D (32)           |
//	   |<-----------------------------------------------------|
//	   |                                                      |
//	   |   PRK = HKDF-Extract(SHA-256, salt = nonce_D || nonce_E, IKM = secret)
//	   |   k_D = HKDF-Expand(PRK, "spindle-wire v1 driver key", 32)
//	   |   k_E = HKDF-Expand(PRK, "spindle-wire v1 executor key", 32)
//	   |   f_D = HKDF-Expand(PRK, "spindle-wire v1 driver finished", 32)
//	   |   f_E = HKDF-Expand(PRK, "spindle-wire v1 executor finished", 32)
//	   |   T   = hello_E || hello_D
//	   |                                                      |
//	   |  HMAC-SHA256(f_E, T)                                 |
//	   |----------------------------------------------------->|  compared in constant
//	   |                                                      |  time; wrong: close
//	   |  HMAC-SHA256(f_D, T)                                 |
//	   |<-----------------------------------------------------|
//	   |  compared in constant time; wrong: close             |
//	   |                                                      |
//	   |  frames sealed with k_E  ===========================>|
//	   |<===========================  frames sealed with k_D |
//
// The whole handshake must finish within HandshakeTimeout (3s), however
// the peer paces its bytes, so a client that connects and stays silent,
// or sends a byte a second, cannot hold the connection. A handshake that
// fails is an error wrapping ErrHandshake on both sides.
//
// # Floods
//
// The Listener runs handshakes side by side and never waits on one, or on
// Accept, before taking the next connection. It bounds those in progress,
// 1024 per IP address and 4096 in all, and at a bound it refuses nobody:
// the oldest handshake in progress gives way to the newcomer (its
// address's own oldest, or at the total bound the oldest of the address
// holding the most). A bound that refused newcomers would let whoever
// filled it keep everyone else out, and clients often share an address: a
// gateway host's users, every local process. With oldest-first eviction,
// idle or trickling connections, from any address and any number of them,
// cost the driver goroutines and descriptors but hold no one out: a
// genuine peer's handshake is two round trips, and to cut it a flood must
// open a bound's worth of newer connections within them. Each refused,
// cut off or failed connection is reported by Accept as an error wrapping
// ErrHandshake, in order, and costs the Listener nothing while it waits to
// be: past 64 of them it keeps only their number.
//
// A handshake cut off is reset (TCP RST) rather than closed. Dial takes a
// connection closed before the driver's hello, or reset before its proof,
// as cut off for now, and connects again, waiting 20ms to 500ms between
// tries, until its context ends; a wrong proof is answered by an orderly
// close, and Dial fails at once with ErrNotAccepted.
//
// Over a Unix socket (network "unix", a path of any length) every peer is
// one address; OnlyUID then admits only the processes of one user, as the
// kernel tells (SO_PEERCRED), before a byte is read or written: a local
// session's clients come this way, through a socket in a directory only
// its owner can enter.
//
// # Frames
//
//	+-------------------+--------------------------------------------------+
//	| length: uint32 BE | AES-256-GCM(key = k_sender,                      |
//	| (ciphertext+tag)  |   nonce = 0x00000000 || counter (uint64 BE),     |
//	|                   |   additional data = the length field,            |
//	|                   |   plaintext = Envelope, at most MaxMessageSize)  |
//	+-------------------+--------------------------------------------------+
//
// Each direction counts its frames from 0, and the receiver uses its own
// count as the nonce, so a frame that is altered, replayed, dropped,
// reordered, or reflected back to its sender (the other direction has the
// other key) fails authentication. The keys are new for every connection,
// so no counter value repeats under one key. A length above the limit is
// refused before any buffer is allocated. Any bad frame closes the
// connection: Recv returns an error wrapping ErrBadFrame.
//
// Cutting the connection cleanly between two frames cannot be told from the
// peer hanging up; that is why an orderly end sends a Shutdown first.
//
// # Use
//
//	l, err := wire.Listen("tcp", ":0", secret)          // driver
//	for {
//		c, err := l.Accept(ctx)
//		if errors.Is(err, wire.ErrHandshake) {
//			log.Print(err) // names the peer, never the secret
//			continue
//		}
//		if err != nil {
//			return err
//		}
//		go serve(c) // c.Recv() → Register, c.Send(Registered), ...
//	}
//
//	c, err := wire.Dial(ctx, "tcp", driverAddr, secret) // executor
//
// An executor that may outlive its driver listens too, with the same
// secret, and the application's next ApplicationMaster attempt dials it
// (package executor, rejoin.go). The handshake's roles follow who dials
// (the dialling driver says 'E', the listening executor 'D'); the
// messages do not: the executor still sends Register, rejoining, and the
// driver answers Registered or Rejected.
package wire
