package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// newsTest is one test of the news's suite, given a new, empty store and
// a way to open another store on its database.
type newsTest = suiteTest[store.LobbyNews]

// RunNews runs the lobby news's tests, as RunLobby runs the lobby's.
func RunNews(t *testing.T, open Opener) {
	runSuite(t, open, "store.LobbyNewsOf", store.LobbyNewsOf, newsTests)
}

// addNews adds news of id for player, saying data, and returns it as
// stored.
func addNews(t *testing.T, s store.LobbyNews, id, player string) *store.News {
	t.Helper()
	n := &store.News{ID: id, Player: player, Data: []byte(`{"kind":"seated","game":"` + id + `","bytes":"\u0000ñ"}`)}
	if err := s.AddNews(t.Context(), n); err != nil {
		t.Fatalf("AddNews(%s): %v", id, err)
	}
	return n
}

// newsIDs returns the ids of news, space-separated.
func newsIDs(ns []*store.News) string {
	var b bytes.Buffer
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n.ID)
	}
	return b.String()
}

var newsTests = []newsTest{
	{"news reads back as added, oldest first, from a time", func(t *testing.T, s store.LobbyNews, again func() store.LobbyNews) {
		before := time.Now().Add(-time.Second)
		other := again()
		var added []*store.News
		for i, id := range []string{"n1", "n2", "n3"} {
			on := s
			if i == 1 {
				on = other // news added through another store is read alike
			}
			added = append(added, addNews(t, on, id, "account:"+id))
		}
		for i, n := range added {
			if n.At.Before(before) || i > 0 && n.At.Before(added[i-1].At) {
				t.Errorf("news %s at %v: want a time from %v on, not before the news added before it", n.ID, n.At, before)
			}
		}
		all, err := s.News(t.Context(), before, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := newsIDs(all); got != "n1 n2 n3" {
			t.Fatalf("News = %s, want n1 n2 n3", got)
		}
		for i, n := range all {
			want := added[i]
			if n.Player != want.Player || !bytes.Equal(n.Data, want.Data) || !n.At.Equal(want.At) {
				t.Errorf("News %d = %+v, want %+v", i, n, want)
			}
		}
		for _, tc := range []struct {
			since time.Time
			limit int
			want  string
		}{
			{added[1].At, 0, "n2 n3"},
			{added[2].At.Add(time.Microsecond), 0, ""},
			{before, 2, "n1 n2"},
		} {
			got, err := other.News(t.Context(), tc.since, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if newsIDs(got) != tc.want {
				t.Errorf("News(%v, %d) = %q, want %q", tc.since, tc.limit, newsIDs(got), tc.want)
			}
		}
	}},
	{"bad news is refused and stores nothing", func(t *testing.T, s store.LobbyNews, _ func() store.LobbyNews) {
		before := time.Now().Add(-time.Second)
		addNews(t, s, "n1", "p")
		for _, bad := range []*store.News{
			{ID: "n1", Player: "q", Data: []byte("{}")},
			{Player: "q", Data: []byte("{}")},
			{ID: "n2", Data: []byte("{}")},
			{ID: "n3", Player: "q"},
		} {
			err := s.AddNews(t.Context(), bad)
			if err == nil {
				t.Errorf("AddNews(%+v): no error", bad)
			}
			if bad.ID == "n1" && !errors.Is(err, store.ErrConflict) {
				t.Errorf("AddNews of an id taken: %v, want ErrConflict", err)
			}
		}
		if got, err := s.News(t.Context(), before, 0); err != nil || newsIDs(got) != "n1" || got[0].Player != "p" {
			t.Errorf("News after the refusals = %q, %v; want n1 of p alone", newsIDs(got), err)
		}
	}},
	{"old news expires", func(t *testing.T, s store.LobbyNews, _ func() store.LobbyNews) {
		before := time.Now().Add(-time.Second)
		var last *store.News
		for i := range 3 {
			last = addNews(t, s, fmt.Sprintf("n%d", i), "p")
		}
		if n, err := s.ExpireNews(t.Context(), last.At); err != nil || n != 2 {
			t.Errorf("ExpireNews(the last's time) = %d, %v; want 2", n, err)
		}
		if got, err := s.News(t.Context(), before, 0); err != nil || newsIDs(got) != "n2" {
			t.Errorf("News after the expiry = %q, %v; want n2", newsIDs(got), err)
		}
	}},
}
