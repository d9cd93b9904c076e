package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// What the suite holds a store's Accounts to, beyond store.Accounts' own
// documentation: times read back in UTC to the microsecond, as games'; a
// deleted account reads back with its Folded name and Password empty; a
// passkey reads back field for field, its transports in order.

// accountTest is one test of RunAccounts, given a new, empty store's
// Accounts.
type accountTest struct {
	name string
	run  func(t *testing.T, a store.Accounts)
}

// RunAccounts runs the tests of store.Accounts. Each test calls open for
// a new, empty store of its own, whose Accounts (store.AccountsOf) it
// uses, and closes it when it ends. The tests run in parallel.
func RunAccounts(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tt := range accountTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, open)
			a := store.AccountsOf(s)
			if a == nil {
				t.Fatalf("%T keeps no accounts", s)
			}
			tt.run(t, a)
		})
	}
	t.Run("accounts are found through a sealed store", func(t *testing.T) {
		t.Parallel()
		s := openStore(t, open)
		if got, want := store.AccountsOf(store.Sealed(s, store.NewSeedKey([32]byte{1}))), store.AccountsOf(s); got != want || got == nil {
			t.Errorf("AccountsOf(Sealed(s)) = %v, want %v", got, want)
		}
	})
}

// newAccount returns an account with every field a new one has set,
// created at t0.
func newAccount(id, name string) *store.Account {
	return &store.Account{
		ID:              id,
		Name:            name,
		Folded:          "folded " + name,
		Password:        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
		PasswordChanged: t0.Add(time.Second),
		Created:         t0,
	}
}

// codes returns n recovery code hashes of an account.
func codes(id string, n int) [][]byte {
	var out [][]byte
	for i := range n {
		out = append(out, hash(fmt.Sprintf("code %d of %s", i, id)))
	}
	return out
}

// mustAccount creates an account with three recovery codes.
func mustAccount(t *testing.T, a store.Accounts, id, name string) *store.Account {
	t.Helper()
	acc := newAccount(id, name)
	if err := a.CreateAccount(t.Context(), acc, codes(id, 3)); err != nil {
		t.Fatalf("CreateAccount(%s): %v", id, err)
	}
	return acc
}

// wantAccount is acc as the store keeps it.
func wantAccount(acc *store.Account) *store.Account {
	w := *acc
	w.PasswordChanged, w.Created, w.Deleted = keptOrZero(w.PasswordChanged), kept(w.Created), keptOrZero(w.Deleted)
	return &w
}

// keptOrZero is kept(t), or zero for zero.
func keptOrZero(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return kept(t)
}

// sameAccount fails the test if got is not want.
func sameAccount(t *testing.T, got, want *store.Account) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("account:\n got %+v\nwant %+v", got, want)
	}
}

// notFound fails the test unless err is ErrNotFound.
func notFound(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("%s: %v, want ErrNotFound", what, err)
	}
}

// session returns a session of an account, created at t0 plus the offset,
// seen then, expiring a day later.
func session(account, token string, offset time.Duration) *store.Session {
	at := t0.Add(offset)
	return &store.Session{TokenHash: hash(token), AccountID: account, Created: at, Seen: at, Expires: at.Add(24 * time.Hour)}
}

// mustSession creates a session.
func mustSession(t *testing.T, a store.Accounts, ses *store.Session) {
	t.Helper()
	if err := a.CreateSession(t.Context(), ses); err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
}

// sessionTokens returns the token hashes of an account's sessions, in order.
func sessionTokens(t *testing.T, a store.Accounts, account string) [][]byte {
	t.Helper()
	list, err := a.Sessions(t.Context(), account)
	if err != nil {
		t.Fatalf("Sessions(%s): %v", account, err)
	}
	var out [][]byte
	for _, s := range list {
		out = append(out, s.TokenHash)
	}
	return out
}

// passkey returns a passkey of an account with every field set.
func passkey(account, id string, offset time.Duration) *store.Passkey {
	return &store.Passkey{
		AccountID:      account,
		ID:             []byte("credential " + id),
		PublicKey:      hash("public key " + id),
		SignCount:      4294967295,
		Transports:     []string{"internal", "hybrid"},
		AAGUID:         hash("aaguid")[:16],
		UserVerified:   true,
		BackupEligible: true,
		BackupState:    false,
		Name:           "Phone «" + id + "»",
		Created:        t0.Add(offset),
		LastUsed:       t0.Add(offset + time.Hour),
	}
}

// mustPasskeys returns an account's passkeys' ids.
func mustPasskeys(t *testing.T, a store.Accounts, account string) []string {
	t.Helper()
	list, err := a.Passkeys(t.Context(), account)
	if err != nil {
		t.Fatalf("Passkeys(%s): %v", account, err)
	}
	var out []string
	for _, p := range list {
		out = append(out, string(p.ID))
	}
	return out
}

// left returns how many recovery codes an account has left.
func left(t *testing.T, a store.Accounts, id string) int {
	t.Helper()
	n, err := a.RecoveryCodesLeft(t.Context(), id)
	if err != nil {
		t.Fatalf("RecoveryCodesLeft(%s): %v", id, err)
	}
	return n
}

var accountTests = []accountTest{
	{"an account reads back by id and by folded name", func(t *testing.T, a store.Accounts) {
		acc := mustAccount(t, a, "a1", "Asha")
		if acc.Created != kept(t0) {
			t.Errorf("CreateAccount set Created to %v, want %v", acc.Created, kept(t0))
		}
		got, err := a.Account(t.Context(), "a1")
		if err != nil {
			t.Fatal(err)
		}
		sameAccount(t, got, wantAccount(acc))
		got, err = a.AccountNamed(t.Context(), "folded Asha")
		if err != nil {
			t.Fatal(err)
		}
		sameAccount(t, got, wantAccount(acc))

		// No password, a zero Created: now.
		before := time.Now().Add(-time.Second)
		bare := &store.Account{ID: "a2", Name: "Ñandú", Folded: "ñandú"}
		if err := a.CreateAccount(t.Context(), bare, nil); err != nil {
			t.Fatal(err)
		}
		got, err = a.Account(t.Context(), "a2")
		if err != nil {
			t.Fatal(err)
		}
		if got.Created.Before(before) || got.Created != bare.Created {
			t.Errorf("Created = %v (set in the account: %v), want now", got.Created, bare.Created)
		}
		sameAccount(t, got, wantAccount(bare))
		if n := left(t, a, "a2"); n != 0 {
			t.Errorf("%d recovery codes, want 0", n)
		}
	}},

	{"a taken id or folded name conflicts and writes nothing", func(t *testing.T, a store.Accounts) {
		mustAccount(t, a, "a1", "Asha")
		for _, acc := range []*store.Account{newAccount("a1", "Other"), newAccount("a2", "Asha")} {
			err := a.CreateAccount(t.Context(), acc, codes("a2", 5))
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("CreateAccount(%s, %s): %v, want ErrConflict", acc.ID, acc.Folded, err)
			}
		}
		if n := left(t, a, "a1"); n != 3 {
			t.Errorf("a1 has %d recovery codes after the conflicts, want its 3", n)
		}
		_, err := a.Account(t.Context(), "a2")
		notFound(t, "Account(a2)", err)
	}},

	{"unknown accounts are not found", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		_, err := a.Account(ctx, "nope")
		notFound(t, "Account", err)
		_, err = a.AccountNamed(ctx, "nope")
		notFound(t, "AccountNamed", err)
		notFound(t, "SetPassword", a.SetPassword(ctx, "nope", "x", t0))
		notFound(t, "UseRecoveryCode", a.UseRecoveryCode(ctx, "nope", hash("x")))
		notFound(t, "SetRecoveryCodes", a.SetRecoveryCodes(ctx, "nope", codes("nope", 2)))
		_, err = a.RecoveryCodesLeft(ctx, "nope")
		notFound(t, "RecoveryCodesLeft", err)
		notFound(t, "CreateSession", a.CreateSession(ctx, session("nope", "t", 0)))
		_, err = a.Session(ctx, hash("t"))
		notFound(t, "Session", err)
		notFound(t, "TouchSession", a.TouchSession(ctx, hash("t"), t0, t0))
		notFound(t, "AddPasskey", a.AddPasskey(ctx, passkey("nope", "k", 0)))
		notFound(t, "UpdatePasskey", a.UpdatePasskey(ctx, passkey("nope", "k", 0)))
		notFound(t, "DeletePasskey", a.DeletePasskey(ctx, "nope", []byte("k")))
		notFound(t, "PutCeremony", a.PutCeremony(ctx, &store.Ceremony{ID: "c", Kind: "register", AccountID: "nope",
			Data: []byte(`{}`), Expires: time.Now().Add(time.Minute)}, 0))
		_, err = a.TakeCeremony(ctx, "c", time.Now())
		notFound(t, "TakeCeremony", err)
		notFound(t, "DeleteAccount", a.DeleteAccount(ctx, "nope", t0))
		if list, err := a.Sessions(ctx, "nope"); err != nil || len(list) != 0 {
			t.Errorf("Sessions = %v, %v; want none", list, err)
		}
		if list, err := a.Passkeys(ctx, "nope"); err != nil || len(list) != 0 {
			t.Errorf("Passkeys = %v, %v; want none", list, err)
		}
		if n, err := a.DeleteSessions(ctx, "nope", nil); err != nil || n != 0 {
			t.Errorf("DeleteSessions = %d, %v; want 0", n, err)
		}
	}},

	{"a new password replaces the old", func(t *testing.T, a store.Accounts) {
		acc := mustAccount(t, a, "a1", "Asha")
		at := t0.Add(time.Hour + 789)
		if err := a.SetPassword(t.Context(), "a1", "$argon2id$new", at); err != nil {
			t.Fatal(err)
		}
		acc.Password, acc.PasswordChanged = "$argon2id$new", at
		got, err := a.Account(t.Context(), "a1")
		if err != nil {
			t.Fatal(err)
		}
		sameAccount(t, got, wantAccount(acc))
	}},

	{"a recovery code is spent once", func(t *testing.T, a store.Accounts) {
		mustAccount(t, a, "a1", "Asha")
		mustAccount(t, a, "a2", "Bala")
		code := codes("a1", 3)[1]
		notFound(t, "another account's code", a.UseRecoveryCode(t.Context(), "a2", code))
		if err := a.UseRecoveryCode(t.Context(), "a1", code); err != nil {
			t.Fatal(err)
		}
		notFound(t, "the code used again", a.UseRecoveryCode(t.Context(), "a1", code))
		if n := left(t, a, "a1"); n != 2 {
			t.Errorf("%d left, want 2", n)
		}

		// Racers spending one code: one wins.
		code = codes("a1", 3)[2]
		const racers = 8
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { errs[i] = a.UseRecoveryCode(t.Context(), "a1", code) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
			} else if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("racer: %v", err)
			}
		}
		if won != 1 {
			t.Errorf("%d racers spent the code, want 1", won)
		}

		// New codes replace every old one.
		if err := a.SetRecoveryCodes(t.Context(), "a1", codes("a1 again", 10)); err != nil {
			t.Fatal(err)
		}
		if n := left(t, a, "a1"); n != 10 {
			t.Errorf("%d left, want 10", n)
		}
		notFound(t, "an old code", a.UseRecoveryCode(t.Context(), "a1", codes("a1", 3)[0]))
		if err := a.UseRecoveryCode(t.Context(), "a1", codes("a1 again", 10)[9]); err != nil {
			t.Error(err)
		}
	}},

	{"sessions read back, are touched and end", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		mustAccount(t, a, "a1", "Asha")
		mustAccount(t, a, "a2", "Bala")
		s1, s2, s3 := session("a1", "one", 0), session("a1", "two", time.Minute), session("a1", "three", 2*time.Minute)
		other := session("a2", "four", 0)
		for _, s := range []*store.Session{s3, s1, other, s2} {
			mustSession(t, a, s)
		}
		if err := a.CreateSession(ctx, session("a2", "one", 0)); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a token taken: %v, want ErrConflict", err)
		}
		got, err := a.Session(ctx, hash("two"))
		if err != nil {
			t.Fatal(err)
		}
		want := &store.Session{TokenHash: hash("two"), AccountID: "a1", Created: kept(s2.Created), Seen: kept(s2.Seen), Expires: kept(s2.Expires)}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Session:\n got %+v\nwant %+v", got, want)
		}
		if got := sessionTokens(t, a, "a1"); !reflect.DeepEqual(got, [][]byte{hash("one"), hash("two"), hash("three")}) {
			t.Errorf("Sessions are not the three, oldest first: %x", got)
		}

		// Touching moves Seen on, never back, and sets Expires.
		seen, expires := t0.Add(time.Hour+1234), t0.Add(48*time.Hour+5678)
		if err := a.TouchSession(ctx, hash("two"), seen, expires); err != nil {
			t.Fatal(err)
		}
		if err := a.TouchSession(ctx, hash("two"), t0, expires); err != nil {
			t.Fatal(err)
		}
		got, err = a.Session(ctx, hash("two"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Seen != kept(seen) || got.Expires != kept(expires) || got.Created != kept(s2.Created) {
			t.Errorf("touched: created %v, seen %v, expires %v; want %v, %v, %v", got.Created, got.Seen, got.Expires,
				kept(s2.Created), kept(seen), kept(expires))
		}

		// Signing out one session, then every other.
		if err := a.DeleteSession(ctx, hash("one")); err != nil {
			t.Fatal(err)
		}
		if err := a.DeleteSession(ctx, hash("one")); err != nil {
			t.Errorf("DeleteSession again: %v", err)
		}
		_, err = a.Session(ctx, hash("one"))
		notFound(t, "a session ended", err)
		mustSession(t, a, session("a1", "five", 3*time.Minute))
		if n, err := a.DeleteSessions(ctx, "a1", hash("three")); err != nil || n != 2 {
			t.Errorf("DeleteSessions keeping one = %d, %v; want 2", n, err)
		}
		if got := sessionTokens(t, a, "a1"); !reflect.DeepEqual(got, [][]byte{hash("three")}) {
			t.Errorf("sessions kept: %x, want only three's", got)
		}
		if n, err := a.DeleteSessions(ctx, "a1", nil); err != nil || n != 1 {
			t.Errorf("DeleteSessions of all = %d, %v; want 1", n, err)
		}
		if got := sessionTokens(t, a, "a1"); len(got) != 0 {
			t.Errorf("sessions left: %x", got)
		}
		if got := sessionTokens(t, a, "a2"); !reflect.DeepEqual(got, [][]byte{hash("four")}) {
			t.Errorf("the other account's sessions: %x, want its one", got)
		}
	}},

	{"expired sessions and ceremonies are removed", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		mustAccount(t, a, "a1", "Asha")
		now := time.Now()
		old, young := session("a1", "old", 0), session("a1", "young", time.Hour)
		old.Expires, young.Expires = now.Add(-time.Second), now.Add(time.Hour)
		mustSession(t, a, old)
		mustSession(t, a, young)
		// The one that expires first is put last: PutCeremony removes
		// those expired before it.
		for i, exp := range []time.Time{now.Add(time.Hour), now.Add(time.Second)} {
			c := &store.Ceremony{ID: fmt.Sprint("c", i), Kind: "signin", Data: []byte(`{}`), Expires: exp}
			if err := a.PutCeremony(ctx, c, 0); err != nil {
				t.Fatal(err)
			}
		}
		ses, cer, err := a.DeleteExpired(ctx, now.Add(time.Minute))
		if err != nil || ses != 1 || cer != 1 {
			t.Errorf("DeleteExpired = %d sessions, %d ceremonies, %v; want 1, 1", ses, cer, err)
		}
		if got := sessionTokens(t, a, "a1"); !reflect.DeepEqual(got, [][]byte{hash("young")}) {
			t.Errorf("sessions left: %x, want the young one", got)
		}
		if _, err := a.TakeCeremony(ctx, "c0", now); err != nil {
			t.Errorf("the ceremony not expired: %v", err)
		}
	}},

	{"passkeys read back and are updated", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		mustAccount(t, a, "a1", "Asha")
		mustAccount(t, a, "a2", "Bala")
		p1, p2 := passkey("a1", "one", time.Minute), passkey("a1", "two", 0)
		p2.Transports, p2.AAGUID, p2.LastUsed, p2.SignCount = nil, nil, time.Time{}, 0
		for _, p := range []*store.Passkey{p1, p2} {
			if err := a.AddPasskey(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.AddPasskey(ctx, passkey("a2", "one", 0)); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a credential registered to another account: %v, want ErrConflict", err)
		}
		list, err := a.Passkeys(ctx, "a1")
		if err != nil {
			t.Fatal(err)
		}
		want := func(p *store.Passkey) *store.Passkey {
			w := *p
			w.Created, w.LastUsed = kept(w.Created), keptOrZero(w.LastUsed)
			return &w
		}
		if !reflect.DeepEqual(list, []*store.Passkey{want(p2), want(p1)}) {
			t.Errorf("Passkeys:\n got %+v\nwant %+v", list, []*store.Passkey{want(p2), want(p1)})
		}

		u := *p2
		u.SignCount, u.UserVerified, u.BackupEligible, u.BackupState, u.LastUsed = 7, false, false, true, t0.Add(time.Hour+1)
		u.Name, u.PublicKey = "not updated", []byte("not updated")
		if err := a.UpdatePasskey(ctx, &u); err != nil {
			t.Fatal(err)
		}
		list, err = a.Passkeys(ctx, "a1")
		if err != nil {
			t.Fatal(err)
		}
		w := want(&u)
		w.Name, w.PublicKey = p2.Name, p2.PublicKey
		if !reflect.DeepEqual(list[0], w) {
			t.Errorf("updated:\n got %+v\nwant %+v", list[0], w)
		}
		u.AccountID = "a2"
		notFound(t, "UpdatePasskey of another account's passkey", a.UpdatePasskey(ctx, &u))
	}},

	{"the last way to sign in is not removed", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		bare := &store.Account{ID: "a1", Name: "Asha", Folded: "asha"}
		if err := a.CreateAccount(ctx, bare, nil); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"one", "two"} {
			if err := a.AddPasskey(ctx, passkey("a1", id, 0)); err != nil {
				t.Fatal(err)
			}
		}
		notFound(t, "a passkey it does not have", a.DeletePasskey(ctx, "a1", []byte("credential three")))

		// Two removals at once: one of them must find the other gone.
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, id := range []string{"one", "two"} {
			wg.Go(func() { errs[i] = a.DeletePasskey(ctx, "a1", []byte("credential "+id)) })
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, store.ErrConflict) {
				t.Errorf("DeletePasskey: %v, want nil or ErrConflict", err)
			}
		}
		if ok != 1 {
			t.Errorf("%d of two removals at once succeeded, want 1: %v", ok, errs)
		}
		if got := mustPasskeys(t, a, "a1"); len(got) != 1 {
			t.Fatalf("passkeys left: %q, want one", got)
		}
		// With a password, the last passkey may go.
		if err := a.SetPassword(ctx, "a1", "$argon2id$x", t0); err != nil {
			t.Fatal(err)
		}
		if err := a.DeletePasskey(ctx, "a1", []byte(mustPasskeys(t, a, "a1")[0])); err != nil {
			t.Errorf("the last passkey of an account with a password: %v", err)
		}
	}},

	{"a ceremony is taken once, and not after it expires", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		mustAccount(t, a, "a1", "Asha")
		now := time.Now()
		c := &store.Ceremony{ID: "c1", Kind: "register", AccountID: "a1", Data: []byte(`{"challenge": "x y"}`), Expires: now.Add(time.Minute + 123)}
		if err := a.PutCeremony(ctx, c, 0); err != nil {
			t.Fatal(err)
		}
		if err := a.PutCeremony(ctx, c, 0); !errors.Is(err, store.ErrConflict) {
			t.Errorf("an id taken: %v, want ErrConflict", err)
		}
		const racers = 6
		got := make([]*store.Ceremony, racers)
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { got[i], errs[i] = a.TakeCeremony(ctx, "c1", now) })
		}
		wg.Wait()
		won := 0
		for i, err := range errs {
			if err != nil {
				notFound(t, "a ceremony taken already", err)
				continue
			}
			won++
			want := &store.Ceremony{ID: "c1", Kind: "register", AccountID: "a1", Data: c.Data, Expires: kept(c.Expires)}
			if !reflect.DeepEqual(got[i], want) {
				t.Errorf("TakeCeremony:\n got %+v\nwant %+v", got[i], want)
			}
		}
		if won != 1 {
			t.Errorf("%d racers took the ceremony, want 1", won)
		}

		// Expired: not found, and gone.
		c = &store.Ceremony{ID: "c2", Kind: "signin", Data: []byte(`{}`), Expires: now.Add(time.Minute)}
		if err := a.PutCeremony(ctx, c, 0); err != nil {
			t.Fatal(err)
		}
		_, err := a.TakeCeremony(ctx, "c2", now.Add(time.Minute))
		notFound(t, "an expired ceremony", err)
		_, err = a.TakeCeremony(ctx, "c2", now)
		notFound(t, "an expired ceremony, taken again", err)
	}},

	{"ceremonies under way are limited, the expired not counted", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		now := time.Now()
		put := func(id string, expires time.Time) error {
			return a.PutCeremony(ctx, &store.Ceremony{ID: id, Kind: "signin", Data: []byte(`{}`), Expires: expires}, 3)
		}
		for _, id := range []string{"gone1", "gone2"} {
			if err := put(id, now.Add(-time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range []string{"c1", "c2", "c3"} {
			if err := put(id, now.Add(time.Hour)); err != nil {
				t.Fatalf("PutCeremony(%s) with expired ones kept: %v", id, err)
			}
		}
		if err := put("c4", now.Add(time.Hour)); !errors.Is(err, store.ErrFull) {
			t.Errorf("a fourth ceremony under a limit of 3: %v, want ErrFull", err)
		}
		if _, err := a.TakeCeremony(ctx, "c2", now); err != nil {
			t.Fatal(err)
		}
		if err := put("c4", now.Add(time.Hour)); err != nil {
			t.Errorf("a third again: %v", err)
		}
	}},

	{"a deleted account keeps its row under no name", func(t *testing.T, a store.Accounts) {
		ctx := t.Context()
		acc := mustAccount(t, a, "a1", "Asha")
		mustAccount(t, a, "a2", "Bala")
		mustSession(t, a, session("a1", "one", 0))
		mustSession(t, a, session("a2", "two", 0))
		if err := a.AddPasskey(ctx, passkey("a1", "k1", 0)); err != nil {
			t.Fatal(err)
		}
		if err := a.PutCeremony(ctx, &store.Ceremony{ID: "c1", Kind: "register", AccountID: "a1", Data: []byte(`{}`),
			Expires: time.Now().Add(time.Hour)}, 0); err != nil {
			t.Fatal(err)
		}
		at := t0.Add(time.Hour + 5)
		if err := a.DeleteAccount(ctx, "a1", at); err != nil {
			t.Fatal(err)
		}
		got, err := a.Account(ctx, "a1")
		if err != nil {
			t.Fatalf("Account of a deleted account: %v", err)
		}
		sameAccount(t, got, &store.Account{ID: "a1", Name: store.DeletedName, Created: kept(acc.Created), Deleted: kept(at)})
		_, err = a.AccountNamed(ctx, acc.Folded)
		notFound(t, "AccountNamed of a deleted account", err)
		_, err = a.Session(ctx, hash("one"))
		notFound(t, "its session", err)
		if got := mustPasskeys(t, a, "a1"); len(got) != 0 {
			t.Errorf("its passkeys: %q", got)
		}
		_, err = a.TakeCeremony(ctx, "c1", time.Now())
		notFound(t, "its ceremony", err)
		_, err = a.RecoveryCodesLeft(ctx, "a1")
		notFound(t, "its recovery codes", err)
		notFound(t, "its recovery code used", a.UseRecoveryCode(ctx, "a1", codes("a1", 3)[0]))
		notFound(t, "a password set", a.SetPassword(ctx, "a1", "x", at))
		notFound(t, "a new session", a.CreateSession(ctx, session("a1", "three", 0)))
		notFound(t, "a new passkey", a.AddPasskey(ctx, passkey("a1", "k2", 0)))
		notFound(t, "deleted again", a.DeleteAccount(ctx, "a1", at))

		// The other account is untouched, and the name is free again.
		if _, err := a.Session(ctx, hash("two")); err != nil {
			t.Errorf("another account's session: %v", err)
		}
		if err := a.CreateAccount(ctx, newAccount("a3", "Asha"), nil); err != nil {
			t.Errorf("the deleted account's name taken again: %v", err)
		}
		if err := a.AddPasskey(ctx, passkey("a3", "k1", 0)); err != nil {
			t.Errorf("the deleted account's credential id registered again: %v", err)
		}
	}},
}
