package account

import (
	"context"
	"errors"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// Data is everything kept about an account, for its holder to download
// ("download my data"), as JSON. Secrets' hashes are left out (the
// password's, the recovery codes', the sessions' tokens'): they are of no
// use to the holder and of some to whoever else reads the file.
type Data struct {
	Account struct {
		ID              string     `json:"id"`
		Name            string     `json:"name"`
		Folded          string     `json:"folded_name"` // the name as it is kept unique
		Created         time.Time  `json:"created"`
		HasPassword     bool       `json:"has_password"`
		PasswordChanged *time.Time `json:"password_changed,omitempty"`
	} `json:"account"` // the account itself
	RecoveryCodesLeft int           `json:"recovery_codes_left"` // recovery codes not spent
	Passkeys          []DataPasskey `json:"passkeys"`            // every passkey, with its public key
	Sessions          []DataSession `json:"sessions"`            // every signed-in client
	Exported          time.Time     `json:"exported"`            // when the document was made
}

// DataPasskey is a passkey as Data shows it.
type DataPasskey struct {
	ID             []byte     `json:"id"`                  // the credential id (base64)
	Name           string     `json:"name"`                // its label
	PublicKey      []byte     `json:"public_key"`          // COSE_Key (base64)
	SignCount      uint32     `json:"sign_count"`          // the authenticator's signature counter
	Transports     []string   `json:"transports"`          // how the client reaches the authenticator
	AAGUID         []byte     `json:"aaguid"`              // base64
	UserVerified   bool       `json:"user_verified"`       // the authenticator verified its user (PIN, biometrics)
	BackupEligible bool       `json:"backup_eligible"`     // a passkey a provider syncs between devices
	BackupState    bool       `json:"backup_state"`        // backed up, as last seen
	Created        time.Time  `json:"created"`             // when it was registered
	LastUsed       *time.Time `json:"last_used,omitempty"` // when it last signed in, if it did
}

// DataSession is a session as Data shows it: when, not its token.
type DataSession struct {
	Created time.Time `json:"created"`   // when it signed in
	Seen    time.Time `json:"last_seen"` // when it was last used, to the minute
	Expires time.Time `json:"expires"`   // when it ends unless used again
}

// Export returns everything kept about an account.
func (s *Service) Export(ctx context.Context, accountID string) (*Data, error) {
	a, err := s.st.Account(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) || err == nil && !a.Deleted.IsZero() {
		return nil, Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return nil, storeError("export", err)
	}
	var d Data
	d.Account.ID, d.Account.Name, d.Account.Folded, d.Account.Created = a.ID, a.Name, a.Folded, a.Created
	d.Account.HasPassword = a.Password != ""
	d.Account.PasswordChanged = timeOrNil(a.PasswordChanged)
	if d.RecoveryCodesLeft, err = s.st.RecoveryCodesLeft(ctx, accountID); err != nil {
		return nil, storeError("export", err)
	}
	keys, err := s.st.Passkeys(ctx, accountID)
	if err != nil {
		return nil, storeError("export", err)
	}
	d.Passkeys = []DataPasskey{}
	for _, p := range keys {
		d.Passkeys = append(d.Passkeys, DataPasskey{
			ID: p.ID, Name: p.Name, PublicKey: p.PublicKey, SignCount: p.SignCount, Transports: p.Transports,
			AAGUID: p.AAGUID, UserVerified: p.UserVerified, BackupEligible: p.BackupEligible, BackupState: p.BackupState,
			Created: p.Created, LastUsed: timeOrNil(p.LastUsed),
		})
	}
	sessions, err := s.st.Sessions(ctx, accountID)
	if err != nil {
		return nil, storeError("export", err)
	}
	d.Sessions = []DataSession{}
	for _, ses := range sessions {
		d.Sessions = append(d.Sessions, DataSession{Created: ses.Created, Seen: ses.Seen, Expires: ses.Expires})
	}
	d.Exported = s.now().UTC()
	return &d, nil
}

// timeOrNil is t, or nil if it is zero.
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
