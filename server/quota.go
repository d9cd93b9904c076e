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
	// Rematch is the finished game whose rematch this game is: its Hosts
	// are then the seats of that game's players who came back, not of a
	// creator. "" for a game created with POST /api/games.
	Rematch string `json:"rematch,omitempty"`
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

// counts returns the live games created by the client with key creator,
// those of them in which bots hold every seat, and those on the server,
// game except left out, reservations included. Live games count as they
// are now: a game whose humans all left counts as one of bots alone. The
// caller holds s.mu.
func (s *Server) counts(creator string, except *live) (mine, mineBots, allBots int) {
	mine, allBots, mineBots = s.pending.by[creator], s.pending.bots, s.pending.botsBy[creator]
	for _, l := range s.games {
		if l == except || l.state.Load().Status != string(store.Live) {
			continue
		}
		// A game being given to bots counts once, as one of bots alone,
		// before and after its snapshot says so.
		alone := l.botsAlone.Load() || l.becomingAlone.Load()
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
	return mine, mineBots, allBots
}

// roomForBots returns the error, nil if none, of one more game of bots
// alone from the client with key creator: over its quota
// (MaxBotGamesPerClient) or over the server's (MaxBotGames). The caller
// holds s.mu.
func (s *Server) roomForBots(mineBots, allBots int) error {
	if mineBots >= s.cfg.MaxBotGamesPerClient {
		return Errorf(ETOOMANY, "too many games without a human seat from your address: the limit is %d live at once; take a seat in one, or wait for one to end", s.cfg.MaxBotGamesPerClient)
	}
	if allBots >= s.cfg.MaxBotGames {
		return Errorf(EUNAVAILABLE, "the server has %d live games without a human seat, its limit; try again later, or take a seat in a game", allBots)
	}
	return nil
}

// admit reserves room for one more game created by the client with key
// creator, within its quota of live games (Config.MaxGamesPerClient) and,
// for a game of bots alone, within the server's and the client's limits
// of those (MaxBotGames, MaxBotGamesPerClient); release gives the
// reservation up once the game is running (or could not be created).
func (s *Server) admit(creator string, bots bool) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine, mineBots, allBots := s.counts(creator, nil)
	if mine >= s.cfg.MaxGamesPerClient {
		return nil, Errorf(ETOOMANY, "too many live games from your address: the limit is %d at once; finish or leave one first", s.cfg.MaxGamesPerClient)
	}
	if bots {
		if err := s.roomForBots(mineBots, allBots); err != nil {
			return nil, err
		}
	}
	return s.reserve(creator, bots), nil
}

// admitAlone reserves room for live game l, which has a human seat, to
// become one of bots alone as bots take its last human seats: within its
// creator's quota of those and the server's, as a new game of bots alone
// would be. Otherwise it returns the error admit would give, and l ends
// (abandon) instead: a table its people left must not push the counts past
// their limits, nor lock out the games of bots others ask for. release
// gives the reservation up once the seats are taken, l counting as a game
// of bots alone from then on.
func (s *Server) admitAlone(l *live) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, mineBots, allBots := s.counts(l.creator, l)
	if err := s.roomForBots(mineBots, allBots); err != nil {
		return nil, err
	}
	l.becomingAlone.Store(true)
	return func() { l.becomingAlone.Store(false) }, nil
}

// reserve counts a game being created by creator until the returned
// release is called. The caller holds s.mu.
func (s *Server) reserve(creator string, bots bool) (release func()) {
	if s.pending.by == nil {
		s.pending.by, s.pending.botsBy = make(map[string]int), make(map[string]int)
	}
	count := func(d int) {
		if s.pending.by[creator] += d; s.pending.by[creator] <= 0 {
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
	}
}
