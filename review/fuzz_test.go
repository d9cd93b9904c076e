package review_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
)

// FuzzDecisions reads any text as records: Decisions never panics, and
// the decisions of a record it accepts are its actions, in order, each
// legal in its position, each position awaiting no roll.
func FuzzDecisions(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "record", "testdata", "*", "*.cgn"))
	files = append(files, blunderFile)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := record.ParseString(s)
		if err != nil {
			return
		}
		for _, r := range recs {
			pts, err := review.Decisions(r, false)
			if err != nil {
				continue
			}
			n := 0
			for i, tn := range r.Turns {
				for _, a := range tn.Actions {
					if n >= len(pts) {
						t.Fatalf("%d decisions, but the record has more actions", len(pts))
					}
					pt := pts[n]
					if pt.Turn != i || pt.Played != a || pt.Position.AwaitingRoll() || !pt.Position.IsLegal(a) {
						t.Fatalf("decision %d: turn %d, played %v in %s; the record's turn %d plays %v", n, pt.Turn, pt.Played, pt.Position, i, a)
					}
					n++
				}
			}
			if n != len(pts) {
				t.Fatalf("%d decisions for %d actions", len(pts), n)
			}
		}
	})
}
