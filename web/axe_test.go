package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// axeVersion is the axe-core that scripts/axe.sh installs from the npm
// registry: the accessibility rules every page must pass.
const axeVersion = "4.14.1"

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// axeScript returns axe.min.js: from $CHATURAJI_AXE, else from where
// scripts/axe.sh installs it. The test fails without it, saying how to
// install it.
func axeScript(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		path := os.Getenv("CHATURAJI_AXE")
		if path == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				axeErr = err
				return
			}
			path = filepath.Join(cache, "chaturaji", "axe-core@"+axeVersion, "node_modules", "axe-core", "axe.min.js")
		}
		data, err := os.ReadFile(path)
		if err != nil {
			axeErr = fmt.Errorf("no axe-core at %s: run `bash scripts/axe.sh` (it runs npm install axe-core@%s into that cache) or set CHATURAJI_AXE to an axe.min.js", path, axeVersion)
			return
		}
		if !strings.HasPrefix(string(data), "/*! axe v"+axeVersion) {
			axeErr = fmt.Errorf("%s is not axe-core %s: run `bash scripts/axe.sh`", path, axeVersion)
			return
		}
		axeSource = string(data)
	})
	if axeErr != nil {
		t.Fatalf("the accessibility test needs axe-core: %v", axeErr)
	}
	return axeSource
}

// axeViolation is one rule a page breaks, as axe-core reports it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axeCheck runs axe-core's rules (WCAG 2.x A and AA and best practices)
// on the page as it stands and returns its violations, one line each.
func axeCheck(t *testing.T, p *webtest.Page) []string {
	t.Helper()
	if !eval[bool](t, p, `typeof window.axe === 'object'`) {
		eval[bool](t, p, axeScript(t)+"\n;true")
	}
	// Let every transition end: axe reads the colours as drawn.
	must(t, p.Wait(`document.getAnimations().filter(a => a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity).length === 0`, 5*time.Second))
	js := `axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})
		.then(r => JSON.stringify(r.violations))`
	raw := eval[string](t, p, js)
	var vs []axeViolation
	must(t, json.Unmarshal([]byte(raw), &vs))
	var out []string
	for _, v := range vs {
		for _, n := range v.Nodes {
			out = append(out, fmt.Sprintf("%s (%s): %s\n    at %v\n    %s", v.ID, v.Impact, v.Help, n.Target, strings.ReplaceAll(n.Summary, "\n", "\n    ")))
		}
	}
	return out
}

// TestAccessibility runs axe-core on the home page, a live game (the
// player's turn, a piece picked), a replay and a rules page, on a computer
// and on a phone, in the light and the dark colour scheme: no violations.
func TestAccessibility(t *testing.T) {
	axeScript(t)
	site := newSite(t)
	done, err := site.Finish("chaturaji", 4, 'K', 8)
	must(t, err)
	for _, scheme := range []string{"light", "dark"} {
		for _, size := range []struct {
			w, h   int64
			mobile bool
		}{{1366, 800, false}, {390, 844, true}} {
			where := fmt.Sprintf("%s, %dx%d", scheme, size.w, size.h)
			t.Run(where, func(t *testing.T) {
				p := newPage(t, size.w, size.h, size.mobile)
				must(t, p.ColorScheme(scheme))
				report := func(page string) {
					t.Helper()
					if bad := axeCheck(t, p); len(bad) > 0 {
						t.Errorf("%s (%s): %d accessibility violations:\n%s", page, where, len(bad), strings.Join(bad, "\n"))
					}
				}

				must(t, p.Go(site.URL+"/"))
				must(t, p.Wait(`document.querySelector('#recent-games li.game-item') && document.querySelector('#seat-West')`, 10*time.Second))
				report("home")

				// A live game at the player's turn, a piece picked.
				southsTurn(t, site, p, server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, Names: []string{"Ann"}, TurnMS: 600000})
				from := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
				must(t, p.ClickSquare(from))
				must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
				report("game")

				must(t, p.Go(site.URL+"/game/"+done.ID))
				must(t, p.Wait(`document.querySelector('#over:not([hidden]) .ranking')`, 10*time.Second))
				report("game over")

				must(t, p.Go(site.URL+"/replay/"+done.ID))
				must(t, p.Wait(`document.body.dataset.step && document.querySelectorAll('#score-chart .score-line').length === 4`, 10*time.Second))
				report("replay")

				must(t, p.Go(site.URL+"/rules/chaturaji"))
				must(t, p.Wait(`document.querySelector('#rules-text h2') && document.querySelector('#start-board g.piece')`, 10*time.Second))
				report("rules")
			})
		}
	}
}
