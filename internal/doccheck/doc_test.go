package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedNamesHaveComments walks the module's Go packages and fails
// naming every exported top-level name, exported method of an exported type
// and exported field of an exported struct type that has neither a doc
// comment nor a trailing comment. Test files, testdata, hidden directories
// and package main are left out.
func TestExportedNamesHaveComments(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root %s has no go.mod: %v", root, err)
	}
	missing, err := undocumented(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s has no comment", m)
	}
	if len(missing) > 0 {
		t.Logf("%d exported name(s) without a comment: add a doc comment above each, or a trailing // comment on its line", len(missing))
	}
}

// TestUndocumentedFindsEveryKind checks the checker itself on a small tree:
// it must name each kind of undocumented name, and nothing it should skip.
func TestUndocumentedFindsEveryKind(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p/p.go", `package p

// Doc is documented.
type Doc struct {
	A int // trailing
	// B has a doc comment.
	B    int
	C, D int
	E    int
	f    int
	Doc2
}

type Bare struct{ X int }

type hidden struct{ Y int }

// Doc2 is documented.
type Doc2 int

// Ok is documented.
func (Doc) Ok() {}

func (*Doc) NoDoc() {}

func (hidden) Exported() {}

func (Doc) unexported() {}

// G is documented.
type G[T any] struct{ V T }

func (G[T]) M() {}

func F() {}

//go:noinline
func Directive() {}

// The group's doc covers its names.
const (
	K1 = 1
	K2 = 2
)

const K3 = 3

var V1, v2 = 1, 2

var V3 = 3 // trailing
`)
	write("p/p_test.go", "package p\n\nfunc TestSkipped() {}\n")
	write("p/testdata/t.go", "package t\n\nfunc Skipped() {}\n")
	write(".hidden/h.go", "package h\n\nfunc Skipped() {}\n")
	write("cmd/main.go", "package main\n\nfunc Skipped() {}\n")
	got, err := undocumented(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p/p.go:8:2: field Doc.C",
		"p/p.go:8:5: field Doc.D",
		"p/p.go:9:2: field Doc.E",
		"p/p.go:14:6: type Bare",
		"p/p.go:14:19: field Bare.X",
		"p/p.go:24:13: method Doc.NoDoc",
		"p/p.go:31:23: field G.V",
		"p/p.go:33:13: method G.M",
		"p/p.go:35:6: func F",
		"p/p.go:38:6: func Directive",
		"p/p.go:46:7: const K3",
		"p/p.go:48:5: var V1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("undocumented names:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// undocumented returns, in file and line order, "file:line:col: what Name"
// for every exported name under root that lacks a comment, with file paths
// relative to root and slash-separated.
func undocumented(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		report := func(pos token.Pos, what string) {
			p := fset.Position(pos)
			out = append(out, fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(rel), p.Line, p.Column, what))
		}
		checkFile(f, report)
		return nil
	})
	return out, err
}

// checkFile reports the exported names of f that lack a comment, in source
// order.
func checkFile(f *ast.File, report func(pos token.Pos, what string)) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || commented(d.Doc) {
				continue
			}
			if d.Recv == nil {
				report(d.Name.Pos(), "func "+d.Name.Name)
			} else if recv := receiverName(d.Recv); ast.IsExported(recv) {
				report(d.Name.Pos(), "method "+recv+"."+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if !commented(d.Doc) && !commented(s.Doc) && !commented(s.Comment) {
						report(s.Name.Pos(), "type "+s.Name.Name)
					}
					if st, ok := s.Type.(*ast.StructType); ok {
						checkFields(s.Name.Name, st, report)
					}
				case *ast.ValueSpec:
					if commented(d.Doc) || commented(s.Doc) || commented(s.Comment) {
						continue
					}
					for _, n := range s.Names {
						if n.IsExported() {
							report(n.Pos(), d.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
}

// checkFields reports the exported fields of struct type typ that have
// neither a doc comment nor a trailing comment. An embedded field is
// documented by its type and is not checked.
func checkFields(typ string, st *ast.StructType, report func(pos token.Pos, what string)) {
	for _, field := range st.Fields.List {
		if commented(field.Doc) || commented(field.Comment) {
			continue
		}
		for _, n := range field.Names {
			if n.IsExported() {
				report(n.Pos(), "field "+typ+"."+n.Name)
			}
		}
	}
}

// receiverName returns the name of a method's receiver type, without its
// pointer or type parameters.
func receiverName(recv *ast.FieldList) string {
	if len(recv.List) == 0 {
		return ""
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// commented reports whether a comment group has text, not only directives
// such as //go:noinline.
func commented(cg *ast.CommentGroup) bool {
	return cg != nil && strings.TrimSpace(cg.Text()) != ""
}
