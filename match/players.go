package match

import (
	"strings"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/engine"
)

// NewPlayer returns the player a spec names: "cmd:" followed by a command
// line starts that program as an engine (engine.NewClient; it ignores seed);
// anything else is a spec of ai.New, such as "greedy" or "strong?nodes=5000".
// A player that is an io.Closer is closed when its game ends.
func NewPlayer(spec string, seed uint64) (ai.Player, error) {
	if cmdline, ok := strings.CutPrefix(spec, "cmd:"); ok {
		return engine.NewClient(cmdline)
	}
	return ai.New(spec, seed)
}
