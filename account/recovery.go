package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"strings"
)

// RecoveryCodes is how many recovery codes an account is given at a time.
const RecoveryCodes = 10

// codeBytes is the random bytes of a recovery code: 80 bits, 16
// characters of base32.
const codeBytes = 10

// codeEncoding writes recovery codes: base32 without padding, lower case
// when shown, any case when typed.
var codeEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newCodes returns n new recovery codes as shown to their holder
// ("abcd-efgh-ijkl-mnop") and their hashes as the store keeps them.
func newCodes(n int) (codes []string, hashes [][]byte) {
	for range n {
		var b [codeBytes]byte
		rand.Read(b[:])
		s := strings.ToLower(codeEncoding.EncodeToString(b[:]))
		codes = append(codes, s[0:4]+"-"+s[4:8]+"-"+s[8:12]+"-"+s[12:16])
		h := sha256.Sum256(b[:])
		hashes = append(hashes, h[:])
	}
	return codes, hashes
}

// codeHash returns the hash of a recovery code as typed (any case, with
// or without its dashes and spaces), or false if it is no code.
func codeHash(code string) ([]byte, bool) {
	if len(code) > 64 {
		return nil, false
	}
	s := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToUpper(code))
	b, err := codeEncoding.DecodeString(s)
	if err != nil || len(b) != codeBytes {
		return nil, false
	}
	h := sha256.Sum256(b)
	return h[:], true
}
