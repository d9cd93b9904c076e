package server

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// bot is the player of one bot seat. Its mutex keeps a search player, which
// is not safe for concurrent use, to one search at a time.
type bot struct {
	mu     sync.Mutex
	player ai.Player
	quick  bool   // it chooses at once, without searching: it needs no worker slot
	label  string // its kind or level, for the metrics (botLabel)
}

// quickBot reports whether an ai.New spec names a player that does not
// search (random, greedy): it answers in microseconds, so it never waits
// for a worker slot behind other games' searches.
func quickBot(spec string) bool {
	name, _, _ := strings.Cut(spec, "?")
	name = strings.TrimPrefix(name, "level:")
	return name == "random" || name == "greedy"
}

// choose asks the player for its action. A player that panics fails this
// decision instead of the server.
func (b *bot) choose(ctx context.Context, p *rules.Position, budget ai.Budget) (a rules.Action, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("bot %s panicked: %v", b.player.Name(), v)
		}
	}()
	return b.player.Choose(ctx, p, budget)
}

// botFor returns seat i's bot, making it when first needed, seeded from the
// game's seed, the seat and the event number (botSeed).
func (l *live) botFor(i int, spec string) (*bot, error) {
	if b := l.bots[i]; b != nil {
		return b, nil
	}
	p, err := ai.New(spec, botSeed(l.game.Seed(), i, l.seq))
	if err != nil {
		return nil, err
	}
	l.bots[i] = &bot{player: p, quick: quickBot(spec), label: botLabel(spec)}
	return l.bots[i], nil
}

// botSeed returns the seed of the bot made for seat i at event seq: a hash
// of the game's dice seed, so that a game replays the same, but one from
// which nothing of the dice seed can be learned. The bots' choices are
// public and their generators are not cryptographic: seeded with bytes of
// the dice seed, a watcher able to recover their state would learn the
// seed and every roll to come.
func botSeed(seed rules.Seed, i int, seq int64) uint64 {
	var b [len(rules.Seed{}) + 16]byte
	copy(b[:], seed[:])
	binary.BigEndian.PutUint64(b[len(seed):], uint64(i))
	binary.BigEndian.PutUint64(b[len(seed)+8:], uint64(seq))
	h := sha256.Sum256(append([]byte("chaturaji bot seed "), b[:]...))
	return binary.BigEndian.Uint64(h[:8])
}

// think starts the bot of the seat that decides, if a bot decides and is
// not already thinking. It thinks in its own goroutine, waiting its game's
// turn for one of the server's Config.BotWorkers (see scheduler), and hands
// its choice to the loop like any action; it is cancelled when the game
// moves on or the server shuts down.
func (l *live) think() {
	if !l.owned.Load() {
		return
	}
	seat, i := l.decider()
	if i < 0 || l.thinking == l.seq || !l.retryAt.IsZero() {
		return
	}
	spec, ok := botSpec(l.info.Seats[i].Player)
	if !ok {
		return
	}
	l.cancelBot()
	b, err := l.botFor(i, spec)
	if err != nil {
		l.srv.log.Error("making bot; a random player stands in", "game", l.id, "seat", seat.String(), "spec", spec, "err", err)
		b = &bot{player: ai.NewRandom(rand.Uint64()), quick: true, label: "random"}
		l.bots[i] = b
	}
	ctx, cancel := context.WithCancel(l.srv.ctx)
	l.thinking, l.stopBot = l.seq, cancel
	if p := l.game.Position(); l.table.AutoPass && onlyPass(p) {
		// A forced pass the bot delay holds back (advance): nothing to
		// think about, but people watching see the bot's turn go by. It is
		// handed to the loop as a bot's choice is, never played here:
		// think runs while the events that opened the decision are being
		// committed, before they are published.
		seq := l.seq
		go l.post(ctx, func() { l.botChose(ctx, seq, seat, rules.PassAction, ByAuto) })
		return
	}
	tier := tierHuman
	if l.botsAlone.Load() {
		tier = tierBots
	}
	go l.srv.runBot(ctx, l, b, l.game.Position(), seat, l.seq, tier)
}

// cancelBot stops the bot thinking, or waiting to play its action, if
// any.
func (l *live) cancelBot() {
	l.stopBotTimer()
	if l.stopBot != nil {
		l.stopBot()
		l.stopBot = nil
	}
	l.thinking = -1
}

// runBot lets a bot choose in position p, which it owns, and hands the
// choice to the loop. A searching bot first waits for a worker from the
// server's scheduler, in its game's tier, so that the searches of all games
// share the CPUs fairly and games with humans go first, and searches with
// memory from the server's pool (Config.BotMemory); a quick one does
// neither.
func (s *Server) runBot(ctx context.Context, l *live, b *bot, p *rules.Position, seat rules.Seat, seq int64, tier int) {
	budget := ai.Budget{Time: s.cfg.BotTime}
	if !b.quick {
		if !s.bots.acquire(ctx, l.id, tier) {
			return
		}
		budget.Memory = s.memory
	}
	t0 := time.Now()
	a, err := b.choose(ctx, p, budget)
	took := time.Since(t0)
	if !b.quick {
		s.bots.release()
	}
	if ctx.Err() != nil {
		return
	}
	s.metrics.decided(b.label, took)
	if err != nil || !p.IsLegal(a) {
		s.log.Error("bot failed; playing a random action", "game", l.id, "seat", seat.String(), "err", err)
		var buf [rules.MaxActions]rules.Action
		acts := p.Actions(buf[:])
		if len(acts) == 0 {
			return
		}
		a = acts[rand.IntN(len(acts))]
	}
	l.post(ctx, func() { l.botChose(ctx, seq, seat, a, ByBot) })
}

// botChose plays the action a bot chose at event seq (by ByBot), or its
// forced pass (by ByAuto), once the table's bot delay has passed since the
// decision opened (the event before it), so that bots play at a pace
// people can follow (none once nobody plays: botDelay); until then the
// loop's bot timer waits, and the loop goes on with other work. The bot's
// thinking counts toward the delay.
func (l *live) botChose(ctx context.Context, seq int64, seat rules.Seat, a rules.Action, by string) {
	if l.thinking != seq || l.seq != seq {
		return // the game moved on
	}
	if wait := time.Until(l.updated.Add(l.botDelay())); wait > 0 {
		l.stopBotTimer()
		l.botTimer = time.AfterFunc(wait, func() {
			l.post(ctx, func() { l.botChose(ctx, seq, seat, a, by) })
		})
		return
	}
	l.cancelBot()
	if err := l.play(seat, a, by); err == nil && by == ByBot {
		l.srv.metrics.botMoves.Inc()
	}
}

// botPaced reports whether seat s's forced passes wait the bot delay: a
// bot holds the seat and its actions wait a bot delay (botDelay).
func (l *live) botPaced(s rules.Seat) bool {
	i := seatIndex(l.pr, s)
	_, bot := botSpec(l.info.Seats[i].Player)
	return bot && l.botDelay() > 0
}

// onlyPass reports whether pass is the only legal action of position p.
func onlyPass(p *rules.Position) bool {
	var buf [rules.MaxActions]rules.Action
	acts := p.Actions(buf[:])
	return len(acts) == 1 && acts[0] == rules.PassAction
}

// stopBotTimer stops the wait of a bot's chosen action, if any.
func (l *live) stopBotTimer() {
	if l.botTimer != nil {
		l.botTimer.Stop()
		l.botTimer = nil
	}
}
