package server

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Export selects the games Export writes.
type Export struct {
	Status store.Status // store.Live or store.Finished; "" for both
	Rules  string       // only games of this preset, house rules included (in any order); "" for any
	Limit  int          // at most this many, the most recently updated; 0 for every one
	// Key, if not nil, signs the records of finished games (record.Sign).
	Key ed25519.PrivateKey
}

// ExportRecords writes the records of the games of st that x selects, the
// oldest first, one blank line apart, as `chaturaji replay` and `verify`
// read them: each rebuilt from the game's events and checked on the way,
// the Seed of a live game left out, a finished one signed with x.Key. It
// returns how many it wrote. A game that cannot be rebuilt stops the
// export with an error naming it.
func ExportRecords(ctx context.Context, st store.Store, w io.Writer, x Export) (int, error) {
	if x.Rules != "" {
		pr, err := rules.Lookup(x.Rules)
		if err != nil {
			return 0, Errorf(EINVALID, "rules %q: %v", x.Rules, err)
		}
		x.Rules = pr.Name // house rules in their canonical order, as games store it
	}
	limit := x.Limit
	if limit <= 0 {
		limit = math.MaxInt32
	}
	games, err := st.Games(ctx, store.Filter{Status: x.Status, Limit: limit})
	if err != nil {
		return 0, err
	}
	slices.Reverse(games) // the store lists the newest first
	fw := record.NewFileWriter(w)
	for _, info := range games {
		if x.Rules != "" && info.Rules != x.Rules {
			continue
		}
		evs, err := st.Events(ctx, info.ID, 0)
		if err != nil {
			return fw.Count(), err
		}
		r, err := replay(info, evs)
		if err != nil {
			return fw.Count(), fmt.Errorf("exporting: %w", err)
		}
		if err := fw.Write(gameRecord(r.game, r.info, r.takeovers, r.game.Finished(), x.Key)); err != nil {
			return fw.Count(), err
		}
	}
	return fw.Count(), nil
}
