package sasl

import (
	"crypto/cipher"
	"crypto/des"
	"crypto/md5"
	"crypto/rc4"
	"fmt"
	"math/bits"
)

// Cipher is a DIGEST-MD5 confidentiality cipher (RFC 2831 §2.4), as named
// in the challenge's cipher directive.
type Cipher string

// The ciphers of RFC 2831, all implemented.
const (
	Cipher3DES  Cipher = "3des"
	CipherRC4   Cipher = "rc4"
	CipherDES   Cipher = "des"
	CipherRC456 Cipher = "rc4-56"
	CipherRC440 Cipher = "rc4-40"
)

// defaultCiphers is the preference order used when DigestConfig.Ciphers is
// empty: the JDK client's, strongest first (high: 3des, rc4; medium: des,
// rc4-56; low: rc4-40). It is also the list of ciphers known.
var defaultCiphers = []Cipher{Cipher3DES, CipherRC4, CipherDES, CipherRC456, CipherRC440}

// Magic constants of §2.4 that turn H(A1) into sealing keys.
const (
	clientSealMagic = "Digest H(A1) to client-to-server sealing key magic constant"
	serverSealMagic = "Digest H(A1) to server-to-client sealing key magic constant"
)

// known reports whether c is one of RFC 2831's ciphers.
func (c Cipher) known() bool {
	for _, k := range defaultCiphers {
		if c == k {
			return true
		}
	}
	return false
}

// sealingKeys derives Kcc and Kcs (§2.4): MD5 of the first n bytes of H(A1)
// and the magic constant, where n is 16 except for the export-weakened
// rc4-56 (7) and rc4-40 (5).
func sealingKeys(ha1 [md5.Size]byte, c Cipher) (kcc, kcs [md5.Size]byte) {
	n := md5.Size
	switch c {
	case CipherRC456:
		n = 7
	case CipherRC440:
		n = 5
	}
	kcc = md5.Sum(append(ha1[:n:n], clientSealMagic...))
	kcs = md5.Sum(append(ha1[:n:n], serverSealMagic...))
	return kcc, kcs
}

// newSealer makes one direction of cipher c keyed by a 16-byte sealing key.
// Its state carries from packet to packet, as in the JDK: the CBC chain of
// des and 3des continues across packets (the first IV is the key's last 8
// bytes), and the rc4 key stream runs on. The rc4 variants all key RC4
// with all 16 bytes; they differ only in how much of H(A1) the key holds.
func newSealer(c Cipher, key [md5.Size]byte, encrypt bool) (cipher.BlockMode, error) {
	var block cipher.Block
	var err error
	switch c {
	case CipherRC4, CipherRC456, CipherRC440:
		s, err := rc4.NewCipher(key[:])
		if err != nil {
			return nil, fmt.Errorf("sasl: DIGEST-MD5: %s: %w", c, err)
		}
		return streamMode{s}, nil
	case CipherDES:
		block, err = des.NewCipher(desKey(key[0:7]))
	case Cipher3DES:
		// Two-key triple DES, K1 K2 K1, from the key's first 14 bytes.
		k1, k2 := desKey(key[0:7]), desKey(key[7:14])
		block, err = des.NewTripleDESCipher(append(append(k1, k2...), k1...))
	default:
		return nil, fmt.Errorf("sasl: DIGEST-MD5: unknown cipher %q", c)
	}
	if err != nil {
		return nil, fmt.Errorf("sasl: DIGEST-MD5: %s: %w", c, err)
	}
	iv := key[8:16]
	if encrypt {
		return cipher.NewCBCEncrypter(block, iv), nil
	}
	return cipher.NewCBCDecrypter(block, iv), nil
}

// desKey spreads 7 key bytes (56 bits) over the 8 bytes of a DES key, 7
// bits in the high end of each, and sets the low bit of each byte to odd
// parity as RFC 2831 §2.4 describes. (Go's DES ignores parity bits; they
// are set so that the key bytes are the RFC's and the JDK's.)
func desKey(k []byte) []byte {
	var v uint64
	for _, b := range k[:7] {
		v = v<<8 | uint64(b)
	}
	out := make([]byte, 8)
	for i := range out {
		b := byte(v>>(49-7*i)) << 1
		out[i] = b | byte(bits.OnesCount8(b)&1^1)
	}
	return out
}

// streamMode presents RC4 as a cipher.BlockMode of block size 1, so the
// security layer treats every cipher alike (no padding at block size 1).
type streamMode struct{ cipher.Stream }

func (streamMode) BlockSize() int { return 1 }

func (s streamMode) CryptBlocks(dst, src []byte) { s.XORKeyStream(dst, src) }
