package account

import (
	"testing"

	"golang.org/x/crypto/argon2"
)

// KeyFunc is argon2id's signature.
type KeyFunc = func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte

// SetKeyFunc makes the package hash passwords with f (which may count
// and then call argon2.IDKey) until the test ends. Tests that call it
// must not run in parallel.
func SetKeyFunc(t testing.TB, f KeyFunc) {
	t.Helper()
	old := idKey
	idKey = f
	t.Cleanup(func() { idKey = old })
}

// RealKey is argon2id itself.
var RealKey KeyFunc = argon2.IDKey
