package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// formatInfo returns the info line of an analysis: depth, nodes, time, each
// seat's expected score and the principal line.
func formatInfo(pr *rules.Preset, a ai.Analysis) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d nodes %d time %d score ", a.Depth, a.Nodes, a.Elapsed.Milliseconds())
	for i, s := range pr.Seats() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(a.Expected[s], 'f', 2, 64))
	}
	if len(a.Line) > 0 {
		b.WriteString(" pv")
		for _, act := range a.Line {
			b.WriteByte(' ')
			b.WriteString(act.Format(pr))
		}
	}
	return b.String()
}

// maxInfoMS is the longest time an info line may report, in milliseconds:
// the most a time.Duration holds.
const maxInfoMS = math.MaxInt64 / int64(time.Millisecond)

// parseInfo reads the fields of an info line (without the word "info") into
// a: depth, nodes, time, score and pv. A string field is returned as text.
// Unknown fields are skipped, so engines may send more than this package
// knows.
func parseInfo(pr *rules.Preset, fields []string, a *ai.Analysis) (text string, err error) {
	for i := 0; i < len(fields); i++ {
		key := fields[i]
		switch key {
		case "string":
			return strings.Join(fields[i+1:], " "), nil
		case "pv":
			a.Line = a.Line[:0]
			for _, tok := range fields[i+1:] {
				act, err := rules.ParseAction(pr, tok)
				if err != nil {
					return "", fmt.Errorf("info pv: %q is not an action", tok)
				}
				a.Line = append(a.Line, act)
			}
			return "", nil
		}
		if i+1 >= len(fields) {
			return "", fmt.Errorf("info %s: no value", key)
		}
		i++
		v := fields[i]
		switch key {
		case "depth", "nodes", "time":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || key == "time" && n > maxInfoMS {
				return "", fmt.Errorf("info %s %q: want a whole number", key, v)
			}
			switch key {
			case "depth":
				a.Depth = int(n)
			case "nodes":
				a.Nodes = n
			default:
				a.Elapsed = time.Duration(n) * time.Millisecond
			}
		case "score":
			seats := pr.Seats()
			parts := strings.Split(v, ",")
			if len(parts) != len(seats) {
				return "", fmt.Errorf("info score %q: want %d numbers", v, len(seats))
			}
			for j, s := range seats {
				f, err := strconv.ParseFloat(parts[j], 64)
				if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
					return "", fmt.Errorf("info score %q: %q is not a finite number", v, parts[j])
				}
				a.Expected[s] = f
			}
		}
	}
	return "", nil
}

// formatGo returns the go command for a budget.
func formatGo(b ai.Budget) string {
	s := "go"
	if b.Time > 0 {
		s += " movetime " + strconv.FormatInt(max(b.Time.Milliseconds(), 1), 10)
	}
	if b.Nodes > 0 {
		s += " nodes " + strconv.FormatInt(b.Nodes, 10)
	}
	return s
}

// parseGo reads the arguments of a go command.
func parseGo(args []string) (ai.Budget, error) {
	var b ai.Budget
	if len(args)%2 != 0 {
		return b, errors.New("go: want movetime MS and/or nodes N")
	}
	for i := 0; i < len(args); i += 2 {
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n <= 0 {
			return b, fmt.Errorf("go %s %q: want a whole number above 0", args[i], args[i+1])
		}
		switch args[i] {
		case "movetime":
			b.Time = time.Duration(n) * time.Millisecond
		case "nodes":
			b.Nodes = n
		default:
			return b, fmt.Errorf("go: unknown limit %q (want movetime or nodes)", args[i])
		}
	}
	if b.Time == 0 && b.Nodes == 0 {
		return b, errors.New("go: want a limit, movetime MS or nodes N")
	}
	return b, nil
}
