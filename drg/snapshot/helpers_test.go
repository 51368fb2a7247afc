package snapshot

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// realRel is the merged profile of SOURCES.md row 9, under the shared
// real-data folder (internal/realdata).
const realRel = "UO-OACISS-tau2/perfexplorer/MetadataCorrelation/tauprofile-unweighted.xml"

// realFile returns the path of the real merged profile, skipping t when the
// shared data folder does not hold it.
func realFile(t testing.TB) string {
	t.Helper()
	return realdata.Real(t, realRel)
}

// snapshotDir holds the hand-made snapshot files: 2 threads × 3 snapshots.
const snapshotDir = "../../testdata/snapshots"

func readReal(t testing.TB) (*drg.Trial, *Derived) {
	t.Helper()
	tr, d, err := Reader{Path: realFile(t)}.ReadDerived()
	if err != nil {
		t.Fatal(err)
	}
	return tr, d
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameTrial fails t unless a and b are equal apart from Name and Source.
func sameTrial(t *testing.T, a, b *drg.Trial) {
	t.Helper()
	x, y := *a, *b
	x.Name, y.Name = "", ""
	x.Source, y.Source = drg.Source{}, drg.Source{}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("trials differ:\n%+v\n%+v", x, y)
	}
}

// relDiff returns |a-b| relative to the larger magnitude (0 when both are 0).
func relDiff(a, b float64) float64 {
	d := math.Abs(a - b)
	if d == 0 {
		return 0
	}
	return d / math.Max(math.Abs(a), math.Abs(b))
}

func nodeIndex(t *testing.T, tr *drg.Trial, name string) int {
	t.Helper()
	n := tr.NodeIndex(name)
	if n < 0 {
		t.Fatalf("no node %q", name)
	}
	return n
}

func counterIndex(t *testing.T, tr *drg.Trial, name string) int {
	t.Helper()
	for i, c := range tr.Counters {
		if c.Name == name {
			return i
		}
	}
	t.Fatalf("no counter %q", name)
	return -1
}

// errorLine checks that err is an *Error at line whose message contains
// want.
func errorLine(t *testing.T, err error, line int, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q at line %d", want, line)
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	if e.Line != line || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q (line %d), want line %d and %q", err, e.Line, line, want)
	}
}
