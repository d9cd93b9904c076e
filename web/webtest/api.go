package webtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	presets "github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// API calls a game server's API at Base, such as "http://127.0.0.1:8080".
type API struct {
	Base string // the server's URL, without a trailing slash
	// Pace is a pause before each request, to stay under a real server's
	// rate limit (tests configure theirs away).
	Pace time.Duration
}

// Create starts a game.
func (a API) Create(ng server.NewGame) (*server.Created, error) {
	var c server.Created
	if err := a.call("POST", "/api/games", "", ng, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// State reads a game's state.
func (a API) State(id string) (*server.State, error) {
	var st server.State
	err := a.call("GET", "/api/games/"+id, "", nil, &st)
	return &st, err
}

// Events reads a game's events.
func (a API) Events(id string) ([]server.Event, error) {
	var out struct {
		Events []server.Event `json:"events"`
	}
	err := a.call("GET", "/api/games/"+id+"/events", "", nil, &out)
	return out.Events, err
}

// Act plays an action for the seat that token opens.
func (a API) Act(id, token, action string) error {
	return a.call("POST", "/api/games/"+id+"/actions", token, server.Message{Action: action}, nil)
}

func (a API) call(method, path, token string, body, out any) error {
	time.Sleep(a.Pace)
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.Base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Steer plays games of a preset whose every seat is human, through the
// API, until one reaches a decision that want accepts; it returns that
// game, whose tokens open every seat, and its state. Its players are
// bloodthirsty: a capture of a king (royal, the preset's royal letter)
// first, any capture next, else a random action, so that the decisions
// that follow a king's capture (exchanges, drops, returns) come soon.
// It gives up after tries games.
func (a API) Steer(rules string, seats int, royal byte, want func(*server.State) bool, seed uint64, tries int) (*server.Created, *server.State, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range tries {
		c, st, err := a.play(rules, seats, royal, want, rng)
		if err != nil || st.Status == "live" {
			return c, st, err
		}
	}
	return nil, nil, fmt.Errorf("webtest: %d games of %s ended without the decision wanted", tries, rules)
}

// Finish plays a game of a preset to its end as Steer does and returns
// it, finished.
func (a API) Finish(rules string, seats int, royal byte, seed uint64) (*server.State, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	_, st, err := a.play(rules, seats, royal, func(*server.State) bool { return false }, rng)
	return st, err
}

// play plays one game until want accepts its state or it ends; the API
// holds every seat (pass and play).
func (a API) play(rules string, seats int, royal byte, want func(*server.State) bool, rng *rand.Rand) (*server.Created, *server.State, error) {
	pr, err := presets.Lookup(rules)
	if err != nil {
		return nil, nil, err
	}
	ng := server.NewGame{Rules: rules}
	for _, seat := range pr.Seats()[:seats] {
		ng.Seats = append(ng.Seats, "human")
		ng.HostSeats = append(ng.HostSeats, seat.String())
	}
	c, err := a.Create(ng)
	if err != nil {
		return nil, nil, err
	}
	tokens := map[string]string{}
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
	}
	for {
		st, err := a.State(c.ID)
		if err != nil {
			return nil, nil, err
		}
		if st.Status != "live" || want(st) {
			return c, st, nil
		}
		if len(st.Actions) == 0 {
			return nil, nil, fmt.Errorf("webtest: game %s is live but nobody has an action: %+v", c.ID, st)
		}
		if err := a.Act(c.ID, tokens[st.ToAct], bloodthirsty(st, royal, rng)); err != nil {
			return nil, nil, err
		}
	}
}

// bloodthirsty picks a capture of a king, else a capture, else any action.
func bloodthirsty(st *server.State, royal byte, rng *rand.Rand) string {
	board := Board(st.Position)
	var kings, captures []string
	for _, act := range st.Actions {
		if len(act) < 4 || act[2] < 'a' || act[2] > 'h' {
			continue
		}
		if p := board[act[2:4]]; p != "" {
			captures = append(captures, act)
			if p[1] == royal {
				kings = append(kings, act)
			}
		}
	}
	for _, list := range [][]string{kings, captures, st.Actions} {
		if len(list) > 0 {
			return list[rng.IntN(len(list))]
		}
	}
	return ""
}

// Board reads the board field of a position: the pieces by square, as
// "bK" (colour letter, piece letter).
func Board(pos string) map[string]string {
	out := map[string]string{}
	field, _, _ := strings.Cut(pos, " ")
	for i, rank := range strings.Split(field, "/") {
		f := 0
		for j := 0; j < len(rank); {
			c := rank[j]
			if c >= '1' && c <= '8' {
				f += int(c - '0')
				j++
				continue
			}
			if j+1 < len(rank) {
				out[fmt.Sprintf("%c%d", 'a'+f, 8-i)] = rank[j : j+2]
			}
			f++
			j += 2
		}
	}
	return out
}
