package engine_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/engine"
	"github.com/chaturaji/chaturaji/rules"
)

// fakeEnv names the environment variable that turns the test binary into an
// engine: "greedy" and "strong" serve those players; the others misbehave
// as their names say.
const fakeEnv = "CHATURAJI_TEST_ENGINE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeEngine(mode))
	}
	os.Exit(m.Run())
}

func fakeEngine(mode string) int {
	switch mode {
	case "greedy", "strong":
		p, err := ai.New(mode, 1)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := engine.Serve(os.Stdin, os.Stdout, p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "mute":
		// Reads everything, says nothing.
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
		}
		return 0
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch strings.Fields(sc.Text() + " x")[0] {
		case "chaturaji":
			fmt.Println("id name fake " + mode)
			fmt.Println("option name Style type string default odd")
			fmt.Println("chaturajiok")
		case "isready":
			fmt.Println("readyok")
		case "quit":
			return 0
		case "go":
			switch mode {
			case "illegal":
				fmt.Println("info depth 1 nodes 1 score 1,2,3,4 pv a1a1")
				fmt.Println("bestaction h8h1")
			case "garbage":
				fmt.Println("bestaction e4!")
			case "refuses":
				fmt.Println("info string error: I do not play on Tuesdays")
				fmt.Println("bestaction none")
			case "crash":
				fmt.Fprintln(os.Stderr, "panic: the fake engine crashed")
				return 3
			case "silent":
				// Never answers, not even stop.
			}
		}
	}
	return 0
}

// startFake starts the test binary as an engine in the given mode.
func startFake(t *testing.T, mode string) *engine.Client {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	c, err := engine.NewClient(os.Args[0])
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func rolled(t *testing.T, s string) *rules.Position {
	t.Helper()
	p, err := rules.ParsePosition(rules.Chaturaji, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClientPlays(t *testing.T) {
	c := startFake(t, "greedy")
	if got := c.Name(); got != "chaturaji greedy" {
		t.Errorf("Name() = %q, want %q", got, "chaturaji greedy")
	}
	if got := c.Author(); got != engine.Author {
		t.Errorf("Author() = %q, want %q", got, engine.Author)
	}
	ctx := context.Background()
	for i, s := range []string{capture, start, capture} {
		p := rolled(t, s)
		a, err := c.Choose(ctx, p, ai.Budget{Time: time.Second})
		if err != nil {
			t.Fatalf("decision %d: %v", i+1, err)
		}
		if !p.IsLegal(a) {
			t.Errorf("decision %d: illegal %s", i+1, a)
		}
		if s == capture && a.String() != "d1d8" {
			t.Errorf("decision %d: %s, want d1d8", i+1, a)
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := c.Choose(ctx, rolled(t, start), ai.Budget{Nodes: 1}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Choose after Close: %v, want an error saying it is closed", err)
	}
}

func TestClientAnalyzes(t *testing.T) {
	c := startFake(t, "strong")
	a, err := c.Analyze(context.Background(), rolled(t, capture), ai.Budget{Nodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if a.Best.String() != "d1d8" || a.Depth < 1 || a.Nodes < 1 || len(a.Line) == 0 || a.Line[0] != a.Best {
		t.Errorf("Analyze = %+v, want best d1d8 with a depth, nodes and a line from it", a)
	}
	if a.Expected[rules.South] < 54 {
		t.Errorf("South's expected score %.2f, want at least 54 (it takes the last other king)", a.Expected[rules.South])
	}
}

func TestClientFailures(t *testing.T) {
	tests := []struct {
		mode    string
		budget  ai.Budget
		want    string // in the error
		dead    bool   // later decisions fail too
		wantDie string // in the later decisions' error
	}{
		{"illegal", ai.Budget{Nodes: 10}, `illegal bestaction "h8h1" in 3gK4/8/8/8/8/8/8/yP2bE3bK b 4 0,0,0,0 0`, false, ""},
		{"garbage", ai.Budget{Nodes: 10}, `illegal bestaction "e4!"`, false, ""},
		{"refuses", ai.Budget{Nodes: 10}, `no action: I do not play on Tuesdays`, false, ""},
		{"crash", ai.Budget{Nodes: 10}, `exited (exit status 3); its standard error ends: "panic: the fake engine crashed"`, true, "exited (exit status 3)"},
		{"silent", ai.Budget{Time: time.Millisecond}, `no bestaction within`, true, "does not answer stop; killed it"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			c := startFake(t, tt.mode)
			if tt.mode == "silent" {
				c.Patience = 20 * time.Millisecond // the others answer, however slowly
			}
			p := rolled(t, capture)
			_, err := c.Choose(context.Background(), p, tt.budget)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "engine: ") {
				t.Fatalf("Choose: %v, want an error with %q", err, tt.want)
			}
			_, err = c.Choose(context.Background(), p, tt.budget)
			switch {
			case tt.dead && (err == nil || !strings.Contains(err.Error(), tt.wantDie)):
				t.Errorf("second Choose: %v, want an error with %q", err, tt.wantDie)
			case !tt.dead && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("second Choose: %v, want the same error again", err)
			}
		})
	}
}

func TestClientHostDeadline(t *testing.T) {
	c := startFake(t, "silent")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := c.Choose(ctx, rolled(t, capture), ai.Budget{Time: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no bestaction before the host's deadline (context deadline exceeded)") {
		t.Errorf("Choose: %v, want the host's deadline named", err)
	}
}

func TestClientStartFailures(t *testing.T) {
	t.Run("no such program", func(t *testing.T) {
		_, err := engine.NewClient("/nonexistent/engine --fast")
		if err == nil || !strings.HasPrefix(err.Error(), "engine: cannot start /nonexistent/engine --fast: ") {
			t.Errorf("NewClient: %v", err)
		}
	})
	t.Run("empty command line", func(t *testing.T) {
		if _, err := engine.NewClient("  "); err == nil || err.Error() != "engine: empty command line" {
			t.Errorf("NewClient: %v", err)
		}
	})
	t.Run("no handshake", func(t *testing.T) {
		t.Setenv(fakeEnv, "mute")
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := engine.Start(ctx, os.Args[0])
		if err == nil || !strings.Contains(err.Error(), "no chaturajiok in time") {
			t.Errorf("Start: %v", err)
		}
	})
	t.Run("exits at once", func(t *testing.T) {
		_, err := engine.NewClient("false")
		if err == nil || err.Error() != "engine: false exited (exit status 1)" {
			t.Errorf("NewClient: %v", err)
		}
	})
}
