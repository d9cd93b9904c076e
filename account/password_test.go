package account_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/store"
)

// storedHash returns the password hash the store keeps of an account.
func storedHash(t *testing.T, st store.Accounts, id string) account.Hash {
	t.Helper()
	a, err := st.Account(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	h, err := account.ParseHash(a.Password)
	if err != nil {
		t.Fatalf("stored hash %q: %v", a.Password, err)
	}
	return h
}

func TestPasswordHashAndVerify(t *testing.T) {
	s, st := newService(t, account.Config{})
	a, _, _ := signUp(t, s, "Asha", "correct horse")
	signUp(t, s, "Bala", "correct horse")

	// OWASP's argon2id, as the PHC string says, and the key argon2id makes
	// of the password and the salt with those parameters.
	h := storedHash(t, st, a.ID)
	if h.Memory != 19*1024 || h.Time != 2 || h.Threads != 1 || len(h.Salt) != 16 || len(h.Key) != 32 {
		t.Errorf("stored hash m=%d t=%d p=%d salt %d bytes key %d bytes, want 19456, 2, 1, 16, 32", h.Memory, h.Time, h.Threads, len(h.Salt), len(h.Key))
	}
	if !bytes.Equal(h.Key, argon2.IDKey([]byte("correct horse"), h.Salt, 2, 19*1024, 1, 32)) {
		t.Error("the stored key is not argon2id of the password and salt")
	}
	if !strings.HasPrefix(h.String(), "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q", h.String())
	}
	b := storedHash(t, st, mustNamed(t, st, "bala").ID)
	if bytes.Equal(b.Salt, h.Salt) || bytes.Equal(b.Key, h.Key) {
		t.Error("two accounts with one password share a salt or a hash")
	}

	got, ses, err := s.SignIn(t.Context(), "ASHA", "correct horse", "")
	if err != nil || got.ID != a.ID {
		t.Fatalf("SignIn = %v, %v", got, err)
	}
	mustAuthenticate(t, s, ses.Token, a.ID)
	_, _, err = s.SignIn(t.Context(), "Asha", "correct horsE", "")
	wantError(t, "a wrong password", err, account.EUNAUTHORIZED, "wrong username or password")
	wrongName := err.Error()
	_, _, err = s.SignIn(t.Context(), "Nobody", "correct horse", "")
	wantError(t, "an unknown name", err, account.EUNAUTHORIZED)
	if err != nil && err.Error() != wrongName {
		t.Errorf("an unknown name says %q, a wrong password %q: they must not differ", err, wrongName)
	}
	_, _, err = s.SignIn(t.Context(), "a b", "correct horse", "")
	if err == nil || err.Error() != wrongName {
		t.Errorf("a name no account can have: %v, want %q", err, wrongName)
	}
}

// mustNamed returns the stored account of a folded name.
func mustNamed(t *testing.T, st store.Accounts, folded string) *store.Account {
	t.Helper()
	a, err := st.AccountNamed(t.Context(), folded)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestPasswordLimits(t *testing.T) {
	s, _ := newService(t, account.Config{})
	for _, tc := range []struct {
		name, password string
		words          []string
	}{
		{"seven characters", "1234567", []string{"password of 7 characters: at least 8"}},
		{"eight bytes but four characters", "ñññ1", []string{"4 characters: at least 8"}},
		{"over 1024 bytes", strings.Repeat("p", 1025), []string{"password of 1025 bytes: at most 1024"}},
		{"a control character", "password\x01", []string{"U+0001", "cannot have"}},
		{"not UTF-8", "password\xff", []string{"not UTF-8"}},
	} {
		_, _, _, err := s.SignUp(t.Context(), "Asha", tc.password)
		wantError(t, tc.name, err, account.EINVALID, tc.words...)
	}
	for _, ok := range []string{"12345678", strings.Repeat("p", 1024), "ñandú ñandú"} {
		if _, _, _, err := s.SignUp(t.Context(), fmt.Sprintf("user%d", len(ok)), ok); err != nil {
			t.Errorf("a password of %d bytes: %v", len(ok), err)
		}
	}
	// The same password typed in another normal form signs in.
	signUp(t, s, "Nfc", "pa\u00f1o secreto")
	if _, _, err := s.SignIn(t.Context(), "Nfc", "pan\u0303o secreto", ""); err != nil {
		t.Errorf("the password decomposed: %v", err)
	}
}

func TestWeakHashRaisedAtSignIn(t *testing.T) {
	weak := account.Params{Memory: 8 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	s, st := newService(t, account.Config{Params: weak})
	a, _, _ := signUp(t, s, "Asha", "correct horse")
	if h := storedHash(t, st, a.ID); h.Memory != 8*1024 || h.Time != 1 {
		t.Fatalf("hash with m=%d t=%d, want the weak parameters", h.Memory, h.Time)
	}
	// The server restarts with OWASP's parameters: the next sign-in
	// rehashes.
	s2, err := account.New(st, account.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s2.SignIn(t.Context(), "Asha", "correct horse", ""); err != nil {
		t.Fatal(err)
	}
	h := storedHash(t, st, a.ID)
	if h.Memory != 19*1024 || h.Time != 2 {
		t.Errorf("after sign-in the hash has m=%d t=%d, want 19456, 2", h.Memory, h.Time)
	}
	if _, _, err := s2.SignIn(t.Context(), "Asha", "correct horse", ""); err != nil {
		t.Errorf("signing in with the new hash: %v", err)
	}
}

// TestHashConcurrencyBound counts the argon2id runs under way while many
// sign-ins come at once: never more than HashConcurrency.
func TestHashConcurrencyBound(t *testing.T) {
	const bound, clients = 2, 12
	s, _ := newService(t, account.Config{HashConcurrency: bound, HashWaiters: clients})
	signUp(t, s, "Asha", "correct horse")

	var inFlight, most atomic.Int64
	full := make(chan struct{})
	var fullOnce sync.Once
	account.SetKeyFunc(t, func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n >= bound {
			fullOnce.Do(func() { close(full) })
		}
		// Hold the slot until the bound was reached once, so that every
		// slot is seen taken, whatever the machine's load.
		select {
		case <-full:
		case <-t.Context().Done():
		}
		return account.RealKey(password, salt, time, memory, threads, keyLen)
	})
	var wg sync.WaitGroup
	errs := make([]error, clients)
	for i := range clients {
		wg.Go(func() {
			pw := "correct horse"
			if i%2 == 1 {
				pw = "wrong horse!"
			}
			_, _, errs[i] = s.SignIn(t.Context(), []string{"Asha", "Nobody"}[i%3%2], pw, "")
		})
	}
	wg.Wait()
	if got := most.Load(); got != bound {
		t.Errorf("at most %d hashes ran at once, want %d", got, bound)
	}
	for i, err := range errs {
		if c := account.Code(err); err != nil && c != account.EUNAUTHORIZED {
			t.Errorf("client %d: %v", i, err)
		}
	}
}

// TestHashWaitersBound fills the slot and the queue: the next sign-in is
// refused at once, and one whose context ends while it waits gives up.
func TestHashWaitersBound(t *testing.T) {
	s, _ := newService(t, account.Config{HashConcurrency: 1, HashWaiters: 1})
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	account.SetKeyFunc(t, func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		entered <- struct{}{}
		<-release
		return account.RealKey(password, salt, time, memory, threads, keyLen)
	})
	done := make(chan error, 2)
	go func() { _, _, err := s.SignIn(t.Context(), "Asha", "correct horse", ""); done <- err }()
	<-entered // the slot is taken
	ctx, cancel := context.WithCancel(t.Context())
	waiting := make(chan error, 1)
	go func() { _, _, err := s.SignIn(ctx, "Bala", "correct horse", ""); waiting <- err }()
	// Once the second waits, the queue is full: a third is refused at once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if running, waiting := s.HashLoad(); running == 1 && waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second sign-in never waited for the slot")
		}
	}
	_, _, err := s.SignIn(t.Context(), "Chandra", "correct horse", "")
	wantError(t, "a sign-in past the queue", err, account.EUNAVAILABLE, "too many passwords")
	cancel()
	wantError(t, "a waiter whose context ended", <-waiting, account.EUNAVAILABLE, "gave up waiting")
	close(release)
	wantError(t, "the first", <-done, account.EUNAUTHORIZED, "wrong username or password")
}

// TestUnknownNameHashes checks that a sign-in under an unknown name runs
// argon2id as a known one does.
func TestUnknownNameHashes(t *testing.T) {
	s, _ := newService(t, account.Config{})
	signUp(t, s, "Asha", "correct horse")
	var calls atomic.Int64
	account.SetKeyFunc(t, func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		calls.Add(1)
		return account.RealKey(password, salt, time, memory, threads, keyLen)
	})
	for _, name := range []string{"Asha", "Nobody", "no one"} {
		calls.Store(0)
		s.SignIn(t.Context(), name, "wrong horse!", "")
		if got := calls.Load(); got != 1 {
			t.Errorf("sign-in as %q ran argon2id %d times, want 1", name, got)
		}
	}
}

func FuzzParseHash(f *testing.F) {
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g")
	f.Add("$argon2id$v=19$m=65536,t=3,p=4$YWJjZGVmZ2g$MDEyMzQ1Njc4OWFiY2RlZg")
	f.Add("$argon2id$v=19$m=019456,t=2,p=1$c2FsdA$aGFzaA")
	f.Add("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := account.ParseHash(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "account: ") {
				t.Errorf("ParseHash(%q): %v, want an error of the package", s, err)
			}
			return
		}
		if got := h.String(); got != s {
			t.Errorf("ParseHash(%q).String() = %q", s, got)
		}
		if h.Memory > 1<<20 || h.Time > 64 || h.Threads == 0 || len(h.Salt) < 8 || len(h.Key) < 16 {
			t.Errorf("ParseHash(%q) took parameters out of bounds: %+v", s, h.Params)
		}
	})
}
