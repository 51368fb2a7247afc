package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// binary is the taudb-analyze executable built once for the CLI tests that
// need a process of their own (environment, working folder, signals, memory
// limits), and for all of them with TAUDB_CLI_BINARY=1, which runs every
// test as a user runs the tool. The others run in-process (see cli).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "taudb-analyze-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "taudb-analyze")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// cli runs the command line: in-process through runWith when env adds
// nothing (so that the run counts toward coverage and starts no process),
// else the built binary with env added to the environment.
func cli(t *testing.T, env []string, args ...string) result {
	t.Helper()
	if len(env) == 0 && os.Getenv("TAUDB_CLI_BINARY") == "" {
		var o, e bytes.Buffer
		code := runWith(args, &o, &e)
		return result{stdout: o.String(), stderr: e.String(), code: code}
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	r := result{stdout: o.String(), stderr: e.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return r
}

func TestInspectJSONCountsOfRealTrials(t *testing.T) {
	for _, c := range append(realdata.ProfileTrials, realdata.FileTrials...) {
		t.Run(c.Rel, func(t *testing.T) {
			path := realdata.Real(t, c.Rel)
			r := cli(t, nil, "inspect", "--format", "json", path)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var d struct {
				Threads, Timers, Callpaths, Counters int
				Tree                                 string
			}
			if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
			}
			if d.Threads != c.Threads || d.Timers != c.Timers || d.Callpaths != c.Callpaths || d.Counters != c.Events {
				t.Errorf("inspect says %+v, SOURCES.md %+v", d, c)
			}
		})
	}
}

func TestInspectTable(t *testing.T) {
	path := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	r := cli(t, nil, "inspect", path)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"Threads:    4", "Regions:    12", "23 measured names (11 callpaths)",
		"Call tree:  complete, rooted at .TAU application", "Top 10 regions by exclusive TIME",
		"MPI_File_open()", "File Type Name = TAU profiles"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	// MPI_Init() has the largest mean exclusive time: rank values
	// 17983, 21441, ... are far above every other region's.
	lines := strings.Split(r.stdout, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "region") {
			if !strings.HasPrefix(lines[i+1], "MPI_File_open()") && !strings.HasPrefix(lines[i+1], "MPI_Init()") {
				t.Errorf("first top region: %q", lines[i+1])
			}
		}
	}
	csv := cli(t, nil, "--format", "csv", "inspect", "--top", "3", path)
	if csv.code != 0 || len(strings.Split(strings.TrimSpace(csv.stdout), "\n")) != 4 {
		t.Errorf("csv: %d %q", csv.code, csv.stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	path := filepath.Join(demoData(t), "mpi", "p4")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect"}, 2, "inspect takes one PATH, got 0"},
		{[]string{"inspect", "--bogus", path}, 2, "unknown flag: --bogus"},
		{[]string{"--format", "xml", "inspect", path}, 2, `--format "xml": want table, json or csv`},
		{[]string{"nosuchcommand"}, 2, `unknown command "nosuchcommand"`},
		{[]string{"inspect", "--top", "-1", path}, 2, "--top -1"},
		{[]string{"inspect", "-f", "csv", path}, 1, `unknown format "csv"`},
		{[]string{"inspect", "/nonexistent/trial"}, 1, "/nonexistent/trial: no such file or directory"},
	} {
		r := cli(t, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if r.stdout != "" {
			t.Errorf("%v: stdout %q on error", c.args, r.stdout)
		}
	}
}

func TestBadTrialFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "profile.0.0.0")
	if err := os.WriteFile(p, []byte("2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n\"a\" 1 0 1 2 0 GROUP=\"X\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := cli(t, nil, "inspect", dir)
	if r.code != 1 || !strings.Contains(r.stderr, p+":3: file ends after 1 of 2 timer lines") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}

func TestVersion(t *testing.T) {
	r := cli(t, nil, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "taudb-analyze ") {
		t.Errorf("%+v", r)
	}
}
