package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

const (
	// HandshakeTimeout bounds the wait for `chaturajiok` and `readyok`
	// after an engine starts.
	HandshakeTimeout = 10 * time.Second
	// DefaultPatience is a new Client's Patience.
	DefaultPatience = 30 * time.Second
	// stopWait is how long the client waits for bestaction after stop
	// before it kills the engine.
	stopWait = time.Second
	// quitWait is how long Close waits for the engine to exit after quit.
	quitWait = time.Second
)

// Client is the host side of the protocol: an engine running as a
// subprocess, used as an ai.Player (and ai.Analyzer). It makes one decision
// at a time; it is not safe for concurrent use.
//
// Each decision sends the position (already rolled) and a go command with the
// budget, then waits for bestaction until the context ends or, at the latest,
// the budget's time plus Patience. When it stops waiting it sends stop and
// gives the engine a second to answer; an engine that does not is killed,
// and every later decision fails. So does every decision after the engine
// exits. An illegal or malformed bestaction is an error of that decision.
type Client struct {
	// Patience is how long past its budget's time the client waits for
	// bestaction (with a node budget only: how long in all). A host that
	// wants it shorter passes a context with a deadline.
	Patience time.Duration

	cmdline string
	name    string
	author  string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // the engine's standard output; closed at its end
	quit    chan struct{} // closed when the client stops listening
	exited  chan struct{} // closed once the process has been waited for
	exitErr error         // its exit status, once exited is closed
	stderr  *tail

	started bool          // newgame has been sent
	preset  *rules.Preset // the preset of the last rules command sent
	broken  error         // set once the engine cannot be used any more
	close   sync.Once
}

// NewClient starts the engine that cmdline names, a program and its
// arguments separated by blanks (no quoting), and performs the handshake.
// A program that does not start, exits, or does not finish the handshake
// within HandshakeTimeout is an error naming it.
func NewClient(cmdline string) (*Client, error) {
	return Start(context.Background(), cmdline)
}

// Start is NewClient with a context that can cut the handshake short; the
// context does not outlive the handshake.
func Start(ctx context.Context, cmdline string) (*Client, error) {
	args := strings.Fields(cmdline)
	if len(args) == 0 {
		return nil, errors.New("engine: empty command line")
	}
	c := &Client{
		Patience: DefaultPatience,
		cmdline:  cmdline,
		name:     cmdline,
		lines:    make(chan string, 64),
		quit:     make(chan struct{}),
		exited:   make(chan struct{}),
		stderr:   &tail{max: 1024},
	}
	c.cmd = exec.Command(args[0], args[1:]...)
	c.cmd.Stderr = c.stderr
	c.cmd.WaitDelay = time.Second
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("engine: %s: %v", cmdline, err)
	}
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("engine: %s: %v", cmdline, err)
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine: cannot start %s: %v", cmdline, err)
	}
	go c.read(stdout)
	if err := c.handshake(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// read copies the engine's standard output into c.lines, then waits for the
// process.
func (c *Client) read(stdout io.Reader) {
	readLines(stdout, c.lines, c.quit)
	c.exitErr = c.cmd.Wait()
	close(c.exited)
}

// handshake sends chaturaji and isready and waits for their answers.
func (c *Client) handshake(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	if err := c.send("chaturaji"); err != nil {
		return err
	}
	for {
		line, err := c.next(ctx, "chaturajiok")
		if err != nil {
			return err
		}
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "id" && f[1] == "name":
			c.name = strings.Join(f[2:], " ")
		case len(f) >= 2 && f[0] == "id" && f[1] == "author":
			c.author = strings.Join(f[2:], " ")
		case len(f) == 1 && f[0] == "chaturajiok":
			if err := c.send("isready"); err != nil {
				return err
			}
			for {
				line, err := c.next(ctx, "readyok")
				if err != nil {
					return err
				}
				if strings.TrimSpace(line) == "readyok" {
					return nil
				}
			}
		}
	}
}

// Name returns the engine's name, as its `id name` gives it (the command
// line if it gave none).
func (c *Client) Name() string { return c.name }

// Author returns the engine's `id author`, if it gave one.
func (c *Client) Author() string { return c.author }

// Choose sends the position and the budget and returns the engine's
// bestaction.
func (c *Client) Choose(ctx context.Context, p *rules.Position, b ai.Budget) (rules.Action, error) {
	a, err := c.Analyze(ctx, p, b)
	return a.Best, err
}

// Analyze is Choose that also returns what the engine's last info line said
// (depth, nodes, time, expected scores, principal line) with its best action.
func (c *Client) Analyze(ctx context.Context, p *rules.Position, b ai.Budget) (ai.Analysis, error) {
	var a ai.Analysis
	if c.broken != nil {
		return a, c.broken
	}
	switch {
	case b.Time <= 0 && b.Nodes <= 0:
		return a, errors.New("engine: a decision needs a time or node budget")
	case p.Finished() || p.AwaitingRoll():
		return a, fmt.Errorf("engine: nothing to decide in %s", p)
	}
	pr := p.Preset()
	var cmds []string
	if !c.started {
		cmds, c.started = append(cmds, "newgame"), true
	}
	if c.preset != pr {
		cmds, c.preset = append(cmds, "rules "+pr.Name), pr
	}
	cmds = append(cmds, "position "+p.String(), formatGo(b))
	if err := c.send(cmds...); err != nil {
		return a, err
	}
	limit := time.NewTimer(b.Time + c.Patience)
	defer limit.Stop()
	ans := &answer{p: p}
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-c.lines:
			if !ok {
				return ans.a, c.fail(c.exitError())
			}
		case <-ctx.Done():
			return ans.a, c.abandon(fmt.Errorf("engine: %s: no bestaction before the host's deadline (%v)", c.cmdline, context.Cause(ctx)))
		case <-limit.C:
			return ans.a, c.abandon(fmt.Errorf("engine: %s: no bestaction within %v", c.cmdline, b.Time+c.Patience))
		}
		done, err := ans.read(line)
		if err != nil {
			return ans.a, fmt.Errorf("engine: %s: %w", c.cmdline, err)
		}
		if done {
			return ans.a, nil
		}
	}
}

// answer is an engine's answer to go in position p, read line by line:
// info lines, then the bestaction.
type answer struct {
	p          *rules.Position
	a          ai.Analysis // the last good info line's, then the best action
	complaints []string    // malformed info lines and "info string error: ..."
}

// read takes one line of the answer and reports whether it was the
// bestaction, a legal one of p. Lines it does not know are skipped; an
// info line it cannot read is a complaint, shown if no action comes.
func (ans *answer) read(line string) (done bool, err error) {
	pr := ans.p.Preset()
	f := strings.Fields(line)
	if len(f) == 0 {
		return false, nil
	}
	switch f[0] {
	case "info":
		var got ai.Analysis
		text, err := parseInfo(pr, f[1:], &got)
		switch {
		case err != nil:
			ans.complaints = append(ans.complaints, err.Error())
		case text != "":
			if msg, isErr := strings.CutPrefix(text, "error: "); isErr {
				ans.complaints = append(ans.complaints, msg)
			}
		default:
			ans.a = got
		}
	case "bestaction":
		if len(f) != 2 {
			return false, fmt.Errorf("malformed reply %q", line)
		}
		if f[1] == "none" {
			why := "it gave no reason"
			if len(ans.complaints) > 0 {
				why = strings.Join(ans.complaints, "; ")
			}
			return false, fmt.Errorf("no action: %s", why)
		}
		act, err := rules.ParseAction(pr, f[1])
		if err != nil || !ans.p.IsLegal(act) {
			return false, fmt.Errorf("illegal bestaction %q in %s", f[1], ans.p)
		}
		ans.a.Best = act
		if len(ans.a.Line) == 0 || ans.a.Line[0] != act {
			ans.a.Line = []rules.Action{act}
		}
		return true, nil
	}
	return false, nil
}

// abandon stops a search the client no longer waits for: it sends stop and
// waits a second for the bestaction, so that the next decision starts in
// step; an engine that does not answer is killed. It returns err.
func (c *Client) abandon(err error) error {
	if c.send("stop") != nil {
		return err
	}
	deadline := time.NewTimer(stopWait)
	defer deadline.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.fail(c.exitError())
				return err
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == "bestaction" {
				return err
			}
		case <-deadline.C:
			c.fail(fmt.Errorf("engine: %s does not answer stop; killed it", c.cmdline))
			c.kill()
			return err
		}
	}
}

// Close sends quit and waits a second for the engine to exit; then it kills
// it. It is safe to call more than once.
func (c *Client) Close() error {
	c.close.Do(func() {
		c.send("quit")
		c.stdin.Close()
		c.stopListening()
		select {
		case <-c.exited:
		case <-time.After(quitWait):
			c.kill()
		}
		if c.broken == nil {
			c.broken = fmt.Errorf("engine: %s: closed", c.cmdline)
		}
	})
	return nil
}

// kill ends the process and waits for it.
func (c *Client) kill() {
	c.cmd.Process.Kill()
	c.stdin.Close()
	c.stopListening()
	<-c.exited
}

// stopListening tells the reader to drop the engine's output.
func (c *Client) stopListening() {
	select {
	case <-c.quit:
	default:
		close(c.quit)
	}
}

// next returns the engine's next line, or an error if it exits or the
// context ends first; want names what the client waits for.
func (c *Client) next(ctx context.Context, want string) (string, error) {
	select {
	case line, ok := <-c.lines:
		if !ok {
			return "", c.exitError()
		}
		return line, nil
	case <-ctx.Done():
		return "", fmt.Errorf("engine: %s: no %s in time (%v)%s", c.cmdline, want, context.Cause(ctx), c.stderrTail())
	}
}

// send writes lines to the engine.
func (c *Client) send(lines ...string) error {
	if c.broken != nil {
		return c.broken
	}
	if _, err := io.WriteString(c.stdin, strings.Join(lines, "\n")+"\n"); err != nil {
		return c.fail(c.exitError())
	}
	return nil
}

// fail marks the engine as unusable, with err as the reason, and returns err.
func (c *Client) fail(err error) error {
	if c.broken == nil {
		c.broken = err
	}
	return c.broken
}

// exitError describes the engine's end, once its output has ended.
func (c *Client) exitError() error {
	select {
	case <-c.exited:
	case <-time.After(quitWait):
		c.kill()
	}
	status := "exit status 0"
	if c.exitErr != nil {
		status = c.exitErr.Error()
	}
	return fmt.Errorf("engine: %s exited (%s)%s", c.cmdline, status, c.stderrTail())
}

func (c *Client) stderrTail() string {
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return fmt.Sprintf("; its standard error ends: %q", s)
	}
	return ""
}

// readLines sends each line of r to lines, without its line break, and
// closes lines at the end of r. Once quit is closed it drops the lines but
// reads on, so that the process is not blocked writing.
func readLines(r io.Reader, lines chan<- string, quit <-chan struct{}) {
	defer close(lines)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			select {
			case lines <- strings.TrimRight(line, "\r\n"):
			case <-quit:
			}
		}
		if err != nil {
			return
		}
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
