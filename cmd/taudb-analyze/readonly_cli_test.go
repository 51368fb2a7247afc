package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// snapshot returns the names and SHA-256 of every file in dir.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = sha256.Sum256(b)
	}
	return out
}

// asUser runs the binary (copied into dir, which must be readable by
// others) as the user "nobody" when this test runs as root, so that file
// permissions apply; otherwise as the current user. It returns the result
// and whether permissions are enforced.
func asUser(t *testing.T, dir string, args ...string) (result, bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		return cli(t, nil, args...), true
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		return cli(t, nil, args...), false
	}
	bin := filepath.Join(dir, "bin", "taudb-analyze")
	if _, err := os.Stat(bin); err != nil {
		b, err := os.ReadFile(binary)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(runuser, append([]string{"-u", "nobody", "--", bin}, args...)...)
	cmd.Env = []string{"HOME=/nonexistent", "PATH=/usr/bin:/bin"}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	r := result{stdout: o.String(), stderr: e.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("runuser: %v", err)
	}
	return r, true
}

// TestReadOnlySQLite: every read command works on an SQLite file that
// cannot be written (mode 0444 in a folder of mode 0555), changes nothing
// in the folder, and a write command fails with an error saying why.
func TestReadOnlySQLite(t *testing.T) {
	cpi := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	top, err := os.MkdirTemp("", "taudb-ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(top, "db"), 0o755); os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(top, "db")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "ro.db")
	ok(t, nil, "--db", url, "load", "-n", "cpi", cpi)
	ok(t, nil, "--db", url, "imbalance", "--trial", "cpi")
	asUser(t, top, "version") // copy the binary first: top stays writable
	if err := os.Chmod(filepath.Join(dir, "ro.db"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if len(before) != 1 {
		t.Fatalf("folder holds %v, want only ro.db", before)
	}
	enforced := false
	for _, args := range [][]string{
		{"trials"}, {"stats", "--trial", "cpi"}, {"results"}, {"results", "1"}, {"db", "check"}, {"views"},
		{"imbalance", "--trial", "cpi", "--no-save"}, {"--format", "json", "regions", "--trial", "cpi", "--no-save"},
	} {
		r, enf := asUser(t, top, append([]string{"--db", url}, args...)...)
		enforced = enf
		if r.code != 0 || r.stdout == "" {
			t.Errorf("%v on a read-only file: exit %d, %s", args, r.code, r.stderr)
		}
	}
	if after := snapshot(t, dir); len(after) != 1 || after["ro.db"] != before["ro.db"] {
		t.Errorf("the read commands changed the folder: %d files, ro.db same: %v", len(after), after["ro.db"] == before["ro.db"])
	}
	if !enforced {
		t.Log("running as root without runuser: permissions not enforced; checked only that nothing changed")
		return
	}
	r, _ := asUser(t, top, "--db", url, "imbalance", "--trial", "cpi")
	if r.code != 1 || !strings.Contains(r.stderr, "readonly") {
		t.Errorf("saving into a read-only file: exit %d, %q; want exit 1 naming the cause", r.code, r.stderr)
	}
}

// TestForeignSQLite: an SQLite file without TAUdb's schema is refused by
// the read commands and left exactly as it was (no table added, journal
// mode unchanged); a first load gives it the schema and says so.
func TestForeignSQLite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := snapshot(t, dir)
	for _, args := range [][]string{{"trials"}, {"stats", "--trial", "1"}, {"results"}, {"db", "check"}, {"imbalance", "--trial", "1", "--no-save"}} {
		r := cli(t, nil, append([]string{"--db", "sqlite:" + path}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "no TAUdb schema") || !strings.Contains(r.stderr, "db init") {
			t.Errorf("%v on a foreign file: exit %d, %q", args, r.code, r.stderr)
		}
	}
	after := snapshot(t, dir)
	if len(after) != len(before) || after["notes.db"] != before["notes.db"] {
		t.Fatalf("the read commands changed the foreign file's folder: %v", slices.Sorted(func(yield func(string) bool) {
			for k := range after {
				if !yield(k) {
					return
				}
			}
		}))
	}
	r := ok(t, nil, "--db", "sqlite:"+path, "load", "-n", "cpi", realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"))
	if !strings.Contains(r.stderr, "created TAUdb schema version 2") {
		t.Errorf("first load did not say it created the schema: %q", r.stderr)
	}
}

// TestMissingSQLiteFile: a read command, or a write command other than
// load and db init, on an SQLite path that does not exist fails and
// creates nothing.
func TestMissingSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "typo.db")
	for _, args := range [][]string{{"trials"}, {"results"}, {"db", "check"}, {"stats", "--trial", "1"},
		{"imbalance", "--trial", "1"}, {"delete", "--trial", "1"}} {
		r := cli(t, nil, append([]string{"--db", "sqlite:" + path}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "nothing is stored there yet") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stderr)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a read command created %v", ents)
	}
}
