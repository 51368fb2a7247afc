package snapshot

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// FuzzDecode feeds arbitrary streams to DecodeDerived: it must return a
// trial or an *Error, never panic, and a trial must be consistent. The
// real file (a seed when the shared data folder holds it) is large, so run
// it with a short -fuzzminimizetime (say 2s), or the fuzzer spends minutes
// minimizing each new input.
func FuzzDecode(f *testing.F) {
	if p, ok := realdata.Find(realRel); ok {
		f.Add(readFile(f, p))
	}
	f.Add(largeStream(2, 20, 5))
	f.Add(readFile(f, filepath.Join(snapshotDir, "snapshot.0.0.0")))
	f.Add(readFile(f, filepath.Join(snapshotDir, "snapshot.0.0.1")))
	f.Add([]byte(smallDoc(okInterval, okAtomic)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, d, err := DecodeDerived(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			return
		}
		nt, nn := len(tr.Threads), len(tr.Nodes)
		if nt == 0 || len(tr.Metrics) == 0 {
			t.Fatalf("trial with %d threads and %d metrics", nt, len(tr.Metrics))
		}
		if len(tr.Calls) != nn*nt || len(tr.CounterValues) != len(tr.Counters)*nt {
			t.Fatalf("value columns of the wrong size")
		}
		for _, s := range tr.Series {
			for _, n := range s.Nodes {
				if n < 0 || n >= nn {
					t.Fatalf("snapshot node %d of %d", n, nn)
				}
			}
			if s.Thread < 0 || s.Thread >= nt || len(s.Exclusive) != len(tr.Metrics) {
				t.Fatalf("bad snapshot %+v", s)
			}
		}
		if d != nil && len(d.Stats.Calls.Total) != nn {
			t.Fatalf("derived statistics of %d nodes, trial has %d", len(d.Stats.Calls.Total), nn)
		}
		tr.Statistics()
	})
}
