package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestMemoryPolicy checks what memoryPolicy sets for each environment:
// the limit and no GOGC by default, and nothing the environment sets.
func TestMemoryPolicy(t *testing.T) {
	const limit = 3 << 30
	tests := []struct {
		gomemlimit, gogc string
		wantLimit        int64 // the runtime's soft memory limit after
		wantOff          bool  // whether GOGC's collections are off after
		wantLeft         string
	}{
		{"", "", limit, true, ""},
		{"", "200", limit, false, "GOGC"},
		{"2GiB", "", math.MaxInt64, false, "GOMEMLIMIT"},
		{"2GiB", "off", math.MaxInt64, false, "GOMEMLIMIT and GOGC"},
	}
	for _, tt := range tests {
		t.Run(tt.gomemlimit+"/"+tt.gogc, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.gomemlimit)
			t.Setenv("GOGC", tt.gogc)
			// The test process's own settings, restored at once after: the
			// environment variables above change nothing in a runtime
			// already started, so the runtime starts from none.
			oldLimit := debug.SetMemoryLimit(math.MaxInt64)
			oldPercent := debug.SetGCPercent(100)
			left := memoryPolicy(limit)
			gotLimit := debug.SetMemoryLimit(oldLimit)
			gotPercent := debug.SetGCPercent(oldPercent)
			if left != tt.wantLeft {
				t.Errorf("left %q to the environment, want %q", left, tt.wantLeft)
			}
			if gotLimit != tt.wantLimit {
				t.Errorf("memory limit %d, want %d", gotLimit, tt.wantLimit)
			}
			if off := gotPercent < 0; off != tt.wantOff {
				t.Errorf("GOGC %d after: off %v, want %v", gotPercent, off, tt.wantOff)
			}
			if note := memoryPolicyNote(limit, left); (left == "") != (note == "the garbage collector runs as the process's memory nears 3 GiB") {
				t.Errorf("note %q for %q left", note, left)
			}
		})
	}
}
