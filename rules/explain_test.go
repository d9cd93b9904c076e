package rules_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules from the presets")

// TestRulesDocs keeps docs/rules/NAME.md equal to each preset's generated
// rules text; `go test ./rules -run RulesDocs -update` rewrites them.
func TestRulesDocs(t *testing.T) {
	dir := filepath.Join("..", "docs", "rules")
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		text := pr.Explain()
		file := filepath.Join(dir, name+".md")
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test ./rules -run RulesDocs -update)", err)
		}
		if string(want) != text {
			t.Errorf("%s is not the rules text of %s: run go test ./rules -run RulesDocs -update", file, name)
		}
	}
}

// TestExplainFollowsThePreset checks that the text changes with the rules.
func TestExplainFollowsThePreset(t *testing.T) {
	for _, tc := range []struct {
		name, want, not string
	}{
		{"chaturaji", "raised to 54", "once a game"},
		{"chaturaji+raise=60", "raised to 60", "raised to 54"},
		{"chaturaji-ranks", "never captures a horse", "always legal"},
		{"chaturaji-2dice", "`pass` is always legal", "frozen: its pieces stay and"},
		{"ludii", "keeps moving", "Boat triumph"},
		{"chaturanga-2p", "knight's leap", "Scoring"},
	} {
		pr, err := rules.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		text := pr.Explain()
		if !strings.Contains(text, tc.want) || strings.Contains(text, tc.not) {
			t.Errorf("%s: want %q and not %q in\n%s", tc.name, tc.want, tc.not, text)
		}
	}
}
