package profile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzParse feeds arbitrary bytes to the profile parser and, when they
// parse, to the builder: neither may panic. Seeded with the real profiles in
// testdata/real.
func FuzzParse(f *testing.F) {
	root := filepath.Join(realdata.Root(), "testdata", "real")
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if _, ok := parseThreadName(d.Name(), "profile"); ok {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(string(b))
				}
			}
		}
		return nil
	})
	f.Add(paraprofWritten)
	f.Fuzz(func(t *testing.T, data string) {
		file, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		b, err := drg.NewBuilder([]drg.ThreadID{{}})
		if err != nil {
			t.Fatal(err)
		}
		merge(b, file, 0, true, &nodeCache{})
		tr, err := b.Finish("fuzz", drg.Source{Format: "profile"})
		if err != nil {
			return
		}
		tr.Statistics()
		tr.Tree()
	})
}
