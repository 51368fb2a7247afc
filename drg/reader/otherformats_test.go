package reader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestDetectCaliperGprof: Hatchet's Caliper and gprof2dot files are told
// by their content, also under a name that says nothing; -f forces a format;
// another tool's file is named in the error.
func TestDetectCaliperGprof(t *testing.T) {
	base := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet")
	if _, err := os.Stat(base); err != nil {
		t.Skip("shared other-formats data absent")
	}
	dir := t.TempDir()
	for rel, want := range map[string]string{
		"caliper-lulesh-cali/lulesh-annotation-profile.cali": "caliper",
		"caliper-example-cali/example-profile.cali":          "caliper",
		"caliper-lulesh-json/lulesh-annotation-profile.json": "caliper",
		"caliper-cpi-json/cpi-callpath-profile.json":         "caliper",
		"gprof2dot-cpi/callgrind.dot.64042.0.1":              "gprof",
		"gprof2dot-test/gprof-profile.dot":                   "gprof",
	} {
		data, err := os.ReadFile(filepath.Join(base, rel))
		if err != nil {
			t.Fatal(err)
		}
		anon := filepath.Join(dir, strings.ReplaceAll(rel, "/", "_")+".data")
		if err := os.WriteFile(anon, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := Detect(anon); got != want || err != nil {
			t.Errorf("%s: detected %q, %v; want %s", rel, got, err, want)
		}
		tr, err := Read(anon, want)
		if err != nil || tr.Source.Format != want {
			t.Errorf("%s: -f %s: %v", rel, want, err)
		}
	}
	if _, err := Read(filepath.Join(base, "gprof2dot-test/gprof-profile.dot"), "caliper"); err == nil {
		t.Error("-f caliper on a DOT file: accepted")
	}
	trace := filepath.Join(dir, "trace.json")
	os.WriteFile(trace, []byte(`{"traceEvents": [{"name": "main", "ph": "X", "args": {"path": "a"}}]}`), 0o644)
	if _, err := Detect(trace); err == nil || !strings.Contains(err.Error(), "Chrome trace") {
		t.Errorf("Chrome trace: %v", err)
	}
	mpip := filepath.Join(dir, "app.mpiP")
	os.WriteFile(mpip, []byte("@ mpiP\n@ Command : ./app\n"), 0o644)
	if _, err := Detect(mpip); err == nil || !strings.Contains(err.Error(), "mpiP report; mpiP is not supported") {
		t.Errorf("mpiP report: %v", err)
	}
}
