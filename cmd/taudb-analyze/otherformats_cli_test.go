package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestOtherFormatsCLI: inspect reads a Caliper file and a gprof2dot file
// by content, -f forces a reader, load stores them with their data_source,
// and an mpiP report is named as such.
func TestOtherFormatsCLI(t *testing.T) {
	base := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet")
	if _, err := os.Stat(base); err != nil {
		t.Skip("shared other-formats data absent")
	}
	lulesh := filepath.Join(base, "caliper-lulesh-json", "lulesh-annotation-profile.json")
	r := cli(t, nil, "inspect", "--format", "json", lulesh)
	var d struct {
		Threads int
		Tree    string
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || d.Threads != 8 {
		t.Fatalf("inspect: exit %d, %+v, %s", r.code, d, r.stderr)
	}
	dot := filepath.Join(base, "gprof2dot-test", "gprof-profile.dot")
	if r := cli(t, nil, "inspect", "-f", "caliper", dot); r.code != 1 || !strings.Contains(r.stderr, dot+": ") {
		t.Errorf("-f caliper on a DOT file: exit %d, %s", r.code, r.stderr)
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "t.db")
	ok(t, nil, "--db", db, "load", "-n", "lulesh", lulesh)
	ok(t, nil, "--db", db, "load", "-n", "dot", "-f", "gprof", dot)
	r = ok(t, nil, "--db", db, "--format", "json", "trials")
	if !strings.Contains(r.stdout, `"data_source": 999`) || !strings.Contains(r.stdout, `"data_source": 5`) {
		t.Errorf("trials: %s", r.stdout)
	}
	mpip := filepath.Join(t.TempDir(), "app.mpiP")
	os.WriteFile(mpip, []byte("@ mpiP\n@ Command : ./app\n"), 0o644)
	if r := cli(t, nil, "inspect", mpip); r.code != 1 || !strings.Contains(r.stderr, "this is an mpiP report; mpiP is not supported") {
		t.Errorf("mpiP: exit %d, %s", r.code, r.stderr)
	}
}
