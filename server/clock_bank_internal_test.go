package server

import (
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
)

// TestRecordTimes checks how the times of a game's actions fall on its
// record's turn groups: a group gets them when each of its actions has
// one, so that a game stored before times were counted shows none for
// its early turns rather than zeros.
func TestRecordTimes(t *testing.T) {
	r, err := record.ParseString("[Rules \"chaturaji\"]\n\nb 2 a1c3  y 2 a8c6  g 3 g8f6  r 4 pass\n")
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		times []int64
		want  [][]time.Duration
	}{
		{"every action timed", []int64{1500, 0, 20, 7}, [][]time.Duration{{1500 * ms}, {0}, {20 * ms}, {7 * ms}}},
		{"the first two from before times", []int64{-1, -1, 20, 7}, [][]time.Duration{nil, nil, {20 * ms}, {7 * ms}}},
		{"no times", []int64{-1, -1, -1, -1}, nil},
		{"fewer times than actions: a live game's", []int64{5, 6}, [][]time.Duration{{5 * ms}, {6 * ms}, nil, nil}},
	} {
		got := recordTimes(r[0], c.times)
		if !slices.EqualFunc(got, c.want, func(a, b []time.Duration) bool { return slices.Equal(a, b) }) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
