package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

var applyCommand = &command{
	name:    "apply",
	summary: "play rolls and actions on a position and print the result",
	help:    applyHelp,
	run:     runApply,
}

const applyHelp = `usage: chaturaji apply [--rules NAME] --pos POS TOKEN...

Apply plays each TOKEN in turn on position POS and prints the resulting
position string. A token is either

	roll=F     the dice of a position awaiting its roll: the faces, such as
	           roll=5, or roll=25 with two dice
	an action  such as d2d3, pass or retire, legal for the seat to act

An illegal or malformed token stops apply with exit status 2 and an error
naming the token and why; nothing is printed on standard output.

Flags:
	--rules NAME   the preset (default chaturaji)
	--pos POS      the position (default: the start position)
`

func runApply(e *env, args []string) error {
	fs := newFlagSet("apply")
	name := rulesFlag(fs)
	pos := fs.String("pos", "", "the position `POS`")
	if err := parseFlags(e, fs, applyHelp, args); err != nil {
		return err
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	p, err := parsePosition(pr, *pos, true)
	if err != nil {
		return err
	}
	for i, tok := range fs.Args() {
		if err := applyToken(p, tok); err != nil {
			return invalid(fmt.Errorf("token %d %q: %s", i+1, tok, why(err)))
		}
	}
	fmt.Fprintln(e.stdout, p)
	return nil
}

// applyToken plays one roll=F or action token on p.
func applyToken(p *rules.Position, tok string) error {
	pr := p.Preset()
	if faces, ok := strings.CutPrefix(tok, "roll="); ok {
		r, err := rules.ParseRoll(faces)
		if err != nil {
			return err
		}
		switch {
		case p.Finished():
			return fmt.Errorf("the game is over: no roll is awaited")
		case pr.Die == nil:
			return fmt.Errorf("preset %s has no dice", pr.Name)
		case !p.AwaitingRoll():
			return fmt.Errorf("%c has rolled already (dice %s): no roll is awaited", p.Seat().Letter(), p.Roll())
		case !slices.Contains(p.Outcomes(), r):
			return fmt.Errorf("%s is not a roll of %d %s die (faces %v) here", r, pr.Dice, pr.Die.Name, pr.Die.Faces)
		}
		p.SetRoll(r)
		return nil
	}
	a, err := rules.ParseAction(pr, tok)
	if err != nil {
		return err
	}
	switch {
	case p.Finished():
		return fmt.Errorf("the game is over: no action is legal")
	case p.AwaitingRoll():
		return fmt.Errorf("%c must roll first: give a roll=F token before the action", p.Seat().Letter())
	case !p.IsLegal(a):
		return fmt.Errorf("not a legal action of %c (%s) with dice %s; legal: %s", p.Seat().Letter(), p.Seat(), p.Roll(), strings.Join(legalActions(p), " "))
	}
	var u rules.Undo
	p.Make(a, &u)
	return nil
}
