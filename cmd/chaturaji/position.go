package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// rulesFlag adds the --rules flag, which names the preset.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", "chaturaji", "the preset `NAME` (see 'chaturaji rules')")
}

// lookupPreset returns the named preset, or a usage error listing them.
func lookupPreset(name string) (*rules.Preset, error) {
	pr, err := rules.Lookup(name)
	if err != nil {
		return nil, usageError("%s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	return pr, nil
}

// parsePosition reads the --pos flag's position; empty means the preset's
// start position if start is set.
func parsePosition(pr *rules.Preset, s string, start bool) (*rules.Position, error) {
	if s == "" {
		if start {
			return pr.StartPosition(), nil
		}
		return nil, usageError("--pos is required")
	}
	p, err := rules.ParsePosition(pr, s)
	if err != nil {
		return nil, invalid(fmt.Errorf("--pos: %s", why(err)))
	}
	return p, nil
}

// legalActions returns the legal actions of p in the preset's notation,
// sorted in byte order.
func legalActions(p *rules.Position) []string {
	var buf [rules.MaxActions]rules.Action
	var out []string
	for _, a := range p.Actions(buf[:]) {
		out = append(out, a.Format(p.Preset()))
	}
	slices.Sort(out)
	return out
}

// awaitingRoll is the error for a position whose seat must roll first.
func awaitingRoll(p *rules.Position) error {
	return invalid(fmt.Errorf("the position is awaiting %c's roll (dice field -): roll first, for example with 'chaturaji apply --pos POS roll=%d'",
		p.Seat().Letter(), p.Preset().Die.Faces[0]))
}

// why returns an error's message without the rules package's prefix, which
// is noise inside a message of this command.
func why(err error) string {
	return strings.TrimPrefix(err.Error(), "rules: ")
}
