package webtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/chaturaji/chaturaji/server"
)

// PlayOut plays a live game to its end through the API, as Finish does
// (a capture of a king first, any capture next, else a random action),
// each action sent with the token of the seat to act, from tokens (by
// seat name): the seats' own players acting, as their pages would. It
// returns the finished game.
func (a API) PlayOut(id string, tokens map[string]string, royal byte, seed uint64) (*server.State, error) {
	rng := rand.New(rand.NewPCG(seed, 2))
	for {
		st, err := a.State(id)
		if err != nil {
			return nil, err
		}
		if st.Status != "live" {
			return st, nil
		}
		if len(st.Actions) == 0 {
			return nil, fmt.Errorf("webtest: game %s is live but nobody has an action: %+v", id, st)
		}
		token, ok := tokens[st.ToAct]
		if !ok {
			return nil, fmt.Errorf("webtest: game %s waits for %s, whose token is not given", id, st.ToAct)
		}
		if err := a.Act(id, token, bloodthirsty(st, royal, rng)); err != nil {
			return nil, err
		}
	}
}
