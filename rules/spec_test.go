package rules_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// The project's rules specification, written by hand. The tests below
// check what of it can be checked against the presets the engine plays:
// every preset has its section, each section's "at a glance" lines agree
// with the preset's seats, dice and goal, every table of pieces agrees with
// the pieces of the presets it names, and the table of dice with the dice.
const specFile = "../docs/rules.md"

// specSection is one section of the specification that describes a preset.
type specSection struct {
	heading string
	body    []string
}

func readSpec(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatalf("the rules specification: %v", err)
	}
	return strings.Split(string(data), "\n")
}

// presetHeading matches a heading that names a preset in backquotes:
// "## 4. The default game: `chaturaji`", "### 6.3 `chaturaji-teams`".
var presetHeading = regexp.MustCompile("^#{2,3} [0-9.]+ (?:.*: )?`([a-z0-9-]+)`$")

// specPresetSections returns the section of each preset the specification
// describes, by name: its heading up to the next heading of the same or a
// higher level.
func specPresetSections(t *testing.T, lines []string) map[string]specSection {
	t.Helper()
	out := map[string]specSection{}
	for i, line := range lines {
		m := presetHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("two sections describe %s", m[1])
		}
		level := strings.IndexByte(line, ' ')
		end := i + 1
		for end < len(lines) {
			if h := strings.IndexByte(lines[end], ' '); strings.HasPrefix(lines[end], "#") && h <= level && strings.Trim(lines[end][:h], "#") == "" {
				break
			}
			end++
		}
		out[m[1]] = specSection{heading: line, body: lines[i+1 : end]}
	}
	return out
}

// glance returns the value of a section's "**Name:** value" line, which may
// run over the lines below it up to the next such line or a blank line.
func (s specSection) glance(name string) (string, bool) {
	prefix := "**" + name + ":**"
	for i, line := range s.body {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		v := strings.TrimSpace(strings.TrimPrefix(line, prefix))
		for _, next := range s.body[i+1:] {
			if next == "" || strings.HasPrefix(next, "**") {
				break
			}
			v += " " + strings.TrimSpace(next)
		}
		return v, true
	}
	return "", false
}

func TestSpecDescribesEveryPreset(t *testing.T) {
	sections := specPresetSections(t, readSpec(t))
	for _, name := range rules.Names() {
		if _, ok := sections[name]; !ok {
			t.Errorf("docs/rules.md has no section whose heading names `%s`", name)
		}
	}
	for name := range sections {
		if _, err := rules.Lookup(name); err != nil {
			t.Errorf("docs/rules.md describes %s, which is no preset: %v", name, err)
		}
	}
}

// specDice says how a section's "Dice:" line should read for a preset.
func specDice(pr *rules.Preset) string {
	switch {
	case pr.Die == nil:
		return "none."
	case pr.Dice == 1:
		return fmt.Sprintf("one `%s` die a turn.", pr.Die.Name)
	default:
		return fmt.Sprintf("two `%s` dice a turn.", pr.Die.Name)
	}
}

func TestSpecAtAGlance(t *testing.T) {
	sections := specPresetSections(t, readSpec(t))
	for _, name := range rules.Names() {
		s, ok := sections[name]
		if !ok {
			continue // TestSpecDescribesEveryPreset says so
		}
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := s.glance("Dice"); !ok || got != specDice(pr) {
			t.Errorf("%s: the Dice line says %q, the preset rolls %q", name, got, specDice(pr))
		}
		goal, ok := s.glance("Goal")
		if !ok {
			t.Errorf("%s: no Goal line", name)
		} else if points := strings.HasPrefix(goal, "points"); points != (pr.Goal == rules.PointsGoal) {
			t.Errorf("%s: the Goal line says %q, but the preset plays for %s", name, goal, map[bool]string{true: "points", false: "the kings"}[pr.Goal == rules.PointsGoal])
		}
		players, ok := s.glance("Players")
		var want string
		switch {
		case pr.NumSeats() == 2:
			want = "two, South and North."
		case pr.Team.Partners:
			want = "two teams of two, partners opposite."
		default:
			want = "four, each for himself."
		}
		if !ok || players != want {
			t.Errorf("%s: the Players line says %q, want %q", name, players, want)
		}
		if src, ok := s.glance("Sources"); !ok || src == "" {
			t.Errorf("%s: no Sources line", name)
		}
	}
}

// specTable is a table of the specification: the paragraph before it (its
// caption) and its rows, each a list of cells.
type specTable struct {
	caption string
	rows    [][]string
}

func specTables(lines []string) []specTable {
	var out []specTable
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		tb := specTable{}
		j := i - 1
		for j >= 0 && strings.TrimSpace(lines[j]) == "" {
			j--
		}
		for ; j >= 0 && strings.TrimSpace(lines[j]) != ""; j-- {
			tb.caption = strings.TrimSpace(lines[j] + " " + tb.caption)
		}
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			cells := strings.Split(strings.Trim(lines[i], "|"), "|")
			for k := range cells {
				cells[k] = strings.TrimSpace(cells[k])
			}
			tb.rows = append(tb.rows, cells)
		}
		out = append(out, tb)
	}
	return out
}

// captionPresets returns the presets a caption such as "Pieces of
// `martian`:" names.
func captionPresets(caption string) []string {
	var names []string
	for _, m := range regexp.MustCompile("`([a-z0-9-]+)`").FindAllStringSubmatch(caption, -1) {
		names = append(names, m[1])
	}
	return names
}

func TestSpecPieces(t *testing.T) {
	described := map[string]bool{}
	for _, tb := range specTables(readSpec(t)) {
		if !strings.HasPrefix(tb.caption, "Pieces of ") {
			continue
		}
		if len(tb.rows) < 3 || !slices.Equal(tb.rows[0], []string{"letter", "piece", "moves", "points"}) {
			t.Errorf("%s: want a table of letter, piece, moves, points; got %v", tb.caption, tb.rows)
			continue
		}
		for _, name := range captionPresets(tb.caption) {
			if described[name] {
				t.Errorf("two tables of pieces name %s", name)
			}
			described[name] = true
			pr, err := rules.Lookup(name)
			if err != nil {
				t.Errorf("%s: %v", tb.caption, err)
				continue
			}
			checkPieceTable(t, pr, tb.rows[2:])
		}
	}
	for _, name := range rules.Names() {
		if !described[name] {
			t.Errorf("no table in docs/rules.md gives the pieces of %s", name)
		}
	}
}

// checkPieceTable checks the rows of a table of pieces against a preset:
// the same letters and names, and for points presets the same points.
func checkPieceTable(t *testing.T, pr *rules.Preset, rows [][]string) {
	t.Helper()
	want := map[string]rules.PieceRule{}
	for _, r := range pr.Pieces {
		if r.Letter != 0 {
			want[string(r.Letter)] = r
		}
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if len(row) != 4 {
			t.Errorf("%s: row %v has %d cells", pr.Name, row, len(row))
			continue
		}
		letter := strings.Trim(row[0], "`")
		r, ok := want[letter]
		if !ok {
			t.Errorf("%s: docs/rules.md lists a piece %s the preset does not have", pr.Name, letter)
			continue
		}
		seen[letter] = true
		if row[1] != r.Name {
			t.Errorf("%s: docs/rules.md calls %s a %q, the preset a %q", pr.Name, letter, row[1], r.Name)
		}
		if pr.Goal != rules.PointsGoal {
			continue
		}
		if pts, err := strconv.Atoi(row[3]); err != nil || pts != r.Points {
			t.Errorf("%s: docs/rules.md gives the %s %q points, the preset %d", pr.Name, r.Name, row[3], r.Points)
		}
	}
	for letter, r := range want {
		if !seen[letter] {
			t.Errorf("%s: docs/rules.md leaves out the %s (%s)", pr.Name, r.Name, letter)
		}
	}
}

func TestSpecDice(t *testing.T) {
	dice := map[string]*rules.Die{}
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Die != nil {
			dice[pr.Die.Name] = pr.Die
		}
	}
	for _, d := range []*rules.Die{rules.LongDie, rules.CubeDie, rules.CubeBlankDie, rules.D4} {
		dice[d.Name] = d
	}
	var table *specTable
	for _, tb := range specTables(readSpec(t)) {
		if len(tb.rows) > 0 && slices.Equal(tb.rows[0], []string{"die", "faces", "what each face names"}) {
			table = &tb
			break
		}
	}
	if table == nil {
		t.Fatal("docs/rules.md has no table of the dice (die, faces, what each face names)")
	}
	seen := map[string]bool{}
	for _, row := range table.rows[2:] {
		name := strings.Trim(row[0], "`")
		d, ok := dice[name]
		if !ok {
			t.Errorf("docs/rules.md lists a die %q that no preset rolls", name)
			continue
		}
		seen[name] = true
		var faces, words []string
		for _, f := range d.Faces {
			faces = append(faces, strconv.Itoa(f))
			words = append(words, fmt.Sprintf("%d %s", f, d.Words[f]))
		}
		if got := strings.Join(faces, ", "); row[1] != got {
			t.Errorf("die %s: docs/rules.md gives the faces %q, the engine %q", name, row[1], got)
		}
		if got := strings.Join(words, "; "); row[2] != got {
			t.Errorf("die %s: docs/rules.md says %q, the engine %q", name, row[2], got)
		}
	}
	for name := range dice {
		if !seen[name] {
			t.Errorf("docs/rules.md's table of dice leaves out the %s die", name)
		}
	}
}
