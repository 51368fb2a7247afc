package report

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// pagesIn lists the .html files at the top of dir.
func pagesIn(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	sort.Strings(m)
	return m
}

// TestOutFolderMarker writes a report of three results, then one of one
// result into the same folder: the second leaves exactly its page and the
// index (the two stale pages removed). A folder holding a file the tool did
// not write (an unrelated index.html, notes.txt) is refused and left
// byte for byte; with Force the report is written beside notes.txt, which
// is kept, and still refused where it would replace index.html.
func TestOutFolderMarker(t *testing.T) {
	res := func(name string) *analysis.Result {
		return &analysis.Result{Analysis: name, Trial: "t", Params: map[string]string{}}
	}
	dir := filepath.Join(t.TempDir(), "rep")
	if _, err := Write(dir, []*analysis.Result{res("summary"), res("imbalance"), res("regions")}, Meta{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pagesIn(t, dir), " "); got != "01-summary.html 02-imbalance.html 03-regions.html index.html" {
		t.Fatalf("first report: %s", got)
	}
	if _, err := Write(dir, []*analysis.Result{res("summary")}, Meta{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pagesIn(t, dir), " "); got != "01-summary.html index.html" {
		t.Errorf("second report into the same folder: %s", got)
	}

	other := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"index.html": "<p>my page</p>", "notes.txt": "keep me"} {
		if err := os.WriteFile(filepath.Join(other, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Write(other, []*analysis.Result{res("summary")}, Meta{})
	want := other + " holds files this tool did not write (index.html, notes.txt): choose a new or empty folder, or give --force to write beside them"
	if !errors.Is(err, ErrFolderInUse) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = Write(other, []*analysis.Result{res("summary")}, Meta{Force: true})
	if err == nil || !strings.Contains(err.Error(), "index.html was not written by this tool: not replaced, even with --force") {
		t.Errorf("with force over index.html: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "index.html")); string(b) != "<p>my page</p>" {
		t.Errorf("index.html changed: %q", b)
	}
	if err := os.Remove(filepath.Join(other, "index.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(other, []*analysis.Result{res("summary")}, Meta{Force: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "notes.txt")); string(b) != "keep me" {
		t.Errorf("notes.txt changed: %q", b)
	}
	if got := strings.Join(pagesIn(t, other), " "); got != "01-summary.html index.html" {
		t.Errorf("forced report: %s", got)
	}
}
