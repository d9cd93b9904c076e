package main

import (
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
)

// TestPlayersListsWhatNewTakes checks that every player `chaturaji players`
// lists is one ai.New builds, and that it lists every level.
func TestPlayersListsWhatNewTakes(t *testing.T) {
	status, out, errOut := runCommand("players")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errOut)
	}
	levels := 0
	for line := range strings.Lines(out) {
		spec, about, _ := strings.Cut(strings.TrimSpace(line), " ")
		if spec == "" {
			continue
		}
		if strings.TrimSpace(about) == "" {
			t.Errorf("%s: no description", spec)
		}
		if _, err := ai.New(spec, 1); err != nil {
			t.Errorf("listed %q: %v", spec, err)
		}
		if strings.HasPrefix(strings.TrimSpace(about), "level ") {
			levels++
		}
	}
	if levels != len(ai.Levels) {
		t.Errorf("%d levels listed, want %d", levels, len(ai.Levels))
	}
}
