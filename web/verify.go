package web

import (
	"net/http"

	"github.com/chaturaji/chaturaji/record"
)

// VerifyRequest is the body of POST /web/verify: a game record, as
// GET /api/games/{id}/record gives it once the game is over.
type VerifyRequest struct {
	Record string `json:"record"` // the record's text; only its first game is checked
}

// Verification is the answer of POST /web/verify.
type Verification struct {
	// OK: the record replays under its rules, its dice are the seed's, and
	// the seed is the one whose hash was published.
	OK bool `json:"ok"`
	// Seeded: the record has a Seed tag; without one (a game still going
	// on) the dice cannot be checked yet.
	Seeded bool `json:"seeded"`
	// Rolls is the number of rolls checked.
	Rolls int `json:"rolls"`
	// Problem says what is wrong, if anything.
	Problem string `json:"problem,omitempty"`
}

// handleVerify is POST /web/verify: it checks the first game of a record
// with record.VerifyDice and record.Replay, for pages that cannot compute
// SHA-256 themselves (WebCrypto needs a secure context).
func (s *site) handleVerify(w http.ResponseWriter, r *http.Request) {
	var req VerifyRequest
	if status, err := s.readJSON(w, r, &req); err != nil {
		fail(w, status, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, verify(req.Record))
}

// verify checks the first game of a record file.
func verify(text string) *Verification {
	v := &Verification{}
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
	for _, t := range rec.Turns {
		if t.Roll.Len() > 0 {
			v.Rolls++
		}
	}
	if _, err := rec.Replay(); err != nil {
		v.Problem = err.Error()
		return v
	}
	if !v.Seeded {
		v.Problem = "the record has no Seed tag: the seed is revealed when the game ends"
		return v
	}
	if err := rec.VerifyDice(); err != nil {
		v.Problem = err.Error()
		return v
	}
	v.OK = true
	return v
}
