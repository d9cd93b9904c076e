package web

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/chaturaji/chaturaji/rules"
)

// markdown renders the rules texts the engine writes (rules.Preset.Explain):
// CommonMark with GitHub's tables (github.com/yuin/goldmark). It leaves out
// raw HTML and dangerous links, as goldmark does unless told otherwise, so
// its output is safe to put in a page. A column's alignment, if a table
// had one, would be an align attribute: the pages' content security policy
// refuses style attributes.
var markdown = goldmark.New(goldmark.WithExtensions(
	extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
))

// renderRules returns a rules text in HTML.
func renderRules(text string) (string, error) {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(text), &b); err != nil {
		return "", fmt.Errorf("web: rendering the rules: %w", err)
	}
	return b.String(), nil
}

// explainPreset returns what the rules page shows of a preset: what the
// pages need of it, with its rules text and that text in HTML.
func explainPreset(pr *rules.Preset) (*Preset, error) {
	p := describePreset(pr)
	p.Text = pr.Explain()
	html, err := renderRules(p.Text)
	if err != nil {
		return nil, err
	}
	p.HTML = html
	return p, nil
}

// renderPresets explains every preset without house rules, once, when the
// client starts: a page asks for them again and again.
func renderPresets() map[string]*Preset {
	out := make(map[string]*Preset)
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			panic("web: preset " + name + ": " + err.Error())
		}
		p, err := explainPreset(pr)
		if err != nil {
			panic(err.Error())
		}
		out[pr.Name] = p
	}
	return out
}
