// Package allow finds the methods a request's path takes, so that a
// handler can answer a wrong method with 405 Method Not Allowed and an
// Allow header. net/http's ServeMux does that itself only when no pattern
// without a method matches the path; a catch-all such as "/api/" (which
// answers unknown paths with a JSON error) hides it.
package allow

import "net/http"

// probed are the methods Methods tries, in the order Allow lists them.
var probed = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions}

// Methods returns the methods for which mux routes r's path to a pattern
// other than the given catch-all patterns (as registered, such as "/api/"
// or "OPTIONS /api/"): empty if the path has no endpoint of its own.
func Methods(mux *http.ServeMux, r *http.Request, catchAll ...string) []string {
	var methods []string
	for _, m := range probed {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && !contains(catchAll, pattern) {
			methods = append(methods, m)
		}
	}
	return methods
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
