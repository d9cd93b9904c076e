package lobby_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
)

func TestParsePool(t *testing.T) {
	for _, tc := range []struct {
		key   string
		want  lobby.Pool
		canon string
		shape lobby.Shape
	}{
		{"chaturaji/15s/rated", lobby.Pool{Rules: "chaturaji", Turn: 15 * time.Second, Rated: true}, "chaturaji/15s/rated", lobby.Shape{Seats: 4}},
		{"chaturaji/90s/casual", lobby.Pool{Rules: "chaturaji", Turn: 90 * time.Second}, "chaturaji/1m30s/casual", lobby.Shape{Seats: 4}},
		{"chaturaji/1500ms/casual", lobby.Pool{Rules: "chaturaji", Turn: 1500 * time.Millisecond}, "chaturaji/1.5s/casual", lobby.Shape{Seats: 4}},
		{"chaturaji/24h/rated", lobby.Pool{Rules: "chaturaji", Turn: lobby.Correspondence, Rated: true}, "chaturaji/1d/rated", lobby.Shape{Seats: 4}},
		{"chaturaji/7d/rated", lobby.Pool{Rules: "chaturaji", Turn: 7 * 24 * time.Hour, Rated: true}, "chaturaji/7d/rated", lobby.Shape{Seats: 4}},
		{"chaturaji+triumph=off+ranks/10s/casual", lobby.Pool{Rules: "chaturaji+ranks+triumph=off", Turn: 10 * time.Second}, "chaturaji+ranks+triumph=off/10s/casual", lobby.Shape{Seats: 4}},
		{"chaturanga-2p/1d/casual", lobby.Pool{Rules: "chaturanga-2p", Turn: lobby.Correspondence}, "chaturanga-2p/1d/casual", lobby.Shape{Seats: 2}},
		{"chaturaji-teams/20s/rated", lobby.Pool{Rules: "chaturaji-teams", Turn: 20 * time.Second, Rated: true}, "chaturaji-teams/20s/rated", lobby.Shape{Seats: 4, Teams: true}},
		{"winther/20s/casual", lobby.Pool{Rules: "winther", Turn: 20 * time.Second}, "winther/20s/casual", lobby.Shape{Seats: 4, Teams: true}},
	} {
		p, err := lobby.ParsePool(tc.key)
		if err != nil {
			t.Errorf("ParsePool(%q): %v", tc.key, err)
			continue
		}
		if p != tc.want || p.String() != tc.canon {
			t.Errorf("ParsePool(%q) = %+v (%s), want %+v (%s)", tc.key, p, p, tc.want, tc.canon)
		}
		if sh, err := p.Shape(); err != nil || sh != tc.shape {
			t.Errorf("%s: Shape = %+v, %v; want %+v", tc.key, sh, err, tc.shape)
		}
	}
}

func TestParsePoolRefuses(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"chaturaji/15s", "want RULES/TURN/rated"},
		{"chaturaji/15s/rated/x", "want RULES/TURN/rated"},
		{"chaturaji/15s/ranked", `"ranked" is neither rated nor casual`},
		{"chess/15s/rated", `unknown preset "chess"`},
		{"chaturaji+nosuch/15s/rated", "nosuch"},
		{"chaturaji/500ms/rated", "from 1s to 7d"},
		{"chaturaji/8d/rated", "whole days from 1d to 7d"},
		{"chaturaji/01d/rated", "whole days"},
		{"chaturaji/0d/rated", "whole days"},
		{"chaturaji/1.0001s/rated", "whole milliseconds"},
		{"chaturaji/fast/rated", "a duration such as"},
		{"chaturaji/" + strings.Repeat("1", 200) + "s/rated", "over the limit of 200"},
	} {
		_, err := lobby.ParsePool(tc.key)
		if !errors.Is(err, lobby.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePool(%q): %v, want ErrInvalid saying %q", tc.key, err, tc.want)
		}
	}
}

// FuzzParsePool checks that ParsePool refuses with ErrInvalid or returns
// a pool whose key reads back as the same pool, and is its own
// canonical form.
func FuzzParsePool(f *testing.F) {
	for _, k := range []string{"chaturaji/15s/rated", "chaturaji+ranks+dice=2cube/1d/casual", "chaturaji-teams/1m30s/rated",
		"chaturanga-2p/1.5s/casual", "chaturaji/24h/rated", "chaturaji//", "/1s/rated", "chaturaji+clock=0100/1s/casual"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		p, err := lobby.ParsePool(key)
		if err != nil {
			if !errors.Is(err, lobby.ErrInvalid) || !strings.HasPrefix(err.Error(), "lobby: ") {
				t.Fatalf("ParsePool(%q): %v, want a lobby error of ErrInvalid", key, err)
			}
			return
		}
		canon := p.String()
		q, err := lobby.ParsePool(canon)
		if err != nil || q != p || q.String() != canon {
			t.Fatalf("ParsePool(%q) = %+v, whose key %q reads back as %+v, %v", key, p, canon, q, err)
		}
		if p.Turn < lobby.MinTurn || p.Turn > lobby.MaxTurn || len(canon) > lobby.MaxPoolKey {
			t.Fatalf("ParsePool(%q) = %+v: out of the limits", key, p)
		}
	})
}
