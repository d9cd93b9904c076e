package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/server"
)

// A game's review is one request, POST /web/review with the record, rather
// than the replay asking POST /web/analyze about each position: valuing
// the action played (not only the best one) needs a search that
// /web/analyze does not offer, a game has hundreds of decisions and each
// analysis would spend one of the client's few costly requests, and one
// request lets the server bound the whole: the record by MaxBody and
// maxReviewDecisions, the searches by ReviewNodes each and ReviewTime in
// all, the reviews running at once by ReviewWorkers and those of one
// client, running or waiting, by ReviewsPerClient, and the searches
// running at once, reviews and hints together, by AnalyzeWorkers.

// The bounds of a review, whatever the options say.
const (
	maxReviewTime      = 20 * time.Second
	maxReviewNodes     = 100000
	maxReviewDecisions = 3000 // longer games are refused
)

// ReviewRequest is the body of POST /web/review.
type ReviewRequest struct {
	// Record is a finished game's record, as GET /api/games/{id}/record
	// gives it; only its first game is reviewed.
	Record string `json:"record"`
}

// handleReview is POST /web/review: the review of a finished game's
// decisions (review.Report), as far as ReviewTime allowed. A record that
// does not parse or replay, of a game not over or of more than
// maxReviewDecisions decisions is refused with 400; one over its client's
// ReviewsPerClient with 429; a review that finds every review slot taken
// for AnalyzeWait with 503. A decision at the
// position of a live game whose table turned engine help off
// (server.Server.HelpOff) is withheld, not searched (review.Withhold): a
// made-up record through that position must not give its players a hint.
func (s *site) handleReview(w http.ResponseWriter, r *http.Request) {
	var req ReviewRequest
	if status, err := s.readJSON(w, r, &req); err != nil {
		fail(w, status, "%v", err)
		return
	}
	pts, err := reviewPoints(req.Record)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	done, err := s.reviewer(server.ClientOf(r))
	if err != nil {
		fail(w, http.StatusTooManyRequests, "%v", err)
		return
	}
	defer done()
	wait := time.NewTimer(s.opts.AnalyzeWait)
	defer wait.Stop()
	select {
	case <-s.reviews:
	case <-wait.C:
		fail(w, http.StatusServiceUnavailable, "every reviewer is busy; try again in a moment")
		return
	case <-r.Context().Done():
		return
	}
	defer func() { s.reviews <- struct{}{} }()
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.ReviewTime)
	defer cancel()
	rv, err := s.review(ctx, pts)
	if r.Context().Err() != nil {
		return
	}
	if err != nil {
		s.opts.Logger.Error("review", "err", err)
		fail(w, http.StatusInternalServerError, "the review failed")
		return
	}
	writeJSON(w, http.StatusOK, rv.Report())
}

// reviewer counts a review of client c, running or waiting, within
// ReviewsPerClient; done counts it over.
func (s *site) reviewer(c netip.Prefix) (done func(), err error) {
	s.reviewMu.Lock()
	defer s.reviewMu.Unlock()
	if n := s.reviewers[c]; n >= s.opts.ReviewsPerClient {
		return nil, fmt.Errorf("you have %d reviews running or waiting, the limit of one client; try again when it is over", n)
	}
	s.reviewers[c]++
	return func() {
		s.reviewMu.Lock()
		defer s.reviewMu.Unlock()
		if s.reviewers[c]--; s.reviewers[c] <= 0 {
			delete(s.reviewers, c)
		}
	}, nil
}

// reviewPoints reads the decisions of the first game of a record, which
// must be over and have at most maxReviewDecisions decisions.
func reviewPoints(text string) ([]review.Point, error) {
	recs, err := record.ParseString(text)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("the text holds no game record")
	}
	pts, err := review.Decisions(recs[0], true)
	if err != nil {
		return nil, err
	}
	if len(pts) > maxReviewDecisions {
		return nil, fmt.Errorf("the game has %d decisions: a review takes at most %d", len(pts), maxReviewDecisions)
	}
	if len(pts) == 0 {
		return nil, errors.New("the game has no decision to review")
	}
	return pts, nil
}

// review judges the decisions in order until ctx ends, taking an analyst
// for each decision and giving it back after, so that hints waiting for
// one get it between two decisions.
func (s *site) review(ctx context.Context, pts []review.Point) (*review.Review, error) {
	start := time.Now()
	rv := &review.Review{Preset: pts[0].Position.Preset(), Total: len(pts)}
	budget := ai.Budget{Nodes: s.opts.ReviewNodes, Time: s.opts.AnalyzeTime}
	for _, pt := range pts {
		if s.helpOff != nil && s.helpOff(pt.Position.String()) {
			var prev *review.Decision
			if n := len(rv.Decisions); n > 0 {
				prev = &rv.Decisions[n-1]
			}
			rv.Decisions = append(rv.Decisions, review.Withhold(pt, prev))
			continue
		}
		var a *analyst
		select {
		case a = <-s.analysts:
		case <-ctx.Done():
		}
		if a == nil {
			break
		}
		an, err := a.analyzer()
		var d review.Decision
		if err == nil {
			d, err = review.Judge(ctx, an, pt, budget)
		}
		s.analysts <- a
		if ctx.Err() != nil {
			break // its searches were cut short: the decision is not judged
		}
		if err != nil {
			return nil, err
		}
		rv.Decisions = append(rv.Decisions, d)
		rv.Nodes += d.Nodes
	}
	rv.Turning = review.Turning(rv.Decisions, review.DefaultTurning)
	rv.Elapsed = time.Since(start)
	return rv, nil
}
