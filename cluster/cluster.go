package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Method names, as PerfExplorer writes them to analysis_settings.method.
const (
	// MethodKMeans is k-means with k-means++ seeding (see KMeans).
	MethodKMeans = "K Means"
	// MethodHierarchical is agglomerative clustering with average linkage
	// (see Hierarchical).
	MethodHierarchical = "Hierarchical"
	// MethodDBSCAN is density-based clustering (see DBSCAN).
	MethodDBSCAN = "Density Based (DBSCAN)"
)

// Automatic choices of k.
const (
	// AutoSilhouette picks the k in 2..MaxK of largest mean silhouette
	// (ties: the smaller k); when no k has a positive mean silhouette (no
	// structure, for example identical threads) the result is one cluster.
	AutoSilhouette = "silhouette"
	// AutoGap picks k by the gap statistic (see GapStatistic; k = 1 is
	// possible and means "no cluster structure").
	AutoGap = "gap"
)

// The default preprocessing, chosen so that the clusters follow the
// program's behaviour rather than its largest raw numbers. With raw values
// the regions of largest absolute spread decide alone, and across ranks
// that is often launch skew in MPI_Init or a wait, not the work each rank
// does; the z-score (each region centred and divided by its standard
// deviation over the threads) gives every region's variation the same
// say, so a split that shows in many regions (PP against PME ranks, a
// master thread against workers) wins. Equal say would let the noise of
// tiny regions count as much as the main computation, so the regions
// holding less than DefaultX percent of the total are left out first
// (PerfExplorer's "Over X Percent"). Options.Normalization = "none" and
// Options.Reduction = "none" give the raw values.
const (
	DefaultNormalization = "zscore"
	DefaultReduction     = "over"
)

// DefaultX is the threshold of the "Over X Percent" reduction when
// Options.X is 0.
const DefaultX = 1.0

// Options select the features, the preprocessing and the method of Cluster.
// Zero values select the defaults named.
type Options struct {
	FeatureOptions
	// Method is MethodKMeans (default; also "kmeans", "k-means"),
	// MethodHierarchical ("hierarchical", "hac") or MethodDBSCAN
	// ("dbscan"); case-insensitive.
	Method string
	// K is the number of clusters; 0 chooses it automatically (k-means and
	// hierarchical), by AutoK over 2..MaxK. DBSCAN ignores it.
	K int
	// AutoK is AutoSilhouette (default) or AutoGap (k-means only).
	AutoK string
	// MaxK is the largest k tried automatically (default DefaultMaxK = 10,
	// at most n−1 for the silhouette).
	MaxK int
	// Normalization is one of the Norm constants or a short name (see
	// ParseNormalization); "" selects DefaultNormalization (z-score).
	Normalization string
	// Reduction is one of the Reduce constants or a short name (see
	// ParseReduction); "" selects DefaultReduction (Over X Percent).
	Reduction string
	// X is the percentage of ReduceOverX (default DefaultX = 1.0).
	X float64
	// PCAComponents is the number of principal components ReducePCA keeps;
	// 0 keeps the fewest reaching PCAVariance of the variance.
	PCAComponents int
	// PCAVariance is the variance fraction ReducePCA keeps when
	// PCAComponents is 0 (default 0.9).
	PCAVariance float64
	// Seed seeds every random choice (see NewRand); the default 0 is a
	// seed like any other.
	Seed uint64
	// Restarts is the number of k-means runs; 0 (the default) restarts
	// adaptively (see RestartPatience).
	Restarts int
	// GapB is the number of reference sets of the gap statistic (default
	// DefaultGapB).
	GapB int
	// Eps is DBSCAN's radius; 0 takes the knee of the k-distance graph
	// (see KneeEps) of the clustered vectors.
	Eps float64
	// MinPts is DBSCAN's minPts (default DefaultMinPts = 4).
	MinPts int
	// SilhouetteSample bounds the rows the silhouette is computed over
	// (default DefaultSilhouetteSample): with more threads, one uniform
	// random sample of that many (drawn first from the seeded generator)
	// serves every k tried and the result, distances within the sample
	// only; threads outside it get a NaN silhouette.
	SilhouetteSample int
}

// ParseMethod maps PerfExplorer's method strings and our short names to a
// Method constant.
func ParseMethod(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "k means", "kmeans", "k-means":
		return MethodKMeans, nil
	case "hierarchical", "hac", "average":
		return MethodHierarchical, nil
	case "density based (dbscan)", "dbscan":
		return MethodDBSCAN, nil
	}
	return "", fmt.Errorf("cluster: unknown method %q (want kmeans, hierarchical or dbscan)", s)
}

// shortMethod is our short name of a method.
func shortMethod(m string) string {
	switch m {
	case MethodHierarchical:
		return "hierarchical"
	case MethodDBSCAN:
		return "dbscan"
	}
	return "kmeans"
}

// Cluster clusters the threads of the given trials (see Features) and
// reports the clusters. Steps: the feature vectors x[t][r] (raw metric
// values, missing regions 0); the normalization; the reduction ("Over X
// Percent" selects regions by their raw totals, PCA projects the normalized
// vectors); the method on the resulting vectors.
//
// Tables:
//   - "sizes": cluster, size, silhouette (the mean silhouette of its
//     threads); DBSCAN's noise is cluster −1.
//   - "averages", "minima", "maxima": cluster, region, value (the mean,
//     minimum or maximum over the cluster's threads of the raw value, in
//     the metric's unit) and normalized (of the normalized value), for
//     every region of the features.
//   - "membership": trial, node, context, thread, cluster, silhouette
//     (NaN outside the silhouette sample and for noise).
//   - "pca": trial, node, context, thread, cluster, pc1, pc2: the scores of
//     the clustered vectors on their first two principal components.
//   - "separating": region, eta_squared, rank: η² = SS_between / SS_total
//     of the normalized value over the clustered threads (noise left out),
//     SS_between = Σ_c n_c (μ_c − μ)², SS_total = Σ_t (x_t − μ)²; largest
//     first (NaN, a constant region, last).
//   - "k" (automatic k): k, silhouette, and with AutoK = gap also gap,
//     s_k, log_w, ref_log_w (k = 1 appears with gap only, its silhouette
//     NaN: undefined for one cluster).
//   - "dendrogram" (hierarchical): step, a, b, height, size (see Merge).
//   - "quality": k, mean_silhouette, within_ss (W_k), noise.
func Cluster(trials []*drg.Trial, opt Options) (*analysis.Result, error) {
	pr, err := prepare(trials, opt)
	if err != nil {
		return nil, err
	}
	cfg, fs, res, norm, work := pr.cfg, pr.fs, pr.res, pr.norm, pr.work
	rng := NewRand(opt.Seed)
	n := work.N
	// One silhouette sample for every k and the result, so that the k
	// compare on the same threads.
	sample := silhouetteSample(rng, n, cfg.silN)
	var labels []int
	if cfg.method == MethodDBSCAN {
		labels = runDBSCAN(res, work, opt, cfg)
	} else if labels, err = partition(res, work, sample, rng, opt, cfg); err != nil {
		return nil, err
	}
	meanSil, sil := silhouetteOf(work, labels, sample)
	if n > cfg.silN {
		res.Findf("Silhouettes are computed on a random sample of %d of the %d threads.", cfg.silN, n)
	}
	addTables(res, fs, norm, work, labels, sil, meanSil)
	return res, res.Validate()
}

// prepared is what Cluster clusters: the parsed options, the features,
// the result begun with the parameters and the reduction's findings, and
// the normalized and the reduced (clustered) vectors.
type prepared struct {
	cfg        config
	fs         *FeatureSet
	res        *analysis.Result
	norm, work Matrix
}

// prepare builds the vectors Cluster clusters.
func prepare(trials []*drg.Trial, opt Options) (prepared, error) {
	var pr prepared
	var err error
	if pr.cfg, err = parseConfig(opt); err != nil {
		return pr, err
	}
	if pr.fs, err = Features(trials, opt.FeatureOptions); err != nil {
		return pr, err
	}
	pr.res = newResult(trials, pr.fs, opt, pr.cfg)
	if pr.norm, err = Normalize(pr.fs.Data, pr.cfg.normName); err != nil {
		return pr, err
	}
	pr.work, err = reduce(pr.res, pr.fs, pr.norm, opt, pr.cfg)
	return pr, err
}

// Vectors returns the vectors Cluster clusters for these trials and
// options, one row per thread: the features, normalized and reduced as
// the options say. The within-cluster sum of squares of the "quality"
// table is over these rows; a benchmark compares it with KMeans run on
// them.
func Vectors(trials []*drg.Trial, opt Options) (Matrix, error) {
	pr, err := prepare(trials, opt)
	return pr.work, err
}

// config holds the options of Cluster, parsed and with the defaults
// filled in.
type config struct {
	method, normName, red, autoK       string
	restarts, maxK, gapB, minPts, silN int
	x, pcaVar                          float64
}

// parseConfig checks the options of Cluster and fills in the defaults.
func parseConfig(opt Options) (config, error) {
	var cfg config
	var err error
	if cfg.method, err = ParseMethod(opt.Method); err != nil {
		return cfg, err
	}
	if cfg.normName, err = ParseNormalization(cmpS(opt.Normalization, DefaultNormalization)); err != nil {
		return cfg, err
	}
	if cfg.red, err = ParseReduction(cmpS(opt.Reduction, DefaultReduction)); err != nil {
		return cfg, err
	}
	cfg.autoK = strings.ToLower(opt.AutoK)
	if cfg.autoK == "" {
		cfg.autoK = AutoSilhouette
	}
	if cfg.autoK != AutoSilhouette && cfg.autoK != AutoGap {
		return cfg, fmt.Errorf("cluster: unknown automatic k %q (want silhouette or gap)", opt.AutoK)
	}
	if cfg.autoK == AutoGap && cfg.method != MethodKMeans && opt.K == 0 {
		return cfg, fmt.Errorf("cluster: the gap statistic chooses k for k-means only")
	}
	if opt.K < 0 || opt.MaxK < 0 || opt.Restarts < 0 || opt.Eps < 0 || opt.MinPts < 0 || opt.X < 0 {
		return cfg, fmt.Errorf("cluster: negative parameter")
	}
	cfg.restarts = opt.Restarts
	cfg.maxK = cmp0(opt.MaxK, DefaultMaxK)
	cfg.gapB = cmp0(opt.GapB, DefaultGapB)
	cfg.minPts = cmp0(opt.MinPts, DefaultMinPts)
	cfg.silN = cmp0(opt.SilhouetteSample, DefaultSilhouetteSample)
	cfg.x = opt.X
	if cfg.x == 0 {
		cfg.x = DefaultX
	}
	cfg.pcaVar = opt.PCAVariance
	if cfg.pcaVar == 0 {
		cfg.pcaVar = 0.9
	}
	return cfg, nil
}

// newResult starts the result of Cluster: trials and the parameters known
// before clustering.
func newResult(trials []*drg.Trial, fs *FeatureSet, opt Options, cfg config) *analysis.Result {
	res := &analysis.Result{Analysis: "cluster", Metric: fs.Metric, Params: map[string]string{}}
	if len(trials) == 1 {
		res.Trial = trials[0].Name
	} else {
		for _, t := range trials {
			res.Trials = append(res.Trials, t.Name)
		}
	}
	p := res.Params
	p["metric"] = fs.Metric
	p["method"] = cfg.method
	p["method_name"] = shortMethod(cfg.method)
	p["normalization"] = cfg.normName
	p["dimension_reduction"] = cfg.red
	p["value"] = "exclusive"
	if opt.Inclusive {
		p["value"] = "inclusive"
	}
	p["callpath"] = strconv.FormatBool(opt.Callpath)
	p["seed"] = strconv.FormatUint(opt.Seed, 10)
	p["silhouette_sample"] = strconv.Itoa(cfg.silN)
	switch cfg.red {
	case ReduceOverX:
		p["x"] = ftoa(cfg.x)
	case ReducePCA:
		if opt.PCAComponents > 0 {
			p["pca_components"] = strconv.Itoa(opt.PCAComponents)
		} else {
			p["pca_variance"] = ftoa(cfg.pcaVar)
		}
	}
	return res
}

// reduce applies the dimension reduction to the normalized vectors and
// returns the vectors to cluster.
func reduce(res *analysis.Result, fs *FeatureSet, norm Matrix, opt Options, cfg config) (Matrix, error) {
	work := norm
	switch cfg.red {
	case ReduceOverX:
		x := cfg.x
		keep := OverX(fs.Data, x)
		switch {
		case len(keep) < 2 && opt.Reduction == "" && fs.Data.D >= 2:
			// The default reduction, when it would leave nothing to compare.
			res.Params["dimension_reduction"] = ReduceNone
			res.Findf("Fewer than two regions hold %g%% of the total: every region is clustered.", x)
		case len(keep) == 0:
			return work, fmt.Errorf("cluster: no region is above %g%% of the total", x)
		default:
			work = Columns(norm, keep)
			res.Findf("Over %g percent: %d of %d regions kept.", x, len(keep), fs.Data.D)
		}
	case ReducePCA:
		pc, err := PrincipalComponents(norm, opt.PCAComponents, cfg.pcaVar)
		if err != nil {
			return work, err
		}
		work = pc.Scores
		res.Findf("PCA: %d principal components of %d dimensions kept.", pc.Kept, fs.Data.D)
	}
	return work, nil
}

// silhouetteSample returns the rows the silhouettes are computed over: all
// n, or a random sample of silN when there are more.
func silhouetteSample(rng *rand.Rand, n, silN int) []int {
	sample := make([]int, n)
	for i := range sample {
		sample[i] = i
	}
	if n > silN {
		sample = rng.Perm(n)[:silN]
	}
	return sample
}

// runDBSCAN labels the vectors by DBSCAN, eps taken from the options or
// the knee of the k-distance graph.
func runDBSCAN(res *analysis.Result, work Matrix, opt Options, cfg config) []int {
	p := res.Params
	p["min_pts"] = strconv.Itoa(cfg.minPts)
	eps := opt.Eps
	if eps == 0 {
		p["eps"] = "knee"
		eps = KneeEps(work, cfg.minPts)
		res.Findf("DBSCAN eps = %.6g, the knee of the sorted %d-distance graph.", eps, max(cfg.minPts-1, 1))
	} else {
		p["eps"] = ftoa(eps)
	}
	return DBSCAN(work, eps, cfg.minPts)
}

// partition labels the vectors by k-means or hierarchical clustering, with
// the given k or one chosen automatically (then the "k" table is added).
func partition(res *analysis.Result, work Matrix, sample []int, rng *rand.Rand, opt Options, cfg config) ([]int, error) {
	p := res.Params
	k := opt.K
	p["k"] = "auto"
	if k > 0 {
		p["k"] = strconv.Itoa(k)
	} else {
		p["max_k"] = strconv.Itoa(cfg.maxK)
		p["auto_k"] = cfg.autoK
	}
	var merges []Merge
	if cfg.method == MethodKMeans {
		p["restarts"] = strconv.Itoa(cfg.restarts)
		if cfg.restarts == 0 {
			p["restarts"] = fmt.Sprintf("adaptive (at least %d, until %d in a row improve nothing, at most %d)", DefaultRestarts, RestartPatience, MaxRestarts)
		}
		p["max_iter"] = strconv.Itoa(DefaultMaxIter)
	} else {
		p["linkage"] = "average"
		var err error
		if merges, err = Hierarchical(work); err != nil {
			return nil, err
		}
		res.AddTable(dendrogramTable(merges))
	}
	if cfg.method == MethodKMeans && work.N > KMeansSampleRows {
		p["kmeans_sample"] = strconv.Itoa(KMeansSampleRows)
		res.Findf("k-means ran its restarts on a uniform sample of %d of the %d threads, then Lloyd's algorithm on all of them from the sample's centroids: its within-cluster sum of squares can be slightly above that of k-means restarted on every thread (by less than 1%% on the generated data of its test).", KMeansSampleRows, work.N)
	}
	run := func(k int) []int {
		if cfg.method == MethodKMeans {
			return KMeansSampled(work, k, cfg.restarts, 0, KMeansSampleRows, rng).Labels
		}
		return Cut(merges, work.N, k)
	}
	if k > 0 {
		return run(k), nil
	}
	return chooseK(res, work, sample, rng, run, cfg), nil
}

// kScan is what chooseK learns over the k tried: one row of the "k"
// table per k, and the best labelling by silhouette and by gap.
type kScan struct {
	ks, sils, gaps, ss, lw, rlw []float64
	bestK                       int
	bestS                       float64
	bestLabels, gapLabels       []int
}

// chooseK chooses k automatically (by silhouette or gap statistic), adds
// the "k" table and returns the labels of the chosen k.
func chooseK(res *analysis.Result, work Matrix, sample []int, rng *rand.Rand, run func(int) []int, cfg config) []int {
	var gap GapResult
	if cfg.autoK == AutoGap {
		res.Params["gap_b"] = strconv.Itoa(cfg.gapB)
		gap = GapStatistic(work, cfg.maxK, cfg.gapB, cfg.restarts, rng)
	}
	hi := min(cfg.maxK, work.N-1)
	sc := scanK(work, sample, run, gap, hi, cfg.autoK)
	res.AddTable(kTable(sc, cfg.autoK == AutoGap))
	if cfg.autoK == AutoGap {
		labels := sc.gapLabels
		if labels == nil {
			labels = run(gap.K)
		}
		res.Findf("The gap statistic chooses k = %d (smallest k with Gap(k) ≥ Gap(k+1) − s_{k+1}).", gap.K)
		return labels
	}
	if sc.bestLabels == nil {
		res.Findf("No k in 2..%d has a positive mean silhouette: one cluster.", hi)
		return make([]int, work.N)
	}
	res.Findf("The silhouette chooses k = %d (mean silhouette %.3f, largest over k = 2..%d).", sc.bestK, sc.bestS, hi)
	return sc.bestLabels
}

// scanK clusters for every k in 2..hi (and lists every k of the gap
// statistic), keeping the silhouettes and the best labellings.
func scanK(work Matrix, sample []int, run func(int) []int, gap GapResult, hi int, autoK string) kScan {
	sc := kScan{bestS: math.Inf(-1)}
	for kk := 1; kk <= max(hi, len(gap.Gap)); kk++ {
		s := math.NaN()
		var l []int
		if kk >= 2 && kk <= hi {
			l = run(kk)
			s, _ = silhouetteOf(work, l, sample)
			if s > sc.bestS && s > 0 {
				sc.bestK, sc.bestS, sc.bestLabels = kk, s, l
			}
		}
		g, sk, a, b := math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if kk <= len(gap.Gap) {
			g, sk, a, b = gap.Gap[kk-1], gap.S[kk-1], gap.LogW[kk-1], gap.RefLogW[kk-1]
		} else if kk == 1 {
			continue
		}
		sc.ks, sc.sils, sc.gaps = append(sc.ks, float64(kk)), append(sc.sils, s), append(sc.gaps, g)
		sc.ss, sc.lw, sc.rlw = append(sc.ss, sk), append(sc.lw, a), append(sc.rlw, b)
		if autoK == AutoGap && kk == gap.K {
			sc.gapLabels = l
		}
	}
	return sc
}

// kTable builds the "k" table of an automatic choice of k.
func kTable(sc kScan, withGap bool) analysis.Table {
	kt := analysis.Table{Name: "k", Title: "Automatic k: mean silhouette of the k-clustering"}
	kt.AddNum("k", "", sc.ks)
	kt.AddNum("silhouette", "", sc.sils)
	if withGap { // the gap columns exist only when the gap statistic ran
		kt.Title += "; gap statistic Gap(k) = E*[log W_k] − log W_k with s_k = sd_k·sqrt(1+1/B), reference sets uniform over the bounding box of the clustered vectors"
		kt.AddNum("gap", "", sc.gaps)
		kt.AddNum("s_k", "", sc.ss)
		kt.AddNum("log_w", "", sc.lw)
		kt.AddNum("ref_log_w", "", sc.rlw)
	}
	return kt
}

// addTables fills the result tables of a labelling.
func addTables(res *analysis.Result, fs *FeatureSet, norm, work Matrix, labels []int, sil []float64, meanSil float64) {
	n := len(labels)
	ids := clusterIDs(labels)
	count := map[int]int{}
	for _, l := range labels {
		count[l]++
	}
	k, noise := 0, count[Noise]
	for _, c := range ids {
		if c >= 0 {
			k++
		}
	}
	unit := fs.Metric
	if (drg.Metric{Name: fs.Metric}).IsTime() {
		unit = "us"
	}
	res.AddTable(sizesTable(ids, labels, sil))
	for _, agg := range []string{"averages", "minima", "maxima"} {
		res.AddTable(aggregateTable(agg, unit, ids, count, fs, norm, labels))
	}
	res.AddTable(membershipTable(fs, labels, sil))
	res.AddTable(pcaTable(fs, work, labels))
	eta := EtaSquared(norm, labels)
	order := etaOrder(eta)
	res.AddTable(separatingTable(fs.Regions, eta, order))
	res.AddTable(qualityTable(k, meanSil, WithinSS(work, labels), noise))

	if k == 1 {
		res.Findf("1 cluster of %d threads.", n)
	} else {
		res.Findf("%d clusters of %d threads; mean silhouette %.3f.", k, n, meanSil)
	}
	if noise > 0 {
		res.Findf("%d threads are noise (in no cluster).", noise)
	}
	if k > 1 && len(order) > 0 && !math.IsNaN(eta[order[0]]) {
		res.Findf("The region separating the clusters most is %s (η² = %.3f).", fs.Regions[order[0]], eta[order[0]])
	}
}

// clusterIDs returns the distinct labels, ascending.
func clusterIDs(labels []int) []int {
	ids := []int{}
	seen := map[int]bool{}
	for _, l := range labels {
		if !seen[l] {
			seen[l] = true
			ids = append(ids, l)
		}
	}
	sort.Ints(ids)
	return ids
}

// sizesTable builds the "sizes" table: threads per cluster and their mean
// silhouette (NaN silhouettes left out; NaN when none is left).
func sizesTable(ids, labels []int, sil []float64) analysis.Table {
	count := map[int]int{}
	silSum, silN := map[int]float64{}, map[int]int{}
	for i, l := range labels {
		count[l]++
		if !math.IsNaN(sil[i]) {
			silSum[l] += sil[i]
			silN[l]++
		}
	}
	st := analysis.Table{Name: "sizes", Title: "Threads per cluster (−1: DBSCAN noise) and their mean silhouette"}
	var cl, sz, cs []float64
	for _, c := range ids {
		cl = append(cl, float64(c))
		sz = append(sz, float64(count[c]))
		if silN[c] > 0 {
			cs = append(cs, silSum[c]/float64(silN[c]))
		} else {
			cs = append(cs, math.NaN())
		}
	}
	st.AddNum("cluster", "", cl)
	st.AddNum("size", "threads", sz)
	st.AddNum("silhouette", "", cs)
	return st
}

// aggregateTable builds the "averages", "minima" or "maxima" table (agg):
// per cluster and region, the aggregate over the cluster's threads of the
// raw and of the normalized value.
func aggregateTable(agg, unit string, ids []int, count map[int]int, fs *FeatureSet, norm Matrix, labels []int) analysis.Table {
	t := analysis.Table{Name: agg, Title: "Per cluster and region: " + agg + " over the cluster's threads of the raw value and of the normalized value"}
	var c, v, nv []float64
	var rg []string
	for _, id := range ids {
		for r, name := range fs.Regions {
			a, b := aggregate(agg, id, r, fs.Data, norm, labels)
			if agg == "averages" {
				a, b = a/float64(count[id]), b/float64(count[id])
			}
			c, rg, v, nv = append(c, float64(id)), append(rg, name), append(v, a), append(nv, b)
		}
	}
	t.AddNum("cluster", "", c)
	t.AddText("region", rg)
	t.AddNum("value", unit, v)
	t.AddNum("normalized", "", nv)
	return t
}

// aggregate returns the sum ("averages"), minimum ("minima") or maximum
// ("maxima") of column r of raw and of norm over the rows labelled id.
func aggregate(agg string, id, r int, raw, norm Matrix, labels []int) (float64, float64) {
	a, b := math.Inf(1), math.Inf(1)
	if agg == "maxima" {
		a, b = math.Inf(-1), math.Inf(-1)
	} else if agg == "averages" {
		a, b = 0, 0
	}
	for i, l := range labels {
		if l != id {
			continue
		}
		x, y := raw.X[i*raw.D+r], norm.X[i*norm.D+r]
		switch agg {
		case "averages":
			a, b = a+x, b+y
		case "minima":
			a, b = math.Min(a, x), math.Min(b, y)
		default:
			a, b = math.Max(a, x), math.Max(b, y)
		}
	}
	return a, b
}

// pointColumns adds the columns naming every thread and its cluster:
// trial, node, context, thread, cluster.
func pointColumns(t *analysis.Table, fs *FeatureSet, labels []int) {
	n := len(labels)
	tr := make([]string, n)
	nd, cx, th, lab := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, pnt := range fs.Points {
		tr[i], nd[i], cx[i], th[i], lab[i] = pnt.Trial, float64(pnt.Node), float64(pnt.Context), float64(pnt.Thread), float64(labels[i])
	}
	t.AddText("trial", tr)
	t.AddNum("node", "", nd)
	t.AddNum("context", "", cx)
	t.AddNum("thread", "", th)
	t.AddNum("cluster", "", lab)
}

// membershipTable builds the "membership" table: every thread's cluster
// and silhouette.
func membershipTable(fs *FeatureSet, labels []int, sil []float64) analysis.Table {
	mt := analysis.Table{Name: "membership", Title: "Cluster and silhouette of every thread"}
	pointColumns(&mt, fs, labels)
	mt.AddNum("silhouette", "", sil)
	return mt
}

// pcaTable builds the "pca" table: every thread's scores on the first two
// principal components of the clustered vectors (pc2 0 with one
// dimension).
func pcaTable(fs *FeatureSet, work Matrix, labels []int) analysis.Table {
	n := len(labels)
	pt := analysis.Table{Name: "pca", Title: "Scores of every thread on the first two principal components of the clustered vectors"}
	pc, _ := PrincipalComponents(work, 2, 0)
	pc1, pc2 := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		pc1[i] = pc.Scores.X[i*pc.Scores.D]
		if pc.Scores.D > 1 {
			pc2[i] = pc.Scores.X[i*pc.Scores.D+1]
		}
	}
	pointColumns(&pt, fs, labels)
	pt.AddNum("pc1", "", pc1)
	pt.AddNum("pc2", "", pc2)
	return pt
}

// etaOrder returns the column indices by η², largest first, NaN last.
func etaOrder(eta []float64) []int {
	order := make([]int, len(eta))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ea, eb := eta[order[a]], eta[order[b]]
		if math.IsNaN(eb) {
			return !math.IsNaN(ea)
		}
		return ea > eb
	})
	return order
}

// separatingTable builds the "separating" table: the regions in the given
// order with their η² and rank.
func separatingTable(regions []string, eta []float64, order []int) analysis.Table {
	sp := analysis.Table{Name: "separating", Title: "Regions that separate the clusters most: η² = SS_between / SS_total of the normalized value"}
	var rn []string
	var ev, rk []float64
	for i, r := range order {
		rn, ev, rk = append(rn, regions[r]), append(ev, eta[r]), append(rk, float64(i+1))
	}
	sp.AddText("region", rn)
	sp.AddNum("eta_squared", "", ev)
	sp.AddNum("rank", "", rk)
	return sp
}

// qualityTable builds the one-row "quality" table.
func qualityTable(k int, meanSil, withinSS float64, noise int) analysis.Table {
	q := analysis.Table{Name: "quality", Title: "Number of clusters, mean silhouette, within-cluster sum of squares W_k of the clustered vectors, noise threads"}
	q.AddNum("k", "", []float64{float64(k)})
	q.AddNum("mean_silhouette", "", []float64{meanSil})
	q.AddNum("within_ss", "", []float64{withinSS})
	q.AddNum("noise", "threads", []float64{float64(noise)})
	return q
}

// EtaSquared returns, for every column of m, η² = SS_between / SS_total
// over the rows not labelled −1: SS_between = Σ_c n_c (μ_c − μ)², SS_total
// = Σ_t (x_t − μ)², μ_c the cluster mean and μ the overall mean; NaN when
// SS_total = 0.
func EtaSquared(m Matrix, labels []int) []float64 {
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	out := make([]float64, m.D)
	sum := make([]float64, k)
	cnt := make([]int, k)
	for j := 0; j < m.D; j++ {
		clear(sum)
		clear(cnt)
		tot, nn := 0.0, 0
		for i, l := range labels {
			if l < 0 {
				continue
			}
			v := m.X[i*m.D+j]
			sum[l] += v
			cnt[l]++
			tot += v
			nn++
		}
		if nn == 0 {
			out[j] = math.NaN()
			continue
		}
		mu := tot / float64(nn)
		sst := 0.0
		for i, l := range labels {
			if l >= 0 {
				d := m.X[i*m.D+j] - mu
				sst += d * d
			}
		}
		ssb := 0.0
		for c := 0; c < k; c++ {
			if cnt[c] > 0 {
				d := sum[c]/float64(cnt[c]) - mu
				ssb += float64(cnt[c]) * d * d
			}
		}
		if sst <= 0 {
			out[j] = math.NaN()
		} else {
			out[j] = ssb / sst
		}
	}
	return out
}

// dendrogramTable writes the merges as a table.
func dendrogramTable(merges []Merge) analysis.Table {
	t := analysis.Table{Name: "dendrogram", Title: "Average-linkage merges in SciPy's convention: threads are 0..n−1 (membership order), merge i creates cluster n+i"}
	st, a, b, h, s := make([]float64, len(merges)), make([]float64, len(merges)), make([]float64, len(merges)), make([]float64, len(merges)), make([]float64, len(merges))
	for i, m := range merges {
		st[i], a[i], b[i], h[i], s[i] = float64(i), float64(m.A), float64(m.B), m.Height, float64(m.Size)
	}
	t.AddNum("step", "", st)
	t.AddNum("a", "", a)
	t.AddNum("b", "", b)
	t.AddNum("height", "", h)
	t.AddNum("size", "threads", s)
	return t
}

// cmp0 returns v, or def when v is 0.
func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// ftoa formats a parameter value.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// cmpS returns s, or def when s is empty.
func cmpS(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
