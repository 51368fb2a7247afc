package cube

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzCubex feeds an arbitrary anchor.xml and arbitrary 1.index and 1.data
// members, in a tar with the hand-made file's other members, to the
// reader; and, as a third input, arbitrary bytes as a whole .cubex. It may
// refuse them but never panic, hang or allocate beyond the promise of the
// data members. Seeded with the hand-made file and Hatchet's cpi .cubex.
func FuzzCubex(f *testing.F) {
	o := binary.LittleEndian
	ms := cubexMembers(o, false)
	f.Add([]byte(testAnchor), ms[2].data, ms[3].data, []byte{})
	f.Add([]byte(testAnchor), ms[2].data, zdata(o, valueBytes(o, testTime), 20), []byte{})
	if b, err := os.ReadFile(filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "scorep-cpi-cubex", "profile.cubex")); err == nil {
		f.Add([]byte{}, []byte{}, []byte{}, b)
	}
	f.Fuzz(func(t *testing.T, anchor, index, data, whole []byte) {
		p := filepath.Join(t.TempDir(), "f.cubex")
		if len(whole) > 0 {
			if os.WriteFile(p, whole, 0o644) != nil {
				t.Skip()
			}
		} else {
			ms := cubexMembers(o, false)
			ms[2].data, ms[3].data, ms[6].data = index, data, anchor
			writeTar(t, p, ms)
		}
		tr, err := Reader{Path: p}.Read()
		if err != nil {
			return
		}
		tr.Statistics()
		tr.Tree()
	})
}
