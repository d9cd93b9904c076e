package loadlobby_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/internal/loadlobby"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/sqlite"
)

// TestRun seats 80 seekers of the five default pools through a real
// server's lobby, all at once: each is seated once, 20 tables' worth.
func TestRun(t *testing.T) {
	st, err := store.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{MaxLobbyConnsPerClient: 100, RequestRate: 1000, RequestBurst: 1000, BotDelay: server.NoBotDelay}, st, nil)
	if err := srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		st.Close()
	}()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res, err := loadlobby.Run(ctx, loadlobby.Config{WSBase: "ws" + strings.TrimPrefix(hs.URL, "http"), Seekers: 80})
	if err != nil {
		t.Fatal(err)
	}
	// 16 a pool: four tables of four in four pools, eight of two in one.
	if res.Seekers != 80 || res.Seated != 80 || res.Games != 4*4+8 || len(res.Tables) != res.Games {
		t.Errorf("Run = %d seekers, %d seated in %d games (%d times), want 80 seated in 24 games", res.Seekers, res.Seated, res.Games, len(res.Tables))
	}
	if res.Percentile(0) <= 0 || res.Percentile(1) < res.Percentile(0.5) {
		t.Errorf("times p0 %v, p50 %v, max %v: want positive, in order", res.Percentile(0), res.Percentile(0.5), res.Percentile(1))
	}
}
