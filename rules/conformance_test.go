package rules_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// conformanceCase is one line of the shared conformance data: a rolled
// position, its legal actions in byte order, the position after each, and
// sometimes perft to depth 2.
type conformanceCase struct {
	Rules   string            `json:"rules"` // the preset, if the line names one; else the file's name
	Pos     string            `json:"pos"`
	Actions []string          `json:"actions"`
	After   map[string]string `json:"after"`
	Perft2  *uint64           `json:"perft2"`
}

const conformanceFile = "testdata/conformance/chaturaji.jsonl"

func loadConformance(t *testing.T) []conformanceCase { return loadConformanceFile(t, conformanceFile) }

func loadConformanceFile(t *testing.T, file string) []conformanceCase {
	t.Helper()
	data, err := os.ReadFile(file)
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

// TestConformanceCopyIsCurrent keeps the copies in testdata equal to the
// team's shared conformance data, where it sits beside the repository (as
// in CI: ../shared/conformance): every shared file (one per preset, named
// after it) has its copy, which TestConformance runs. A plain clone has no
// shared data; the test then compares nothing and says so.
func TestConformanceCopyIsCurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "conformance")
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.Logf("no shared conformance data beside the repository (%s): compared nothing", dir)
		return
	}
	shared, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(shared) == 0 {
		t.Fatalf("%s holds no conformance data: %v", dir, err)
	}
	for _, file := range shared {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		copied := filepath.Join("testdata", "conformance", filepath.Base(file))
		got, err := os.ReadFile(copied)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s: copy the shared file again (%v)", copied, file, err)
		}
	}
	t.Logf("the copies in testdata/conformance equal the shared files in %s (%d)", dir, len(shared))
}

// TestConformance runs every line of every conformance file, under the
// preset the line or the file names: an unknown preset is an error, never a
// skip.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance data: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { runConformanceFile(t, file) })
	}
}

func runConformanceFile(t *testing.T, file string) {
	for i, c := range loadConformanceFile(t, file) {
		name := c.Rules
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(file), ".jsonl")
		}
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		p, err := rules.ParsePosition(pr, c.Pos)
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
			got = append(got, a.Format(pr))
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
			a, err := rules.ParseAction(pr, s)
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
