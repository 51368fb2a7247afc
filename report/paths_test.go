package report

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// TestOutputPathsStayInTheFolder writes a report of results whose analysis
// and trial names try to leave the output folder ("../", absolute paths,
// separators, NUL, dots only) and checks that every file written lies in
// the folder (or its assets/), under a name made of safe characters only.
func TestOutputPathsStayInTheFolder(t *testing.T) {
	hostile := []string{"../../escape", "/etc/passwd", "..", "a/b\\c", "x\x00y", "....//....//z", "C:\\Windows\\x", ""}
	var results []*analysis.Result
	for _, name := range hostile {
		r := speedupResult()
		r.Analysis, r.Trial, r.Trials = name, "../"+name, []string{"../../" + name}
		results = append(results, r)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if _, err := Write(dir, results, Meta{Title: "../../title"}); err != nil {
		t.Fatal(err)
	}
	page := regexp.MustCompile(`^(index|\d\d-[a-z0-9_-]+)\.html$`)
	pages := 0
	err := filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		switch {
		case filepath.Dir(rel) == "assets", rel == MarkerFile:
		case filepath.Dir(rel) == "." && page.MatchString(rel):
			pages++
		default:
			t.Errorf("report wrote %s, outside the folder or under an unsafe name", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages != len(hostile)+1 {
		t.Errorf("%d pages written, want %d and the index", pages, len(hostile))
	}
	if _, err := os.Stat(filepath.Join(parent, "escape")); err == nil {
		t.Error("a file named escape appeared beside the folder")
	}
}

// TestFullDiskLeavesNoHalfPage writes a report, then writes it again while
// the disk fills up half-way through the third file: Write fails with the
// file's name and "no space left on device", no temporary file remains, and
// every file of the first report is intact (none truncated).
func TestFullDiskLeavesNoHalfPage(t *testing.T) {
	dir := t.TempDir()
	results := []*analysis.Result{speedupResult(), speedupResult(), speedupResult()}
	if _, err := Write(dir, results, Meta{Title: "first"}); err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			m[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := snapshot()
	pages := 0
	defer func(w func(*os.File, []byte) (int, error)) { writeData = w }(writeData)
	writeData = func(f *os.File, b []byte) (int, error) {
		if !strings.Contains(f.Name(), ".html.") { // an asset
			return f.Write(b)
		}
		if pages++; pages < 3 {
			return f.Write(b)
		}
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	_, err := Write(dir, results, Meta{Title: "second"})
	if err == nil || err.Error() != "report: write 03-speedup.html: no space left on device" {
		t.Fatalf("Write on a full disk: %v", err)
	}
	after := snapshot()
	for p, content := range after {
		if strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file %s left behind", p)
			continue
		}
		if old, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		} else if strings.HasSuffix(p, "03-speedup.html") && content != old {
			t.Errorf("%s changed though its write failed", p)
		} else if !strings.HasSuffix(content, "</html>\n") && strings.HasSuffix(p, ".html") {
			t.Errorf("%s is truncated", p)
		}
	}
}
