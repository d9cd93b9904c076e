package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// Author is what Serve sends as `id author`.
const Author = "the Chaturaji project"

// Serve speaks the engine side of the protocol: it reads the host's commands
// from r and writes the replies to w, deciding with player. Its `id name` is
// "chaturaji " followed by the player's name; it declares no options.
//
// A player that is an ai.Analyzer is asked to Analyze: its analysis is sent
// as one info line and its best action as the bestaction. Other players are
// asked to Choose and send no info.
//
// A command Serve cannot carry out is answered with `info string error: ...`
// and otherwise ignored. Serve returns after `quit`, which stops a running
// search, or at the end of r, which lets it finish and sends its bestaction
// (so a script of commands ending in go gets its answer). It returns an
// error only when it cannot read r or write w.
func Serve(r io.Reader, w io.Writer, player ai.Player) error {
	s := &server{
		out:    bufio.NewWriter(w),
		player: player,
		preset: rules.Chaturaji,
	}
	lines := make(chan string)
	readErr := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-quit:
				return
			}
		}
		readErr <- sc.Err()
	}()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				if s.cancel != nil {
					s.finish(<-s.done)
				}
				if err := s.flush(); err != nil {
					return err
				}
				return <-readErr
			}
			if s.command(line) {
				s.stop()
				return s.flush()
			}
		case res := <-s.done:
			s.finish(res)
		}
		if err := s.flush(); err != nil {
			return err
		}
	}
}

// server is the state of one Serve.
type server struct {
	out      *bufio.Writer
	writeErr error
	player   ai.Player

	preset *rules.Preset    // nil after a failed rules command
	pos    *rules.Position  // nil: none, or the last one was rejected
	cancel func()           // ends the running search; nil when idle
	done   chan searchReply // the running search's reply
}

// searchReply is what a search sends back: the lines to write.
type searchReply struct {
	lines []string
}

func (s *server) send(format string, args ...any) {
	fmt.Fprintf(s.out, format+"\n", args...)
}

func (s *server) fail(format string, args ...any) {
	s.send("info string error: "+format, args...)
}

func (s *server) flush() error {
	if err := s.out.Flush(); err != nil && s.writeErr == nil {
		s.writeErr = err
	}
	return s.writeErr
}

// command carries out one line and reports whether it was quit.
func (s *server) command(line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	word, args := fields[0], fields[1:]
	searching := s.cancel != nil
	switch word {
	case "quit":
		return true
	case "isready":
		s.send("readyok")
		return false
	case "stop":
		if searching {
			s.cancel()
		}
		return false
	case "chaturaji":
		s.send("id name chaturaji %s", s.player.Name())
		s.send("id author %s", Author)
		s.send("chaturajiok")
		return false
	case "newgame", "rules", "position", "go", "setoption":
		if searching {
			s.fail("%s while searching: send stop and wait for bestaction first", word)
			return false
		}
	default:
		s.fail("unknown command %q", word)
		return false
	}
	switch word {
	case "newgame":
	case "setoption":
		name, _, _ := strings.Cut(strings.Join(args, " "), " value")
		s.fail("unknown option %q (this engine has none)", strings.TrimSpace(strings.TrimPrefix(name, "name")))
	case "rules":
		s.pos = nil
		if len(args) != 1 {
			s.preset = nil
			s.fail("rules: want one preset NAME")
			return false
		}
		pr, err := rules.Lookup(args[0])
		if err != nil {
			s.preset = nil
			s.fail("rules %q: unknown preset (known: %s)", args[0], strings.Join(rules.Names(), ", "))
			return false
		}
		s.preset = pr
	case "position":
		s.position(strings.Join(args, " "))
	case "go":
		s.start(args)
	}
	return false
}

// position takes the position to decide in.
func (s *server) position(text string) {
	s.pos = nil
	if s.preset == nil {
		s.fail("position: no rules (the last rules command failed)")
		return
	}
	p, err := rules.ParsePosition(s.preset, text)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "rules: ")
		if !strings.HasPrefix(msg, "position") {
			msg = "position: " + msg
		}
		s.fail("%s", msg)
		return
	}
	switch {
	case p.Finished():
		s.fail("position: the game is over (%s)", p.EndReason())
		return
	case p.AwaitingRoll():
		s.fail("position: the dice field is -: the host must roll before it asks for a decision")
		return
	}
	s.pos = p
}

// start begins a search of the position, or answers bestaction none.
func (s *server) start(args []string) {
	b, err := parseGo(args)
	if err == nil && s.pos == nil {
		err = fmt.Errorf("go: no position (send position POS first)")
	}
	if err != nil {
		s.fail("%v", err)
		s.send("bestaction none")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done = make(chan searchReply, 1)
	p, player, done := *s.pos, s.player, s.done
	go func() { done <- decide(ctx, player, &p, b) }()
}

// decide asks the player for its action and returns the reply's lines.
func decide(ctx context.Context, player ai.Player, p *rules.Position, b ai.Budget) searchReply {
	pr := p.Preset()
	var best rules.Action
	var info string
	var err error
	if an, ok := player.(ai.Analyzer); ok {
		var a ai.Analysis
		if a, err = an.Analyze(ctx, p, b); err == nil {
			best, info = a.Best, formatInfo(pr, a)
		}
	} else {
		best, err = player.Choose(ctx, p, b)
	}
	switch {
	case err != nil:
		return searchReply{[]string{"info string error: " + err.Error(), "bestaction none"}}
	case info != "":
		return searchReply{[]string{info, "bestaction " + best.Format(pr)}}
	}
	return searchReply{[]string{"bestaction " + best.Format(pr)}}
}

// finish writes a search's reply.
func (s *server) finish(res searchReply) {
	s.cancel()
	s.cancel, s.done = nil, nil
	for _, l := range res.lines {
		s.send("%s", l)
	}
}

// stop ends the running search, if any, and writes its reply.
func (s *server) stop() {
	if s.cancel != nil {
		s.cancel()
		s.finish(<-s.done)
	}
}
