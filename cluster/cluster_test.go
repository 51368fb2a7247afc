package cluster

import (
	"fmt"
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ari returns the adjusted Rand index of two labellings (Hubert & Arabie
// 1985): 1 for equal partitions up to labels.
func ari(a, b []int) float64 {
	type pair struct{ x, y int }
	nij := map[pair]float64{}
	ai, bj := map[int]float64{}, map[int]float64{}
	for i := range a {
		nij[pair{a[i], b[i]}]++
		ai[a[i]]++
		bj[b[i]]++
	}
	c2 := func(n float64) float64 { return n * (n - 1) / 2 }
	var s, sa, sb float64
	for _, v := range nij {
		s += c2(v)
	}
	for _, v := range ai {
		sa += c2(v)
	}
	for _, v := range bj {
		sb += c2(v)
	}
	n := c2(float64(len(a)))
	exp := sa * sb / n
	mx := (sa + sb) / 2
	if mx == exp {
		return 1
	}
	return (s - exp) / (mx - exp)
}

// planted returns 3 Gaussian blobs (sd 1, 6 dimensions) of 50, 20 and 5
// rows with centres 20 apart, plus one outlier row 7 away from the small
// blob; truth labels the blobs 0, 1, 2 and the outlier 2 (its nearest blob).
func planted(seed uint64) (m Matrix, truth []int) {
	rng := NewRand(seed)
	const d = 6
	centres := [][]float64{{0, 0, 0, 0, 0, 0}, {20, 0, 0, 0, 0, 0}, {0, 20, 0, 0, 0, 0}}
	sizes := []int{50, 20, 5}
	m.D = d
	for c, n := range sizes {
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				m.X = append(m.X, 100+centres[c][j]+rng.NormFloat64())
			}
			truth = append(truth, c)
		}
	}
	m.X = append(m.X, 100, 127, 100, 100, 100, 100)
	truth = append(truth, 2)
	m.N = len(truth)
	return m, truth
}

// raw leaves the planted blobs in their raw units unless a test asks for a
// preprocessing: every dimension there has the same noise, so the scale
// carries the structure (the z-score default is for real profiles, see
// TestDefaultFollowsBehaviour).
func raw(o Options) Options {
	if o.Normalization == "" {
		o.Normalization = "none"
	}
	if o.Reduction == "" {
		o.Reduction = "none"
	}
	return o
}

// synthTrial makes a trial of one TIME metric whose thread i has exclusive
// (and inclusive) value m[i][r] in region "r<r>".
func synthTrial(name string, m Matrix) *drg.Trial {
	t := &drg.Trial{Name: name, Metrics: []drg.Metric{{Name: "TIME"}}}
	for i := 0; i < m.N; i++ {
		t.Threads = append(t.Threads, drg.Thread{Node: i, Index: i})
	}
	vals := make([]float64, m.D*m.N)
	for r := 0; r < m.D; r++ {
		t.Regions = append(t.Regions, drg.Region{Name: fmt.Sprintf("r%d", r), Flat: r})
		t.Nodes = append(t.Nodes, drg.Node{Name: fmt.Sprintf("r%d", r), Region: r, Parent: -1})
		for i := 0; i < m.N; i++ {
			vals[r*m.N+i] = m.X[i*m.D+r]
		}
	}
	t.Values = []drg.MetricValues{{Inclusive: vals, Exclusive: vals}}
	t.Present = drg.NewBitmap(m.D * m.N)
	for i := 0; i < m.D*m.N; i++ {
		t.Present.Set(i)
	}
	return t
}

func membership(t *testing.T, r *analysis.Result) []int {
	t.Helper()
	tb := r.Table("membership")
	if tb == nil {
		t.Fatal("no membership table")
	}
	out := make([]int, tb.NumRows())
	for i := range out {
		out[i] = int(tb.Num("cluster", i))
	}
	return out
}

func quality(t *testing.T, r *analysis.Result, col string) float64 {
	t.Helper()
	return r.Table("quality").Num(col, 0)
}

func TestPlantedMatrix(t *testing.T) {
	m, truth := planted(1)
	km := KMeans(m, 3, DefaultRestarts, 0, NewRand(7))
	if a := ari(km.Labels, truth); a != 1 {
		t.Errorf("k-means ARI %g", a)
	}
	merges, err := Hierarchical(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(merges) != m.N-1 || merges[len(merges)-1].Size != m.N {
		t.Fatalf("bad dendrogram: %d merges", len(merges))
	}
	for i := 1; i < len(merges); i++ {
		if merges[i].Height < merges[i-1].Height {
			t.Fatalf("merge heights not increasing at %d", i)
		}
	}
	if a := ari(Cut(merges, m.N, 3), truth); a != 1 {
		t.Errorf("hierarchical ARI %g", a)
	}
	db := DBSCAN(m, KneeEps(m, DefaultMinPts), DefaultMinPts)
	want := append([]int(nil), truth...)
	want[m.N-1] = -1
	if db[m.N-1] != Noise {
		t.Errorf("outlier labelled %d, want noise", db[m.N-1])
	}
	if a := ari(db, want); a != 1 {
		t.Errorf("DBSCAN ARI %g: %v", a, db)
	}
}

func TestPlantedCluster(t *testing.T) {
	m, truth := planted(2)
	tr := []*drg.Trial{synthTrial("planted", m)}
	for _, tc := range []struct {
		opt   Options
		wantK int
	}{
		{Options{Method: "kmeans", K: 3}, 3},
		{Options{Method: "K Means"}, 3},
		{Options{Method: "kmeans", AutoK: "gap"}, 3},
		{Options{Method: "hierarchical", K: 3}, 3},
		{Options{Method: "Hierarchical"}, 3},
		{Options{Method: "dbscan"}, 3},
		{Options{Method: "kmeans", Reduction: "pca"}, 3},
		{Options{Method: "kmeans", Normalization: "zscore", Reduction: "over", X: 10, K: 3}, 3},
		{Options{Method: "kmeans", Normalization: "percent", K: 3}, 3},
		{Options{Method: "kmeans", Normalization: "range", K: 3}, 3},
	} {
		name := fmt.Sprintf("%s/%d/%s/%s", tc.opt.Method, tc.opt.K, tc.opt.AutoK, tc.opt.Normalization)
		r, err := Cluster(tr, raw(tc.opt))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if k := quality(t, r, "k"); int(k) != tc.wantK {
			t.Errorf("%s: k = %g, want %d (findings %q)", name, k, tc.wantK, r.Findings)
		}
		want := truth
		if tc.opt.Method == "dbscan" {
			want = append([]int(nil), truth...)
			want[m.N-1] = -1
		}
		if tc.opt.Normalization == "zscore" {
			// Z-scored, the four pure-noise dimensions get unit variance
			// and the blobs (2.3 units apart) overlap: the truth is no
			// longer the best partition. k-means must find one at least
			// as good (W_k no larger than the truth's in that space).
			z, err := Normalize(m, NormZScore)
			if err != nil {
				t.Fatal(err)
			}
			if w, wt := quality(t, r, "within_ss"), withinSS(z, truth); w > wt*(1+1e-12) {
				t.Errorf("%s: W_k %v above the truth's %v", name, w, wt)
			}
		} else if a := ari(membership(t, r), want); a != 1 {
			t.Errorf("%s: ARI %g", name, a)
		}
		if s := quality(t, r, "mean_silhouette"); tc.opt.Normalization == "" && !(s > 0.7) {
			t.Errorf("%s: mean silhouette %g", name, s)
		}
		for _, tb := range []string{"sizes", "averages", "minima", "maxima", "membership", "pca", "separating", "quality"} {
			if r.Table(tb) == nil {
				t.Errorf("%s: no table %s", name, tb)
			}
		}
		if tc.opt.K == 0 && tc.opt.Method != "dbscan" {
			kt := r.Table("k")
			if kt == nil {
				t.Fatalf("%s: no k table", name)
			}
			if tc.opt.AutoK == "gap" && math.IsNaN(kt.Num("gap", 0)) {
				t.Errorf("%s: no gap values", name)
			}
		}
		if (tc.opt.Method == "hierarchical" || tc.opt.Method == "Hierarchical") && r.Table("dendrogram") == nil {
			t.Errorf("%s: no dendrogram", name)
		}
	}
}

func TestPlantedTablesAndParams(t *testing.T) {
	m, _ := planted(3)
	r, err := Cluster([]*drg.Trial{synthTrial("p", m)}, raw(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"method": "K Means", "method_name": "kmeans", "normalization": "None", "dimension_reduction": "None",
		"k": "auto", "max_k": "10", "auto_k": "silhouette", "seed": "0", "value": "exclusive",
		"restarts": "adaptive (at least 10, until 10 in a row improve nothing, at most 200)",
		"metric":   "TIME", "callpath": "false", "silhouette_sample": "2000", "max_iter": "100",
	}
	for k, v := range want {
		if r.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, r.Params[k], v)
		}
	}
	sz := r.Table("sizes")
	got := map[float64]bool{}
	for i := 0; i < sz.NumRows(); i++ {
		got[sz.Num("size", i)] = true
	}
	if !got[50] || !got[20] || !got[6] {
		t.Errorf("sizes %v", sz.Columns[1].Num)
	}
	// Regions r0 and r1 carry the separation (centres differ there only).
	sep := r.Table("separating")
	top := map[string]bool{sep.Text("region", 0): true, sep.Text("region", 1): true}
	if !top["r0"] || !top["r1"] {
		t.Errorf("separating regions %v", sep.Columns[0].Text[:2])
	}
	if e := sep.Num("eta_squared", 0); !(e > 0.9) {
		t.Errorf("top eta² %g", e)
	}
	av := r.Table("averages")
	if av.NumRows() != 3*6 {
		t.Errorf("averages rows %d", av.NumRows())
	}
	// The cluster of 50 (cluster 0: row 0 is in it) averages about 100 on r0.
	if v := av.Num("value", 0); math.Abs(v-100) > 1 {
		t.Errorf("cluster 0 r0 average %g", v)
	}
	mn, mx := r.Table("minima"), r.Table("maxima")
	for i := 0; i < av.NumRows(); i++ {
		if !(mn.Num("value", i) <= av.Num("value", i) && av.Num("value", i) <= mx.Num("value", i)) {
			t.Errorf("row %d: min %g avg %g max %g", i, mn.Num("value", i), av.Num("value", i), mx.Num("value", i))
		}
	}
	if r.Table("pca").NumRows() != m.N {
		t.Errorf("pca rows")
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
}

func TestSeeds(t *testing.T) {
	m, _ := planted(4)
	tr := []*drg.Trial{synthTrial("p", m)}
	a, err := Cluster(tr, raw(Options{Seed: 42}))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Cluster(tr, raw(Options{Seed: 42}))
	la, lb := membership(t, a), membership(t, b)
	for i := range la {
		if la[i] != lb[i] {
			t.Fatalf("same seed, different labels at %d", i)
		}
	}
	if a.Table("quality").Num("within_ss", 0) != b.Table("quality").Num("within_ss", 0) {
		t.Error("same seed, different W")
	}
	for seed := uint64(0); seed < 5; seed++ {
		c, err := Cluster(tr, raw(Options{Seed: seed, Restarts: 3}))
		if err != nil {
			t.Fatal(err)
		}
		if x := ari(membership(t, c), la); x != 1 {
			t.Errorf("seed %d: ARI %g", seed, x)
		}
		if c.Params["seed"] != fmt.Sprint(seed) {
			t.Errorf("seed param %q", c.Params["seed"])
		}
	}
	if a.Key() == func() string { c, _ := Cluster(tr, Options{Seed: 1}); return c.Key() }() {
		t.Error("different seeds share a key")
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %g, want %g", what, got, want)
	}
}

func TestNormalizeByHand(t *testing.T) {
	m := Matrix{N: 2, D: 3, X: []float64{1, 3, 6, 3, 3, 4}}
	p, _ := Normalize(m, "percent")
	for i, w := range []float64{10, 30, 60, 30, 30, 40} {
		near(t, "percent", p.X[i], w)
	}
	r, _ := Normalize(m, "Range of Total")
	for i, w := range []float64{0, 0, 1, 1, 0, 0} {
		near(t, "range", r.X[i], w)
	}
	z, _ := Normalize(m, "zscore")
	for i, w := range []float64{-1, 0, 1, 1, 0, -1} {
		near(t, "zscore", z.X[i], w)
	}
	n, _ := Normalize(m, "")
	for i := range m.X {
		near(t, "none", n.X[i], m.X[i])
	}
	if m.X[0] != 1 {
		t.Error("Normalize changed its input")
	}
	if _, err := Normalize(m, "bogus"); err == nil {
		t.Error("bogus normalization accepted")
	}
	// Over X: totals 4, 6, 10 of 20: 20%, 30%, 50%.
	if k := OverX(m, 25); len(k) != 2 || k[0] != 1 || k[1] != 2 {
		t.Errorf("over 25%%: %v", k)
	}
	if k := OverX(m, DefaultX); len(k) != 3 {
		t.Errorf("over 1%%: %v", k)
	}
	c := Columns(m, []int{2, 0})
	for i, w := range []float64{6, 1, 4, 3} {
		near(t, "columns", c.X[i], w)
	}
}

func TestPCAByHand(t *testing.T) {
	// Points on the line y = 2x: one component holds all the variance;
	// scores are ±|v|·(x−μ) with |v| = sqrt(5).
	m := Matrix{N: 3, D: 2, X: []float64{0, 0, 1, 2, 2, 4}}
	p, err := PrincipalComponents(m, 0, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kept != 1 {
		t.Fatalf("kept %d", p.Kept)
	}
	near(t, "variance", p.Variances[0], 5) // var(x)+var(y) = 1 + 4
	s5 := math.Sqrt(5)
	for i, w := range []float64{-s5, 0, s5} {
		near(t, "score", p.Scores.X[i], w)
	}
	p2, _ := PrincipalComponents(m, 2, 0)
	if p2.Kept != 2 || math.Abs(p2.Scores.X[1]) > 1e-9 {
		t.Errorf("2 components: %+v", p2)
	}
}

func TestHierarchicalByHand(t *testing.T) {
	// 1-D points 0, 1, 5, 11: merge {0,1} at 1; then {0,1} with 5 at
	// average (5+4)/2 = 4.5; then with 11 at (11+10+6)/3 = 9.
	m := Matrix{N: 4, D: 1, X: []float64{0, 1, 5, 11}}
	got, err := Hierarchical(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []Merge{{0, 1, 1, 2}, {2, 4, 4.5, 3}, {3, 5, 9, 4}}
	for i := range want {
		if got[i].A != want[i].A || got[i].B != want[i].B || got[i].Size != want[i].Size {
			t.Errorf("merge %d: %+v, want %+v", i, got[i], want[i])
		}
		near(t, "height", got[i].Height, want[i].Height)
	}
	if l := Cut(got, 4, 2); fmt.Sprint(l) != "[0 0 0 1]" {
		t.Errorf("cut 2: %v", l)
	}
	if l := Cut(got, 4, 3); fmt.Sprint(l) != "[0 0 1 2]" {
		t.Errorf("cut 3: %v", l)
	}
}

func TestDBSCANByHand(t *testing.T) {
	m := Matrix{N: 7, D: 1, X: []float64{0, 1, 2, 10, 11, 12, 50}}
	if l := DBSCAN(m, 1, 3); fmt.Sprint(l) != "[0 0 0 1 1 1 -1]" {
		t.Errorf("labels %v", l)
	}
	// minPts 3: 2-distances sorted 1,1,2,2,2,2,38 → largest jump after the last 2.
	near(t, "knee", KneeEps(m, 3), 2)
}

func TestSilhouetteByHand(t *testing.T) {
	// Clusters {0, 2} and {10}: s(0) = (b−a)/max = (10−2)/10; s(2) =
	// (8−2)/8; the singleton 0.
	m := Matrix{N: 3, D: 1, X: []float64{0, 2, 10}}
	mean, s := Silhouette(m, []int{0, 0, 1})
	near(t, "s0", s[0], 0.8)
	near(t, "s1", s[1], 0.75)
	near(t, "s2", s[2], 0)
	near(t, "mean", mean, 1.55/3)
}

func TestFeaturesAcrossTrials(t *testing.T) {
	a := synthTrial("A", Matrix{N: 2, D: 2, X: []float64{1, 2, 3, 4}})
	b := synthTrial("B", Matrix{N: 1, D: 3, X: []float64{5, 6, 7}})
	b.Regions[0].Name, b.Nodes[0].Name = "r1", "r1"
	b.Regions[1].Name, b.Nodes[1].Name = "r0", "r0"
	b.Present.Clear(2) // r2 absent on B's thread: 0
	fs, err := Features([]*drg.Trial{a, b}, FeatureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(fs.Regions) != "[r0 r1 r2]" || fs.Metric != "TIME" {
		t.Fatalf("regions %v metric %s", fs.Regions, fs.Metric)
	}
	for i, w := range []float64{1, 2, 0, 3, 4, 0, 6, 5, 0} {
		near(t, "feature", fs.Data.X[i], w)
	}
	if fs.Points[2].Trial != "B" || fs.Points[1].Node != 1 {
		t.Errorf("points %+v", fs.Points)
	}
	if _, err := Features([]*drg.Trial{a}, FeatureOptions{Metric: "PAPI_TOT_CYC"}); err == nil {
		t.Error("missing metric accepted")
	}
}

// withinSS is W_k of the partition labels of m's rows.
func withinSS(m Matrix, labels []int) float64 {
	sums, counts := map[int][]float64{}, map[int]float64{}
	for i, l := range labels {
		if sums[l] == nil {
			sums[l] = make([]float64, m.D)
		}
		for j, v := range m.Row(i) {
			sums[l][j] += v
		}
		counts[l]++
	}
	var w float64
	for i, l := range labels {
		for j, v := range m.Row(i) {
			d := v - sums[l][j]/counts[l]
			w += d * d
		}
	}
	return w
}
