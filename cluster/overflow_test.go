package cluster

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TestHugeValuesRefused clusters trials holding values whose squares (or
// sums) overflow a double, as a TAUdb database written by another tool may
// hold: every method refuses them with the region, the thread and the
// trial named (it used to panic in the silhouette and in hierarchical
// clustering from 1e154 up). NaN and ±Inf (undefined values of a derived
// metric) count as 0, as before.
func TestHugeValuesRefused(t *testing.T) {
	for _, v := range []float64{1e154, 1.7e308, -1e200} {
		m, _ := planted(1)
		m.X[7] = v // row 1, column 1 (6 columns)
		for _, method := range []string{MethodKMeans, MethodHierarchical, MethodDBSCAN} {
			_, err := Cluster([]*drg.Trial{synthTrial("huge", m)}, Options{Method: method})
			if err == nil || !errors.Is(err, drg.ErrValueRange) || !strings.Contains(err.Error(), `the value of "r1" on thread 1.0.0 of trial "huge"`) {
				t.Errorf("%g, %s: error %v", v, method, err)
			}
		}
	}
}

// TestHierarchicalInfinite gives Hierarchical infinite distances directly:
// an error, not a panic.
func TestHierarchicalInfinite(t *testing.T) {
	m := Matrix{N: 3, D: 1, X: []float64{0, math.Inf(1), math.Inf(-1)}}
	if _, err := Hierarchical(m); err == nil {
		t.Error("no error")
	}
}
