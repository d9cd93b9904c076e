package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// failover is the load test's killing of one of the nodes it started
// (--kill-after), and what it saw of the other nodes taking over.
type failover struct {
	node  *nodeProcess // the node to kill: the last
	after time.Duration

	at       time.Time // when it was killed; zero before
	orphaned int       // the live games it drove then
}

// killLater kills the node once d has passed since start and every game
// has been created (a game created on the node after it died would fail
// for that alone).
func (lt *loadTest) killLater(ctx context.Context, f *failover, games int, start time.Time) {
	select {
	case <-time.After(time.Until(start.Add(f.after))):
	case <-ctx.Done():
		return
	}
	for lt.opened.Load() < int64(games) {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			return
		}
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	f.at = f.node.kill()
	lt.killAt = f.at
	for _, g := range lt.games {
		g.mu.Lock()
		if !g.over && int(g.owner.Load()) == f.node.index {
			g.orphaned = true
			f.orphaned++
		}
		g.mu.Unlock()
	}
}

// adopted notes that node adopted the game at the time given, by its log.
func (lt *loadTest) adopted(id string, node int, at time.Time) {
	lt.mu.Lock()
	g := lt.games[id]
	lt.mu.Unlock()
	if g == nil {
		return
	}
	g.owner.Store(int32(node))
	g.mu.Lock()
	if g.adoptedAt.IsZero() {
		g.adoptedAt = at
	}
	g.mu.Unlock()
}

// heldUp reports whether the broadcast of an action sent at sent, and
// delivered at now, waited for the failover: the action was sent before
// the kill and delivered after it, or before its game, orphaned by the
// kill, was adopted. Its time is the failover's, reported apart.
func (lt *loadTest) heldUp(g *loadGame, sent, now time.Time) bool {
	if !lt.timeline {
		return false
	}
	g.mu.Lock()
	orphaned, adopted := g.orphaned, g.adoptedAt
	g.mu.Unlock()
	if orphaned && (adopted.IsZero() || sent.Before(adopted)) {
		return true
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return !lt.killAt.IsZero() && sent.Before(lt.killAt) && now.After(lt.killAt)
}

// reportFailover prints what the kill cost the games it orphaned: for
// each game another node adopted from the dead one, the time from the
// kill to the adoption (by the adopter's log) and to the first event of
// the game delivered to any of its clients after the adoption (the first
// the new driver wrote: the dead node wrote none after its death, and
// its last were delivered within milliseconds, long before its leases
// lapsed).
func (lt *loadTest) reportFailover(w io.Writer, f *failover, nodes *loadNodes, start time.Time) {
	if f.at.IsZero() {
		fmt.Fprintf(w, "failover:          node %d was not killed: the run ended first\n", f.node.index+1)
		return
	}
	dead := f.node.nodeID()
	var toAdopt, toEvent []time.Duration
	silent := 0
	by := make([]int, len(nodes.procs))
	for _, p := range nodes.procs {
		p.mu.Lock()
		adopted := slices.Clone(p.adopted)
		p.mu.Unlock()
		for _, a := range adopted {
			if dead == "" || a.from != dead {
				continue
			}
			by[p.index]++
			toAdopt = append(toAdopt, a.at.Sub(f.at))
			lt.mu.Lock()
			g := lt.games[a.game]
			lt.mu.Unlock()
			if g == nil {
				silent++
				continue
			}
			var next time.Time
			g.mu.Lock()
			last := 0 // the last event delivered before the adoption
			for i, t := range g.firsts {
				if !t.IsZero() && t.Before(a.at) {
					last = i + 1
				}
			}
			for _, t := range g.firsts[last:] {
				if !t.IsZero() && (next.IsZero() || t.Before(next)) {
					next = t
				}
			}
			g.mu.Unlock()
			if next.IsZero() {
				silent++
				continue
			}
			toEvent = append(toEvent, next.Sub(f.at))
		}
	}
	adopters := []string{}
	for i, n := range by {
		if n > 0 {
			adopters = append(adopters, fmt.Sprintf("node %d: %d", i+1, n))
		}
	}
	if len(adopters) == 0 {
		adopters = append(adopters, "none")
	}
	fmt.Fprintf(w, "failover:          node %d killed (SIGKILL) at %.1fs, lease %v; games moved %d of the %d live it drove (adopted by %s)\n",
		f.node.index+1, f.at.Sub(start).Seconds(), nodes.lease, len(toAdopt), f.orphaned, strings.Join(adopters, ", "))
	fmt.Fprintf(w, "  kill->adoption:  %s\n", quantiles(toAdopt))
	fmt.Fprintf(w, "  kill->next event at a client: %s", quantiles(toEvent))
	if silent > 0 {
		fmt.Fprintf(w, "; %d moved games without one", silent)
	}
	fmt.Fprintln(w)
	lt.mu.Lock()
	fmt.Fprintf(w, "  actions held up by the failover: %d, left out of the times above\n", lt.held)
	lt.mu.Unlock()
}

// quantiles formats p50, p99 and max of ds, sorting it.
func quantiles(ds []time.Duration) string {
	slices.Sort(ds)
	return fmt.Sprintf("p50 %s  p99 %s  max %s  (%d)", quantile(ds, 0.50), quantile(ds, 0.99), quantile(ds, 1), len(ds))
}

// quantile returns the p-quantile of ds, sorted, or "-" if it is empty.
func quantile(ds []time.Duration, p float64) string {
	if len(ds) == 0 {
		return "-"
	}
	i := min(int(p*float64(len(ds))), len(ds)-1)
	return fmtMS(ds[i])
}
