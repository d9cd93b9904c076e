package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// contrastJS defines, in a page, lum (the relative luminance of a CSS
// colour, WCAG 2) and contrast (the ratio of two colours).
const contrastJS = `
	const rgb = (c) => { const m = c.match(/[\d.]+/g).map(Number); return m.slice(0, 3); };
	const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
	const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const cs = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
`

// TestDarkMode opens a game with the system set to dark, and to light: the
// page follows it (a dark page with light words, or the reverse), and in
// the dark the board stands out from the page, every piece's outline from
// its square and every army's token from the panels.
func TestDarkMode(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	for _, scheme := range []string{"dark", "light"} {
		p := newPage(t, 1280, 900, false)
		must(t, p.ColorScheme(scheme))
		must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
		must(t, p.Wait(`document.querySelector('#board g.piece') && document.querySelector('#seats .seat')`, 10*time.Second))
		type look struct {
			Page, Text, Panel, PanelText float64 // luminance, luminance, luminance, contrast with its panel
			TextContrast                 float64
			Squares                      []float64 // each kind of square's contrast with the page
			Pieces                       []string  // pieces whose outline is lost on their square
			Badges                       []string  // army tokens lost on their panel
		}
		l := eval[look](t, p, `(() => {`+contrastJS+`
			const bg = cs('body', 'backgroundColor') === 'rgba(0, 0, 0, 0)' ? cs('html', 'backgroundColor') : cs('body', 'backgroundColor');
			const panel = cs('.panel', 'backgroundColor');
			const out = {
				Page: lum(bg), Text: lum(cs('body', 'color')), Panel: lum(panel),
				TextContrast: contrast(bg, cs('body', 'color')),
				PanelText: contrast(panel, cs('.seat-name', 'color')),
				Squares: ['rect.sq.light', 'rect.sq.dark'].map(s => contrast(cs(s, 'fill'), bg)),
				Pieces: [], Badges: [],
			};
			for (const g of document.querySelectorAll('#board g.piece')) {
				const sq = document.querySelector('#board rect.sq[data-square="' + g.dataset.square + '"]');
				const c = contrast(getComputedStyle(g.querySelector('.token')).stroke, getComputedStyle(sq).fill);
				if (c < 3) out.Pieces.push(g.dataset.piece + ' on ' + g.dataset.square + ': ' + c.toFixed(2));
			}
			for (const b of document.querySelectorAll('#seats .army-badge')) {
				const c = contrast(getComputedStyle(b.querySelector('.token')).stroke, panel);
				const f = contrast(getComputedStyle(b.querySelector('.token')).fill, panel);
				if (Math.max(c, f) < 3) out.Badges.push(b.dataset.army + ': ' + c.toFixed(2));
			}
			return out;
		})()`)
		dark := scheme == "dark"
		if dark && (l.Page > 0.05 || l.Panel > 0.05) || !dark && l.Page < 0.7 {
			t.Errorf("%s: the page's luminance is %.2f, its panels' %.2f", scheme, l.Page, l.Panel)
		}
		if l.TextContrast < 7 || l.PanelText < 7 {
			t.Errorf("%s: text contrast %.1f on the page, %.1f on a panel; want 7 or more", scheme, l.TextContrast, l.PanelText)
		}
		if dark {
			for i, c := range l.Squares {
				if c < 3 {
					t.Errorf("dark: the board's %s squares stand out from the page by %.2f, want 3 or more", []string{"light", "dark"}[i], c)
				}
			}
		}
		if len(l.Pieces) > 0 {
			t.Errorf("%s: pieces whose outline is lost on their square: %s", scheme, strings.Join(l.Pieces, ", "))
		}
		if len(l.Badges) > 0 {
			t.Errorf("%s: army tokens lost on their panel: %s", scheme, strings.Join(l.Badges, ", "))
		}
	}
}
