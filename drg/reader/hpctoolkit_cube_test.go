package reader

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func hatchetData(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: shared data absent", p)
	}
	return p
}

// TestDetectHPCToolkitAndCube detects both formats by content: the
// database folders (experiment.xml and meta.db kinds) and those files, and a .cubex copied to a name
// without the extension; -f forces a format, and forcing the wrong one
// fails.
func TestDetectHPCToolkitAndCube(t *testing.T) {
	db := hatchetData(t, "hpctoolkit-cpi-database")
	v4 := hatchetData(t, "hatchet_cpi_v4_database")
	cubex := hatchetData(t, "scorep-cpi-cubex/profile.cubex")
	b, err := os.ReadFile(cubex)
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "run.bin")
	if err := os.WriteFile(renamed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		db: "hpctoolkit", filepath.Join(db, "experiment.xml"): "hpctoolkit",
		v4: "hpctoolkit", filepath.Join(v4, "meta.db"): "hpctoolkit",
		cubex: "cube", renamed: "cube",
	} {
		got, err := Detect(path)
		if err != nil || got != want {
			t.Errorf("Detect(%s) = %q, %v; want %q", path, got, err, want)
		}
		if _, err := Read(path, ""); err != nil {
			t.Errorf("Read(%s): %v", path, err)
		}
	}
	if tr, err := Read(db, "hpctoolkit"); err != nil || tr.Source.DataSource != 9 {
		t.Errorf("-f hpctoolkit: %v", err)
	}
	if _, err := Read(db, "cube"); err == nil {
		t.Error("-f cube on an HPCToolkit folder was accepted")
	}
	if _, err := Read(cubex, "hpctoolkit"); err == nil {
		t.Error("-f hpctoolkit on a .cubex was accepted")
	}
}
