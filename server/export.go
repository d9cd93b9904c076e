package server

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"math"
	"slices"

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
	// Keep keeps in the store the records of finished games that had to
	// be rebuilt, so that the next export serves them as kept (the server
	// does; `chaturaji export`, which only reads, does not).
	Keep bool
}

// Exported is what ExportRecords did.
type Exported struct {
	Count   int       // the records written
	Skipped []Skipped // the damaged games left out, the oldest first
}

// ExportRecords writes the records of the games of st that x selects, the
// oldest first, one blank line apart, as `chaturaji replay` and `verify`
// read them: a finished game's as kept when it finished (records.go), if
// signed by x.Key, else rebuilt from the game's events and checked on the
// way; the Seed of a live game left out, a finished one signed with x.Key.
// A damaged game, one that cannot be rebuilt or whose kept record was
// changed (keptRecord), is left out: the file ends with a comment line for
// each, naming it and what is wrong, and Exported.Skipped lists them. Any other failure (the store's, a store
// opened without the seed key its seeds need) stops the export.
func ExportRecords(ctx context.Context, st store.Store, w io.Writer, x Export) (Exported, error) {
	var out Exported
	if x.Rules != "" {
		pr, err := rules.Lookup(x.Rules)
		if err != nil {
			return out, Errorf(EINVALID, "rules %q: %v", x.Rules, err)
		}
		x.Rules = pr.Name // house rules in their canonical order, as games store it
	}
	limit := x.Limit
	if limit <= 0 {
		limit = math.MaxInt32
	}
	games, err := st.Games(ctx, store.Filter{Status: x.Status, Limit: limit})
	if err != nil {
		return out, err
	}
	slices.Reverse(games) // the store lists the newest first
	games = slices.DeleteFunc(games, func(g *store.Game) bool { return x.Rules != "" && g.Rules != x.Rules })
	var finished []string
	for _, g := range games {
		if g.Status == store.Finished {
			finished = append(finished, g.ID)
		}
	}
	kept, err := st.Records(ctx, finished)
	if err != nil {
		return out, err
	}
	for _, info := range games {
		text, err := recordText(ctx, st, info, kept[info.ID], x)
		if d, ok := isDamaged(err); ok {
			out.Skipped = append(out.Skipped, Skipped{ID: info.ID, Error: d.Error()})
			continue
		}
		if err != nil {
			return out, fmt.Errorf("exporting game %s: %w", info.ID, err)
		}
		if out.Count > 0 {
			text = "\n" + text
		}
		if _, err := io.WriteString(w, text); err != nil {
			return out, err
		}
		out.Count++
	}
	for _, sk := range out.Skipped {
		if _, err := fmt.Fprintf(w, "; skipped game %s, damaged: %s\n", sk.ID, oneLine(sk.Error)); err != nil {
			return out, err
		}
	}
	return out, nil
}

// oneLine returns s with its line breaks as spaces, for a comment line.
func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}
