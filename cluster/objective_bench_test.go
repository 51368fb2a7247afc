package cluster_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// BenchmarkSampledObjective131072 checks the sampled k-means at the
// issue's size on all of a trial's regions: the trial `taudb-analyze synth
// --processes 131072 --regions 1000 --metrics 2 --depth 1` writes
// (generated in memory, the same generator and defaults), its threads'
// vectors as cluster makes them with its default options but no
// dimension reduction (131,072 × 1,000, z-scores), clustered for k = 2
// and 4 by KMeansSampled (restarts on 10,000 sampled threads, then Lloyd
// on all) and by full Lloyd's (KMeans, DefaultRestarts k-means++ restarts
// on every thread). It fails when the sampled W_k is more than 1% above
// the full one, and reports the ratio and both times. About 10 minutes
// and 11 GB: run it alone, with -bench SampledObjective -benchtime 1x.
func BenchmarkSampledObjective131072(b *testing.B) {
	tr, err := synth.Generate(synth.Spec{Processes: 131072, ThreadsPerProcess: 1, Regions: 1000, Depth: 1, Metrics: 2,
		Serial: 1e6, Parallel: 9e6, Log: 5e4, Noise: 0.02, Imbalance: 0.1, Seed: 1, Name: "p131072"})
	if err != nil {
		b.Fatal(err)
	}
	a, err := registry.Lookup("cluster")
	if err != nil {
		b.Fatal(err)
	}
	opt := a.Defaults().(*registry.Cluster).Options
	opt.Reduction = cluster.ReduceNone
	m, err := cluster.Vectors([]*drg.Trial{tr}, opt)
	if err != nil {
		b.Fatal(err)
	}
	tr = nil
	runtime.GC()
	b.Logf("%d threads × %d dimensions", m.N, m.D)
	for b.Loop() {
		for _, k := range []int{2, 4} {
			start := time.Now()
			s := cluster.KMeansSampled(m, k, 0, 0, cluster.KMeansSampleRows, cluster.NewRand(1))
			ts := time.Since(start)
			start = time.Now()
			full := cluster.KMeans(m, k, cluster.DefaultRestarts, 0, cluster.NewRand(1))
			tf := time.Since(start)
			ratio := s.W / full.W
			b.Logf("k = %d: sampled W_k %.6g in %.1f s, full Lloyd's %.6g in %.1f s, ratio %.5f", k, s.W, ts.Seconds(), full.W, tf.Seconds(), ratio)
			if k == 2 {
				b.ReportMetric(ratio, "W_ratio_k2")
			} else {
				b.ReportMetric(ratio, "W_ratio_k4")
			}
			if ratio > 1.01 {
				b.Errorf("k = %d: the sampled W_k is %.2f%% above full Lloyd's", k, 100*(ratio-1))
			}
		}
	}
}
