package server

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestForwardedClient checks that a node believes the client address of
// a forwarded request only if the cluster's secret signed it, for this
// method and path, recently.
func TestForwardedClient(t *testing.T) {
	n := &node{id: "n1", secret: []byte("the cluster's secret")}
	other := &node{id: "n1", secret: []byte("another secret")}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	old := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	const path = "/api/games/g1/actions"
	tests := []struct {
		name   string
		signer *node
		client string // the client the header claims
		signed string // the client the signature covers
		at     string
		path   string // the path signed
		want   bool
	}{
		{"signed", n, "192.0.2.7/32", "192.0.2.7/32", now, path, true},
		{"another secret", other, "192.0.2.7/32", "192.0.2.7/32", now, path, false},
		{"client changed", n, "192.0.2.8/32", "192.0.2.7/32", now, path, false},
		{"another path", n, "192.0.2.7/32", "192.0.2.7/32", now, "/api/games/g2/actions", false},
		{"too old", n, "192.0.2.7/32", "192.0.2.7/32", old, path, false},
		{"not an address", n, "nobody", "nobody", now, path, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", path, nil)
			r.Header.Set(hdrClient, tt.client)
			r.Header.Set(hdrNode, "n2")
			r.Header.Set(hdrTime, tt.at)
			r.Header.Set(hdrSignature, tt.signer.sign("POST", tt.path, tt.signed, "n2", tt.at))
			c, ok := n.forwardedClient(r)
			if ok != tt.want || ok && c.String() != tt.client {
				t.Fatalf("forwardedClient = %v, %v; want %v", c, ok, tt.want)
			}
		})
	}
	if _, ok := n.forwardedClient(httptest.NewRequest("POST", path, nil)); ok {
		t.Fatal("a request without a signature was believed")
	}
}
