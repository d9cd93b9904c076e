package record_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
)

// FuzzParse checks that Parse never panics, nor Replay and Verify on what
// it reads, and that what it reads prints in a form that reads back to the
// same records and prints the same again.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.cgn"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("[Rules \"chaturaji\"]\n\nb 5\n")
	f.Add(timedRecord)
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := record.ParseString(s)
		if err != nil {
			return
		}
		for _, r := range recs {
			r.Replay()
			r.VerifyDice()
			if p, err := r.Verify(testPublic); err == nil && p.Signer == "" {
				t.Fatalf("verified with a key, but the proof names no signer:\n%s", r)
			}
		}
		var b strings.Builder
		if err := record.WriteAll(&b, recs); err != nil {
			t.Fatal(err)
		}
		back, err := record.ParseString(b.String())
		if err != nil {
			t.Fatalf("printed form does not read back: %v\n%s", err, b.String())
		}
		if len(back) != len(recs) {
			t.Fatalf("%d records read back as %d:\n%s", len(recs), len(back), b.String())
		}
		for i := range recs {
			if !back[i].Equal(recs[i]) {
				t.Fatalf("record %d changed:\n%s\nread back as\n%s", i+1, recs[i], back[i])
			}
		}
		var c strings.Builder
		record.WriteAll(&c, back)
		if c.String() != b.String() {
			t.Fatalf("printing is not stable:\n%s\nthen\n%s", b.String(), c.String())
		}
	})
}

// FuzzParsePublicKey: any text is refused with a "record:" error or is a
// public key that prints back as the same text.
func FuzzParsePublicKey(f *testing.F) {
	f.Add(record.FormatPublicKey(testPublic))
	f.Add(strings.ToUpper(record.FormatPublicKey(testPublic)))
	f.Add("")
	f.Add("zz")
	f.Fuzz(func(t *testing.T, s string) {
		k, err := record.ParsePublicKey(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("%q: error %q lacks the package name", s, err)
			}
			return
		}
		if record.FormatPublicKey(k) != s {
			t.Fatalf("%q parsed to a key written %s", s, record.FormatPublicKey(k))
		}
	})
}

// FuzzParseTimeControl: any text is refused with a "record:" error, or is
// a valid time control that prints back as the same text.
func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"move=15", "bank=300;increment=5", "bank=600;delay=2.5", "move=1.2345", "bank=1;move=1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := record.ParseTimeControl(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("%q: error %q lacks the package name", s, err)
			}
			return
		}
		if tc.Check() != nil || tc.String() != s {
			t.Fatalf("%q read as %+v, written %q", s, tc, tc.String())
		}
	})
}
