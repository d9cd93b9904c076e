package web_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// rulesOutline is what a reader sees of a rules text: its headings (level
// and text), its table rows (cells joined by " | "), its list items, its
// code blocks and how many inline code spans it has.
type rulesOutline struct {
	Headings []string `json:"headings"`
	Rows     []string `json:"rows"`
	Items    []string `json:"items"`
	Code     []string `json:"code"`
	Spans    int      `json:"spans"`
}

// outlineOf reads a Markdown rules text line by line, as the engine writes
// it: "#" headings, "|" table rows (less the line under the head), "- "
// list items, "```" fences; inline code spans and emphasis lose their
// marks.
func outlineOf(md string) rulesOutline {
	var o rulesOutline
	plain := func(s string) string {
		o.Spans += strings.Count(s, "`") / 2
		s = strings.ReplaceAll(s, "`", "")
		return regexp.MustCompile(`\*\*?([^*]+)\*\*?`).ReplaceAllString(s, "$1")
	}
	heading := regexp.MustCompile(`^(#{1,6}) (.*)$`)
	separator := regexp.MustCompile(`^\|[\s:|-]+\|$`)
	var code []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if fenced {
				o.Code = append(o.Code, strings.Join(code, "\n")+"\n")
				code = nil
			}
			fenced = !fenced
		case fenced:
			code = append(code, line)
		case heading.MatchString(line):
			m := heading.FindStringSubmatch(line)
			o.Headings = append(o.Headings, string(rune('0'+len(m[1])))+" "+plain(m[2]))
		case strings.HasPrefix(line, "|") && !separator.MatchString(line):
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, plain(strings.TrimSpace(c)))
			}
			o.Rows = append(o.Rows, strings.Join(cells, " | "))
		case strings.HasPrefix(line, "- "):
			o.Items = append(o.Items, plain(strings.TrimPrefix(line, "- ")))
		default:
			plain(line)
		}
	}
	return o
}

// outlineJS reads the same outline from the rules page.
const outlineJS = `JSON.stringify({
	headings: [...document.querySelectorAll('#rules-text :is(h1, h2, h3, h4, h5, h6)')].map(e => e.tagName[1] + ' ' + e.textContent),
	rows: [...document.querySelectorAll('#rules-text tr')].map(tr => [...tr.cells].map(c => c.textContent.trim()).join(' | ')),
	items: [...document.querySelectorAll('#rules-text li')].map(e => e.textContent.trim()),
	code: [...document.querySelectorAll('#rules-text pre > code')].map(e => e.textContent),
	spans: document.querySelectorAll('#rules-text :not(pre) > code').length,
})`

// TestRulesRendered opens the rules of every preset, and of one with house
// rules, and compares the headings, tables, lists and code the page shows
// with the engine's Markdown text, read on its own. The HTML is the
// server's: the page shows what GET /web/rules/{name} renders.
func TestRulesRendered(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1200, 900, false)
	for _, name := range append(rules.Names(), "chaturaji+clock=100+triumph=off") {
		pr, err := rules.Lookup(name)
		must(t, err)
		want := outlineOf(pr.Explain())
		if len(want.Headings) < 5 || len(want.Rows) < 3 || len(want.Items) < 2 || len(want.Code) < 1 || want.Spans < 3 {
			t.Fatalf("%s: the text has too little to compare: %+v", name, want)
		}
		must(t, p.Go(site.URL+"/rules/"+name))
		must(t, p.Wait(`document.querySelector('#rules-text h1')`, 10*time.Second))
		var got rulesOutline
		must(t, json.Unmarshal([]byte(eval[string](t, p, outlineJS)), &got))
		for _, part := range []struct {
			what      string
			got, want []string
		}{
			{"headings", got.Headings, want.Headings},
			{"table rows", got.Rows, want.Rows},
			{"list items", got.Items, want.Items},
			{"code blocks", got.Code, want.Code},
		} {
			if !slices.Equal(part.got, part.want) {
				t.Errorf("%s: the page's %s differ from the text's:\n got %q\nwant %q", name, part.what, part.got, part.want)
			}
		}
		if got.Spans != want.Spans {
			t.Errorf("%s: %d inline code spans, want %d", name, got.Spans, want.Spans)
		}
		served := eval[bool](t, p, `(async () => {
			const pr = await (await fetch('/web/rules/' + encodeURIComponent(`+jsString(name)+`))).json();
			const tpl = document.createElement('template');
			tpl.innerHTML = pr.html;
			return typeof pr.html === 'string' && tpl.content.isEqualNode(document.createRange().createContextualFragment(document.querySelector('#rules-text').innerHTML));
		})()`)
		if !served {
			t.Errorf("%s: the page does not show the HTML the server rendered", name)
		}
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
