package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes parseSize takes, with their bytes.
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{
	{"GiB", 1 << 30},
	{"MiB", 1 << 20},
	{"KiB", 1 << 10},
	{"B", 1},
	{"", 1},
}

// parseSize reads a size in bytes such as "256MiB", "1GiB", "512KiB" or
// "1048576": a whole number above 0 with an optional binary unit.
func parseSize(s string) (int64, error) {
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n <= 0 || n > math.MaxInt64/u.bytes {
			break
		}
		return n * u.bytes, nil
	}
	return 0, fmt.Errorf("size %q: want a whole number above 0 of bytes, KiB, MiB or GiB, such as 256MiB", s)
}

// formatSize writes a size in bytes as parseSize reads it, in the largest
// unit that divides it, with a space: "64 MiB", "1000 B".
func formatSize(n int64) string {
	for _, u := range sizeUnits {
		if u.bytes > 1 && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.suffix)
		}
	}
	return fmt.Sprintf("%d B", n)
}
