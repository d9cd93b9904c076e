package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as the chaturaji command inside the
// scripts of testdata/script, and removes the binary that buildBinary
// built once the tests are done.
func TestMain(m *testing.M) {
	testscript.Main(cleanup{m}, map[string]func(){"chaturaji": main})
}

// cleanup runs the tests, then removes the built binary's directory.
type cleanup struct{ m *testing.M }

// Run runs the tests and removes the built binary.
func (c cleanup) Run() int {
	code := c.m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	return code
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs the
// real command and checks its output and exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
		},
		Setup: copySigned,
	})
}

// copySigned puts the records of ../../record/testdata/signed (a finished
// game signed with a test key, copies of it changed in one way each, and
// the key, test-key.pub) in each script's directory under signed/.
func copySigned(env *testscript.Env) error {
	src := filepath.Join("..", "..", "record", "testdata", "signed")
	files, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(env.WorkDir, "signed")
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, f.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// cmdExits runs a program and checks its exit status:
//
//	exits N program [args...]
//
// Its standard output and error can then be checked as after exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exits: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
