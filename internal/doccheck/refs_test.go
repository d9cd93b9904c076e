package doccheck

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The names of the team's workbench, which sits beside the repository in
// CI but never in a user's clone: written in pieces so that this file does
// not name them itself. The quoted name is the workbench as a path
// element of filepath.Join, the other way Go code reaches it.
var workbench = []string{".." + "/shared", "RULES" + ".md", "\x22sha" + "red\x22"}

// allowed are the files that may name the workbench: CI, which runs beside
// it, and the test that keeps the conformance copies current where it is.
func allowed(path string) bool {
	return strings.HasPrefix(path, ".ci/") || path == "rules/conformance_test.go"
}

// TestNoWorkbenchReferences fails naming every file of the repository,
// and the line, that mentions the workbench: a link, a path or a citation
// that a user could not follow. The rules are docs/rules.md's.
func TestNoWorkbenchReferences(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := repositoryFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d files in the repository: the listing is wrong", len(files))
	}
	for _, f := range files {
		if allowed(f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range workbenchMentions(data) {
			t.Errorf("%s:%d mentions %s, which a user's clone does not have: cite docs/rules.md (or the repository's own copy) instead", f, m.line, m.name)
		}
	}
}

// mention is a workbench name found on a line of a file.
type mention struct {
	line int
	name string
}

// workbenchMentions returns every mention of a workbench name in a file.
func workbenchMentions(data []byte) []mention {
	var out []mention
	for i, line := range bytes.Split(data, []byte("\n")) {
		for _, name := range workbench {
			if bytes.Contains(line, []byte(name)) {
				out = append(out, mention{i + 1, name})
			}
		}
	}
	return out
}

// repositoryFiles lists the files git tracks, or, outside a git work tree
// (an unpacked archive), every file but hidden directories' and bin/.
func repositoryFiles(root string) ([]string, error) {
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
				files = append(files, f)
			}
		}
		return files, nil
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" || rel == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}

// TestWorkbenchCheckFindsMentions checks the check on text of its own, so
// that it can be seen to fail: a link, a citation in a comment, a path
// that begins like the workbench's, and text that only resembles it.
func TestWorkbenchCheckFindsMentions(t *testing.T) {
	text := "# Notes\n" +
		"The rules are in [the record](" + workbench[0] + "/" + workbench[1] + ").\n" +
		"// promotion, as " + workbench[1] + " section 4 says\n" +
		"docs/rules.md and a folder named shared/ are fine; " + workbench[0] + "-notes is not\n"
	got := workbenchMentions([]byte(text))
	want := []mention{{2, workbench[0]}, {2, workbench[1]}, {3, workbench[1]}, {4, workbench[0]}}
	if len(got) != len(want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("mention %d: %v, want %v", i, got[i], want[i])
		}
	}
	if allowed("README.md") || allowed("docs/rules.md") || !allowed(".ci/run") || !allowed("rules/conformance_test.go") {
		t.Error("allowed lets the wrong files name the workbench")
	}
}
