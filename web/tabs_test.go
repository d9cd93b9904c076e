package web_test

import (
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/chaturaji/chaturaji/web/webtest"
)

// TestTabsReusedClean checks the browser tests' pool of tabs: a tab
// closed clean is opened again by the next Tab, and keeps nothing of its
// last test (cookies, storage, history, size, emulated media); a tab that
// ran scripts on new documents is not opened again.
func TestTabsReusedClean(t *testing.T) {
	skipWithoutBrowser(t)
	parallel(t)
	b, err := webtest.NewBrowser()
	if err != nil {
		t.Fatalf("the browser tests need Chromium: %v", err)
	}
	defer b.Close()
	site := newSite(t)
	targetOf := func(p *webtest.Page) target.ID { return chromedp.FromContext(p.Ctx).Target.TargetID }

	p, err := b.Tab(390, 844, true)
	must(t, err)
	must(t, p.ColorScheme("dark"))
	must(t, p.Go(site.URL+"/"))
	eval[bool](t, p, `(() => {
		document.cookie = 'probe=1; path=/; max-age=3600';
		localStorage.setItem('probe', '1');
		sessionStorage.setItem('probe', '1');
		history.pushState({}, '', '/?a');
		history.pushState({}, '', '/?b');
		return true;
	})()`)
	if !eval[bool](t, p, `document.cookie.includes('probe=1') && matchMedia('(prefers-color-scheme: dark)').matches && matchMedia('(pointer: coarse)').matches`) {
		t.Fatal("the first tab does not hold what the test set")
	}
	first := targetOf(p)
	p.Close()
	p.Close() // a second Close gives the tab back once only

	q, err := b.Tab(1000, 700, false)
	must(t, err)
	if targetOf(q) != first {
		t.Fatalf("Tab opened a new tab, not the one closed clean")
	}
	r, err := b.Tab(1000, 700, false)
	must(t, err)
	if targetOf(r) == first {
		t.Fatalf("the tab closed twice was given to two tests")
	}
	must(t, q.Go(site.URL+"/"))
	type left struct {
		Cookie, Local, Session string
		History, Width         int
		Dark, Coarse, Reduced  bool
	}
	got := eval[left](t, q, `({
		cookie: document.cookie,
		local: localStorage.getItem('probe') || '',
		session: sessionStorage.getItem('probe') || '',
		history: history.length,
		width: innerWidth,
		dark: matchMedia('(prefers-color-scheme: dark)').matches,
		coarse: matchMedia('(pointer: coarse)').matches,
		reduced: matchMedia('(prefers-reduced-motion: reduce)').matches,
	})`)
	want := left{History: 2, Width: 1000, Reduced: true} // about:blank, then the site
	if got != want {
		t.Errorf("the tab opened again keeps %+v, want %+v", got, want)
	}

	// A tab that ran a script on new documents is closed for good.
	must(t, q.OnNewDocument(`window.kept = 1`))
	q.Close()
	s, err := b.Tab(1000, 700, false)
	must(t, err)
	if targetOf(s) == first {
		t.Errorf("a tab with a script on new documents was opened again")
	}
	must(t, s.Go(site.URL+"/"))
	if eval[bool](t, s, `window.kept === 1`) {
		t.Errorf("the script of a closed tab runs in the next")
	}
	r.Close()
	s.Close()
}
