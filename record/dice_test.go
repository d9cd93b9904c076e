package record_test

import (
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// TestRollVectors keeps the test vectors of docs/notation.md section 4 true.
func TestRollVectors(t *testing.T) {
	tests := []struct {
		name, seed, commitment, rolls string
	}{
		{"zero seed", strings.Repeat("0", 64), "", "2 5 5 2 2 4 2 2 5 3 2 4"},
		{"SeedFromInt(1)", rules.SeedFromInt(1).String(), "c3c83287867efc910d90d8d758b5f11a96774b19df8e9dea8e9432cb41a90277", "5 2 4 4 5 4 5 2 3 2 2 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seed, err := rules.ParseSeed(tt.seed)
			if err != nil {
				t.Fatal(err)
			}
			var rolls []string
			for n := range uint64(12) {
				rolls = append(rolls, rules.RollFromSeed(seed, rules.Chaturaji, n).String())
			}
			if got := strings.Join(rolls, " "); got != tt.rolls {
				t.Errorf("rolls %s, want %s", got, tt.rolls)
			}
			if tt.commitment != "" && seed.Commitment() != tt.commitment {
				t.Errorf("commitment %s, want %s", seed.Commitment(), tt.commitment)
			}
		})
	}
	if got := rules.SeedFromInt(1).String(); got != "1c999b443da88acf2997f16862008b4ff9ee62473fcbaec4ba395a7730465a41" {
		t.Errorf("SeedFromInt(1) = %s", got)
	}
}
