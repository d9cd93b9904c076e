package rules_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// conformanceCase is one line of the shared conformance data: a rolled
// position, its legal actions in byte order, the position after each, and
// sometimes perft to depth 2.
type conformanceCase struct {
	Pos     string            `json:"pos"`
	Actions []string          `json:"actions"`
	After   map[string]string `json:"after"`
	Perft2  *uint64           `json:"perft2"`
}

const conformanceFile = "testdata/conformance/chaturaji.jsonl"

func loadConformance(t *testing.T) []conformanceCase {
	t.Helper()
	data, err := os.ReadFile(conformanceFile)
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c conformanceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases")
	}
	return cases
}

// TestConformanceCopyIsCurrent keeps the copy in testdata equal to the shared
// conformance data that sits beside the repository.
func TestConformanceCopyIsCurrent(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "conformance", "chaturaji.jsonl")
	want, err := os.ReadFile(shared)
	if err != nil {
		t.Fatalf("the shared conformance data should sit beside the repository: %v", err)
	}
	got, err := os.ReadFile(conformanceFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from %s: copy the shared file again", conformanceFile, shared)
	}
}

func TestConformance(t *testing.T) {
	for i, c := range loadConformance(t) {
		p, err := rules.ParsePosition(rules.Chaturaji, c.Pos)
		if err != nil {
			t.Errorf("line %d: %v", i+1, err)
			continue
		}
		if got := p.String(); got != c.Pos {
			t.Errorf("line %d: printed %q, parsed %q", i+1, got, c.Pos)
		}
		var buf [rules.MaxActions]rules.Action
		var got []string
		for _, a := range p.Actions(buf[:]) {
			got = append(got, a.String())
		}
		slices.Sort(got)
		if !slices.Equal(got, c.Actions) {
			t.Errorf("line %d: %s\nactions %v\nwant    %v", i+1, c.Pos, got, c.Actions)
			continue
		}
		if n := p.CountActions(); n != len(got) {
			t.Errorf("line %d: CountActions = %d, Actions lists %d", i+1, n, len(got))
		}
		for _, s := range c.Actions {
			a, err := rules.ParseAction(rules.Chaturaji, s)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			before := p.String()
			var u rules.Undo
			p.Make(a, &u)
			if after := p.String(); after != c.After[s] {
				t.Errorf("line %d: %s after %s\ngot  %s\nwant %s", i+1, c.Pos, s, after, c.After[s])
			}
			p.Unmake(&u)
			if p.String() != before {
				t.Errorf("line %d: unmake of %s left %s", i+1, s, p.String())
			}
		}
		if c.Perft2 != nil {
			if n := rules.Perft(p, 2); n != *c.Perft2 {
				t.Errorf("line %d: perft 2 = %d, want %d", i+1, n, *c.Perft2)
			}
		}
	}
}
