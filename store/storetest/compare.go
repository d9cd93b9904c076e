package storetest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// wantGame is what a store must read back for a game it was given:
// the same with times as stores keep them.
func wantGame(g *store.Game) *store.Game {
	w := *g
	w.Seats = append([]store.Seat(nil), g.Seats...)
	w.Created, w.Updated = kept(g.Created), kept(g.Updated)
	return &w
}

// wantEvents is what a store must read back for events it was given.
func wantEvents(evs []store.Event) []store.Event {
	w := make([]store.Event, len(evs))
	for i, e := range evs {
		e.At = kept(e.At)
		w[i] = e
	}
	return w
}

// sameGame fails the test, naming each field that differs, unless got is
// want.
func sameGame(t *testing.T, got, want *store.Game) {
	t.Helper()
	if got == nil {
		t.Errorf("game %s: got nil", want.ID)
		return
	}
	var d diffs
	d.str("ID", got.ID, want.ID)
	d.str("Rules", got.Rules, want.Rules)
	d.bytes("Seed", got.Seed, want.Seed)
	d.str("SeedHash", got.SeedHash, want.SeedHash)
	d.str("Start", got.Start, want.Start)
	if len(got.Seats) != len(want.Seats) {
		d.add("Seats: %d seats, want %d", len(got.Seats), len(want.Seats))
	} else {
		for i := range got.Seats {
			g, w := got.Seats[i], want.Seats[i]
			d.str(fmt.Sprintf("Seats[%d].Player", i), g.Player, w.Player)
			d.str(fmt.Sprintf("Seats[%d].Name", i), g.Name, w.Name)
			d.bytes(fmt.Sprintf("Seats[%d].TokenHash", i), g.TokenHash, w.TokenHash)
			d.bytes(fmt.Sprintf("Seats[%d].InviteHash", i), g.InviteHash, w.InviteHash)
			d.str(fmt.Sprintf("Seats[%d].Account", i), g.Account, w.Account)
		}
	}
	d.bytes("Settings", got.Settings, want.Settings)
	d.str("Status", string(got.Status), string(want.Status))
	d.str("Result", got.Result, want.Result)
	d.time("Created", got.Created, want.Created)
	d.time("Updated", got.Updated, want.Updated)
	if got.LastEvent != want.LastEvent {
		d.add("LastEvent: %d, want %d", got.LastEvent, want.LastEvent)
	}
	if got.Rated != want.Rated {
		d.add("Rated: %t, want %t", got.Rated, want.Rated)
	}
	d.report(t, "game "+want.ID)
}

// sameEvents fails the test, naming each field that differs, unless got is
// want.
func sameEvents(t *testing.T, got, want []store.Event) {
	t.Helper()
	var d diffs
	if len(got) != len(want) {
		d.add("%d events (%s), want %d (%s)", len(got), seqs(got), len(want), seqs(want))
	} else {
		for i := range got {
			g, w := got[i], want[i]
			if g.Seq != w.Seq {
				d.add("[%d].Seq: %d, want %d", i, g.Seq, w.Seq)
			}
			d.str(fmt.Sprintf("[%d].Kind", i), g.Kind, w.Kind)
			d.bytes(fmt.Sprintf("[%d].Data", i), g.Data, w.Data)
			d.time(fmt.Sprintf("[%d].At", i), g.At, w.At)
		}
	}
	d.report(t, "events")
}

// seqs lists events' numbers, for messages.
func seqs(evs []store.Event) string {
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = fmt.Sprint(e.Seq)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// diffs collects differences between a value read and the value wanted.
type diffs []string

func (d *diffs) add(format string, args ...any) {
	*d = append(*d, fmt.Sprintf(format, args...))
}

func (d *diffs) str(field, got, want string) {
	if got != want {
		d.add("%s: %q, want %q", field, got, want)
	}
}

// bytes compares byte slices; nil and empty are the same.
func (d *diffs) bytes(field string, got, want []byte) {
	if !bytes.Equal(got, want) {
		d.add("%s: %q, want %q", field, got, want)
	}
}

// time compares instants and wants got in UTC.
func (d *diffs) time(field string, got, want time.Time) {
	if !got.Equal(want) {
		d.add("%s: %s, want %s", field, got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	} else if got.Location() != time.UTC {
		d.add("%s: in %s, want UTC", field, got.Location())
	}
}

func (d diffs) report(t *testing.T, what string) {
	t.Helper()
	if len(d) > 0 {
		t.Errorf("%s differ:\n\t%s", what, strings.Join(d, "\n\t"))
	}
}
