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
	Hosts   []int  `json:"hosts,omitempty"`   // the seats whose tokens the creator took (claim.go); none for games from before invites
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

// reserved counts the games being created: admitted, not yet running.
type reserved struct {
	bots   int            // games of bots alone
	by     map[string]int // all games, by creatorKey
	botsBy map[string]int // games of bots alone, by creatorKey
}

// admit reserves room for one more game created by the client with key
// creator, within its quota of live games (Config.MaxGamesPerClient) and,
// for a game of bots alone, within the server's and the client's limits
// of those (MaxBotGames, MaxBotGamesPerClient); release gives the
// reservation up once the game is running (or could not be created). Live
// games count as they are now: a game whose humans all left counts as one
// of bots alone.
func (s *Server) admit(creator string, bots bool) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine, allBots, mineBots := s.pending.by[creator], s.pending.bots, s.pending.botsBy[creator]
	for _, l := range s.games {
		if l.state.Load().Status != string(store.Live) {
			continue
		}
		alone := l.botsAlone.Load()
		if alone {
			allBots++
		}
		if l.creator == creator {
			mine++
			if alone {
				mineBots++
			}
		}
	}
	if mine >= s.cfg.MaxGamesPerClient {
		return nil, Errorf(ETOOMANY, "too many live games from your address: the limit is %d at once; finish or leave one first", s.cfg.MaxGamesPerClient)
	}
	if bots && mineBots >= s.cfg.MaxBotGamesPerClient {
		return nil, Errorf(ETOOMANY, "too many games without a human seat from your address: the limit is %d live at once; take a seat in one, or wait for one to end", s.cfg.MaxBotGamesPerClient)
	}
	if bots && allBots >= s.cfg.MaxBotGames {
		return nil, Errorf(EUNAVAILABLE, "the server has %d live games without a human seat, its limit; try again later, or take a seat in a game", allBots)
	}
	if s.pending.by == nil {
		s.pending.by, s.pending.botsBy = make(map[string]int), make(map[string]int)
	}
	count := func(d int) {
		s.pending.by[creator] += d
		if s.pending.by[creator] <= 0 {
			delete(s.pending.by, creator)
		}
		if bots {
			s.pending.bots += d
			if s.pending.botsBy[creator] += d; s.pending.botsBy[creator] <= 0 {
				delete(s.pending.botsBy, creator)
			}
		}
	}
	count(1)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		count(-1)
	}, nil
}
