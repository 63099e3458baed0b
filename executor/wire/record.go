package wire

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// MaxMessageSize bounds one encoded Envelope. A receiver checks a frame's
// length against it before allocating anything.
const MaxMessageSize = 16 << 20

// A frame is a 4-byte big-endian length, then the sealed Envelope and its
// tag (drawn in doc.go). The length is the AEAD's additional data, so it
// cannot be altered either.
const (
	headerSize = 4
	tagSize    = 16
)

// direction is one direction's record state: its key and its frame counter.
// The GCM nonce is 4 zero bytes and the counter, big-endian; the receiver
// keeps its own counter rather than reading one off the wire, so a replayed,
// dropped or reordered frame fails authentication. Each direction has its
// own key, so a frame reflected back to its sender fails too.
type direction struct {
	aead  cipher.AEAD
	seq   uint64
	nonce [12]byte // a field, not a local: a slice of a local passed to an interface escapes, costing an allocation per frame
}

func newDirection(key []byte) (direction, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return direction{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return direction{}, err
	}
	return direction{aead: aead}, nil
}

// advance sets the nonce for the next frame.
func (d *direction) advance() error {
	if d.seq == math.MaxUint64 {
		// Never in practice; a wrapped counter would reuse a nonce.
		return errors.New("wire: frame counter exhausted; reconnect")
	}
	binary.BigEndian.PutUint64(d.nonce[4:], d.seq)
	d.seq++
	return nil
}

// seal turns frame, headerSize bytes of room followed by the plaintext, into
// the bytes to write, encrypting in place.
func (d *direction) seal(frame []byte) ([]byte, error) {
	if err := d.advance(); err != nil {
		return nil, err
	}
	frame = slices.Grow(frame, tagSize) // room for the tag, so the result stays one buffer
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-headerSize+tagSize))
	sealed := d.aead.Seal(frame[headerSize:headerSize], d.nonce[:], frame[headerSize:], frame[:headerSize])
	return frame[:headerSize+len(sealed)], nil
}

// bodySize reads a frame header and refuses a length that cannot be a frame.
func bodySize(header []byte) (int, error) {
	n := binary.BigEndian.Uint32(header)
	if n < tagSize {
		return 0, badFrame("a frame of %d bytes is shorter than its %d-byte tag", n, tagSize)
	}
	if n > MaxMessageSize+tagSize {
		return 0, badFrame("a frame of %d bytes exceeds the limit of %d", n, MaxMessageSize+tagSize)
	}
	return int(n), nil
}

// open authenticates and decrypts a frame's body in place.
func (d *direction) open(header, body []byte) ([]byte, error) {
	if err := d.advance(); err != nil {
		return nil, err
	}
	plain, err := d.aead.Open(body[:0], d.nonce[:], body, header)
	if err != nil {
		return nil, badFrame("frame %d failed authentication (tampered with, replayed, reordered or not from the peer)", d.seq-1)
	}
	return plain, nil
}
