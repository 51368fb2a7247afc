package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestReadmeExamples runs the "one example of each" lines of README.md as
// written, with a shell, on the database the demo makes: each must succeed
// and print its analysis.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(realdata.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, found := strings.Cut(string(readme), "<!-- readme-examples -->\n```sh\n")
	if !found {
		t.Fatal("README.md has no readme-examples block")
	}
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) < 12 {
		t.Fatalf("%d example lines", len(lines))
	}
	out := t.TempDir()
	demo := exec.Command(binary, "-q", "demo", "--out", out)
	demo.Dir = realdata.Root()
	demo.Env = append(os.Environ(), "TAUDB_URL=")
	if b, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, b)
	}
	work := t.TempDir()
	for _, line := range lines {
		if !strings.HasPrefix(line, "taudb-analyze ") {
			t.Fatalf("not a command: %q", line)
		}
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+":"+os.Getenv("PATH"), "TAUDB_URL=sqlite:"+filepath.Join(out, "taudb.db"))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: %v\n%s", line, err, e.String())
			continue
		}
		name := strings.Fields(line)[1]
		if name != "report" && !strings.HasPrefix(o.String(), name+" of ") {
			t.Errorf("%s printed:\n%s", line, o.String())
		}
	}
	if _, err := os.Stat(filepath.Join(work, "mpi-report", "index.html")); err != nil {
		t.Errorf("the report example wrote no report: %v", err)
	}
}
