package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestEveryCommandHasAWorkedExample walks the command tree: every command a
// user runs has a help text with at least one example.
func TestEveryCommandHasAWorkedExample(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.Hidden && c.Name() != "help" && c.Parent() != nil && c.Parent().Name() != "completion" && c.Name() != "completion" {
			if strings.TrimSpace(c.Example) == "" {
				t.Errorf("%q has no example in its --help", c.CommandPath())
			}
			if c.Short == "" {
				t.Errorf("%q has no short description", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newApp(io.Discard, io.Discard).root())
	r := ok(t, nil, "study", "--help")
	if !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "taudb-analyze study scripts/scalability.yaml") {
		t.Errorf("study --help:\n%s", r.stdout)
	}
}

// TestShellCompletion checks the completion scripts and that the shell is
// offered the trial names of the database for --trial and --trials (the
// last element of a list), and nothing, without creating a database, when
// there is none.
func TestShellCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		if r := ok(t, nil, "completion", sh); !strings.Contains(r.stdout, "taudb-analyze") {
			t.Errorf("completion %s: %q", sh, r.stdout[:min(len(r.stdout), 200)])
		}
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")
	path := filepath.Join(demoData(t), "mpi", "p4") // 4 ranks
	ok(t, nil, "--db", db, "load", "-n", "cpi-a", path)
	ok(t, nil, "--db", db, "load", "-n", "cpi-b", path)
	r := ok(t, nil, "--db", db, "__complete", "imbalance", "--trial", "cpi")
	if !strings.Contains(r.stdout, "cpi-a\ttrial 1, 4 threads\ncpi-b\ttrial 2, 4 threads\n") {
		t.Errorf("--trial completion:\n%s", r.stdout)
	}
	r = ok(t, nil, "--db", db, "__complete", "speedup", "--trials", "cpi-a,")
	if !strings.Contains(r.stdout, "cpi-a,cpi-b\t") {
		t.Errorf("--trials completion:\n%s", r.stdout)
	}
	none := filepath.Join(t.TempDir(), "none.db")
	r = ok(t, nil, "--db", "sqlite:"+none, "__complete", "imbalance", "--trial", "")
	if strings.Contains(r.stdout, "cpi") {
		t.Errorf("completion without a database: %q", r.stdout)
	}
	if _, err := os.Stat(none); !os.IsNotExist(err) {
		t.Errorf("completion created %s (%v)", none, err)
	}
}

// TestProgressBarOnlyOnATerminal loads several trials twice: under a
// pseudo-terminal (util-linux's script) a bar counts the files on stderr;
// with output to pipes there is no bar, only the lines.
func TestProgressBarOnlyOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the binary a terminal")
	}
	dir := filepath.Join(demoData(t), "mpi")
	paths := []string{filepath.Join(dir, "p1"), filepath.Join(dir, "p2"), filepath.Join(dir, "p4")}
	db := "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")
	cmdline := binary + " --db " + db + " load -n tty " + strings.Join(paths, " ")
	out, err := exec.Command(script, "-qec", cmdline, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "(0/3)") || !strings.Contains(string(out), "loading "+paths[0]) {
		t.Errorf("no progress bar on a terminal:\n%q", out)
	}
	r := ok(t, nil, "--db", db, "load", "-n", "pipe", paths[0], paths[1], paths[2])
	if strings.Contains(r.stderr, "\r") || strings.Contains(r.stderr, "(0/3)") || r.stdout != "4\n5\n6\n" {
		t.Errorf("a bar on a pipe, or ids wrong:\nstdout %q\nstderr %q", r.stdout, r.stderr)
	}
	q, err := exec.Command(script, "-qec", cmdline+" --allow-duplicate --quiet", "/dev/null").CombinedOutput()
	if err != nil || strings.Contains(string(q), "(0/3)") {
		t.Errorf("--quiet on a terminal drew a bar (%v):\n%q", err, q)
	}
}

// TestShortestCommandsUseTheDatabase: with one application's trials in the
// database, `speedup` needs no selection; with two applications it says
// which ones and how to choose (exit 2).
func TestShortestCommandsUseTheDatabase(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")
	dir := filepath.Join(demoData(t), "mpi")
	ok(t, nil, "--db", db, "load", "-q", "-n", "mm", "-a", "matmult", filepath.Join(dir, "p1"), filepath.Join(dir, "p4"))
	r := ok(t, nil, "--db", db, "--format", "csv", "speedup", "--no-save")
	if !strings.Contains(r.stderr, "using all 2 trials of the database (application \"matmult\")") || strings.Count(r.stdout, "\n") != 3 {
		t.Errorf("speedup with no selection:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	ok(t, nil, "--db", db, "load", "-q", "-n", "cpi", "-a", "cpi", filepath.Join(dir, "p2"))
	r = cli(t, nil, "--db", db, "speedup", "--no-save")
	want := `taudb-analyze: the database holds trials of 2 applications ("matmult", "cpi"): choose the trials with --trials T1,T2,..., --where EXPR (e.g. --where 'application == "matmult"') or --view NAME|ID`
	if r.code != 2 || strings.TrimSpace(r.stderr) != want {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
	if r := ok(t, nil, "--db", db, "imbalance", "--no-save", "--trial", "cpi"); !strings.Contains(r.stdout, "MPI_Init()") {
		t.Errorf("imbalance: %s", r.stdout)
	}
}

// TestQuietAndVerbose: --verbose says what is done with timings, --quiet
// prints nothing but the result, and the result on stdout is the same.
func TestQuietAndVerbose(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")
	path := filepath.Join(demoData(t), "mpi", "p4")
	v := ok(t, nil, "--db", db, "-v", "load", "-n", "cpi", path)
	for _, want := range []string{"· database " + db + " (sqlite)", "· read " + path + " (profile) in ", "· saved it in ", `loaded ` + path + ` as trial 1 "cpi"`} {
		if !strings.Contains(v.stderr, want) {
			t.Errorf("load -v lacks %q:\n%s", want, v.stderr)
		}
	}
	verbose := ok(t, nil, "--db", db, "-v", "imbalance", "--no-save")
	for _, want := range []string{`· read trial 1 "cpi" from the database in `, "· imbalance computed in "} {
		if !strings.Contains(verbose.stderr, want) {
			t.Errorf("imbalance -v lacks %q:\n%s", want, verbose.stderr)
		}
	}
	quiet := ok(t, nil, "--db", db, "-q", "imbalance")
	if quiet.stderr != "" || quiet.stdout != verbose.stdout {
		t.Errorf("-q: stderr %q; stdout equal to -v's: %v", quiet.stderr, quiet.stdout == verbose.stdout)
	}
	normal := ok(t, nil, "--db", db, "imbalance")
	if !strings.Contains(normal.stderr, "stored as result 2") || strings.Contains(normal.stderr, "·") {
		t.Errorf("default stderr: %q", normal.stderr)
	}
}

// TestProgressBarOfABigSave loads one trial of more than a million rows
// (512 threads × 701 nodes × 2 metrics: a timer_call_data row and two
// timer_value rows per cell) under a pseudo-terminal: the save draws a bar
// of rows, which a small trial does not get.
func TestProgressBarOfABigSave(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the binary a terminal")
	}
	dir := t.TempDir()
	ok(t, nil, "synth", "--out", dir, "--processes", "512", "--regions", "700", "--metrics", "2", "--depth", "1")
	db := "sqlite:" + filepath.Join(dir, "taudb.db")
	big := filepath.Join(dir, "p512")
	out, err := exec.Command(script, "-qec", binary+" --db "+db+" load -n big "+big, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "saving "+big+" (rows)") {
		t.Errorf("no bar of rows while saving a big trial on a terminal:\n%q", out[:min(len(out), 2000)])
	}
	small := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	out, err = exec.Command(script, "-qec", binary+" --db "+db+" load -n small "+small, "/dev/null").CombinedOutput()
	if err != nil || strings.Contains(string(out), "(rows)") {
		t.Errorf("a bar of rows for a small trial (%v):\n%q", err, out)
	}
}
