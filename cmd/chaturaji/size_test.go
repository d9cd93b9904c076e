package main

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"256MiB", 256 << 20},
		{"1GiB", 1 << 30},
		{"512KiB", 512 << 10},
		{"100B", 100},
		{"1048576", 1 << 20},
		{"8589934591GiB", 8589934591 << 30},
		{"8589934592GiB", 0}, // 2^63 bytes, over an int64
		{"0MiB", 0},
		{"-1MiB", 0},
		{"1.5GiB", 0},
		{"256MB", 0},
		{"256 MiB", 0},
		{"MiB", 0},
		{"", 0},
	} {
		got, err := parseSize(tc.in)
		if got != tc.want || (err != nil) != (tc.want == 0) {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "such as 256MiB") {
			t.Errorf("parseSize(%q): error %q does not say what a size looks like", tc.in, err)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"256MiB", "1GiB", "7", "0B", "-3KiB", "99999999999999999999GiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err == nil && n <= 0 {
			t.Fatalf("parseSize(%q) = %d, want a size above 0", s, n)
		}
	})
}
