package hpctoolkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzDatabase feeds an arbitrary experiment.xml and one arbitrary
// metric-db file (rank 0, thread 0) to the reader: it may refuse them but
// never panic, hang or allocate beyond the files' promise. Seeded with the
// cpi database and a small hand-written one.
func FuzzDatabase(f *testing.F) {
	if dir, err := filepath.Abs(filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "hpctoolkit-cpi-database")); err == nil {
		x, err1 := os.ReadFile(filepath.Join(dir, "experiment.xml"))
		db, err2 := os.ReadFile(filepath.Join(dir, "1.cpi-000000-000-a8c00270-160443-0.metric-db"))
		if err1 == nil && err2 == nil {
			f.Add(x, db)
		}
	}
	f.Add([]byte(smallXML), smallDB())
	f.Fuzz(func(t *testing.T, x, db []byte) {
		dir := t.TempDir()
		if os.WriteFile(filepath.Join(dir, "experiment.xml"), x, 0o644) != nil ||
			os.WriteFile(filepath.Join(dir, "p-000000-000-a-1-0.metric-db"), db, 0o644) != nil {
			t.Skip()
		}
		tr, err := Reader{Path: dir}.Read()
		if err != nil {
			return
		}
		tr.Statistics()
		tr.Tree()
	})
}
