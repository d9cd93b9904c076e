package ai_test

import (
	"reflect"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
)

// TestWeightSettingsNameEveryWeight checks that the weight settings reach
// every number in Weights, each a different one, and nothing else.
func TestWeightSettingsNameEveryWeight(t *testing.T) {
	numbers := 0
	wt := reflect.TypeFor[ai.Weights]()
	for i := range wt.NumField() {
		switch f := wt.Field(i).Type; f.Kind() {
		case reflect.Float64:
			numbers++
		case reflect.Array:
			numbers += f.Len()
		default:
			t.Fatalf("Weights.%s is a %s: this test counts numbers and arrays of them", wt.Field(i).Name, f)
		}
	}
	if len(ai.WeightSettings) != numbers {
		t.Errorf("%d weight settings for the %d numbers of Weights", len(ai.WeightSettings), numbers)
	}
	var w ai.Weights
	seen := map[*float64]string{}
	for _, name := range ai.WeightSettings {
		p := w.Field(name)
		if p == nil {
			t.Errorf("Field(%q) = nil", name)
			continue
		}
		if other, ok := seen[p]; ok {
			t.Errorf("Field(%q) and Field(%q) are the same weight", name, other)
		}
		seen[p] = name
	}
	for _, name := range []string{"", "nodes", "threat4", "Material"} {
		if w.Field(name) != nil {
			t.Errorf("Field(%q) names a weight", name)
		}
	}
}
