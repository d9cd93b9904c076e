package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Option is a house rule a preset accepts: `name` alone or `name=value`
// after a `+` in a rules name, such as `chaturaji+ranks+dice=2cube`.
type Option struct {
	Name   string   // the option's name in a rules name, such as "dice"
	Values []string // the accepted values; nil: a flag without value; {"N"}: a whole number
	Help   string   // what it changes, in a few words
	apply  func(pr *Preset, value string) error
}

// chaturajiOptions are the house rules of the points presets.
var chaturajiOptions = []Option{
	{Name: "clock", Values: []string{"N"}, Help: "turns without capture or pawn move that end the game", apply: func(pr *Preset, v string) error {
		n, err := wholeNumber(v, 1, 100000)
		pr.ClockLimit = n
		return err
	}},
	{Name: "dice", Values: []string{"long", "cube", "cube-blank", "2long", "2cube", "2cube-blank"}, Help: "the dice rolled each turn", apply: func(pr *Preset, v string) error {
		n := 1
		if strings.HasPrefix(v, "2") {
			n, v = 2, v[1:]
		}
		withDice(pr, dice[v], n)
		return nil
	}},
	{Name: "peace", Values: []string{"on", "off"}, Help: "whether only kings on the board ends the game", apply: onOff(func(pr *Preset, on bool) { pr.PeaceEnds = on })},
	{Name: "raise", Values: []string{"N"}, Help: "the score the holder of the last king is raised to (0: none)", apply: func(pr *Preset, v string) error {
		n, err := wholeNumber(v, 0, 1000)
		pr.Raise = n
		return err
	}},
	{Name: "ranks", Help: "pawns and boats never capture horses, elephants or kings", apply: func(pr *Preset, _ string) error { withRanks(pr); return nil }},
	{Name: "retire", Values: []string{"on", "off"}, Help: "whether a lone king may retire", apply: onOff(func(pr *Preset, on bool) { pr.Retire = on })},
	{Name: "triumph", Values: []string{"on", "off"}, Help: "the boat triumph", apply: onOff(func(pr *Preset, on bool) { pr.Triumph = on })},
}

func onOff(set func(*Preset, bool)) func(*Preset, string) error {
	return func(pr *Preset, v string) error { set(pr, v == "on"); return nil }
}

func wholeNumber(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi || strconv.Itoa(n) != v {
		return 0, fmt.Errorf("want a whole number from %d to %d, not %q", lo, hi, v)
	}
	return n, nil
}

var (
	derivedMu sync.Mutex
	derived   = map[string]*Preset{}
)

// Lookup returns the preset with the given name, which may carry house
// rules: `chaturaji+ranks+dice=2cube`. The preset's Name is then the
// canonical form of the whole (options sorted by name), which records keep in
// their Rules tag so that a game replays under the rules it was played with.
func Lookup(name string) (*Preset, error) {
	if pr, ok := presets[name]; ok {
		return pr, nil
	}
	base, opts, hasOpts := strings.Cut(name, "+")
	pr, ok := presets[base]
	if !ok {
		return nil, fmt.Errorf("rules: unknown preset %q (known: %s)", base, strings.Join(Names(), ", "))
	}
	if !hasOpts {
		return pr, nil
	}
	canon, err := canonicalOptions(pr, strings.Split(opts, "+"))
	if err != nil {
		return nil, err
	}
	full := base + "+" + strings.Join(canon, "+")
	derivedMu.Lock()
	defer derivedMu.Unlock()
	if d, ok := derived[full]; ok {
		return d, nil
	}
	d := *pr
	d.Name = full
	d.Title = pr.Title + "; house rules: " + strings.Join(canon, ", ")
	for _, o := range canon {
		key, value, _ := strings.Cut(o, "=")
		if err := optionNamed(pr, key).apply(&d, value); err != nil {
			return nil, fmt.Errorf("rules: option %q: %v", o, err)
		}
	}
	if err := d.prepare(); err != nil {
		return nil, err
	}
	derived[full] = &d
	return &d, nil
}

// canonicalOptions checks each option against the preset's and returns them
// sorted by name.
func canonicalOptions(pr *Preset, opts []string) ([]string, error) {
	seen := map[string]bool{}
	for _, o := range opts {
		key, value, hasValue := strings.Cut(o, "=")
		opt := optionNamed(pr, key)
		switch {
		case o == "":
			return nil, fmt.Errorf("rules: empty house rule in %s (write name+option+option)", pr.Name)
		case opt == nil:
			return nil, fmt.Errorf("rules: %s has no house rule %q (valid: %s)", pr.Name, key, pr.optionList())
		case seen[key]:
			return nil, fmt.Errorf("rules: house rule %q given twice", key)
		case opt.Values == nil && hasValue:
			return nil, fmt.Errorf("rules: house rule %q takes no value", key)
		case opt.Values != nil && !hasValue:
			return nil, fmt.Errorf("rules: house rule %q needs a value: %s=%s", key, key, strings.Join(opt.Values, "|"))
		case opt.Values != nil && !slices.Equal(opt.Values, []string{"N"}) && !slices.Contains(opt.Values, value):
			return nil, fmt.Errorf("rules: house rule %s=%s: valid values are %s", key, value, strings.Join(opt.Values, ", "))
		}
		seen[key] = true
	}
	sorted := slices.Clone(opts)
	slices.SortFunc(sorted, func(a, b string) int {
		ka, _, _ := strings.Cut(a, "=")
		kb, _, _ := strings.Cut(b, "=")
		return strings.Compare(ka, kb)
	})
	return sorted, nil
}

func optionNamed(pr *Preset, name string) *Option {
	for i := range pr.Options {
		if pr.Options[i].Name == name {
			return &pr.Options[i]
		}
	}
	return nil
}

// optionList describes the preset's house rules for error messages.
func (pr *Preset) optionList() string {
	if len(pr.Options) == 0 {
		return "none"
	}
	var out []string
	for _, o := range pr.Options {
		if o.Values == nil {
			out = append(out, o.Name)
		} else {
			out = append(out, o.Name+"="+strings.Join(o.Values, "|"))
		}
	}
	return strings.Join(out, ", ")
}
