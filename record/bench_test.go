package record_test

import (
	"os"
	"testing"

	"github.com/chaturaji/chaturaji/record"
)

func BenchmarkParseReplay(b *testing.B) {
	data, err := os.ReadFile("testdata/valid/two-games.cgn")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		recs, err := record.ParseString(string(data))
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			if _, err := r.Replay(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
