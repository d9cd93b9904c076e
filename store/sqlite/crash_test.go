package sqlite_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// crashVar tells TestCrashWriter, run as a child process, which database
// to write to.
const crashVar = "CHATURAJI_SQLITE_CRASH_DB"

// TestCrashWriter is the child process of TestKilledWriterKeepsAcknowledged:
// it appends events to a game one at a time, printing "ack N" as each
// AppendEvents returns, until it is killed. Run any other way it does
// nothing.
func TestCrashWriter(t *testing.T) {
	path := os.Getenv(crashVar)
	if path == "" {
		return
	}
	s := open(t, path)
	createGame(t, s, "g1")
	for seq := int64(1); ; seq++ {
		e := store.Event{Seq: seq, Kind: "roll", Data: fmt.Appendf(nil, `{"seq":%d}`, seq)}
		if err := s.AppendEvents(t.Context(), "g1", seq-1, []store.Event{e}); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ack %d\n", seq)
	}
}

// TestKilledWriterKeepsAcknowledged kills a writing process with SIGKILL
// and checks that every event it was told was stored is there.
func TestKilledWriterKeepsAcknowledged(t *testing.T) {
	const acks = 200
	path := filepath.Join(t.TempDir(), "games.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashVar+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	acked := int64(0)
	read := func() {
		for lines.Scan() {
			if n, ok := strings.CutPrefix(lines.Text(), "ack "); ok {
				acked, _ = strconv.ParseInt(n, 10, 64)
				if acked == acks {
					return
				}
			}
		}
	}
	read()
	if acked < acks {
		cmd.Wait()
		t.Fatalf("the writer stopped after %d events, before it was killed", acked)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	read() // what it acknowledged before the signal landed
	cmd.Wait()

	s := open(t, path)
	defer s.Close()
	evs, err := s.Events(t.Context(), "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(evs)) < acked {
		t.Fatalf("%d events stored, but %d were acknowledged", len(evs), acked)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d is numbered %d", i+1, e.Seq)
		}
	}
	t.Logf("killed after %d acknowledged events; %d stored", acked, len(evs))
}
