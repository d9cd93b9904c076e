package account_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/store"
)

func TestRecoveryCodes(t *testing.T) {
	s, st := newService(t, account.Config{})
	a, first, codes := signUp(t, s, "Asha", "correct horse")
	signUp(t, s, "Bala", "")
	if len(codes) != 10 {
		t.Fatalf("%d recovery codes, want 10", len(codes))
	}
	seen := map[string]bool{}
	for _, c := range codes {
		if seen[c] || len(strings.ReplaceAll(c, "-", "")) != 16 {
			t.Errorf("code %q: repeated or not 16 characters", c)
		}
		seen[c] = true
	}
	_, other, err := s.SignIn(t.Context(), "Asha", "correct horse", "")
	if err != nil {
		t.Fatal(err)
	}

	// A code of one account opens no other, and a wrong one says what an
	// unknown name says.
	_, _, err = s.Recover(t.Context(), "Bala", codes[0], "new password", "")
	wantError(t, "another account's code", err, account.EUNAUTHORIZED, "wrong username or recovery code")
	wrong := err.Error()
	for _, tc := range [][2]string{{"Asha", "aaaa-bbbb-cccc-dddd"}, {"Nobody", codes[0]}, {"Asha", "not a code"}} {
		_, _, err = s.Recover(t.Context(), tc[0], tc[1], "new password", "")
		if err == nil || err.Error() != wrong {
			t.Errorf("Recover(%q, %q): %v, want %q", tc[0], tc[1], err, wrong)
		}
	}

	// The code typed in capitals without its dashes signs in once, sets
	// the password and ends every other session.
	typed := strings.ToUpper(strings.ReplaceAll(codes[3], "-", " "))
	got, ses, err := s.Recover(t.Context(), "asha", typed, "new password", "")
	if err != nil || got.ID != a.ID {
		t.Fatalf("Recover: %v, %v", got, err)
	}
	mustAuthenticate(t, s, ses.Token, a.ID)
	for _, old := range []*account.Session{first, other} {
		_, _, err := s.Authenticate(t.Context(), old.Token)
		wantError(t, "a session from before the recovery", err, account.EUNAUTHORIZED)
	}
	if _, _, err := s.SignIn(t.Context(), "Asha", "correct horse", ""); err == nil {
		t.Error("the old password still signs in")
	}
	if _, _, err := s.SignIn(t.Context(), "Asha", "new password", ""); err != nil {
		t.Errorf("the new password: %v", err)
	}
	_, _, err = s.Recover(t.Context(), "Asha", codes[3], "newer password", "")
	wantError(t, "the code used again", err, account.EUNAUTHORIZED, "wrong username or recovery code")
	if n, err := st.RecoveryCodesLeft(t.Context(), a.ID); err != nil || n != 9 {
		t.Errorf("%d codes left, %v; want 9", n, err)
	}

	// New codes: the old ones are spent.
	fresh, err := s.NewRecoveryCodes(t.Context(), a.ID)
	if err != nil || len(fresh) != 10 {
		t.Fatalf("NewRecoveryCodes: %d, %v", len(fresh), err)
	}
	_, _, err = s.Recover(t.Context(), "Asha", codes[4], "newer password", "")
	wantError(t, "an old code after new ones", err, account.EUNAUTHORIZED)
	if _, _, err := s.Recover(t.Context(), "Asha", fresh[9], "newer password", ""); err != nil {
		t.Errorf("a new code: %v", err)
	}
}

func TestSessionRotatedAtSignIn(t *testing.T) {
	s, _ := newService(t, account.Config{})
	a, up, _ := signUp(t, s, "Asha", "correct horse")
	_, in, err := s.SignIn(t.Context(), "Asha", "correct horse", up.Token)
	if err != nil {
		t.Fatal(err)
	}
	if in.Token == up.Token || len(in.Token) != 43 {
		t.Errorf("sign-in token %q (sign-up's %q): want a new one of 256 bits", in.Token, up.Token)
	}
	_, _, err = s.Authenticate(t.Context(), up.Token)
	wantError(t, "the session held before sign-in", err, account.EUNAUTHORIZED, "session ended")
	mustAuthenticate(t, s, in.Token, a.ID)
	for _, bad := range []string{"", "x", strings.Repeat("A", 43), in.Token + "A"} {
		_, _, err := s.Authenticate(t.Context(), bad)
		wantError(t, "token "+bad, err, account.EUNAUTHORIZED, "not signed in")
	}
	if err := s.SignOut(t.Context(), in.Token); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Authenticate(t.Context(), in.Token)
	wantError(t, "after sign-out", err, account.EUNAUTHORIZED)
}

func TestSessionLifetimes(t *testing.T) {
	c := newClock()
	idle, whole := 2*time.Hour, 5*time.Hour
	s, st := newService(t, account.Config{IdleLifetime: idle, SessionLifetime: whole, TouchEvery: time.Minute, Now: c.Now})
	a, ses, _ := signUp(t, s, "Asha", "correct horse")
	start := c.Now()
	if !ses.Expires.Equal(start.Add(idle)) {
		t.Errorf("a new session expires at %v, want %v", ses.Expires, start.Add(idle))
	}
	// Used every 90 minutes, it lives until its whole lifetime ends.
	for c.Now().Add(90 * time.Minute).Before(start.Add(whole)) {
		c.Add(90 * time.Minute)
		got := mustAuthenticate(t, s, ses.Token, a.ID)
		want := c.Now().Add(idle)
		if want.After(start.Add(whole)) {
			want = start.Add(whole)
		}
		if !got.Expires.Equal(want) {
			t.Errorf("at +%v: expires %v, want %v", c.Now().Sub(start), got.Expires, want)
		}
	}
	c.Add(start.Add(whole).Sub(c.Now()))
	_, _, err := s.Authenticate(t.Context(), ses.Token)
	wantError(t, "past the whole lifetime", err, account.EUNAUTHORIZED, "session expired")

	// Unused for its idle lifetime, it ends.
	_, ses, err = s.SignIn(t.Context(), "Asha", "correct horse", "")
	if err != nil {
		t.Fatal(err)
	}
	c.Add(idle - time.Second)
	mustAuthenticate(t, s, ses.Token, a.ID)
	c.Add(time.Second + 30*time.Second) // within TouchEvery: the use above moved it on
	mustAuthenticate(t, s, ses.Token, a.ID)
	c.Add(idle)
	_, _, err = s.Authenticate(t.Context(), ses.Token)
	wantError(t, "unused for the idle lifetime", err, account.EUNAUTHORIZED, "session expired")

	// Expired sessions are purged.
	_, ses, _ = s.SignIn(t.Context(), "Asha", "correct horse", "")
	c.Add(whole)
	if n, _, err := s.PurgeExpired(t.Context()); err != nil || n != 1 {
		t.Errorf("PurgeExpired = %d, %v; want 1", n, err)
	}
	if list, _ := st.Sessions(t.Context(), a.ID); len(list) != 0 {
		t.Errorf("%d sessions left", len(list))
	}
}

func TestSignOutEverywhere(t *testing.T) {
	s, _ := newService(t, account.Config{})
	a, first, _ := signUp(t, s, "Asha", "correct horse")
	_, ses, _ := signUp(t, s, "Bala", "correct horse")
	tokens := []string{first.Token}
	for range 3 {
		_, ses, err := s.SignIn(t.Context(), "Asha", "correct horse", "")
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, ses.Token)
	}
	if n, err := s.SignOutEverywhere(t.Context(), a.ID); err != nil || n != 4 {
		t.Errorf("SignOutEverywhere = %d, %v; want 4", n, err)
	}
	for _, tok := range tokens {
		_, _, err := s.Authenticate(t.Context(), tok)
		wantError(t, "a session signed out everywhere", err, account.EUNAUTHORIZED)
	}
	mustAuthenticate(t, s, ses.Token, ses.AccountID)
}

func TestChangePassword(t *testing.T) {
	s, _ := newService(t, account.Config{})
	a, keep, _ := signUp(t, s, "Asha", "correct horse")
	_, other, _ := s.SignIn(t.Context(), "Asha", "correct horse", "")
	err := s.ChangePassword(t.Context(), a.ID, "wrong horse!", "battery staple", keep.Token)
	wantError(t, "the wrong current password", err, account.EUNAUTHORIZED, "current password is wrong")
	err = s.ChangePassword(t.Context(), a.ID, "correct horse", "short", keep.Token)
	wantError(t, "a short new password", err, account.EINVALID, "at least 8")
	if err := s.ChangePassword(t.Context(), a.ID, "correct horse", "battery staple", keep.Token); err != nil {
		t.Fatal(err)
	}
	mustAuthenticate(t, s, keep.Token, a.ID)
	_, _, err = s.Authenticate(t.Context(), other.Token)
	wantError(t, "another session after a password change", err, account.EUNAUTHORIZED)
	if _, _, err := s.SignIn(t.Context(), "Asha", "battery staple", ""); err != nil {
		t.Errorf("the new password: %v", err)
	}
	// An account without a password sets one without a current one.
	b, ses, _ := signUp(t, s, "Bala", "")
	if err := s.ChangePassword(t.Context(), b.ID, "", "battery staple", ses.Token); err != nil {
		t.Errorf("a first password: %v", err)
	}
}

func TestDeleteAndExport(t *testing.T) {
	c := newClock()
	s, st := newService(t, account.Config{Now: c.Now})
	a, ses, codes := signUp(t, s, "Asha", "correct horse")
	c.Add(time.Minute)
	if _, _, err := s.Recover(t.Context(), "Asha", codes[0], "battery staple", ses.Token); err != nil {
		t.Fatal(err)
	}
	d, err := s.Export(t.Context(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(doc, &got)
	acc := got["account"].(map[string]any)
	if acc["id"] != a.ID || acc["name"] != "Asha" || acc["folded_name"] != "asha" || acc["has_password"] != true ||
		acc["password_changed"] != c.Now().Format(time.RFC3339Nano) || acc["created"] != a.Created.Format(time.RFC3339Nano) {
		t.Errorf("account: %s", doc)
	}
	if got["recovery_codes_left"] != 9.0 || len(got["sessions"].([]any)) != 1 || len(got["passkeys"].([]any)) != 0 {
		t.Errorf("export: %s", doc)
	}
	stored, _ := st.Account(t.Context(), a.ID)
	if strings.Contains(string(doc), stored.Password) || strings.Contains(string(doc), "argon2") {
		t.Errorf("the export holds the password's hash: %s", doc)
	}

	_, ses, err = s.SignIn(t.Context(), "Asha", "battery staple", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Authenticate(t.Context(), ses.Token)
	wantError(t, "a deleted account's session", err, account.EUNAUTHORIZED)
	_, _, err = s.SignIn(t.Context(), "Asha", "battery staple", "")
	wantError(t, "a deleted account's sign-in", err, account.EUNAUTHORIZED, "wrong username or password")
	_, _, err = s.Recover(t.Context(), "Asha", codes[1], "battery staple", "")
	wantError(t, "a deleted account's recovery", err, account.EUNAUTHORIZED)
	gone, err := s.Account(t.Context(), a.ID)
	if err != nil || gone.Name != store.DeletedName || !gone.Deleted || gone.HasPassword {
		t.Errorf("a deleted account reads %+v, %v; want it named %q", gone, err, store.DeletedName)
	}
	_, err = s.Export(t.Context(), a.ID)
	wantError(t, "a deleted account's export", err, account.ENOTFOUND)
	wantError(t, "deleted again", s.Delete(t.Context(), a.ID), account.ENOTFOUND)
	// The name is free again, for a new account.
	b, _, _ := signUp(t, s, "asha", "correct horse")
	if b.ID == a.ID {
		t.Error("the new account has the deleted one's id")
	}
}
