package nn

import (
	"embed"
	"strings"
	"sync"
)

// shipped holds the trained weights, one file a preset: weights/NAME.nnw.
// They are made by `chaturaji train` (docs/strength.md, "The learned
// evaluation", gives the commands).
//
//go:embed weights
var shipped embed.FS

var (
	loaded   = map[string]*Net{}
	loadedMu sync.Mutex
)

// ForPreset returns the shipped network of the named preset, or nil if
// the preset has none. It panics if a shipped file does not parse: the
// tests parse every one.
func ForPreset(name string) *Net {
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if n, ok := loaded[name]; ok {
		return n
	}
	var n *Net
	if data, err := shipped.ReadFile("weights/" + name + ".nnw"); err == nil {
		if n, err = Parse(data); err != nil {
			panic("nn: shipped weights of " + name + ": " + err.Error())
		}
	}
	loaded[name] = n
	return n
}

// Shipped returns the names of the presets with shipped weights.
func Shipped() []string {
	entries, _ := shipped.ReadDir("weights")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".nnw"); ok {
			names = append(names, name)
		}
	}
	return names
}
