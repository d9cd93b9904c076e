package server

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/chaturaji/chaturaji/store"
)

// settings is what the store keeps of a game's settings: its Table, and
// the client that created it, which counts the game against that client's
// quota of games of bots alone across restarts. No answer shows Creator.
type settings struct {
	Table
	Creator string `json:"creator,omitempty"` // creatorKey of the client's address; "" for games from before it was kept
}

// creatorKey is what a game keeps of the address of the client that
// created it: a hash, enough to count a client's games, so that the
// database shows no address.
func creatorKey(addr string) string {
	h := sha256.Sum256([]byte("chaturaji creator " + addr))
	return hex.EncodeToString(h[:12])
}

// botsAlone reports whether bots hold every seat: no person is waiting for
// the game, which then counts against its creator's quota
// (Config.MaxBotGamesPerClient) and the server's (Config.MaxBotGames), and
// whose bots wait behind those of games with a human.
func botsAlone(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Player == Human {
			return false
		}
	}
	return true
}

// reserved counts the games of bots alone being created: admitted, not
// yet running.
type reserved struct {
	all int
	by  map[string]int // by creatorKey
}

// admitBotGame reserves room for one more game of bots alone, created by
// the client with key creator, within the server's and the client's
// limits; release gives the reservation up once the game is running (or
// could not be created). Live games count as they are now: those whose
// humans all left count too.
func (s *Server) admitBotGame(creator string) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, mine := s.pending.all, s.pending.by[creator]
	for _, l := range s.games {
		if l.botsAlone.Load() && l.state.Load().Status == string(store.Live) {
			all++
			if l.creator == creator {
				mine++
			}
		}
	}
	if mine >= s.cfg.MaxBotGamesPerClient {
		return nil, Errorf(ETOOMANY, "too many games without a human seat from your address: the limit is %d live at once; take a seat in one, or wait for one to end", s.cfg.MaxBotGamesPerClient)
	}
	if all >= s.cfg.MaxBotGames {
		return nil, Errorf(EUNAVAILABLE, "the server has %d live games without a human seat, its limit; try again later, or take a seat in a game", all)
	}
	if s.pending.by == nil {
		s.pending.by = make(map[string]int)
	}
	s.pending.all++
	s.pending.by[creator]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.pending.all--
		if s.pending.by[creator]--; s.pending.by[creator] <= 0 {
			delete(s.pending.by, creator)
		}
	}, nil
}
