package webtest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// Authenticator gives the tab Chromium's virtual WebAuthn authenticator
// (the DevTools protocol's WebAuthn domain), as a phone or laptop would
// have built in: CTAP2 over the internal transport, keeping discoverable
// credentials (passkeys), with user verification that always succeeds and
// the user's presence simulated, so that navigator.credentials.create and
// get answer at once without a prompt. It stays with the tab across
// navigations; it returns the authenticator's id.
func (p *Page) Authenticator() (webauthn.AuthenticatorID, error) {
	p.keep()
	var id webauthn.AuthenticatorID
	err := chromedp.Do(p.Ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		r, err := cdp.Call(ctx, t, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{
				Protocol:                    webauthn.AuthenticatorProtocolCtap2,
				Ctap2version:                webauthn.Ctap2versionCtap21,
				Transport:                   webauthn.AuthenticatorTransportInternal,
				HasResidentKey:              true,
				HasUserVerification:         true,
				IsUserVerified:              true,
				AutomaticPresenceSimulation: true, // sent as false if left out
			},
		})
		if err != nil {
			return err
		}
		id = r.AuthenticatorID
		return nil
	}))
	return id, err
}

// Passkeys returns the credentials a virtual authenticator of the tab
// holds.
func (p *Page) Passkeys(id webauthn.AuthenticatorID) ([]*webauthn.Credential, error) {
	var creds []*webauthn.Credential
	err := chromedp.Do(p.Ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: id})
		if err != nil {
			return err
		}
		creds = r.Credentials
		return nil
	}))
	return creds, err
}
