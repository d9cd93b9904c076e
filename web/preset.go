package web

import (
	"net/http"
	"strconv"

	"github.com/chaturaji/chaturaji/rules"
)

// Preset is a preset as the pages need it to draw and explain a game: the
// seats and their colours, the pieces, the dice, the thrones and the start.
type Preset struct {
	Name     string       `json:"name"`           // as rules.Lookup takes it, with any house rules
	Title    string       `json:"title"`          // one line describing it
	Source   string       `json:"source"`         // the sources the preset follows, named as docs/rules.md §9 lists them
	Seats    []SeatInfo   `json:"seats"`          // in seat order, the order of the scores
	Order    []string     `json:"order"`          // the turn order, by seat name
	Pieces   []PieceInfo  `json:"pieces"`         // the kinds it uses, pawn first
	Dice     *DiceInfo    `json:"dice"`           // nil: diceless
	Goal     string       `json:"goal"`           // "points" or "kings"
	Kingless bool         `json:"kingless"`       // an army without a king keeps moving
	Start    string       `json:"start"`          // the start position, in notation
	Options  []OptionInfo `json:"options"`        // the house rules it accepts; empty, not null, if none
	Text     string       `json:"text,omitempty"` // the rules in Markdown (GET /web/rules/{name} only)
	HTML     string       `json:"html,omitempty"` // the same rules in HTML, rendered by the server (GET /web/rules/{name} only)

	// Partners: two teams of partners sitting opposite, who win or lose
	// together (team scores are the partners' sum).
	Partners bool `json:"partners"`
	// Frozen says when an army is frozen (it keeps its pieces but does not
	// move): "kingless" when it has no king, "team" when neither partner
	// has one (chaturaji-teams: a kingless army is commanded by its
	// partner), "throne" when it has no king and its partner's king is not
	// on its throne (martian's control), "never" (armies without kings
	// move on), "dead" when it has no king or its seat resigned or ran out
	// of time, as the position's extra field dead=... lists
	// (chesscom-chaturaji: a dead army never comes back).
	Frozen string `json:"frozen"`
	// RollOff: a roll-off decides which team starts (martian); it is the
	// game's first roll, with no seat, "1" for South's team, "2" for West's.
	RollOff bool `json:"roll_off"`
}

// SeatInfo is one seat of a preset.
type SeatInfo struct {
	Seat   string `json:"seat"`   // "South"
	Letter string `json:"letter"` // "b"
	Colour string `json:"colour"` // "black", or the preset's own ("blue")
	Throne string `json:"throne"` // the king's starting square, "" if none
}

// PieceInfo is one kind of piece of a preset.
type PieceInfo struct {
	Letter string `json:"letter"` // the notation letter: "B"
	Name   string `json:"name"`   // in the preset's words: "boat"
	Role   string `json:"role"`   // what the engine knows it as: pawn, boat, horse, elephant, king, vizir
	Points int    `json:"points"` // scored for capturing it
}

// DiceInfo is what a preset rolls each turn.
type DiceInfo struct {
	Die   string            `json:"die"`   // "long", "cube", "cube-blank"
	Count int               `json:"count"` // how many are rolled a turn
	Faces []int             `json:"faces"` // the die's faces, ascending
	Words map[string]string `json:"words"` // face -> what it moves: "boat"
	Kinds map[string]string `json:"kinds"` // face -> the letters it moves: "KP"
}

// OptionInfo is a house rule a preset accepts.
type OptionInfo struct {
	Name   string   `json:"name"`             // "clock", as in "chaturaji+clock=100"
	Values []string `json:"values,omitempty"` // the accepted values; none for a flag, ["N"] for a whole number
	Help   string   `json:"help"`             // what it changes, in a few words
}

// The default colours of the seats (docs/rules.md §1), by colour letter.
var colours = map[byte]string{'b': "black", 'y': "yellow", 'g': "green", 'r': "red"}

// roles names the kinds as the engine knows them.
var roles = map[rules.Kind]string{
	rules.Pawn: "pawn", rules.Boat: "boat", rules.Horse: "horse",
	rules.Elephant: "elephant", rules.King: "king", rules.Vizir: "vizir",
}

// describePreset returns what the pages need of a preset.
func describePreset(pr *rules.Preset) *Preset {
	start := pr.StartPosition()
	p := &Preset{
		Name: pr.Name, Title: pr.Title, Source: pr.Source,
		Goal: "points", Kingless: pr.Kingless, Start: start.String(),
		Options:  []OptionInfo{},
		Partners: pr.Team.Partners, RollOff: pr.RollOff, Frozen: "kingless",
	}
	switch {
	case pr.Dead:
		p.Frozen = "dead"
	case pr.Kingless:
		p.Frozen = "never"
	case pr.Team.KinglessPlays:
		p.Frozen = "team"
	case pr.Team.Control:
		p.Frozen = "throne"
	}
	if pr.Goal == rules.KingsGoal {
		p.Goal = "kings"
	}
	for _, s := range pr.Seats() {
		si := SeatInfo{Seat: s.String(), Letter: string(s.Letter()), Colour: colours[s.Letter()]}
		if c := pr.Colours[s]; c != "" {
			si.Colour = c
		}
		for sq := rules.Square(0); sq < 64; sq++ {
			if start.At(sq) == rules.MakePiece(s, rules.King) {
				si.Throne = sq.String()
				break
			}
		}
		p.Seats = append(p.Seats, si)
	}
	for _, s := range pr.Order {
		p.Order = append(p.Order, s.String())
	}
	for k := rules.Pawn; int(k) < rules.NumKinds; k++ {
		r := pr.Pieces[k]
		if r.Letter == 0 {
			continue
		}
		p.Pieces = append(p.Pieces, PieceInfo{Letter: string(r.Letter), Name: r.Name, Role: roles[k], Points: r.Points})
	}
	if d := pr.Die; d != nil {
		di := &DiceInfo{Die: d.Name, Count: pr.Dice, Faces: d.Faces, Words: map[string]string{}, Kinds: map[string]string{}}
		for _, f := range d.Faces {
			key := strconv.Itoa(f)
			di.Words[key] = d.Words[f]
			letters := ""
			for k := rules.Pawn; int(k) < rules.NumKinds; k++ {
				if d.Kinds[f].Has(k) && pr.Pieces[k].Letter != 0 {
					letters += string(pr.Pieces[k].Letter)
				}
			}
			di.Kinds[key] = letters
		}
		p.Dice = di
	}
	for _, o := range pr.Options {
		p.Options = append(p.Options, OptionInfo{Name: o.Name, Values: o.Values, Help: o.Help})
	}
	return p
}

// handlePresets is GET /web/presets: every preset, by name.
func (s *site) handlePresets(w http.ResponseWriter, r *http.Request) {
	list := []*Preset{}
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			continue
		}
		list = append(list, describePreset(pr))
	}
	writeJSON(w, http.StatusOK, struct {
		Presets []*Preset `json:"presets"`
	}{list})
}

// handleRules is GET /web/rules/{name}: one preset, which may carry house
// rules ("chaturaji+clock=100"), with its complete rules text, in Markdown
// and in HTML. The presets as they come were rendered at start; one with
// house rules, whose text differs, is rendered now.
func (s *site) handleRules(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if len(name) > 200 {
		fail(w, http.StatusBadRequest, "rules name of %d bytes", len(name))
		return
	}
	pr, err := rules.Lookup(name)
	if err != nil {
		fail(w, http.StatusNotFound, "%v", err)
		return
	}
	p := s.rules[pr.Name]
	if p == nil {
		if p, err = explainPreset(pr); err != nil {
			s.opts.Logger.Error("rules", "name", pr.Name, "err", err)
			fail(w, http.StatusInternalServerError, "the rules could not be rendered")
			return
		}
	}
	writeJSON(w, http.StatusOK, p)
}
