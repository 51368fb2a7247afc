package profile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzParse feeds arbitrary bytes to the profile parser and, when they
// parse, to the builder: neither may panic. Seeded with the real profiles of
// the licensed trials of the shared data folder (when present; the large
// unlicensed ones would slow every run) and a file ParaProf wrote.
func FuzzParse(f *testing.F) {
	for _, c := range realdata.ProfileTrials {
		dir, ok := realdata.Find(c.Rel)
		if !ok || !c.Licensed {
			continue
		}
		files, _ := os.ReadDir(dir)
		for _, d := range files {
			if _, ok := parseThreadName(d.Name(), "profile"); ok && !d.IsDir() {
				if b, err := os.ReadFile(filepath.Join(dir, d.Name())); err == nil {
					f.Add(string(b))
				}
			}
		}
	}
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
