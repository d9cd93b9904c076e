package webtest

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// ChromiumPath returns the browser to drive: $CHROMIUM_PATH, else
// /usr/bin/chromium; an error says how to install it.
func ChromiumPath() (string, error) {
	path := os.Getenv("CHROMIUM_PATH")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", fmt.Errorf("webtest: no Chromium at %s: run `sudo bash scripts/chromium.sh` (Debian's package chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary", path)
	}
	return path, nil
}

// Browser is one headless Chromium process with a fresh profile.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc
	dir    string

	mu   sync.Mutex
	free []*Page // tabs closed clean, which Tab opens again
}

// NewBrowser starts Chromium.
func NewBrowser() (*Browser, error) {
	path, err := ChromiumPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "chaturaji-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.Flag("password-store", "basic"),
		chromedp.WindowSize(1280, 900),
		// What a test needs none of: Chromium's services and background
		// work (translation, hints, casting, phishing checks, reports),
		// the back-forward cache, which keeps every page a tab leaves
		// alive, and sound.
		chromedp.Flag("disable-features", "Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,BackForwardCache"),
	}
	for _, name := range []string{
		"disable-quic", "disable-background-networking", "disable-component-update",
		"disable-sync", "disable-dev-shm-usage", "disable-extensions",
		// Pages in the background (Hide) go on running their timers.
		"disable-background-timer-throttling", "disable-renderer-backgrounding", "disable-backgrounding-occluded-windows",
		"hide-scrollbars",
		"disable-client-side-phishing-detection", "disable-default-apps", "disable-breakpad",
		"disable-domain-reliability", "metrics-recording-only", "no-pings", "mute-audio",
	} {
		opts = append(opts, chromedp.Flag(name, true))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		bcancel()
		acancel()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("webtest: starting %s: %w", path, err)
	}
	return &Browser{ctx: bctx, cancel: func() { bcancel(); acancel() }, dir: dir}, nil
}

// Close stops the browser and removes its profile.
func (b *Browser) Close() {
	b.cancel()
	for range 50 {
		if err := os.RemoveAll(b.dir); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Tab opens a tab in a browser context of its own (its own storage, as a
// separate browser would have), with a window of the given size. Errors
// thrown by the page's scripts are collected by the returned Page. The tab
// asks for reduced motion (prefers-reduced-motion), so that the game page
// shows events as they come, without the animations' pauses, as a test
// that plays whole games wants; Motion turns them on.
//
// A tab closed clean (see Page.Close) is opened again rather than a new
// one: a new tab and its browser context cost Chromium more than a second
// of CPU, most of a short test's.
func (b *Browser) Tab(width, height int64, mobile bool) (*Page, error) {
	b.mu.Lock()
	var p *Page
	if n := len(b.free); n > 0 {
		p, b.free = b.free[n-1], b.free[:n-1]
	}
	b.mu.Unlock()
	if p != nil {
		if err := p.ready(width, height, mobile); err == nil {
			return p, nil
		}
		// The tab closed clean no longer answers (its renderer gone, say):
		// a new one stands in for it.
	}
	p = b.open()
	if err := p.ready(width, height, mobile); err != nil {
		return nil, err
	}
	return p, nil
}

// ready sets a tab up for a test: its viewport, touch emulation and
// emulated media, and empty lists of errors. It closes the tab if it
// cannot.
func (p *Page) ready(width, height int64, mobile bool) error {
	p.mu.Lock()
	p.errors, p.console, p.closed = nil, nil, false
	p.media = map[string]string{"prefers-reduced-motion": "reduce"}
	p.mu.Unlock()
	var vopts []chromedp.EmulateViewportOption
	if mobile {
		// A phone's screen is touched: the page sees pointer: coarse.
		vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
	}
	// Each call sets the whole viewport and touch emulation, so a tab
	// opened again keeps nothing of its last size.
	if err := chromedp.Do(p.Ctx, chromedp.EmulateViewport(width, height, vopts...)); err != nil {
		p.cancel()
		return err
	}
	if err := p.emulateMedia(); err != nil {
		p.cancel()
		return err
	}
	return nil
}

// open opens a new tab in a new browser context.
func (b *Browser) open() *Page {
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &Page{Ctx: ctx, cancel: cancel, browser: b, origins: map[string]bool{}}
	chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.mu.Lock()
			p.errors = append(p.errors, exceptionText(e.ExceptionDetails))
			p.mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				p.mu.Lock()
				p.console = append(p.console, strings.Join(parts, " "))
				p.mu.Unlock()
			}
		}
	})
	return p
}

// Page is one tab.
type Page struct {
	Ctx    context.Context // the tab's chromedp context; Close cancels it
	cancel context.CancelFunc

	browser *Browser

	mu      sync.Mutex
	cover   target.ID // the tab opened over this one by Hide, if any
	errors  []string
	console []string
	media   map[string]string // the CSS media features emulated, by name
	origins map[string]bool   // the origins Go went to, whose storage Close clears
	// kept is set by what a tab keeps across pages and Close cannot
	// undo (scripts run on new documents, a tab over it, permissions, an
	// authenticator): such a tab is closed for good.
	kept   bool
	closed bool // by Close, until Tab opens it again
}

// Close closes the tab. A tab that kept nothing Close cannot undo (see
// Page.kept) is left on a blank page, its browser context's cookies, its
// origins' storage and its history cleared, for Browser.Tab to open again;
// if any of that fails, it is closed for good.
func (p *Page) Close() {
	p.mu.Lock()
	closed := p.closed
	p.closed = true
	p.mu.Unlock()
	if closed {
		return
	}
	if !p.clear() {
		p.cancel()
		return
	}
	p.browser.mu.Lock()
	p.browser.free = append(p.browser.free, p)
	p.browser.mu.Unlock()
}

// clear readies a tab for another test, and says whether it could.
func (p *Page) clear() bool {
	p.mu.Lock()
	kept := p.kept
	origins := p.origins
	p.origins = map[string]bool{}
	p.mu.Unlock()
	if kept {
		return false
	}
	c := chromedp.FromContext(p.Ctx)
	if c == nil || c.Browser == nil || c.Target == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
	defer cancel()
	if origin, err := chromedp.Run(ctx, chromedp.Evaluate[string]("location.origin")); err == nil && strings.HasPrefix(origin, "http") {
		origins[origin] = true
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return false
	}
	if _, err := cdp.Call(ctx, c.Target, page.ResetNavigationHistory, cdp.Empty{}); err != nil {
		return false
	}
	if _, err := cdp.Call(ctx, c.Browser, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: c.BrowserContextID}); err != nil {
		return false
	}
	for o := range origins {
		if _, err := cdp.Call(ctx, c.Target, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: o, StorageTypes: "all"}); err != nil {
			return false
		}
	}
	return true
}

// keep marks the tab as keeping something that Close cannot undo.
func (p *Page) keep() {
	p.mu.Lock()
	p.kept = true
	p.mu.Unlock()
}

// Errors returns the uncaught exceptions and console errors so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append(append([]string(nil), p.errors...), p.console...)
}

// Go navigates to a URL and waits for the page to load.
func (p *Page) Go(url string) error {
	if u, err := neturl.Parse(url); err == nil && u.Host != "" {
		p.mu.Lock()
		p.origins[u.Scheme+"://"+u.Host] = true
		p.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// Eval evaluates a JavaScript expression (awaiting a promise) and returns
// its value.
func Eval[T any](p *Page, js string) (T, error) {
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// ErrTimeout is returned by Wait when the condition does not hold in time.
var ErrTimeout = errors.New("webtest: timed out")

// Wait waits until a JavaScript expression is true.
func (p *Page) Wait(js string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := Eval[bool](p, "!!("+js+")")
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("%w waiting for %s: %v\n%s", ErrTimeout, js, err, p.Describe())
			}
			return fmt.Errorf("%w waiting for %s\n%s", ErrTimeout, js, p.Describe())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// describeJS sums up what a page shows, for the message of a failed wait.
const describeJS = `(() => {
	const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent.trim().replace(/\s+/g, ' ') : ''; };
	const board = document.querySelector('svg.board');
	return [
		'address: ' + location.pathname,
		'data: ' + JSON.stringify(document.body.dataset),
		'net: ' + text('#net'),
		'turn: ' + text('#turn'),
		'message: ' + text('#message'),
		'board: ' + (board ? board.getAttribute('class') : 'none') + ', ' + document.querySelectorAll('#board rect.movable').length + ' movable',
		'actions: ' + [...document.querySelectorAll('#move-select option, #actions button')].map((e) => e.textContent + (e.disabled ? '(disabled)' : '')).join(' '),
		'buttons: ' + [...document.querySelectorAll('button')].filter((b) => b.offsetParent).map((b) => b.textContent.trim() + (b.disabled ? '(disabled)' : '')).join(' | '),
		'chooser: ' + [...document.querySelectorAll('.chooser')].map((c) => (c.hidden ? 'hidden ' : 'shown ') + c.textContent).join(' '),
		'analysis: ' + (() => { const e = document.querySelector('#evalbar'); return e ? (e.hidden ? 'hidden ' : 'shown ') + e.className + ' ' + text('#evalbar') : 'none'; })(),
	].join('\n');
})()`

// Describe sums up what the page shows (its address, its data attributes,
// the turn, the messages, the moves offered), to explain a failed wait.
func (p *Page) Describe() string {
	ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](describeJS))
	if err != nil {
		return "the page cannot be described: " + err.Error()
	}
	return s
}

// Center returns the middle of the first element a CSS selector finds, in
// the viewport's coordinates, scrolling it into view first if need be.
func (p *Page) Center(sel string) (x, y float64, err error) {
	js := fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		const r0 = el.getBoundingClientRect();
		if (r0.top < 0 || r0.bottom > innerHeight || r0.left < 0 || r0.right > innerWidth) el.scrollIntoView({block: 'center', inline: 'center'});
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, sel)
	xy, err := Eval[[]float64](p, js)
	if err != nil {
		return 0, 0, err
	}
	return xy[0], xy[1], nil
}

// SquareCenter returns the middle of a board square, such as "d2".
func (p *Page) SquareCenter(square string) (x, y float64, err error) {
	return p.Center(fmt.Sprintf(`rect.sq[data-square="%s"]`, square))
}

// Click clicks at a point.
func (p *Page) Click(x, y float64) error {
	return chromedp.Do(p.Ctx, chromedp.MouseClickXY(x, y))
}

// ClickSquare clicks a board square.
func (p *Page) ClickSquare(square string) error {
	x, y, err := p.SquareCenter(square)
	if err != nil {
		return err
	}
	return p.Click(x, y)
}

// ClickElement clicks the middle of the element a CSS selector finds.
func (p *Page) ClickElement(sel string) error {
	x, y, err := p.Center(sel)
	if err != nil {
		return err
	}
	return p.Click(x, y)
}

// Drag presses the mouse on one square, moves it in steps to another and
// releases it there.
func (p *Page) Drag(from, to string) error {
	x0, y0, err := p.SquareCenter(from)
	if err != nil {
		return err
	}
	x1, y1, err := p.SquareCenter(to)
	if err != nil {
		return err
	}
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	return chromedp.Do(p.Ctx, steps...)
}

// Key presses a key, such as "ArrowLeft" or "Home".
func (p *Page) Key(key string) error {
	js := fmt.Sprintf(`document.dispatchEvent(new KeyboardEvent('keydown', {key: %q, bubbles: true})), true`, key)
	_, err := Eval[bool](p, js)
	return err
}

// Press sends a real key press, such as "ArrowLeft", "Enter" or " ", to
// the element that has the focus: unlike Key, the browser also does what
// the key does by default (scroll the page, press a button) unless the
// page prevents it.
func (p *Page) Press(key string) error {
	named := map[string]string{
		"ArrowLeft": kb.ArrowLeft, "ArrowRight": kb.ArrowRight, "ArrowUp": kb.ArrowUp, "ArrowDown": kb.ArrowDown,
		"Enter": kb.Enter, "Escape": kb.Escape, "Tab": kb.Tab, "Home": kb.Home, "End": kb.End,
		"PageUp": kb.PageUp, "PageDown": kb.PageDown,
	}
	if k, ok := named[key]; ok {
		key = k
	}
	ctx, cancel := context.WithTimeout(p.Ctx, 10*time.Second)
	defer cancel()
	return chromedp.Do(ctx, chromedp.KeyEvent(key))
}

// OnNewDocument runs a script in every document the tab loads from now
// on, before the page's own scripts.
func (p *Page) OnNewDocument(js string) error {
	p.keep()
	return chromedp.Do(p.Ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
}

// ColorScheme makes the tab's pages see the system's colour scheme as
// "light" or "dark" (the CSS media feature prefers-color-scheme).
func (p *Page) ColorScheme(scheme string) error {
	p.mu.Lock()
	p.media["prefers-color-scheme"] = scheme
	p.mu.Unlock()
	return p.emulateMedia()
}

// Motion makes the tab's pages see that the system allows motion (on) or
// asks for reduced motion (off, as a new tab does): the CSS media feature
// prefers-reduced-motion.
func (p *Page) Motion(on bool) error {
	v := "reduce"
	if on {
		v = "no-preference"
	}
	p.mu.Lock()
	p.media["prefers-reduced-motion"] = v
	p.mu.Unlock()
	return p.emulateMedia()
}

// emulateMedia sets the media features the tab emulates, all at once:
// each call replaces the last.
func (p *Page) emulateMedia() error {
	p.mu.Lock()
	var fs []*emulation.MediaFeature
	for name, v := range p.media {
		fs = append(fs, &emulation.MediaFeature{Name: name, Value: v})
	}
	p.mu.Unlock()
	return chromedp.Do(p.Ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: fs})
		return err
	}))
}

// Hide puts the tab in the background, as a person does by opening
// another tab in the same window: Chromium opens a blank tab in the page's
// browser context and brings it to the front, so that the page's document
// becomes hidden (document.hidden, a visibilitychange event) and the
// browser stops giving it animation frames. Show brings the page back.
func (p *Page) Hide() error {
	p.keep()
	p.mu.Lock()
	hidden := p.cover != ""
	p.mu.Unlock()
	if hidden {
		return nil
	}
	c := chromedp.FromContext(p.Ctx)
	if c == nil || c.Browser == nil {
		return errors.New("webtest: Hide: the tab is not open")
	}
	ctx, cancel := context.WithTimeout(p.Ctx, 10*time.Second)
	defer cancel()
	r, err := cdp.Call(ctx, c.Browser, target.CreateTarget, target.CreateTargetParams{URL: "about:blank", BrowserContextID: c.BrowserContextID})
	if err != nil {
		return fmt.Errorf("webtest: Hide: opening a tab over the page: %w", err)
	}
	p.mu.Lock()
	p.cover = r.TargetID
	p.mu.Unlock()
	return nil
}

// Show brings a tab put in the background by Hide to the front again,
// closing the tab that covered it.
func (p *Page) Show() error {
	p.mu.Lock()
	cover := p.cover
	p.cover = ""
	p.mu.Unlock()
	if cover == "" {
		return nil
	}
	c := chromedp.FromContext(p.Ctx)
	ctx, cancel := context.WithTimeout(p.Ctx, 10*time.Second)
	defer cancel()
	if _, err := cdp.Call(ctx, c.Browser, target.CloseTarget, target.CloseTargetParams{TargetID: cover}); err != nil {
		return fmt.Errorf("webtest: Show: closing the tab over the page: %w", err)
	}
	_, err := cdp.Call(ctx, c.Browser, target.ActivateTarget, target.ActivateTargetParams{TargetID: c.Target.TargetID})
	return err
}

// Allow answers a permission the pages of an origin ask for, such as
// "notifications", as a person who clicks Allow does; the pages of the
// tab's other origins still ask.
func (p *Page) Allow(origin, permission string) error {
	p.keep()
	c := chromedp.FromContext(p.Ctx)
	if c == nil || c.Browser == nil {
		return errors.New("webtest: Allow: the tab is not open")
	}
	ctx, cancel := context.WithTimeout(p.Ctx, 10*time.Second)
	defer cancel()
	_, err := cdp.Call(ctx, c.Browser, browser.SetPermission, browser.SetPermissionParams{
		Permission:       &browser.PermissionDescriptor{Name: permission},
		Setting:          browser.PermissionSettingGranted,
		Origin:           origin,
		BrowserContextID: c.BrowserContextID,
	})
	if err != nil {
		return fmt.Errorf("webtest: allowing %s to %s: %w", permission, origin, err)
	}
	return nil
}

// Screenshot returns a PNG of the viewport.
func (p *Page) Screenshot() ([]byte, error) {
	return chromedp.Run(p.Ctx, chromedp.CaptureScreenshot())
}

func exceptionText(d *runtime.ExceptionDetails) string {
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		text += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d)", text, d.URL, d.LineNumber+1)
}
