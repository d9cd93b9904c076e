package record_test

import (
	"os"
	"strings"
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

// BenchmarkCheckSignedText checks a signed record of a whole game as text,
// as the server checks each record it keeps when it serves it.
func BenchmarkCheckSignedText(b *testing.B) {
	data, err := os.ReadFile("testdata/signed/signed.cgn")
	if err != nil {
		b.Fatal(err)
	}
	pub, err := os.ReadFile("testdata/signed/test-key.pub")
	if err != nil {
		b.Fatal(err)
	}
	key, err := record.ParsePublicKey(strings.TrimSpace(string(pub)))
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	b.ReportAllocs()
	for b.Loop() {
		if err := record.CheckSignedText(text, key); err != nil {
			b.Fatal(err)
		}
	}
}
