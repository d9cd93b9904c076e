package rules_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// ruleCase is one situation of testdata/rules/*.txt: a name and a script of
// steps (see testdata/rules/README.md).
type ruleCase struct {
	name  string
	line  int
	steps []ruleStep
}

type ruleStep struct {
	line     int
	key, arg string
}

func loadRuleCases(t *testing.T, path string) []ruleCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []ruleCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case line[0] != ' ':
			cases = append(cases, ruleCase{name: line, line: n})
		default:
			if len(cases) == 0 {
				t.Fatalf("%s:%d: step before the first situation", path, n)
			}
			key, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
			c := &cases[len(cases)-1]
			c.steps = append(c.steps, ruleStep{n, key, strings.TrimSpace(arg)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestRules runs every situation of the rule tables.
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule tables: %v", err)
	}
	total := 0
	for _, path := range files {
		cases := loadRuleCases(t, path)
		total += len(cases)
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			names := map[string]bool{}
			for _, c := range cases {
				if names[c.name] {
					t.Errorf("%s:%d: situation %q appears twice", path, c.line, c.name)
				}
				names[c.name] = true
				t.Run(c.name, func(t *testing.T) { runRuleCase(t, path, c) })
			}
		})
	}
	t.Logf("%d situations in %d tables", total, len(files))
}

// runRuleCase plays one situation's script on both engines.
func runRuleCase(t *testing.T, path string, c ruleCase) {
	pr := rules.Chaturaji
	if len(c.steps) > 0 && c.steps[0].key == "rules" {
		pr = mustLookup(t, c.steps[0].arg)
		c.steps = c.steps[1:]
	}
	if len(c.steps) == 0 || c.steps[0].key != "pos" {
		t.Fatalf("%s:%d: a situation starts with pos (after rules, if any)", path, c.line)
	}
	start := c.steps[0].arg
	p := mustParsePreset(t, pr, start)
	if got := p.String(); got != start {
		t.Fatalf("%s:%d: position is not canonical: printed as %s", path, c.line, got)
	}
	np, err := naive.ParseRules(pr.Name, start)
	if err != nil {
		t.Fatalf("%s:%d: naive: %v", path, c.line, err)
	}
	mustAction := func(t *testing.T, s string) rules.Action {
		t.Helper()
		a, err := rules.ParseAction(pr, s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	initial := *p
	var undos []*rules.Undo
	overPending := false // a play whose end state no `end` step has checked
	checkNotOver := func(at int) {
		if overPending {
			if p.Finished() || np.Finished() {
				t.Errorf("%s:%d: game over (engine %v, naive %v) but no `end yes` says so: %s", path, at, p.Finished(), np.Finished(), p)
			}
			overPending = false
		}
	}
	for _, st := range c.steps[1:] {
		where := path + ":" + strconv.Itoa(st.line)
		switch st.key {
		case "acts":
			want := strings.Fields(st.arg)
			if st.arg == "-" {
				want = nil
			}
			got := presetActionStrings(p)
			if !slices.Equal(got, want) {
				t.Errorf("%s: engine actions in %s\n got  %v\n want %v", where, p, got, want)
			}
			if n := p.CountActions(); n != len(want) {
				t.Errorf("%s: CountActions = %d, want %d", where, n, len(want))
			}
			if got := naiveActions(np); !slices.Equal(got, want) {
				t.Errorf("%s: naive actions %v, want %v", where, got, want)
			}
		case "not":
			for _, s := range strings.Fields(st.arg) {
				if p.IsLegal(mustAction(t, s)) {
					t.Errorf("%s: %s is legal in %s", where, s, p)
				}
				if slices.Contains(naiveActions(np), s) {
					t.Errorf("%s: naive allows %s", where, s)
				}
			}
		case "play":
			checkNotOver(st.line)
			a := mustAction(t, st.arg)
			if !p.IsLegal(a) {
				t.Fatalf("%s: %s is not legal in %s (actions %v)", where, st.arg, p, presetActionStrings(p))
			}
			u := new(rules.Undo)
			p.Make(a, u)
			undos = append(undos, u)
			q, err := np.Apply(st.arg)
			if err != nil {
				t.Fatalf("%s: naive: %v", where, err)
			}
			np = q
			overPending = true
		case "want":
			bad := false
			if got := p.String(); got != st.arg {
				t.Errorf("%s: engine\n got  %s\n want %s", where, got, st.arg)
				bad = true
			}
			if got := np.String(); got != st.arg {
				t.Errorf("%s: naive disagrees with the hand-written value\n got  %s\n want %s", where, got, st.arg)
				bad = true
			}
			if bad {
				t.FailNow()
			}
			if h := mustParsePreset(t, pr, st.arg).Hash(); p.Hash() != h {
				t.Errorf("%s: Hash %#x, the re-parsed position has %#x", where, p.Hash(), h)
			}
		case "roll":
			checkNotOver(st.line)
			r, err := rules.ParseRoll(st.arg)
			if err != nil || !slices.Contains(p.Outcomes(), r) {
				t.Fatalf("%s: bad roll %q", where, st.arg)
			}
			if !p.AwaitingRoll() {
				t.Fatalf("%s: %s is not awaiting a roll", where, p)
			}
			p.SetRoll(r)
			np = np.WithRollString(st.arg)
			if len(undos) == 0 { // Unmake takes back actions, not rolls: check from here
				initial, start = *p, p.String()
			}
		case "end":
			if st.arg != "yes" {
				t.Fatalf("%s: end takes only yes", where)
			}
			if !p.Finished() {
				t.Errorf("%s: engine: the game should be over: %s", where, p)
			}
			if !np.Finished() {
				t.Errorf("%s: naive: the game should be over: %s", where, np)
			}
			checkFinished(t, where, p)
			overPending = false
		default:
			t.Fatalf("%s: unknown step %q", where, st.key)
		}
	}
	checkNotOver(c.line)
	for i := len(undos) - 1; i >= 0; i-- {
		p.Unmake(undos[i])
	}
	if !p.Equal(&initial) || p.String() != start || p.Hash() != initial.Hash() {
		t.Errorf("%s:%d: unmaking every action left %s, want %s", path, c.line, p, start)
	}
}

// checkFinished checks what docs/rules.md §4 says of a finished position:
// no actions, no roll awaited, perft 0 at any depth above 0.
func checkFinished(t *testing.T, where string, p *rules.Position) {
	t.Helper()
	if p.AwaitingRoll() {
		t.Errorf("%s: a finished position awaits a roll", where)
	}
	var buf [rules.MaxActions]rules.Action
	if acts := p.Actions(buf[:]); len(acts) != 0 {
		t.Errorf("%s: a finished position has actions %v", where, acts)
	}
	if n := p.CountActions(); n != 0 {
		t.Errorf("%s: a finished position counts %d actions", where, n)
	}
	for _, a := range []rules.Action{rules.PassAction, rules.RetireAction} {
		if p.IsLegal(a) {
			t.Errorf("%s: %s is legal in a finished position", where, a)
		}
	}
	if n := rules.Perft(p, 0); n != 1 {
		t.Errorf("%s: perft 0 = %d, want 1", where, n)
	}
	for d := 1; d <= 3; d++ {
		if n := rules.Perft(p, d); n != 0 {
			t.Errorf("%s: perft %d = %d, want 0", where, d, n)
		}
	}
}

// TestFinishedPositions parses positions that are over for each reason of
// docs/rules.md §4 and checks that they have no actions.
func TestFinishedPositions(t *testing.T) {
	for _, c := range []struct{ name, pos string }{
		{"one king left", "8/8/8/8/8/8/bP7/bK7 b - 54,0,0,0 3"},
		{"one king left, of a seat not to act", "yP7/8/8/8/8/8/8/7rK b - 0,0,0,54 3"},
		{"no king left", "8/8/8/8/8/8/bP7/8 b - 0,0,0,0 0"},
		{"only kings left", "yK6gK/8/8/8/8/8/8/bK6rK y - 3,2,1,0 7"},
		{"the clock at 200", "yK6gK/8/8/8/8/8/bP7/bK6rK b - 0,0,0,0 200"},
		{"the clock past 200", "yK6gK/8/8/8/8/8/bP7/bK6rK r - 0,0,0,0 517"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.pos)
			if !p.Finished() {
				t.Fatalf("%s is not over", c.pos)
			}
			if np := mustNaive(t, c.pos); !np.Finished() {
				t.Errorf("naive: %s is not over", c.pos)
			}
			checkFinished(t, c.name, p)
			// A roll set from outside does not bring actions back.
			p.SetRoll(mustRoll(t, "5"))
			checkFinished(t, c.name+" with a roll", p)
		})
	}
	// A finished game cannot have a roll pending.
	if _, err := rules.ParsePosition(rules.Chaturaji, "yK6gK/8/8/8/8/8/8/bK6rK y 5 3,2,1,0 7"); err == nil {
		t.Error("a finished position with a roll parsed")
	}
}

func mustParse(tb testing.TB, s string) *rules.Position {
	tb.Helper()
	p, err := rules.ParsePosition(rules.Chaturaji, s)
	if err != nil {
		tb.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

func mustNaive(tb testing.TB, s string) *naive.Position {
	tb.Helper()
	p, err := naive.Parse(s)
	if err != nil {
		tb.Fatalf("naive.Parse(%q): %v", s, err)
	}
	return p
}

func mustAction(tb testing.TB, s string) rules.Action {
	tb.Helper()
	a, err := rules.ParseAction(rules.Chaturaji, s)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

func mustRoll(tb testing.TB, s string) rules.Roll {
	tb.Helper()
	r, err := rules.ParseRoll(s)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// actionStrings returns the legal actions of p in notation, sorted in byte
// order.
func actionStrings(p *rules.Position) []string {
	var buf [rules.MaxActions]rules.Action
	var out []string
	for _, a := range p.Actions(buf[:]) {
		out = append(out, a.String())
	}
	slices.Sort(out)
	return out
}

// TestSortActions: SortActions puts actions in the byte order of their
// notation, moves before pass and retire (docs/rules.md §4).
func TestSortActions(t *testing.T) {
	for _, s := range []string{
		"yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0",
		"yK6gK/8/yP7/8/8/8/8/bK6rK b 5 0,0,0,0 0",
		"yK6gK/7gP/8/8/3bK4/8/8/7rK b 3 0,0,0,0 0",
	} {
		p := mustParse(t, s)
		var buf [rules.MaxActions]rules.Action
		acts := p.Actions(buf[:])
		rules.SortActions(rules.Chaturaji, acts)
		var got []string
		for _, a := range acts {
			got = append(got, a.String())
		}
		if want := actionStrings(p); !slices.Equal(got, want) {
			t.Errorf("%s: sorted %v, want %v", s, got, want)
		}
	}
}

// presetActionStrings returns the legal actions of p in the notation of its
// preset, sorted in byte order.
func presetActionStrings(p *rules.Position) []string {
	var buf [rules.MaxActions]rules.Action
	var out []string
	for _, a := range p.Actions(buf[:]) {
		out = append(out, a.Format(p.Preset()))
	}
	slices.Sort(out)
	return out
}

// naiveActions returns the reference engine's actions, none when the game is
// over or awaits its roll.
func naiveActions(p *naive.Position) []string {
	if p.Finished() || p.AwaitingRoll() {
		return nil
	}
	return p.Actions()
}
