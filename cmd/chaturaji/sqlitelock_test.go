package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOneServerToAnSQLiteFile starts `chaturaji serve` on an SQLite file,
// then a second on the same file: the second exits at once saying the file
// is in use and by which process, and the first still serves. Once the
// first is killed with kill -9, a server starts on the file again.
func TestOneServerToAnSQLiteFile(t *testing.T) {
	bin := buildBinary(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	first := startBinary(t, bin, freeAddr(t), db)

	second := exec.Command(bin, serveArgs(freeAddr(t), db)...)
	second.Dir = t.TempDir()
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = second.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		second.Process.Kill()
		<-done
		t.Fatalf("a second server on the same SQLite file kept running:\n%s", out)
	}
	if err == nil {
		t.Fatalf("a second server on the same SQLite file exited cleanly:\n%s", out)
	}
	for _, want := range []string{"in use by another server", "process ", "PostgreSQL"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the second server said %q, without %q", out, want)
		}
	}
	select {
	case <-first.done:
		t.Fatalf("the first server exited: %v\n%s", first.err, first.log.String())
	default:
	}

	first.kill(t)
	startBinary(t, bin, freeAddr(t), db) // the system dropped the dead server's lock
}
