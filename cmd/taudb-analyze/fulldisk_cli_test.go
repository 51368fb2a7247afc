package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// onFullDisk runs the binary with args under a file-size limit of 0 bytes
// (`ulimit -f 0` in /bin/sh): no file may grow, as on a full disk. Go
// ignores the SIGXFSZ that the kernel sends, so a write that would grow a
// file fails with EFBIG, an error, as a write to a full disk fails with
// ENOSPC. Standard output and error are pipes, which the limit does not
// touch.
func onFullDisk(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-c", `ulimit -f 0 && exec "$0" "$@"`, binary}, args...)...)
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

// TestReadsOnAFullDisk loads a trial and stores a result into an SQLite
// file, then runs the read commands (trials, regions --no-save, results,
// results ID, stats, db check) again with no room to grow any file: each
// exits 0 and prints exactly what it printed with room. Before, every one
// failed with "disk I/O error": a WAL database's reader creates or extends
// the -shm index file. A load on the full disk fails with exit 1, saying
// the disk is full and nothing was written (store.ErrDiskFull), and writes
// nothing: with room again, the file holds the one trial and db
// check passes.
func TestReadsOnAFullDisk(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh for ulimit")
	}
	dir := t.TempDir()
	run := goodTrial(t, dir, "run")
	db := []string{"--db", "sqlite:" + filepath.Join(dir, "taudb.db")}
	ok(t, nil, append(db, "load", "-n", "x", run)...)
	ok(t, nil, append(db, "imbalance", "--trial", "x")...)
	reads := [][]string{
		{"trials"},
		{"regions", "--trial", "x", "--no-save"},
		{"results"},
		{"results", "1"},
		{"stats", "--trial", "x"},
		{"db", "check"},
	}
	want := make([]string, len(reads))
	for i, r := range reads {
		want[i] = ok(t, nil, append(db, r...)...).stdout
	}
	for i, r := range reads {
		got := onFullDisk(t, append(db, r...)...)
		if got.code != 0 || got.stdout != want[i] {
			t.Errorf("%v on a full disk: exit %d, stderr %q, stdout\n%s\nwant\n%s", r, got.code, got.stderr, got.stdout, want[i])
		}
	}
	got := onFullDisk(t, append(db, "load", "-n", "y", run)...)
	if got.code != 1 || got.stdout != "" || !strings.Contains(got.stderr, "(the disk is full, or failing); nothing was written") {
		t.Errorf("load on a full disk: exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
	t.Logf("load on a full disk: %s", got.stderr)
	if out := ok(t, nil, append(db, "trials")...).stdout; out != want[0] {
		t.Errorf("trials after the failed load:\n%s\nwant\n%s", out, want[0])
	}
	ok(t, nil, append(db, "db", "check")...)
}
