package account_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// clock is a clock a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Microsecond)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newService returns accounts in a new in-memory SQLite store, with the
// given settings, and the store.
func newService(t *testing.T, cfg account.Config) (*account.Service, store.Accounts) {
	t.Helper()
	st, err := sqlite.Open(t.Context(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := account.New(st, cfg)
	if err != nil {
		t.Fatalf("account.New: %v", err)
	}
	return s, st
}

// wantError fails the test unless err is an *account.Error of the code
// whose message has every one of the words.
func wantError(t *testing.T, what string, err error, code string, words ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s", what, code)
		return
	}
	if got := account.Code(err); got != code {
		t.Errorf("%s: %v, want code %s", what, err, code)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %q does not say %q", what, err, w)
		}
	}
}

// signUp makes an account and fails the test if it cannot.
func signUp(t *testing.T, s *account.Service, name, password string) (*account.Account, *account.Session, []string) {
	t.Helper()
	a, ses, codes, err := s.SignUp(t.Context(), name, password)
	if err != nil {
		t.Fatalf("SignUp(%q): %v", name, err)
	}
	return a, ses, codes
}

// mustAuthenticate fails the test unless token opens a session of the
// account.
func mustAuthenticate(t *testing.T, s *account.Service, token, accountID string) *account.Session {
	t.Helper()
	a, ses, err := s.Authenticate(t.Context(), token)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if a.ID != accountID || ses.AccountID != accountID {
		t.Fatalf("Authenticate opened account %s, want %s", a.ID, accountID)
	}
	return ses
}
