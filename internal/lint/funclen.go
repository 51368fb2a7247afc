// Package lint holds the project's own style checks that go vet and
// staticcheck do not make, run as ordinary tests (go test ./internal/lint)
// so that CI enforces them.
//
// The check of this file: no function of the project's non-test,
// non-generated Go code is longer than MaxFuncLines lines, counted from the
// line of its func keyword to the line of its closing brace, both included
// (the doc comment is not counted).
package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxFuncLines is the longest a function may be, in lines.
const MaxFuncLines = 80

// Func is one function that is too long.
type Func struct {
	// File is the path relative to the scanned root, with forward slashes;
	// Line the line of the func keyword.
	File string
	Line int
	// Name is the function's name, "Type.Method" for a method.
	Name string
	// Lines is its length in lines.
	Lines int
}

// String gives "file:line: Name is N lines".
func (f Func) String() string {
	return fmt.Sprintf("%s:%d: %s is %d lines (at most %d)", f.File, f.Line, f.Name, f.Lines, MaxFuncLines)
}

// LongFuncs parses every .go file under root that is not a test
// (_test.go), not generated (a "Code generated ... DO NOT EDIT." comment,
// see ast.IsGenerated) and not in a testdata, vendor or hidden folder, and
// returns its functions longer than limit lines, sorted by file and line.
// A file that does not parse is an error naming it.
func LongFuncs(root string, limit int) ([]Func, error) {
	var out []Func
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		long, err := longInFile(fset, p, filepath.ToSlash(rel), limit)
		out = append(out, long...)
		return err
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, err
}

// skipDir says whether a folder holds no project code to check.
func skipDir(name string) bool {
	return name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// longInFile returns the functions of one file longer than limit lines;
// rel names the file in the result.
func longInFile(fset *token.FileSet, path, rel string, limit int) ([]Func, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("lint: %w", err)
	}
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("lint: %w", err)
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	var out []Func
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start := fset.Position(fd.Pos()).Line
		n := fset.Position(fd.End()).Line - start + 1
		if n > limit {
			out = append(out, Func{File: rel, Line: start, Name: funcName(fd), Lines: n})
		}
	}
	return out, nil
}

// funcName is "Name" for a function and "Type.Name" for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}
