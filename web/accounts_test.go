package web_test

import (
	"testing"
	"time"
)

// TestPasskeyAccount signs up with a passkey of Chromium's virtual
// authenticator (navigator.credentials.create with the server's options),
// signs out, and signs in again with the passkey alone (discoverable: no
// name typed, navigator.credentials.get); the account page lists the
// passkey, and refuses to remove the last one of an account with no
// password, saying why.
func TestPasskeyAccount(t *testing.T) {
	site := newSite(t)
	p, auth := passkeyPage(t, 1366, 768, false)
	signUp(t, site, p, "Keya", "")
	creds, err := p.Passkeys(auth)
	must(t, err)
	if len(creds) != 1 || !creds[0].IsResidentCredential {
		t.Fatalf("the authenticator holds %d credentials after sign-up, want one discoverable: %+v", len(creds), creds)
	}

	must(t, p.Go(site.Local+"/account"))
	must(t, p.Wait(`document.querySelectorAll('#passkeys li[data-passkey]').length === 1`, 10*time.Second))
	must(t, p.ClickElement("#signout"))
	must(t, p.Wait(`location.pathname === '/' && document.body.dataset.signedIn === 'no'`, 10*time.Second))
	if got := accountName(t, p); got != "" {
		t.Fatalf("after signing out the session is %q's", got)
	}

	must(t, p.Go(site.Local+"/signin"))
	must(t, p.ClickElement("#passkey-signin"))
	must(t, p.Wait(`location.pathname === '/play'`, 10*time.Second))
	waitSignedIn(t, p, "Keya")
	if got := accountName(t, p); got != "Keya" {
		t.Fatalf("signed in by passkey, the session is %q's", got)
	}

	must(t, p.Go(site.Local+"/account"))
	must(t, p.Wait(`document.querySelector('#passkeys li[data-passkey] button')`, 10*time.Second))
	must(t, p.ClickElement("#passkeys li[data-passkey] button"))
	must(t, p.Wait(`document.querySelector('#confirm-passkey [data-answer=yes]')`, 5*time.Second))
	must(t, p.ClickElement("#confirm-passkey [data-answer=yes]"))
	must(t, p.Wait(`document.querySelector('#account-error').textContent !== ''`, 10*time.Second))
	must(t, p.Wait(`document.querySelectorAll('#passkeys li[data-passkey]').length === 1`, 10*time.Second))
}

// TestPasswordAccount signs up with a password, signs out, is refused a
// wrong password (the page says so and stays a guest's), signs in with the
// right one, then deletes the account after its confirmation: the page is
// a guest's again, and the name and password sign in no more.
func TestPasswordAccount(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 390, 844, true)
	const name, password = "Pawel", "seven dice 77"
	signUp(t, site, p, name, password)

	must(t, p.Go(site.Local+"/account"))
	must(t, p.Wait(`!document.querySelector('#account').hidden`, 10*time.Second))
	must(t, p.ClickElement("#signout"))
	must(t, p.Wait(`location.pathname === '/' && document.body.dataset.signedIn === 'no'`, 10*time.Second))

	signIn := func(pw string) string {
		t.Helper()
		must(t, p.Go(site.Local+"/signin"))
		fill(t, p, map[string]string{"#name": name, "#password": pw})
		must(t, p.ClickElement("#signin"))
		must(t, p.Wait(`location.pathname === '/play' || document.querySelector('#signin-error').textContent`, 10*time.Second))
		return eval[string](t, p, `location.pathname === '/play' ? '' : document.querySelector('#signin-error').textContent`)
	}
	if msg := signIn("seven dice 78"); msg == "" {
		t.Fatal("a wrong password signed in")
	}
	if got := accountName(t, p); got != "" {
		t.Fatalf("after a wrong password the session is %q's", got)
	}
	if msg := signIn(password); msg != "" {
		t.Fatalf("the right password was refused: %s", msg)
	}
	waitSignedIn(t, p, name)

	must(t, p.Go(site.Local+"/account"))
	must(t, p.Wait(`!document.querySelector('#account').hidden`, 10*time.Second))
	must(t, p.ClickElement("#delete"))
	must(t, p.Wait(`document.querySelector('#confirm-delete [data-answer=yes]')`, 5*time.Second))
	must(t, p.ClickElement("#confirm-delete [data-answer=yes]"))
	must(t, p.Wait(`location.pathname === '/' && document.body.dataset.signedIn === 'no'`, 10*time.Second))
	if got := accountName(t, p); got != "" {
		t.Fatalf("after deleting the account the session is %q's", got)
	}
	if msg := signIn(password); msg == "" {
		t.Fatal("a deleted account signed in")
	}
}
