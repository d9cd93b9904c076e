package server

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"
)

// Chat. The players of a live game may send each other a few fixed quick
// messages (QuickMessages), strangers included, and, at a table that
// turns it on (NewGame.Chat, off by default: for friends, who were
// invited), free text of at most Config.MaxChatText bytes. A message is a
// Message of kind "chat" over the game's WebSocket, or the body of POST
// /api/games/{id}/actions; the server broadcasts it at once, as a chat
// message (Event of kind KindChat, Seq 0), to every client of the game on
// the server that drives it, players and spectators, naming the seat that
// sent it so that each player's page can mute a seat. Messages are not
// events: they are not stored, not replayed to a client that connects
// later, and not in the record, signed or not. Each seat may send one
// every Config.ChatEvery, Config.ChatBurst at once.

// KindChat is the kind of a chat message, from a client (Message) and to
// every client (Event, Seq 0).
const KindChat = "chat"

// QuickMessages are the messages any player may send, by their id (a
// Message's and an Event's Say), with the English text a page shows; a
// page may show its own translation of the id instead.
var QuickMessages = map[string]string{
	"good-luck":   "Good luck",
	"well-played": "Well played",
	"thanks":      "Thanks",
	"good-game":   "Good game",
}

// quickIDs lists the ids of QuickMessages, sorted, for error messages.
func quickIDs() string {
	ids := make([]string, 0, len(QuickMessages))
	for id := range QuickMessages {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}

// checkChat refuses a chat message that no table could take: it has one
// of Say (a quick message's id) and Text, and no action or seq.
func (m *Message) checkChat() error {
	switch {
	case m.Action != "" || m.Seq != 0:
		return Errorf(EINVALID, "a chat message has no action and no seq")
	case (m.Say == "") == (m.Text == ""):
		return Errorf(EINVALID, "a chat message has either say (a quick message: %s) or text", quickIDs())
	case m.Say != "" && QuickMessages[m.Say] == "":
		return Errorf(EINVALID, "say %q: no such quick message: want one of %s", m.Say, quickIDs())
	}
	return nil
}

// checkText checks a free text message: UTF-8, printable, at most max
// bytes.
func checkText(s string, max int) error {
	if len(s) > max {
		return Errorf(ETOOLARGE, "text of %d bytes, over the limit of %d", len(s), max)
	}
	if !utf8.ValidString(s) {
		return Errorf(EINVALID, "text is not UTF-8")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return Errorf(EINVALID, "text holds %q, which is not printable", r)
		}
	}
	if strings.TrimSpace(s) == "" {
		return Errorf(EINVALID, "text is blank")
	}
	return nil
}

// chat broadcasts the message of seat i's holder to the game's clients,
// if the table and the seat's rate allow it.
func (l *live) chat(i int, m *Message) error {
	if l.over || l.ended() {
		return Errorf(ECONFLICT, "the game is over")
	}
	cfg := l.srv.cfg
	if m.Text != "" {
		if !l.table.Chat {
			return Errorf(EFORBIDDEN, "free text is off at this table: send a quick message (say: %s)", quickIDs())
		}
		if err := checkText(m.Text, cfg.MaxChatText); err != nil {
			return err
		}
	}
	if l.chatLimits == nil {
		l.chatLimits = make([]*rate.Limiter, len(l.info.Seats))
	}
	if l.chatLimits[i] == nil {
		l.chatLimits[i] = rate.NewLimiter(rate.Every(cfg.ChatEvery), cfg.ChatBurst)
	}
	if !l.chatLimits[i].Allow() {
		return Errorf(ETOOMANY, "over the limit of %d messages at once, then one every %v: message not sent", cfg.ChatBurst, cfg.ChatEvery)
	}
	e := &Event{Kind: KindChat, At: stamp(), Seat: l.pr.Seats()[i].String(), Say: m.Say, Text: m.Text}
	if m.Say != "" {
		e.Text = QuickMessages[m.Say]
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	l.publish(data)
	l.active = time.Now()
	return nil
}
