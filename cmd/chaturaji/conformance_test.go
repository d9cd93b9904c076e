package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCommand runs a command line in process and returns its exit status and
// outputs.
func runCommand(args ...string) (status int, stdout, stderr string) {
	var out, errOut strings.Builder
	status = run(&env{stdout: &out, stderr: &errOut}, args)
	return status, out.String(), errOut.String()
}

// TestConformance runs moves and apply on every line of the conformance
// data of every preset that has some (one file per preset, named after
// it): the legal actions, in byte order, and the position after each.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob("../../rules/testdata/conformance/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance data: %v", err)
	}
	for _, file := range files {
		rules := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		t.Run(rules, func(t *testing.T) { runConformance(t, file, rules) })
	}
}

func runConformance(t *testing.T, file, rules string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var c struct {
			Pos     string            `json:"pos"`
			Actions []string          `json:"actions"`
			After   map[string]string `json:"after"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		status, out, errOut := runCommand("moves", "--rules", rules, "--pos", c.Pos)
		want := strings.Join(c.Actions, "\n") + "\n"
		if status != 0 || out != want {
			t.Errorf("line %d: moves exits %d with\n%s%s\nwant\n%s", n, status, out, errOut, want)
		}
		for _, a := range c.Actions {
			status, out, errOut := runCommand("apply", "--rules", rules, "--pos", c.Pos, a)
			if status != 0 || out != c.After[a]+"\n" {
				t.Errorf("line %d: apply %s exits %d with\n%s%s\nwant\n%s", n, a, status, out, errOut, c.After[a])
			}
		}
	}
	if n == 0 {
		t.Fatal("no conformance lines")
	}
}
