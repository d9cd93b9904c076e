package main

import (
	"fmt"

	"github.com/chaturaji/chaturaji/rules"
)

var rulesCommand = &command{
	name:    "rules",
	summary: "list the presets, or describe one",
	help:    rulesHelp,
	run:     runRules,
}

const rulesHelp = `usage: chaturaji rules [NAME]

Without NAME, rules lists the presets: each name, to give to --rules, and its
one-line title. With NAME, it describes that preset in words: its source,
seats, pieces (letters, points and moves), dice and their faces, promotion,
the ends of the game and the start position.
`

func runRules(e *env, args []string) error {
	fs := newFlagSet("rules")
	if err := parseFlags(e, fs, rulesHelp, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		for _, name := range rules.Names() {
			pr, _ := rules.Lookup(name)
			fmt.Fprintf(e.stdout, "%-20s %s\n", pr.Name, pr.Title)
		}
		return nil
	case 1:
		pr, err := lookupPreset(fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprint(e.stdout, pr.Explain())
		return nil
	}
	return usageError("want at most one preset NAME")
}
