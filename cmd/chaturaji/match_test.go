package main

import (
	"testing"
	"time"
)

func TestProgressText(t *testing.T) {
	tests := []struct {
		name        string
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{"nothing done: no estimate", 0, 40, 0, "games, 0s elapsed, ETA ?"},
		{"a quarter done", 10, 40, 30 * time.Second, "games, 30s elapsed, ETA 1m30s"},
		{"all done", 40, 40, 2 * time.Minute, "games, 2m0s elapsed, ETA 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressText(tt.done, tt.total, tt.elapsed); got != tt.want {
				t.Errorf("progressText(%d, %d, %v) = %q, want %q", tt.done, tt.total, tt.elapsed, got, tt.want)
			}
		})
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in         string
		elo0, elo1 float64
		err        string
	}{
		{"0,20", 0, 20, ""},
		{" -5 , 5 ", -5, 5, ""},
		{"20", 0, 0, `--sprt "20": want ELO0,ELO1, such as 0,20`},
		{"a,b", 0, 0, `--sprt "a,b": want ELO0,ELO1, such as 0,20`},
		{"10,10", 0, 0, `--sprt "10,10": ELO0 must be below ELO1`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := parseSPRT(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("parseSPRT(%q): %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || s.Elo0 != tt.elo0 || s.Elo1 != tt.elo1 || s.Alpha != 0.05 || s.Beta != 0.05 {
				t.Errorf("parseSPRT(%q) = %+v, %v", tt.in, s, err)
			}
		})
	}
}
