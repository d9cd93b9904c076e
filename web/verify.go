package web

import (
	"crypto/ed25519"
	"net/http"

	"github.com/chaturaji/chaturaji/record"
)

// VerifyRequest is the body of POST /web/verify: a game record, as
// GET /api/games/{id}/record gives it once the game is over, and the
// public key to check its signature with.
type VerifyRequest struct {
	Record string `json:"record"`        // the record's text; only its first game is checked
	Key    string `json:"key,omitempty"` // the server's public key in hex (GET /api/key); none: the signature is not checked
}

// The states of a record's signature, in Verification.Signature.
const (
	SignatureValid     = "valid"     // the given key signed the record as it is
	SignatureInvalid   = "invalid"   // the record is not the given key's signature's: changed after, or another key's
	SignatureNone      = "none"      // the record is not signed
	SignatureUnchecked = "unchecked" // the record is signed, but no key was given
)

// Verification is the answer of POST /web/verify: what record.Verify proved
// of the record, or the first problem.
type Verification struct {
	// OK: everything the record can prove holds: its dice are the seed's
	// and the seed the one whose hash was published, every move is legal,
	// its Result is the finished game's, and, if a key was given, the key
	// signed it.
	OK bool `json:"ok"`
	// Seeded: the record has a Seed tag; without one (a game still going
	// on) the dice cannot be checked yet.
	Seeded bool `json:"seeded"`
	Rolls  int  `json:"rolls"` // the number of rolls in the record
	Turns  int  `json:"turns"` // the number of turns in the record
	// Result is the game's result, once proved.
	Result string `json:"result,omitempty"`
	// Signature says what the Signature tag shows: SignatureValid,
	// SignatureInvalid, SignatureNone or SignatureUnchecked.
	Signature string `json:"signature"`
	Signer    string `json:"signer,omitempty"` // the key the Signer tag names, if any
	// Problem says what is wrong, if anything.
	Problem string `json:"problem,omitempty"`
}

// handleVerify is POST /web/verify: it checks the first game of a record
// with record.Verify, for pages that cannot do it themselves (the rules
// are the server's; WebCrypto needs a secure context).
func (s *site) handleVerify(w http.ResponseWriter, r *http.Request) {
	var req VerifyRequest
	if status, err := s.readJSON(w, r, &req); err != nil {
		fail(w, status, "%v", err)
		return
	}
	var key ed25519.PublicKey
	if req.Key != "" {
		var err error
		if key, err = record.ParsePublicKey(req.Key); err != nil {
			fail(w, http.StatusBadRequest, "key: %v", err)
			return
		}
	}
	writeJSON(w, http.StatusOK, verify(req.Record, key))
}

// verify checks the first game of a record file, and its signature with
// key if key is not nil.
func verify(text string, key ed25519.PublicKey) *Verification {
	v := &Verification{Signature: SignatureNone}
	recs, err := record.ParseString(text)
	if err != nil {
		v.Problem = err.Error()
		return v
	}
	if len(recs) == 0 {
		v.Problem = "the text holds no game record"
		return v
	}
	rec := recs[0]
	_, v.Seeded = rec.Tags.Get("Seed")
	v.Turns = len(rec.Turns)
	for _, t := range rec.Turns {
		if t.Roll.Len() > 0 {
			v.Rolls++
		}
	}
	v.Signer, _ = rec.Tags.Get(record.SignerTag)
	_, signed := rec.Tags.Get(record.SignatureTag)
	switch {
	case !signed:
	case key == nil:
		v.Signature = SignatureUnchecked
	case rec.CheckSignature(key) == nil:
		v.Signature = SignatureValid
	default:
		v.Signature = SignatureInvalid
	}
	p, err := rec.Verify(key)
	if err != nil {
		v.Problem = err.Error()
		return v
	}
	v.OK, v.Result = true, p.Result
	return v
}
