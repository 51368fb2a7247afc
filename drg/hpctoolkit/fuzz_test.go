package hpctoolkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzDatabase feeds an arbitrary experiment.xml and one arbitrary
// metric-db file (rank 0, thread 0) to the reader, or, when meta is not
// empty, an arbitrary meta.db and profile.db: it may refuse them but never
// panic, hang or allocate beyond the files' promise. Seeded with the cpi
// databases of both formats and a small hand-written one.
func FuzzDatabase(f *testing.F) {
	v4 := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "hatchet_cpi_v4_database")
	meta, err1 := os.ReadFile(filepath.Join(v4, "meta.db"))
	prof, err2 := os.ReadFile(filepath.Join(v4, "profile.db"))
	if err1 == nil && err2 == nil {
		f.Add([]byte{}, []byte{}, meta, prof)
	}
	if dir, err := filepath.Abs(filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "hpctoolkit-cpi-database")); err == nil {
		x, err1 := os.ReadFile(filepath.Join(dir, "experiment.xml"))
		db, err2 := os.ReadFile(filepath.Join(dir, "1.cpi-000000-000-a8c00270-160443-0.metric-db"))
		if err1 == nil && err2 == nil {
			f.Add(x, db, []byte{}, []byte{})
		}
	}
	f.Add([]byte(smallXML), smallDB(), []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, x, db, meta, prof []byte) {
		dir := t.TempDir()
		files := map[string][]byte{"experiment.xml": x, "p-000000-000-a-1-0.metric-db": db}
		if len(meta) > 0 {
			files = map[string][]byte{"meta.db": meta, "profile.db": prof}
		}
		for name, b := range files {
			if os.WriteFile(filepath.Join(dir, name), b, 0o644) != nil {
				t.Skip()
			}
		}
		tr, err := Reader{Path: dir}.Read()
		if err != nil {
			return
		}
		tr.Statistics()
		tr.Tree()
	})
}
