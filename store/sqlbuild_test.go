package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sqlText matches a string literal that looks like a piece of SQL: a
// statement's opening words in any case, or an SQL keyword in capitals (the
// way this code base writes SQL; prose rarely shouts "WHERE").
var sqlText = regexp.MustCompile(`(?i:\b(insert\s+into|delete\s+from|update\s+\w+\s+set|alter\s+table|create\s+(table|index|view|schema|trigger)|drop\s+(table|view|schema|index|trigger))\b)|\b(SELECT|WHERE|VALUES|PRAGMA|FROM|JOIN|COPY)\b`)

// sqlBuildAllowed are the functions (file relative to the module root, then
// ":" and the function's name) that build SQL text from something other
// than literals and constants, each with why that is safe: every value
// travels as a parameter ($1, ?) and only identifiers or placeholders that
// never come from input are spliced in.
var sqlBuildAllowed = map[string]string{
	"store/result.go:deleteResults":                  "where is one of the constant conditions of its callers (`id = $1`, ...); the value travels as arg",
	"store/save_sqlite.go:sqliteNextID":              "table is one of the package's constant table names; the sqlite_sequence key is $1",
	"store/save_sqlite.go:insertSQL":                 "table and columns are the package's constant names; the values are ? placeholders",
	"store/integrity.go:orphanCountSQL":              "table and column names come from the database's own catalog (foreign keys) or implicitReferences, quoted with quoteIdent",
	"store/copyfreeze.go:copyFreeze":                 "table and columns are the package's constant names (a partition's is a constant table name and an int64 trial id); the rows travel as COPY data",
	"store/partition.go:stagePartition":              "table is one of the package's constant partitioned tables; the partition name is that, an int64 trial id and an int chunk number (partitionName, chunkPartitionName)",
	"store/partition.go:attachPartition":             "table is one of the package's constant partitioned tables; the partition names are that, an int64 trial id and an int chunk number (partitionName, chunkPartitionName); the block bounds are int64s formatted by %d",
	"store/partition.go:dropPartitions":              "partition names are those pg_inherits lists for the trial's names (trialPartitionsQuery: a constant table name, an int64 trial id and an optional chunk number); bigCallTable is a constant",
	"store/partition.go:onDefaults":                  "splices only callData, a partitionName (constant table name and int64 trial id), into the package's constant statements",
	"watch/store.go:insertSQL":                       "table and columns are the watch's constant table and column names; the values are $n placeholders",
	"store/storetest/storetest.go:NewPostgresSchema": "the schema name is taudb_test_ and 16 random hex digits made by the function itself",
	"store/storetest/storetest.go:Counts":            "table names come from the database's own catalog, quoted",
	// The benchmark driver works on private databases it creates itself.
	"scripts/benchtool/fetch.go:(*bench).fetch":        "no SQL is built: the row's note mentions COPY TO in words",
	"scripts/benchtool/fetch.go:copyTo":                "COPY takes no parameters: store.TrialQueries gives LoadTrial's constant queries and settings with the trial id and id range, int64s formatted by strconv, in place of $1 and $2",
	"scripts/benchtool/postgres.go:exportCSV":          "table names come from the benchmark database's own catalog (foreign keys of TAUdb's schema); CSV paths are made by the driver in its temporary folder",
	"scripts/benchtool/postgres.go:dropCopies":         "table names come from the benchmark database's own catalog, with a constant prefix",
	"scripts/benchtool/postgres.go:checkEmpty":         "table names come from the benchmark database's own catalog",
	"scripts/benchtool/sqlite.go:sqliteScripts":        "table and column names come from the benchmark database's own catalog; CSV paths are made by the driver in its temporary folder",
	"scripts/benchtool/sqlite.go:countRows":            "table names come from the benchmark database's own catalog",
	"scripts/benchtool/result.go:(*bench).importCells": "no value but the CSV path, made by the driver in its temporary folder",
}

// sqlBuild is one place that builds SQL text from a non-constant value.
type sqlBuild struct {
	pos      token.Position
	function string
	what     string
}

// findSQLBuilds parses the Go source src (named file) and returns every
// string concatenation, += or fmt.*printf call that mixes SQL-looking
// literal text with a value that is not a literal nor a constant of the
// package (consts holds the package's constant names).
func findSQLBuilds(fset *token.FileSet, file string, src []byte, consts map[string]bool) ([]sqlBuild, error) {
	f, err := parser.ParseFile(fset, file, src, 0)
	if err != nil {
		return nil, err
	}
	var out []sqlBuild
	constant := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.BasicLit:
			return true
		case *ast.Ident:
			return consts[x.Name]
		}
		return false
	}
	isSQL := func(es []ast.Expr) bool {
		for _, e := range es {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && sqlText.MatchString(s) {
					return true
				}
			}
		}
		return false
	}
	var flatten func(e ast.Expr, seen map[ast.Node]bool) []ast.Expr
	flatten = func(e ast.Expr, seen map[ast.Node]bool) []ast.Expr {
		if p, ok := e.(*ast.ParenExpr); ok {
			return flatten(p.X, seen)
		}
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			seen[b] = true
			return append(flatten(b.X, seen), flatten(b.Y, seen)...)
		}
		return []ast.Expr{e}
	}
	for _, decl := range f.Decls {
		name := ""
		if fd, ok := decl.(*ast.FuncDecl); ok {
			name = fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv := fd.Recv.List[0].Type
				star := ""
				if s, ok := recv.(*ast.StarExpr); ok {
					recv, star = s.X, "*"
				}
				if id, ok := recv.(*ast.Ident); ok {
					name = "(" + star + id.Name + ")." + name
				}
			}
		}
		seen := map[ast.Node]bool{}
		sqlBuilders := map[string]bool{} // builders (strings.Builder, ...) written SQL text
		var writes []*ast.CallExpr       // WriteString calls and fmt.Fprintf into a builder
		report := func(n ast.Node, operands []ast.Expr, what string) {
			if !isSQL(operands) {
				return
			}
			for _, o := range operands {
				if !constant(o) {
					out = append(out, sqlBuild{fset.Position(n.Pos()), name, what})
					return
				}
			}
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if x.Op == token.ADD && !seen[x] {
					report(x, flatten(x, seen), "string concatenation")
				}
			case *ast.AssignStmt:
				if x.Tok == token.ADD_ASSIGN && len(x.Lhs) == 1 && len(x.Rhs) == 1 {
					report(x, append([]ast.Expr{x.Lhs[0]}, flatten(x.Rhs[0], seen)...), "+=")
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && strings.HasSuffix(sel.Sel.Name, "printf") {
						args := x.Args
						if sel.Sel.Name == "Fprintf" || sel.Sel.Name == "Appendf" {
							args = args[min(1, len(args)):]
							writes = append(writes, x)
						}
						if !numbersOnly(args) {
							report(x, args, "fmt."+sel.Sel.Name)
						}
					}
					if sel.Sel.Name == "WriteString" && len(x.Args) == 1 {
						if isSQL(x.Args) {
							sqlBuilders[exprString(sel.X)] = true
						}
						writes = append(writes, x)
					}
				}
			}
			return true
		})
		// A builder that was written SQL text may be written only
		// constants, and numbers through %d.
		for _, w := range writes {
			sel := w.Fun.(*ast.SelectorExpr)
			if sel.Sel.Name == "WriteString" {
				if sqlBuilders[exprString(sel.X)] && !constant(w.Args[0]) {
					out = append(out, sqlBuild{fset.Position(w.Pos()), name, "WriteString of a value into an SQL builder"})
				}
				continue
			}
			if len(w.Args) < 2 {
				continue
			}
			target := strings.TrimPrefix(exprString(w.Args[0]), "&")
			if sqlBuilders[target] && !numbersOnly(w.Args[1:]) {
				out = append(out, sqlBuild{fset.Position(w.Pos()), name, "fmt.Fprintf of a value into an SQL builder"})
			}
		}
	}
	return out, nil
}

// numbersOnly reports whether args is a constant format string whose only
// verbs are %d (integers cannot carry SQL), followed by its arguments.
func numbersOnly(args []ast.Expr) bool {
	if len(args) == 0 {
		return false
	}
	lit, ok := args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] != 'd' && s[i] != '%' {
			return false
		}
	}
	return true
}

// exprString prints a simple expression (names, selectors, &x) for use as
// a map key.
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.UnaryExpr:
		return x.Op.String() + exprString(x.X)
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.ParenExpr:
		return exprString(x.X)
	}
	return "?"
}

// constNames returns the names of the constants declared anywhere in the
// Go files of one package's sources.
func constNames(files map[string][]byte) map[string]bool {
	consts := map[string]bool{}
	fset := token.NewFileSet()
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						consts[id.Name] = true
					}
				}
			}
			return true
		})
	}
	return consts
}

// TestFindSQLBuildsCatchesInjection checks the detector itself on the
// shapes of SQL injection it must catch, and on safe code it must pass.
func TestFindSQLBuildsCatchesInjection(t *testing.T) {
	src := `package p

import (
	"fmt"
	"strings"
)

const table = "trial"

func bad(name string, id int) {
	_ = "SELECT * FROM trial WHERE name = '" + name + "'"
	_ = fmt.Sprintf("DELETE FROM trial WHERE id = %v", id)
	q := "SELECT id FROM trial"
	q += " WHERE name = " + name
	_ = q
}

func builder(cols []string, name string) {
	var b strings.Builder
	b.WriteString("SELECT id FROM trial WHERE ")
	b.WriteString(name)
	fmt.Fprintf(&b, " AND x = '%s'", name)
}

func good(name string) {
	var b strings.Builder
	b.WriteString("INSERT INTO t (a) VALUES ")
	fmt.Fprintf(&b, "($%d)", 1)
	_ = "SELECT * FROM " + table + " WHERE name = $1"
	_ = fmt.Sprintf("loaded %s", name)
	_ = "hello " + name
}
`
	got, err := findSQLBuilds(token.NewFileSet(), "p.go", []byte(src), constNames(map[string][]byte{"p.go": []byte(src)}))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, b := range got {
		lines = append(lines, b.function+":"+strconv.Itoa(b.pos.Line)+":"+b.what)
	}
	want := "bad:11:string concatenation bad:12:fmt.Sprintf bad:14:+= " +
		"builder:21:WriteString of a value into an SQL builder builder:22:fmt.Fprintf of a value into an SQL builder"
	if strings.Join(lines, " ") != want {
		t.Errorf("found %q, want %q", strings.Join(lines, " "), want)
	}
}

// TestNoStringBuiltSQL scans every non-test Go file of the module for SQL
// built by concatenation or fmt formatting with a value that is not a
// constant, and fails on any that is not in sqlBuildAllowed (with its
// reason), and on any allow-list entry that no longer matches anything.
func TestNoStringBuiltSQL(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	pkgs := map[string]map[string][]byte{} // folder -> file -> source
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		if pkgs[dir] == nil {
			pkgs[dir] = map[string][]byte{}
		}
		pkgs[dir][path] = src
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	files := 0
	fset := token.NewFileSet()
	var bad []string
	for _, srcs := range pkgs {
		consts := constNames(srcs)
		for path, src := range srcs {
			files++
			found, err := findSQLBuilds(fset, path, src, consts)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			for _, b := range found {
				key := rel + ":" + b.function
				if _, ok := sqlBuildAllowed[key]; ok {
					used[key] = true
					continue
				}
				bad = append(bad, rel+":"+strconv.Itoa(b.pos.Line)+": "+b.what+" builds SQL from a value in "+key)
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: pass values as parameters ($1, ?), or add the function to sqlBuildAllowed with why it is safe", b)
	}
	for key := range sqlBuildAllowed {
		if !used[key] {
			t.Errorf("sqlBuildAllowed lists %s, which builds no SQL any more: remove it", key)
		}
	}
	if files < 50 {
		t.Errorf("scanned only %d files under %s", files, root)
	}
}
