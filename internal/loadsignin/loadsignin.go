// Package loadsignin floods a server's sign-in from one address while
// other clients sign in as people do: the flood posts wrong passwords
// under ever new names to POST /api/account/signin, over many connections,
// as fast as the server answers; each of the other clients, from an
// address of its own, signs up once and then signs in with its password
// at a steady pace. It measures the others' sign-ins (how many were
// answered 200, and their times) and counts the flood's answers by
// status. `chaturaji loadtest --signin-flood` calls it.
package loadsignin

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// Config is a run.
type Config struct {
	Base    string // the server's base URL, such as http://127.0.0.1:8080
	Clients int    // how many clients sign in beside the flood
	// Every is how often each of them signs in (default 5s, within a
	// server's default budget of a client); they start spread evenly over
	// the first Every.
	Every time.Duration
	// Duration is how long the flood lasts, and the others sign in
	// (default 30s).
	Duration time.Duration
	// FloodConns is how many sign-ins the flood has in flight at once,
	// each on a connection of its own; 0 for no flood, a baseline.
	FloodConns int
	// Client returns the HTTP client of address i: 0 is the flood's, 1 to
	// Clients the others', each its own address as the server tells
	// clients apart (a loopback address of its own, or a proxy's
	// X-Forwarded-For). Each is used with a cookie jar of its own.
	Client func(i int) *http.Client
}

// Password is the password of the clients' accounts.
const Password = "correct horse battery"

// Result is what a run measured.
type Result struct {
	Clients  int             // the clients beside the flood
	SignIns  int             // their sign-ins tried
	OK       int             // those answered 200 with their account
	Failures map[string]int  // the others, by status ("503 EUNAVAILABLE") or error
	Times    []time.Duration // every sign-in's time, answered or not, sorted
	Flood    map[string]int  // the flood's answers, by status ("401 EUNAUTHORIZED") or error
	FloodN   int             // the flood's requests answered or failed
	Elapsed  time.Duration   // from the flood's start to its end
}

// Percentile returns the p-th percentile (0 to 1) of the sign-ins' times.
func (r *Result) Percentile(p float64) time.Duration {
	if len(r.Times) == 0 {
		return 0
	}
	i := min(int(float64(len(r.Times))*p), len(r.Times)-1)
	return r.Times[i]
}

// Run signs up cfg.Clients accounts, one from each client's address, then
// floods the sign-in from address 0 for cfg.Duration while the others
// sign in every cfg.Every. An account it cannot make fails it; the
// sign-ins that fail are counted, not returned as an error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Clients < 1 {
		return nil, fmt.Errorf("loadsignin: %d clients: want 1 or more", cfg.Clients)
	}
	if cfg.Every <= 0 {
		cfg.Every = 5 * time.Second
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 30 * time.Second
	}
	if cfg.FloodConns < 0 {
		return nil, fmt.Errorf("loadsignin: %d connections of the flood: want 0 or more", cfg.FloodConns)
	}
	if cfg.Client == nil {
		cfg.Client = func(int) *http.Client { return http.DefaultClient }
	}
	var tag [4]byte
	rand.Read(tag[:])
	run := hex.EncodeToString(tag[:]) // the run's names are new on a server used before

	people := make([]*person, cfg.Clients)
	for i := range people {
		jar, _ := cookiejar.New(nil)
		c := *cfg.Client(1 + i)
		c.Jar = jar
		people[i] = &person{name: fmt.Sprintf("p%s-%04d", run, i), http: &c}
	}
	if err := signUpAll(ctx, cfg.Base, people); err != nil {
		return nil, err
	}

	res := &Result{Clients: cfg.Clients, Failures: map[string]int{}, Flood: map[string]int{}}
	fctx, stop := context.WithTimeout(ctx, cfg.Duration)
	defer stop()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	flood := *cfg.Client(0)
	flood.Jar = nil
	for w := range cfg.FloodConns {
		wg.Go(func() {
			for n := 0; fctx.Err() == nil; n++ {
				name := fmt.Sprintf("f%s-%d-%d", run, w, n)
				status := signIn(fctx, &flood, cfg.Base, name, "wrong horse battery")
				if fctx.Err() != nil && !isStatus(status) {
					return // cut off by the flood's end, not answered
				}
				mu.Lock()
				res.Flood[status]++
				res.FloodN++
				mu.Unlock()
			}
		})
	}
	for i, p := range people {
		wg.Go(func() {
			// Spread evenly over the first Every, then every Every.
			first := time.Duration(int64(cfg.Every) * int64(i) / int64(len(people)))
			t := time.NewTimer(first)
			defer t.Stop()
			for {
				select {
				case <-fctx.Done():
					return
				case <-t.C:
				}
				t.Reset(cfg.Every)
				// A sign-in in flight when the flood ends is waited for:
				// its time counts.
				began := time.Now()
				status := signIn(ctx, p.http, cfg.Base, p.name, Password)
				took := time.Since(began)
				mu.Lock()
				res.SignIns++
				res.Times = append(res.Times, took)
				if status == "200" {
					res.OK++
				} else {
					res.Failures[status]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	slices.Sort(res.Times)
	return res, ctx.Err()
}

// person is a client that signs in as people do.
type person struct {
	name string
	http *http.Client
}

// signUpAll makes every person's account, a few at once; a refusal for
// the server's load (429, 503) is tried again after its Retry-After.
func signUpAll(ctx context.Context, base string, people []*person) error {
	sem := make(chan struct{}, 4)
	errs := make(chan error, len(people))
	var wg sync.WaitGroup
	for _, p := range people {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs <- p.signUp(ctx, base)
		})
	}
	wg.Wait()
	close(errs)
	return errors.Join(slices.Collect(func(yield func(error) bool) {
		for err := range errs {
			if err != nil && !yield(err) {
				return
			}
		}
	})...)
}

// signUp makes the person's account.
func (p *person) signUp(ctx context.Context, base string) error {
	body, _ := json.Marshal(server.SignUp{Username: p.name, Password: Password})
	for attempt := 0; ; attempt++ {
		resp, err := post(ctx, p.http, base+"/api/account", body)
		if err != nil {
			return fmt.Errorf("loadsignin: signing up %s: %w", p.name, err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if resp.StatusCode == http.StatusCreated {
			return nil
		}
		retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		if (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) || attempt == 10 {
			return fmt.Errorf("loadsignin: signing up %s: %s %s", p.name, resp.Status, bytes.TrimSpace(b))
		}
		select {
		case <-time.After(time.Duration(max(retry, 1)) * time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// signIn signs in under name with password and returns the answer's
// status and, if it is not 200, its error code ("401 EUNAUTHORIZED"), or
// what stopped the request ("error: ...").
func signIn(ctx context.Context, c *http.Client, base, name, password string) string {
	body, _ := json.Marshal(server.SignIn{Username: name, Password: password})
	resp, err := post(ctx, c, base+"/api/account/signin", body)
	if err != nil {
		return "error: " + errorKind(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return "error: reading the answer: " + errorKind(err)
	}
	status := strconv.Itoa(resp.StatusCode)
	if resp.StatusCode == http.StatusOK {
		var me server.Me
		if json.Unmarshal(b, &me) != nil || me.Name != name {
			return "200 of another account"
		}
		return status
	}
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(b, &e)
	return status + " " + e.Error.Code
}

// isStatus reports whether a status of signIn is an answer of the server.
func isStatus(s string) bool {
	return len(s) >= 3 && s[0] >= '1' && s[0] <= '5'
}

// errorKind names an error of a request without its particulars (ports,
// addresses), so that errors of one kind count together.
func errorKind(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return "connection failed"
}

func post(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.Do(req)
}
