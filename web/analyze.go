package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/rules"
)

// AnalyzeRequest is the body of POST /web/analyze.
type AnalyzeRequest struct {
	Rules      string `json:"rules"`       // the preset, "chaturaji" if empty
	Pos        string `json:"pos"`         // the position, in notation
	MovetimeMS int64  `json:"movetime_ms"` // how long to think; 0 and anything over the limit mean the limit
}

// Analysis is the answer of POST /web/analyze: the strong bot's view of a
// position.
type Analysis struct {
	// Best is the action it would play and Line the principal line from it,
	// both empty when no one has a decision to take (the position awaits its
	// roll, or the game is over).
	Best string   `json:"best"`
	Line []string `json:"line"` // starts with Best; never null
	// Expected is each seat's expected final score, in seat order; for a
	// position awaiting its roll, the mean over the rolls; for a finished
	// game, the final scores.
	Expected  []float64 `json:"expected"`
	Depth     int       `json:"depth"`      // the depth reached; 0 for a position awaiting its roll
	Nodes     int64     `json:"nodes"`      // the nodes searched, summed over the rolls
	ElapsedMS int64     `json:"elapsed_ms"` // the analysis's wall-clock time, in milliseconds
}

// analyst is one worker's search player, made when first needed and kept,
// with its transposition table, for later requests. A request owns it while
// it runs.
type analyst struct {
	player ai.Analyzer
}

func (a *analyst) analyzer() (ai.Analyzer, error) {
	if a.player != nil {
		return a.player, nil
	}
	p, err := ai.New("strong", 1)
	if err != nil {
		return nil, err
	}
	an, ok := p.(ai.Analyzer)
	if !ok {
		return nil, fmt.Errorf("web: the strong player (%T) does not analyze", p)
	}
	a.player = an
	return an, nil
}

// handleAnalyze is POST /web/analyze: at most Options.AnalyzeWorkers run at
// once, each for at most Options.AnalyzeTime; a request that finds every
// worker busy for Options.AnalyzeWait is refused with 503, and one for the
// position of a live game whose table turned engine help off with 403
// (server.Server.HelpOff).
func (s *site) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var req AnalyzeRequest
	if status, err := s.readJSON(w, r, &req); err != nil {
		fail(w, status, "%v", err)
		return
	}
	name := req.Rules
	if name == "" {
		name = "chaturaji"
	}
	pr, err := rules.Lookup(name)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	p, err := rules.ParsePosition(pr, req.Pos)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	if s.helpOff != nil && s.helpOff(p.String()) {
		fail(w, http.StatusForbidden, "no analysis of this position: it is the position of a live game whose table turned engine help off")
		return
	}
	budget := s.opts.AnalyzeTime
	if req.MovetimeMS < 0 {
		fail(w, http.StatusBadRequest, "movetime_ms %d: want 0 (the limit) or more", req.MovetimeMS)
		return
	}
	if t := time.Duration(req.MovetimeMS) * time.Millisecond; t > 0 && t < budget {
		budget = t
	}
	if p.Finished() {
		writeJSON(w, http.StatusOK, &Analysis{Line: []string{}, Expected: finalScores(p)})
		return
	}
	wait := time.NewTimer(s.opts.AnalyzeWait)
	defer wait.Stop()
	var a *analyst
	select {
	case a = <-s.analysts:
	case <-wait.C:
		fail(w, http.StatusServiceUnavailable, "every analyst is busy; try again in a moment")
		return
	case <-r.Context().Done():
		return
	}
	defer func() { s.analysts <- a }()
	an, err := a.analyzer()
	if err != nil {
		s.opts.Logger.Error("analyze", "err", err)
		fail(w, http.StatusInternalServerError, "internal error")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), budget+time.Second)
	defer cancel()
	res, err := analyze(ctx, an, p, budget)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		s.opts.Logger.Error("analyze", "pos", req.Pos, "err", err)
		fail(w, http.StatusInternalServerError, "the analysis failed")
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// analyze searches p for at most budget. A position awaiting its roll is
// searched once for each roll it may get, in the time shared among them,
// and its expected scores are the mean over the rolls (review.Expected).
func analyze(ctx context.Context, an ai.Analyzer, p *rules.Position, budget time.Duration) (*Analysis, error) {
	pr := p.Preset()
	start := time.Now()
	out := &Analysis{Line: []string{}, Expected: make([]float64, len(pr.Seats()))}
	if !p.AwaitingRoll() {
		a, err := an.Analyze(ctx, p, ai.Budget{Time: budget})
		if err != nil {
			return nil, err
		}
		out.Best = a.Best.Format(pr)
		for _, act := range a.Line {
			out.Line = append(out.Line, act.Format(pr))
		}
		for i, s := range pr.Seats() {
			out.Expected[i] = a.Expected[s]
		}
		out.Depth, out.Nodes = a.Depth, a.Nodes
		out.ElapsedMS = time.Since(start).Milliseconds()
		return out, nil
	}
	exp, nodes, err := review.Expected(ctx, an, p, ai.Budget{Time: budget})
	if err != nil {
		return nil, err
	}
	for i, s := range pr.Seats() {
		out.Expected[i] = exp[s]
	}
	out.Nodes = nodes
	out.ElapsedMS = time.Since(start).Milliseconds()
	return out, nil
}

// finalScores returns a finished game's scores, in seat order.
func finalScores(p *rules.Position) []float64 {
	seats := p.Preset().Seats()
	out := make([]float64, len(seats))
	for i, s := range seats {
		out[i] = float64(p.Score(s))
	}
	return out
}
