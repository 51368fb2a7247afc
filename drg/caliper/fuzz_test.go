package caliper

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzDecode decodes arbitrary bytes: Decode must return a well-formed
// trial or an *Error naming the file and a position (or the empty input),
// and never panic. Seeds: the hand-written files and, when the shared data
// is there, the real ones.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(cali))
	f.Add([]byte(plainJSON))
	f.Add([]byte(`{"data":[[1,0,null],[2,1,0]],"columns":["t","mpi.rank","path"],"column_metadata":[{"is_value":true},{"is_value":true},{"is_value":false}],"nodes":[{"label":"main","column":"path"}]}`))
	for _, rel := range []string{"caliper-lulesh-cali/lulesh-annotation-profile.cali", "caliper-lulesh-json/lulesh-annotation-profile.json"} {
		if data, err := os.ReadFile(otherFormatPath(rel)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		tr, err := Decode(bytes.NewReader(data), "fuzz.cali")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Path != "fuzz.cali" || !strings.HasPrefix(err.Error(), "fuzz.cali:") {
				t.Fatalf("error %q is not an *Error naming the file", err)
			}
			return
		}
		nt, nn := len(tr.Threads), len(tr.Nodes)
		if nt == 0 || len(tr.Metrics) == 0 || len(tr.Values) != len(tr.Metrics) || tr.Present.Len() != nn*nt {
			t.Fatalf("%d threads, %d metrics, %d columns", nt, len(tr.Metrics), len(tr.Values))
		}
		for m := range tr.Values {
			if len(tr.Values[m].Inclusive) != nn*nt || len(tr.Values[m].Exclusive) != nn*nt {
				t.Fatalf("metric %d: %d/%d values", m, len(tr.Values[m].Inclusive), len(tr.Values[m].Exclusive))
			}
		}
		for i, n := range tr.Nodes {
			if n.Parent < -1 || n.Parent >= nn || n.Parent == i || n.Region < 0 || n.Region >= len(tr.Regions) {
				t.Fatalf("node %d %+v", i, n)
			}
		}
	})
}
