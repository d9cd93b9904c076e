package learn

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// Sample is one decision of a self-play game: the position as the decider
// saw it, rolled, with the search's estimate of each seat's final score
// and the scores the game ended with, indexed by seat.
type Sample struct {
	Position string                  // in notation
	Search   [rules.NumSeats]float64 // the search's estimate of the final scores
	Final    [rules.NumSeats]float64 // the final scores
}

// GameSeed returns the dice seed of game i of a run with seed base, as
// `chaturaji selfplay` derives it.
func GameSeed(base rules.Seed, i uint64) rules.Seed {
	msg := append(base[:], "game"...)
	return sha256.Sum256(binary.BigEndian.AppendUint64(msg, i))
}

// PlayGame plays game i of the run: the player cfg.Player plays every
// seat, searching each decision with cfg.Nodes nodes and playing the best
// action, or with probability cfg.Random a random one. Forced actions are
// played without a search and give no sample.
func PlayGame(ctx context.Context, cfg *Config, i uint64) ([]Sample, error) {
	seed := GameSeed(cfg.Seed, i)
	pl, err := ai.New(cfg.Player, binary.BigEndian.Uint64(seed[:8]))
	if err != nil {
		return nil, err
	}
	an, ok := pl.(ai.Analyzer)
	if !ok {
		return nil, fmt.Errorf("learn: player %q does not search", cfg.Player)
	}
	rng := rand.New(rand.NewChaCha8(sha256.Sum256(append(seed[:], "random"...))))
	g := rules.NewGame(cfg.Preset, seed)
	var buf [rules.MaxActions]rules.Action
	var out []Sample
	for !g.Finished() {
		for g.Position().AwaitingRoll() {
			if _, err := g.Roll(); err != nil {
				return nil, err
			}
		}
		p := g.Position()
		acts := p.Actions(buf[:])
		a := acts[0]
		if len(acts) > 1 {
			res, err := an.Analyze(ctx, p, ai.Budget{Nodes: cfg.Nodes})
			if err != nil {
				return nil, err
			}
			out = append(out, Sample{Position: p.String(), Search: res.Expected})
			a = res.Best
			if rng.Float64() < cfg.Random {
				a = acts[rng.IntN(len(acts))]
			}
		}
		if err := g.Play(a); err != nil {
			return nil, err
		}
	}
	end := g.Position()
	var final [rules.NumSeats]float64
	for _, s := range cfg.Preset.Seats() {
		final[s] = float64(end.Score(s))
	}
	for j := range out {
		out[j].Final = final
	}
	return out, nil
}

// The samples file is text: a header line naming the settings that made
// it, then each game's samples in the order of the games, one a line,
// "position<TAB>search values", and an end line, "end N<TAB>final scores",
// with the game's number. Values are separated by blanks.

// samplesHeader is the first line of a samples file made with cfg.
func samplesHeader(cfg *Config) string {
	return fmt.Sprintf("# chaturaji train samples: rules %s, seed %s, player %s, nodes %d, random %g",
		cfg.Preset.Name, cfg.Seed, cfg.Player, cfg.Nodes, cfg.Random)
}

// writeGame writes one game's samples.
func writeGame(w io.Writer, i int, samples []Sample) error {
	var b strings.Builder
	for _, s := range samples {
		b.WriteString(s.Position)
		b.WriteByte('\t')
		writeValues(&b, s.Search)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "end %d\t", i)
	var final [rules.NumSeats]float64
	if len(samples) > 0 {
		final = samples[0].Final
	}
	writeValues(&b, final)
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

func writeValues(b *strings.Builder, v [rules.NumSeats]float64) {
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(x, 'f', 3, 64))
	}
}

// ReadSamples reads a samples file's complete games: their samples, game
// by game. It also returns the length of the file's complete part, where
// the games of an interrupted run stop.
func ReadSamples(r io.Reader, header string) (games [][]Sample, size int64, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var game []Sample
	var pending int64 // the bytes of the game being read
	line := 0
	for {
		text, err := br.ReadString('\n')
		if err == io.EOF {
			return games, size, nil // a line cut short is dropped
		}
		if err != nil {
			return nil, 0, err
		}
		line++
		n := int64(len(text))
		text = strings.TrimSuffix(text, "\n")
		switch {
		case line == 1:
			if text != header {
				return nil, 0, fmt.Errorf("learn: samples made with other settings: %q, want %q", text, header)
			}
			size += n
			continue
		case strings.HasPrefix(text, "end "):
			num, vals, _ := strings.Cut(text[4:], "\t")
			i, err := strconv.Atoi(num)
			if err != nil || i != len(games) {
				return nil, 0, fmt.Errorf("learn: samples line %d: game %q, want %d", line, num, len(games))
			}
			final, err := parseValues(vals)
			if err != nil {
				return nil, 0, fmt.Errorf("learn: samples line %d: %v", line, err)
			}
			for j := range game {
				game[j].Final = final
			}
			games = append(games, game)
			game = nil
			size += pending + n
			pending = 0
			continue
		}
		pos, vals, ok := strings.Cut(text, "\t")
		search, err := parseValues(vals)
		if !ok || err != nil {
			return nil, 0, fmt.Errorf("learn: samples line %d: want a position and %d values", line, rules.NumSeats)
		}
		game = append(game, Sample{Position: pos, Search: search})
		pending += n // joins the complete part at the game's end line
	}
}

func parseValues(s string) ([rules.NumSeats]float64, error) {
	var v [rules.NumSeats]float64
	fields := strings.Fields(s)
	if len(fields) != rules.NumSeats {
		return v, errors.New("want " + strconv.Itoa(rules.NumSeats) + " values")
	}
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return v, err
		}
		v[i] = x
	}
	return v, nil
}

// openSamples opens the samples file for the run: with resume, the games
// it holds are read and it is cut after the last complete one; otherwise
// it starts afresh with its header.
func openSamples(path string, cfg *Config, resume bool) (*os.File, [][]Sample, error) {
	header := samplesHeader(cfg)
	if resume {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err == nil {
			games, size, err := ReadSamples(f, header)
			if err == nil {
				err = f.Truncate(size)
			}
			if err == nil {
				_, err = f.Seek(size, io.SeekStart)
			}
			if err != nil {
				f.Close()
				return nil, nil, err
			}
			if size == 0 {
				_, err = io.WriteString(f, header+"\n")
			}
			return f, games, err
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, nil, err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := io.WriteString(f, header+"\n"); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, nil, nil
}
