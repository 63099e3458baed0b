package sasl

import (
	"crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"encoding/binary"
	"fmt"
)

// Magic constants of RFC 2831 §2.3 that turn H(A1) into signing keys.
const (
	clientSignMagic = "Digest session key to client-to-server signing key magic constant"
	serverSignMagic = "Digest session key to server-to-client signing key magic constant"
)

// The trailer every wrapped packet ends with, and the MAC inside it.
const (
	macLen      = 10 // the first 10 bytes of HMAC-MD5
	trailerLen  = 6  // message type (2) and sequence number (4)
	messageType = 1  // the only message type RFC 2831 defines
)

// securityLayer is DIGEST-MD5's integrity layer (auth-int), sealed with a
// cipher for auth-conf. Its packets (§2.3, §2.4):
//
//	auth-int:  +-----------+-------------+-----------+---------+
//	           | message   | MAC (10)    | type (2)  | seq (4) |
//	           +-----------+-------------+-----------+---------+
//	auth-conf: +-------------------------------------+---------+---------+
//	           | CIPHER(Kc, {message, pad, MAC})     | type(2) | seq (4) |
//	           +-------------------------------------+---------+---------+
//
// MAC = HMAC-MD5(Ki, {seq, message})[0..9]; seq is the sender's packet
// count from 0, big-endian; type is 0x0001; pad (block ciphers only) is 1
// to 8 bytes each holding the pad length. The client signs and seals with
// Kic and Kcc and checks and opens with Kis and Kcs.
//
// The two directions hold separate state, so Wrap and Unwrap may run
// concurrently; neither may run concurrently with itself (each packet's
// sequence number, and the cipher state, depend on the one before).
type securityLayer struct {
	send, recv direction
	// maxSend is the largest message the peer's maxbuf admits once wrapped.
	maxSend int
}

// direction is one way's keys and state.
type direction struct {
	signKey []byte
	seq     uint32
	// seal is nil for auth-int.
	seal cipher.BlockMode
	// failed keeps a receiving direction shut after a rejected packet: the
	// sequence and, with a cipher, the cipher's chained state can no longer
	// be trusted.
	failed error
}

// newSecurityLayer builds the client's layer for qop auth-int, or auth-conf
// with cipher c, from the session key H(A1) and the server's maxbuf.
func newSecurityLayer(ha1 [md5.Size]byte, qop QOP, c Cipher, peerMaxbuf int) (*securityLayer, error) {
	kic := md5.Sum(append(ha1[:], clientSignMagic...))
	kis := md5.Sum(append(ha1[:], serverSignMagic...))
	l := &securityLayer{
		send:    direction{signKey: kic[:]},
		recv:    direction{signKey: kis[:]},
		maxSend: peerMaxbuf - macLen - trailerLen,
	}
	if qop != AuthConf {
		return l, nil
	}
	kcc, kcs := sealingKeys(ha1, c)
	var err error
	if l.send.seal, err = newSealer(c, kcc, true); err != nil {
		return nil, err
	}
	if l.recv.seal, err = newSealer(c, kcs, false); err != nil {
		return nil, err
	}
	if bs := l.send.seal.BlockSize(); bs > 1 {
		// Whole blocks that fit, less the MAC and at least one pad byte.
		// (The JDK's RAW_SEND_SIZE, maxbuf-26, is a little smaller.) The
		// challenge's bounds on maxbuf keep this positive.
		l.maxSend = (peerMaxbuf-trailerLen)/bs*bs - macLen - 1
	}
	return l, nil
}

// MaxSend is the largest message whose wrapped packet the server's maxbuf
// admits. RFC 2831 says the client MUST NOT send more, and Hadoop's Java
// client splits its stream into pieces of about this size before wrapping;
// but it wraps a single larger write whole, and Hadoop's server accepts
// that, so Wrap does not refuse larger messages: the caller splits.
func (l *securityLayer) MaxSend() int { return l.maxSend }

// Wrap protects one outgoing message.
func (l *securityLayer) Wrap(p []byte) ([]byte, error) {
	d := &l.send
	pad := 0
	if d.seal != nil {
		if bs := d.seal.BlockSize(); bs > 1 {
			pad = bs - (len(p)+macLen)%bs
		}
	}
	body := len(p) + pad + macLen
	out := make([]byte, body+trailerLen)
	copy(out, p)
	for i := len(p); i < len(p)+pad; i++ {
		out[i] = byte(pad)
	}
	copy(out[len(p)+pad:body], mac(d.signKey, d.seq, p))
	if d.seal != nil {
		d.seal.CryptBlocks(out[:body], out[:body])
	}
	binary.BigEndian.PutUint16(out[body:], messageType)
	binary.BigEndian.PutUint32(out[body+2:], d.seq)
	// Sequence numbers wrap at 2**32 as the JDK's do; RFC 2831 does not
	// say otherwise.
	d.seq++
	return out, nil
}

// Unwrap checks and opens one incoming packet. Once a packet is rejected,
// every later one is too.
func (l *securityLayer) Unwrap(p []byte) ([]byte, error) {
	d := &l.recv
	if d.failed != nil {
		return nil, fmt.Errorf("%w: an earlier packet was rejected: %v", ErrPacket, d.failed)
	}
	msg, err := d.open(p)
	if err != nil {
		d.failed = err
		return nil, fmt.Errorf("%w: %v", ErrPacket, err)
	}
	d.seq++
	return msg, nil
}

// open checks one packet against the expected sequence number and returns
// its message.
func (d *direction) open(p []byte) ([]byte, error) {
	bs, minBody := 1, macLen
	if d.seal != nil {
		if bs = d.seal.BlockSize(); bs > 1 {
			minBody = macLen + 1 + (bs-(macLen+1)%bs)%bs // MAC and at least 1 pad byte, in whole blocks
		}
	}
	if len(p) < minBody+trailerLen {
		return nil, fmt.Errorf("packet of %d bytes, shorter than the smallest possible (%d)", len(p), minBody+trailerLen)
	}
	body, trailer := p[:len(p)-trailerLen], p[len(p)-trailerLen:]
	if t := binary.BigEndian.Uint16(trailer); t != messageType {
		return nil, fmt.Errorf("message type %#04x, want %#04x", t, messageType)
	}
	seq := binary.BigEndian.Uint32(trailer[2:])
	if d.seal != nil {
		if len(body)%bs != 0 {
			return nil, fmt.Errorf("sealed body of %d bytes is not a whole number of %d-byte blocks", len(body), bs)
		}
		plain := make([]byte, len(body))
		d.seal.CryptBlocks(plain, body)
		body = plain
	}
	msg, tag := body[:len(body)-macLen], body[len(body)-macLen:]
	if bs > 1 {
		pad := int(msg[len(msg)-1])
		if pad < 1 || pad > bs {
			return nil, fmt.Errorf("padding length %d outside [1, %d] (wrong key or corrupted packet)", pad, bs)
		}
		if pad > len(msg) {
			return nil, fmt.Errorf("padding length %d exceeds the %d bytes before the MAC", pad, len(msg))
		}
		for _, b := range msg[len(msg)-pad:] {
			if int(b) != pad {
				return nil, fmt.Errorf("malformed padding (wrong key or corrupted packet)")
			}
		}
		msg = msg[:len(msg)-pad]
	}
	if !hmac.Equal(tag, mac(d.signKey, seq, msg)) {
		return nil, fmt.Errorf("MAC mismatch on packet %d (corrupted or forged)", seq)
	}
	if seq != d.seq {
		return nil, fmt.Errorf("sequence number %d, want %d (packet replayed, lost or reordered)", seq, d.seq)
	}
	if d.seal == nil {
		// Copy so the message does not alias the caller's packet buffer.
		return append([]byte(nil), msg...), nil
	}
	return msg, nil
}

// mac is HMAC-MD5(key, {seq, msg})[0..9].
func mac(key []byte, seq uint32, msg []byte) []byte {
	h := hmac.New(md5.New, key)
	var s [4]byte
	binary.BigEndian.PutUint32(s[:], seq)
	h.Write(s[:])
	h.Write(msg)
	return h.Sum(nil)[:macLen]
}
