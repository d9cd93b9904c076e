package server

import (
	"strings"
	"sync"
)

// Engine help. A table may turn the engine's help off (Table.Help false):
// then nobody gets a hint or the expected scores of the game's live
// position from the server, whatever their page shows or hides. The
// server keeps the positions of its live games whose help is off in an
// index, by the board and the seat to act (helpKey), and package web's
// analysis asks it (HelpOff) before it searches. The scores, the clock
// and the dice are left out of the key, so that changing them in the
// position sent does not get round the refusal; a position of another
// game that has the same board and seat to act is refused too, which is
// rare and costs nothing but a hint.

// helpIndex counts the live games with help off at each helpKey.
type helpIndex struct {
	mu   sync.Mutex
	keys map[string]int
}

// move takes a game's count from key from to key to ("" for none).
func (x *helpIndex) move(from, to string) {
	if from == to {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.keys == nil {
		x.keys = make(map[string]int)
	}
	if from != "" {
		if x.keys[from]--; x.keys[from] <= 0 {
			delete(x.keys, from)
		}
	}
	if to != "" {
		x.keys[to]++
	}
}

// has reports whether a live game with help off stands at key.
func (x *helpIndex) has(key string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.keys[key] > 0
}

// helpKey is what the index knows a position by: its board and the seat
// to act, the first two fields of its notation; "" for what is not a
// position.
func helpKey(pos string) string {
	board, rest, ok := strings.Cut(pos, " ")
	if !ok || board == "" {
		return ""
	}
	seat, _, _ := strings.Cut(rest, " ")
	if seat == "" {
		return ""
	}
	return board + " " + seat
}

// HelpOff reports whether pos, a position in notation, is the position of
// a live game whose table turned the engine's help off (Table.Help), as
// far as its board and the seat to act tell: package web refuses to
// analyse it.
func (s *Server) HelpOff(pos string) bool {
	k := helpKey(pos)
	return k != "" && s.help.has(k)
}

// indexHelp keeps the game's place in the server's index of positions
// without help up to date: its live position if its help is off, none
// once it is over or its loop stops.
func (l *live) indexHelp(gone bool) {
	key := ""
	if !gone && !l.table.Help && !l.over && l.last != nil && l.last.Kind != KindEnd {
		key = helpKey(l.last.Position)
	}
	l.srv.help.move(l.helpKey, key)
	l.helpKey = key
}
