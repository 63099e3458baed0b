package sasl

import (
	"bytes"
	"crypto/hmac"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/crypto/etype"
	"github.com/jcmturner/gokrb5/v8/types"
)

// A Kerberos Wrap token (RFC 4121 §4.2.6.2) protects one message once
// GSSAPI has established its context:
//
//	 0    1    2       3      4   5   6    7   8 ........... 15
//	+----+----+-------+------+-------+--------+---------------+
//	| 05 | 04 | flags | 0xFF |  EC   |  RRC   |    SND_SEQ    |
//	+----+----+-------+------+-------+--------+---------------+
//	then, checksummed:  plaintext | checksum (EC bytes)
//	or sealed:          E(plaintext | EC filler bytes | header with RRC 0)
//
// flags: 0x01 sent by the acceptor, 0x02 sealed, 0x04 acceptor subkey. The
// bytes after the header may be rotated right by RRC; a receiver undoes it.
// The checksum covers the plaintext then the header with EC and RRC 0.
// The key usage is the sender's SEAL usage whether sealed or not.
const (
	wrapHeaderLen = 16

	flagSentByAcceptor = 0x01
	flagSealed         = 0x02
	flagAcceptorSubkey = 0x04

	usageAcceptorSeal  = 22
	usageInitiatorSeal = 24
)

// krb5Wrapper wraps and unwraps the tokens of one direction pair: what
// this side sends (with its own sequence numbers) and what its peer does.
type krb5Wrapper struct {
	key      types.EncryptionKey
	et       etype.EType
	acceptor bool   // the side this wrapper speaks for
	sendSeq  uint64 // the next token's SND_SEQ
	recvSeq  uint64 // the SND_SEQ the peer's next token must carry
}

// rfc4121Etypes are the enctypes whose GSSAPI tokens RFC 4121 defines:
// AES (RFC 3962 and 8009). Older ones (DES3, RC4) use RFC 1964's tokens,
// which Spindle does not write.
var rfc4121Etypes = map[int32]string{
	17: "aes128-cts-hmac-sha1-96", 18: "aes256-cts-hmac-sha1-96",
	19: "aes128-cts-hmac-sha256-128", 20: "aes256-cts-hmac-sha384-192",
}

func newKrb5Wrapper(key types.EncryptionKey, acceptor bool, sendSeq, recvSeq uint64) (*krb5Wrapper, error) {
	if _, ok := rfc4121Etypes[key.KeyType]; !ok {
		return nil, fmt.Errorf("the Kerberos session key is of enctype %d, which has no RFC 4121 tokens: have the KDC issue AES keys (aes256-cts-hmac-sha1-96 or aes128-cts-hmac-sha1-96)", key.KeyType)
	}
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, err
	}
	return &krb5Wrapper{key: key, et: et, acceptor: acceptor, sendSeq: sendSeq, recvSeq: recvSeq}, nil
}

func (w *krb5Wrapper) usages() (send, recv uint32) {
	if w.acceptor {
		return usageAcceptorSeal, usageInitiatorSeal
	}
	return usageInitiatorSeal, usageAcceptorSeal
}

func wrapHeader(flags byte, ec, rrc uint16, seq uint64) []byte {
	h := make([]byte, wrapHeaderLen)
	h[0], h[1], h[2], h[3] = 0x05, 0x04, flags, 0xFF
	binary.BigEndian.PutUint16(h[4:], ec)
	binary.BigEndian.PutUint16(h[6:], rrc)
	binary.BigEndian.PutUint64(h[8:], seq)
	return h
}

// wrap protects p, sealed (encrypted) or only checksummed.
func (w *krb5Wrapper) wrap(p []byte, seal bool) ([]byte, error) {
	send, _ := w.usages()
	var flags byte
	if w.acceptor {
		flags |= flagSentByAcceptor
	}
	seq := w.sendSeq
	var token []byte
	if seal {
		flags |= flagSealed
		// EC 0: AES in CTS mode needs no padding.
		header := wrapHeader(flags, 0, 0, seq)
		_, sealed, err := w.et.EncryptMessage(w.key.KeyValue, append(append([]byte{}, p...), header...), send)
		if err != nil {
			return nil, err
		}
		token = append(header, sealed...)
	} else {
		sum, err := w.et.GetChecksumHash(w.key.KeyValue, append(append([]byte{}, p...), wrapHeader(flags, 0, 0, seq)...), send)
		if err != nil {
			return nil, err
		}
		token = append(append(wrapHeader(flags, uint16(len(sum)), 0, seq), p...), sum...)
	}
	w.sendSeq++
	return token, nil
}

// unwrap checks one of the peer's tokens and returns its plaintext. The
// peer's tokens must come in sequence (a TCP stream reorders nothing, so
// a gap or a repeat is a replay or a loss): Hadoop's server wraps each
// response under its connection's response-queue lock as it queues it
// (Server.Responder.doRespond, 3.3 to 3.5), so its handler threads cannot
// send tokens out of the order they numbered them. wantSealed refuses
// checksummed tokens where privacy was agreed.
func (w *krb5Wrapper) unwrap(token []byte, wantSealed bool) ([]byte, error) {
	_, recv := w.usages()
	if len(token) < wrapHeaderLen {
		return nil, fmt.Errorf("a wrap token of %d bytes, shorter than its header", len(token))
	}
	h := token[:wrapHeaderLen]
	if h[0] != 0x05 || h[1] != 0x04 || h[3] != 0xFF {
		return nil, fmt.Errorf("not an RFC 4121 wrap token (it starts %x)", h[:4])
	}
	flags := h[2]
	if fromAcceptor := flags&flagSentByAcceptor != 0; fromAcceptor == w.acceptor {
		return nil, errors.New("a wrap token that claims to come from this side")
	}
	if flags&flagAcceptorSubkey != 0 {
		return nil, errors.New("a wrap token under an acceptor subkey, which this context never agreed")
	}
	sealed := flags&flagSealed != 0
	if wantSealed && !sealed {
		return nil, errors.New("a wrap token that is not sealed, where privacy was agreed")
	}
	ec := int(binary.BigEndian.Uint16(h[4:]))
	rrc := int(binary.BigEndian.Uint16(h[6:]))
	seq := binary.BigEndian.Uint64(h[8:])
	if seq != w.recvSeq {
		return nil, fmt.Errorf("a wrap token with sequence number %d where %d was due", seq, w.recvSeq)
	}
	body := unrotate(token[wrapHeaderLen:], rrc)
	var plain []byte
	if sealed {
		// gokrb5 trusts the length it is given: shorter than a
		// confounder, a header and an HMAC cannot be a sealed token.
		if least := w.et.GetConfounderByteSize() + wrapHeaderLen + w.et.GetHMACBitLength()/8; len(body) < least {
			return nil, fmt.Errorf("a sealed wrap token of %d bytes after its header, fewer than the %d it must have", len(body), least)
		}
		dec, err := w.et.DecryptMessage(w.key.KeyValue, body, recv)
		if err != nil {
			return nil, fmt.Errorf("a sealed wrap token does not decrypt: %v", err)
		}
		if len(dec) < ec+wrapHeaderLen {
			return nil, errors.New("a sealed wrap token too short for its filler and header")
		}
		inner := dec[len(dec)-wrapHeaderLen:]
		// The header inside, with RRC 0, must be the one outside.
		if want := wrapHeader(flags, uint16(ec), 0, seq); !bytes.Equal(inner, want) {
			return nil, errors.New("a sealed wrap token's inner header differs from its outer one")
		}
		plain = dec[:len(dec)-wrapHeaderLen-ec]
	} else {
		if ec > len(body) {
			return nil, fmt.Errorf("a wrap token's checksum of %d bytes is longer than its %d bytes of body", ec, len(body))
		}
		plain = append([]byte{}, body[:len(body)-ec]...)
		want, err := w.et.GetChecksumHash(w.key.KeyValue, append(append([]byte{}, plain...), wrapHeader(flags, 0, 0, seq)...), recv)
		if err != nil {
			return nil, err
		}
		if !hmac.Equal(body[len(body)-ec:], want) {
			return nil, errors.New("a wrap token's checksum does not match")
		}
	}
	w.recvSeq++
	return plain, nil
}

// unrotate undoes a right rotation of b by rrc bytes.
func unrotate(b []byte, rrc int) []byte {
	if len(b) == 0 {
		return b
	}
	rrc %= len(b)
	if rrc == 0 {
		return b
	}
	return append(append([]byte{}, b[rrc:]...), b[:rrc]...)
}
