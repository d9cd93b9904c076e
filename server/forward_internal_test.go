package server

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestForwardedClient checks that a node believes the client address of
// a forwarded request only if the cluster's key signed it, for this
// method, path, query and body, recently, and only once.
func TestForwardedClient(t *testing.T) {
	key := bytes.Repeat([]byte("k"), 32)
	n := &node{id: "n1", key: key, window: 30 * time.Second, seen: newSeenSignatures(100)}
	const path, body = "/api/games/g1/actions?x=1", `{"action": "e2e3", "seq": 4}`
	now := time.Now()
	// signed returns a request to n, as node n2 signs it for client c
	// with key k at time at, then changed by change.
	signed := func(k []byte, at time.Time, c string, change func(*http.Request) []byte) (*http.Request, []byte) {
		r := httptest.NewRequest("POST", path, nil)
		signRequest(k, r, []byte(body), c, "n2")
		r.Header.Set(hdrTime, strconv.FormatInt(at.Unix(), 10))
		// The time is signed: sign again at it.
		r.Header.Set(hdrSignature, hex.EncodeToString(signature(k, "POST", path, []byte(body), c, "n2", r.Header.Get(hdrTime), r.Header.Get(hdrNonce))))
		b := []byte(body)
		if change != nil {
			if nb := change(r); nb != nil {
				b = nb
			}
		}
		return r, b
	}
	const c = "192.0.2.7/32"
	tests := []struct {
		name   string
		key    []byte
		at     time.Time
		client string
		change func(*http.Request) []byte
		want   string // "" if believed, else the error's code
	}{
		{"signed", key, now, c, nil, ""},
		{"signed a little ahead", key, now.Add(20 * time.Second), c, nil, ""},
		{"another key", bytes.Repeat([]byte("x"), 32), now, c, nil, EFORBIDDEN},
		{"another client", key, now, c, func(r *http.Request) []byte { r.Header.Set(hdrClient, "192.0.2.8/32"); return nil }, EFORBIDDEN},
		{"another node", key, now, c, func(r *http.Request) []byte { r.Header.Set(hdrNode, "n3"); return nil }, EFORBIDDEN},
		{"another nonce", key, now, c, func(r *http.Request) []byte { r.Header.Set(hdrNonce, "00"); return nil }, EFORBIDDEN},
		{"another path", key, now, c, func(r *http.Request) []byte { r.RequestURI = "/api/games/g2/actions?x=1"; return nil }, EFORBIDDEN},
		{"another query", key, now, c, func(r *http.Request) []byte { r.RequestURI = "/api/games/g1/actions?x=2"; return nil }, EFORBIDDEN},
		{"another method", key, now, c, func(r *http.Request) []byte { r.Method = "PUT"; return nil }, EFORBIDDEN},
		{"another body", key, now, c, func(*http.Request) []byte { return []byte(`{"action": "e2e4", "seq": 4}`) }, EFORBIDDEN},
		{"too old", key, now.Add(-31 * time.Second), c, nil, EFORBIDDEN},
		{"too far ahead", key, now.Add(31 * time.Second), c, nil, EFORBIDDEN},
		{"not an address", key, now, "nobody", nil, EFORBIDDEN},
		{"a signature cut short", key, now, c, func(r *http.Request) []byte {
			r.Header.Set(hdrSignature, r.Header.Get(hdrSignature)[:62])
			return nil
		}, EFORBIDDEN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, b := signed(tt.key, tt.at, tt.client, tt.change)
			got, err := n.verify(r, b, now)
			switch {
			case tt.want == "" && (err != nil || got.String() != tt.client):
				t.Fatalf("verify = %v, %v; want %s believed", got, err, tt.client)
			case tt.want != "" && ErrorCode(err) != tt.want:
				t.Fatalf("verify = %v, %v; want %s", got, err, tt.want)
			}
			if tt.want != "" {
				return
			}
			if _, err := n.verify(r, b, now.Add(time.Second)); ErrorCode(err) != EFORBIDDEN || !strings.Contains(err.Error(), "received before") {
				t.Fatalf("the same request again: %v, want it refused", err)
			}
		})
	}
}

// TestSeenSignatures checks that a node forgets a signature only once it
// has lapsed, and takes no more than its limit at once.
func TestSeenSignatures(t *testing.T) {
	s := newSeenSignatures(2)
	now := time.Now()
	sig := func(b byte) [32]byte { return [32]byte{b} }
	for _, step := range []struct {
		name  string
		sig   byte
		lapse time.Duration // from now
		at    time.Duration // from now
		want  string
	}{
		{"a first signature", 1, 10 * time.Second, 0, ""},
		{"a second", 2, 20 * time.Second, 0, ""},
		{"the first again", 1, 10 * time.Second, time.Second, EFORBIDDEN},
		{"a third, over the limit", 3, 30 * time.Second, time.Second, EUNAVAILABLE},
		{"the first, not lapsed yet", 1, 10 * time.Second, 9 * time.Second, EFORBIDDEN},
		{"a third, once the first lapsed", 3, 30 * time.Second, 11 * time.Second, ""},
		{"the first, lapsed", 1, 40 * time.Second, 12 * time.Second, EUNAVAILABLE}, // two held: 2 and 3
		{"the second, not lapsed yet", 2, 20 * time.Second, 19 * time.Second, EFORBIDDEN},
		{"the first, once the second lapsed", 1, 40 * time.Second, 21 * time.Second, ""},
	} {
		err := s.add(sig(step.sig), now.Add(step.lapse), now.Add(step.at))
		if step.want == "" && err != nil || step.want != "" && ErrorCode(err) != step.want {
			t.Fatalf("%s: %v, want %q", step.name, err, step.want)
		}
	}
}

// ForgeForwarded signs r, whose body is body, as node from signs a
// request it forwards for client c, but with key: what anyone who holds
// key can send.
func ForgeForwarded(r *http.Request, body, key []byte, c, from string) {
	signRequest(key, r, body, c, from)
}
