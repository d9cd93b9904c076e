package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/chaturaji/chaturaji/store"
)

// newToken returns a new seat token, 128 random bits in base64url, and the
// SHA-256 the store keeps of it. The token itself is shown once, to the
// game's creator.
func newToken() (token string, hash []byte) {
	b := make([]byte, 16)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// seatOfToken returns the index of the seat that token opens, comparing its
// hash with every seat's in constant time, or -1.
func seatOfToken(hashes [][]byte, token string) int {
	return seatOfHash(hashes, hashToken(token))
}

// seatOfHash returns the index of the seat held by the token hash h, as
// seatOfToken, or -1.
func seatOfHash(hashes [][]byte, h []byte) int {
	found := -1
	for i, sh := range hashes {
		if subtle.ConstantTimeCompare(sh, h) == 1 {
			found = i
		}
	}
	return found
}

// tokenHashes returns the token hashes of a game's seats, nil for bots.
func tokenHashes(seats []store.Seat) [][]byte {
	hs := make([][]byte, len(seats))
	for i, s := range seats {
		hs[i] = s.TokenHash
	}
	return hs
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// newID returns a new game id: 80 random bits in lower-case base32.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}
