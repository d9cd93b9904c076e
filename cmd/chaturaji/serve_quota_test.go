package main

import (
	"net/http"
	"path/filepath"
	"testing"
)

// TestGameQuota runs the real binary and attacks it as one address would
// to fill the server: tables of four humans that nobody joins, with the
// longest grace it can ask for. One address gets its quota of live games
// and no more, whatever their seats, while another is still served; a
// grace past the server's longest is refused; and after a SIGKILL and a
// restart the same games still count.
func TestGameQuota(t *testing.T) {
	bin := buildBinary(t)
	addr := freeAddr(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	flags := []string{"--max-games-per-client", "3", "--max-grace", "10m"}
	srv := startBinary(t, bin, addr, db, flags...)
	base := "http://" + addr
	const week = `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "abandon_ms": 604800000}`
	const humans = `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "abandon_ms": 600000}`

	createFrom(t, base, "127.0.0.3", week, http.StatusBadRequest, "abandon_ms 604800000: want 0 (the server's default) or 1000 to 600000")
	for range 3 {
		createFrom(t, base, "127.0.0.3", humans, http.StatusCreated, "")
	}
	createFrom(t, base, "127.0.0.3", humans, http.StatusTooManyRequests, "too many live games from your address: the limit is 3")
	createFrom(t, base, "127.0.0.3", `{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`, http.StatusTooManyRequests, "the limit is 3")
	createFrom(t, base, "127.0.0.4", humans, http.StatusCreated, "")

	srv.kill(t)
	startBinary(t, bin, addr, db, flags...)
	createFrom(t, base, "127.0.0.3", humans, http.StatusTooManyRequests, "the limit is 3")
	createFrom(t, base, "127.0.0.4", humans, http.StatusCreated, "")
}
