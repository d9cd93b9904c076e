package record_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
)

const s = time.Second

func TestTimeControlNext(t *testing.T) {
	// Each row worked out by hand: the bank when the decision opened,
	// the time it took, the bank after it.
	for _, c := range []struct {
		name             string
		tc               record.TimeControl
		bank, used, want time.Duration
	}{
		{"increment: 10 s, 3 s used, 2 s added", record.TimeControl{Bank: 10 * s, Increment: 2 * s}, 10 * s, 3 * s, 9 * s},
		{"increment: out of time keeps only the increment", record.TimeControl{Bank: 10 * s, Increment: 2 * s}, 4 * s, 4 * s, 2 * s},
		{"increment: a quick move gains", record.TimeControl{Bank: 10 * s, Increment: 2 * s}, 10 * s, 500 * time.Millisecond, 11500 * time.Millisecond},
		{"delay: within the delay costs nothing", record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 10 * s, 1500 * time.Millisecond, 10 * s},
		{"delay: past it, only the part past it", record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 10 * s, 3 * s, 9 * s},
		{"delay: unused delay is not saved", record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 9 * s, 0, 9 * s},
		{"delay: out of time", record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 1 * s, 3 * s, 0},
		{"sudden death", record.TimeControl{Bank: 60 * s}, 60 * s, 12345 * time.Millisecond, 47655 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.tc.Next(c.bank, c.used); got != c.want {
				t.Errorf("%s: bank %v, used %v: %v left, want %v", c.tc, c.bank, c.used, got, c.want)
			}
		})
	}
	// What a decision may take when it opens.
	for _, c := range []struct {
		tc         record.TimeControl
		bank, want time.Duration
	}{
		{record.TimeControl{Move: 15 * s}, 0, 15 * s},
		{record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 3 * s, 5 * s},
		{record.TimeControl{Bank: 10 * s, Increment: 2 * s}, 3 * s, 3 * s},
		{record.TimeControl{Bank: 10 * s, Delay: 2 * s}, 0, 2 * s},
	} {
		if got := c.tc.Allowed(c.bank); got != c.want {
			t.Errorf("%s: a decision opening with %v may take %v, want %v", c.tc, c.bank, got, c.want)
		}
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, c := range []struct {
		text string
		want record.TimeControl
		err  string // part of the error, "" if valid
	}{
		{"move=15", record.TimeControl{Move: 15 * s}, ""},
		{"move=259200", record.TimeControl{Move: 72 * time.Hour}, ""},
		{"bank=300;increment=5", record.TimeControl{Bank: 300 * s, Increment: 5 * s}, ""},
		{"bank=600;delay=2.5", record.TimeControl{Bank: 600 * s, Delay: 2500 * time.Millisecond}, ""},
		{"bank=60", record.TimeControl{Bank: 60 * s}, ""},
		{"increment=5;bank=300", record.TimeControl{}, `is written "bank=300;increment=5"`},
		{"bank=300;increment=5;delay=2", record.TimeControl{}, "both an increment and a delay"},
		{"bank=300;move=15", record.TimeControl{}, "both move and bank"},
		{"increment=5", record.TimeControl{}, "needs a bank"},
		{"move=15;move=15", record.TimeControl{}, "given twice"},
		{"move=0", record.TimeControl{}, "as 0"},
		{"move=15.0", record.TimeControl{}, "is written 15"},
		{"move=1.2345", record.TimeControl{}, "to the millisecond"},
		{"move=-1", record.TimeControl{}, "to the millisecond"},
		{"move=9999999999", record.TimeControl{}, "to the millisecond"},
		{"hourglass=5", record.TimeControl{}, "unknown setting"},
		{"", record.TimeControl{}, "not key=seconds"},
	} {
		tc, err := record.ParseTimeControl(c.text)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.err == "" && tc != c.want:
			t.Errorf("%q: %+v, want %+v", c.text, tc, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.text, err, c.err)
		}
	}
}

// timedRecord is a game's first turns, with the time each decision took
// and a bank of 10 s with a delay of 2 s.
const timedRecord = `[Rules "chaturaji"]
[TimeControl "bank=10;delay=2"]
[Result "*"]

b 2 a1c3 {3.5}  y 2 a8c6 {0.25}  g 3 g8f6 {12}  r 4 pass {0}
b 5 d1e1 {2}
`

func TestTimesRoundTrip(t *testing.T) {
	r := mustOne(t, timedRecord)
	if got := r.String(); got != timedRecord {
		t.Fatalf("printed as\n%s\nwant\n%s", got, timedRecord)
	}
	if len(r.Times) != 5 || r.Times[0][0] != 3500*time.Millisecond || r.Times[2][0] != 12*s {
		t.Fatalf("times %v", r.Times)
	}
	banks, err := r.Banks()
	if err != nil {
		t.Fatal(err)
	}
	// By hand: South 10-(3.5-2) = 8.5, then 8.5-(2-2) = 8.5; West within
	// its delay; North 10-(12-2) = 0.
	want := [][]time.Duration{
		{8500 * time.Millisecond, 10 * s, 10 * s, 10 * s},
		{8500 * time.Millisecond, 10 * s, 10 * s, 10 * s},
		{8500 * time.Millisecond, 10 * s, 0, 10 * s},
		{8500 * time.Millisecond, 10 * s, 0, 10 * s},
		{8500 * time.Millisecond, 10 * s, 0, 10 * s},
	}
	for i := range want {
		for j := range want[i] {
			if banks[i][j] != want[i][j] {
				t.Fatalf("after turn %d: banks %v, want %v", i+1, banks[i], want[i])
			}
		}
	}
	if _, err := r.Replay(); err != nil {
		t.Fatalf("the times change what the game is: %v", err)
	}

	// Signed, the times are part of what is signed.
	r.Sign(testKey)
	if err := r.CheckSignature(testPublic); err != nil {
		t.Fatal(err)
	}
	back := mustOne(t, r.String())
	if err := back.CheckSignature(testPublic); err != nil {
		t.Fatalf("read back: %v", err)
	}
	if err := record.CheckSignedText(r.String(), testPublic); err != nil {
		t.Fatalf("as text: %v", err)
	}
	back.Times[0][0] = 1500 * time.Millisecond
	if err := back.CheckSignature(testPublic); err == nil {
		t.Fatal("a changed time still verifies")
	}
}

func TestTimesRefused(t *testing.T) {
	head := "[Rules \"chaturaji\"]\n\n"
	for _, c := range []struct {
		name, movetext, err string
	}{
		{"more times than actions", "b 25 a1c3,d2d3 {1,2,3}", "3 times for 2 actions"},
		{"a turn awaiting its action", "b 5 {1}", "1 times for 0 actions"},
		{"no closing brace", "b 2 a1c3 {1", "such as {1.2,0.8}"},
		{"empty", "b 2 a1c3 {}", "such as {1.2,0.8}"},
		{"not canonical", "b 2 a1c3 {1.50}", "is written 1.5"},
		{"negative", "b 2 a1c3 {-1}", "to the millisecond"},
	} {
		_, err := record.ParseString(head + c.movetext + "\n")
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %q: error %v, want one saying %q", c.name, c.movetext, err, c.err)
		}
	}
}
