package allow_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/internal/allow"
)

func TestMethods(t *testing.T) {
	mux := http.NewServeMux()
	ok := func(http.ResponseWriter, *http.Request) {}
	mux.HandleFunc("GET /api/games", ok)
	mux.HandleFunc("POST /api/games", ok)
	mux.HandleFunc("GET /api/games/{id}", ok)
	mux.HandleFunc("POST /api/games/{id}/actions", ok)
	mux.HandleFunc("OPTIONS /api/", ok)
	mux.HandleFunc("/api/", ok)
	for _, tc := range []struct {
		method, path string
		want         []string
	}{
		{"PUT", "/api/games", []string{"GET", "HEAD", "POST"}},
		{"DELETE", "/api/games/abc", []string{"GET", "HEAD"}},
		{"GET", "/api/games/abc/actions", []string{"POST"}},
		{"GET", "/api/nothing", nil},
		{"GET", "/elsewhere", nil},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		if got := allow.Methods(mux, r, "/api/", "OPTIONS /api/"); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.method, tc.path, got, tc.want)
		}
	}
}
