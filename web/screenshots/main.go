// Command screenshots regenerates the pictures of the web client in
// docs/screenshots: the home page, a game in progress (in the light and
// the dark colour scheme), a game over, a replay, and a game and a game
// over on a phone. It runs a game server with the client on a
// fresh temporary database, plays the games through the API and the
// pages, and photographs them in headless Chromium (Debian's chromium, or
// $CHROMIUM_PATH).
//
//	go run ./web/screenshots [-out docs/screenshots]
//
// `make screenshots` runs it. The dice are new each time, so are the
// pictures.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

func main() {
	out := flag.String("out", "docs/screenshots", "the directory to write the PNG files to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

// shooter photographs pages of one site.
type shooter struct {
	site    *webtest.Site
	browser *webtest.Browser
	out     string
}

func run(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "chaturaji-screenshots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := webtest.Config()
	cfg.BotTime = 60 * time.Millisecond
	site, err := webtest.NewSite(dir, cfg)
	if err != nil {
		return err
	}
	defer site.Close()
	b, err := webtest.NewBrowser()
	if err != nil {
		return err
	}
	defer b.Close()
	s := &shooter{site: site, browser: b, out: out}

	over, err := s.finishedGame()
	if err != nil {
		return fmt.Errorf("playing a game to its end: %w", err)
	}
	live, err := s.gameInProgress()
	if err != nil {
		return fmt.Errorf("playing a game: %w", err)
	}
	// Another table waits for its friends, for the list of live games.
	if _, err := site.Create(server.NewGame{Seats: []string{"human", "human", "bot:5", "bot:5"}, HostSeats: []string{"South"}, Names: []string{"Meera", "Tom"}, TurnMS: 60000}); err != nil {
		return err
	}
	for _, step := range []func() error{
		func() error { return s.home() },
		func() error { return s.game(live) },
		func() error { return s.over(over) },
		func() error { return s.replay(over) },
		func() error { return s.phone(live) },
		func() error { return s.dark(live) },
		func() error { return s.phoneOver(over) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// finishedGame lets four named bots play a game to its end.
func (s *shooter) finishedGame() (string, error) {
	c, err := s.site.Create(server.NewGame{
		Seats: []string{"bot:4", "bot:greedy", "bot:3", "bot:greedy"},
		Names: []string{"Asha", "Bhima", "Chandra", "Devika"},
	})
	if err != nil {
		return "", err
	}
	for range 600 {
		st, err := s.site.State(c.ID)
		if err != nil {
			return "", err
		}
		if st.Status == "finished" {
			return c.ID, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", fmt.Errorf("game %s is still going after a minute", c.ID)
}

// live is a game with a human seat whose token the pages use.
type live struct {
	id, token string
}

// gameInProgress plays South, on a chess clock, against three bots through the API, a capture
// whenever it can, until every seat has moved a few times and South has a
// move to choose.
func (s *shooter) gameInProgress() (live, error) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 10 {
		// A chess clock: ten minutes for the game, five seconds more a move.
		c, err := s.site.Create(server.NewGame{Seats: []string{"human", "bot:3", "bot:3", "bot:3"}, Names: []string{"Ravi"}, BankMS: 600000, IncrementMS: 5000})
		if err != nil {
			return live{}, err
		}
		g := live{id: c.ID, token: c.Seats[0].Token}
		for moves := 0; ; {
			st, err := s.site.State(c.ID)
			if err != nil {
				return g, err
			}
			if st.Status != "live" {
				break // another game
			}
			if st.ToAct != "South" || len(st.Actions) == 0 {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if moves >= 6 && len(st.Actions) > 2 {
				return g, nil
			}
			if err := s.site.Act(c.ID, g.token, capture(st, rng)); err != nil {
				return g, err
			}
			moves++
		}
	}
	return live{}, fmt.Errorf("ten games ended before the picture")
}

// capture picks a capture if there is one, else a random action other
// than pass.
func capture(st *server.State, rng *rand.Rand) string {
	board := webtest.Board(st.Position)
	var caps, moves []string
	for _, a := range st.Actions {
		if len(a) >= 4 && a[2] >= 'a' && a[2] <= 'h' {
			moves = append(moves, a)
			if board[a[2:4]] != "" {
				caps = append(caps, a)
			}
		}
	}
	switch {
	case len(caps) > 0:
		return caps[rng.IntN(len(caps))]
	case len(moves) > 0:
		return moves[rng.IntN(len(moves))]
	}
	return st.Actions[0]
}

// tab opens a page in the light colour scheme, runs its steps and saves a
// picture of it.
func (s *shooter) tab(name string, width, height int64, mobile bool, url string, steps ...string) error {
	return s.shoot(name, "light", width, height, mobile, url, steps...)
}

// shoot opens a page in a colour scheme ("light" or "dark"), runs its
// steps and saves a picture of it.
func (s *shooter) shoot(name, scheme string, width, height int64, mobile bool, url string, steps ...string) error {
	p, err := s.browser.Tab(width, height, mobile)
	if err != nil {
		return err
	}
	defer p.Close()
	if err := p.ColorScheme(scheme); err != nil {
		return err
	}
	if err := p.Go(url); err != nil {
		return err
	}
	for _, js := range steps {
		switch {
		case strings.HasPrefix(js, "click "):
			// a click in the page itself, which does not scroll it
			_, err = webtest.Eval[bool](p, fmt.Sprintf(`(document.querySelector(%q).click(), true)`, strings.TrimPrefix(js, "click ")))
		case js == "select":
			// the last piece the roll allows, to show where it may go
			var sq string
			sq, err = webtest.Eval[string](p, `[...document.querySelectorAll('#board rect.movable')].pop().dataset.square`)
			if err == nil {
				err = p.ClickSquare(sq)
			}
		case strings.HasPrefix(js, "sleep "):
			d, _ := time.ParseDuration(strings.TrimPrefix(js, "sleep "))
			time.Sleep(d)
		default:
			err = p.Wait(js, 20*time.Second)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if _, err := webtest.Eval[bool](p, `(scrollTo(0, 0), true)`); err != nil {
		return err
	}
	time.Sleep(100 * time.Millisecond)
	if errs := p.Errors(); len(errs) > 0 {
		return fmt.Errorf("%s: the page reported errors:\n%s", name, strings.Join(errs, "\n"))
	}
	png, err := p.Screenshot()
	if err != nil {
		return err
	}
	path := filepath.Join(s.out, name+".png")
	fmt.Println("wrote", path)
	return os.WriteFile(path, png, 0o644)
}

func (s *shooter) home() error {
	return s.tab("home", 1280, 860, false, s.site.URL+"/",
		`document.querySelectorAll('#live-games li.game-item').length >= 2 && document.querySelector('#recent-games li.game-item')`,
		"sleep 300ms")
}

func (s *shooter) game(g live) error {
	return s.tab("game", 1280, 860, false, fmt.Sprintf("%s/game/%s#seat=South&token=%s", s.site.URL, g.id, g.token),
		`document.querySelector('svg.board.can-act') && document.querySelector('#board rect.movable')`,
		"click #analysis-toggle",
		`document.querySelectorAll('#evalbar .eval-seg').length === 4`,
		"select", `document.querySelector('#board circle.dest')`,
		"sleep 700ms")
}

func (s *shooter) over(id string) error {
	return s.tab("game-over", 1280, 860, false, s.site.URL+"/game/"+id,
		`document.querySelector('#over:not([hidden]) .ranking')`, "sleep 300ms")
}

func (s *shooter) replay(id string) error {
	return s.tab("replay", 1280, 860, false, s.site.URL+"/replay/"+id,
		`document.body.dataset.step`,
		`(() => { const s = document.querySelector('#slider'); s.value = Math.round(s.max * 0.6); s.dispatchEvent(new Event('input')); return true; })()`,
		"click #verify",
		`document.querySelector('#verify-result.ok')`,
		"sleep 300ms")
}

func (s *shooter) phone(g live) error {
	return s.tab("phone", 390, 844, true, fmt.Sprintf("%s/game/%s#seat=South&token=%s", s.site.URL, g.id, g.token),
		`document.querySelector('svg.board.can-act') && document.querySelector('#board rect.movable')`,
		"sleep 700ms")
}

func (s *shooter) dark(g live) error {
	return s.shoot("game-dark", "dark", 1280, 860, false, fmt.Sprintf("%s/game/%s#seat=South&token=%s", s.site.URL, g.id, g.token),
		`document.querySelector('svg.board.can-act') && document.querySelector('#board rect.movable')`,
		"select", `document.querySelector('#board circle.dest')`,
		"sleep 700ms")
}

func (s *shooter) phoneOver(id string) error {
	return s.tab("phone-over", 390, 844, true, s.site.URL+"/game/"+id,
		`document.querySelector('#over:not([hidden]) .ranking')`, "sleep 300ms")
}
