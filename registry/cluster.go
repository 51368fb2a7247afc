package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/report/images"
	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// Cluster groups the threads of one trial or of several trials together by
// their profiles (cluster.Cluster): one vector per thread, one dimension
// per region, normalized (z-score = (x − mean)/σ by default) and reduced,
// clustered by k-means, hierarchical or DBSCAN, k chosen by the
// silhouette s = (b − a)/max(a, b) or the gap statistic. Its pictures are
// stored with the result.
type Cluster struct {
	cluster.Options
}

func init() {
	Register(&Analysis{Name: "cluster", Trials: Series, MinTrials: 1, AlsoSingle: true, New: func() Options { return new(Cluster) },
		Use:    "cluster --trial T | --trials ... | --where EXPR [-k K | --max-k N] [--method kmeans|hierarchical|dbscan]",
		Short:  "Cluster threads by their performance behaviour, within a trial or across trials",
		Long:   clusterHelp,
		Images: ClusterImages,
		Example: `  taudb-analyze cluster --trial matmult -k 3
  taudb-analyze cluster --trials mm-4,mm-8 --normalize percent --auto gap`,
	})
}

// OnlyMetric is the metric whose values alone Run reads (OneMetric).
func (o *Cluster) OnlyMetric() string { return o.Metric }

// ReadsNoCalls says that Run reads no call counts (CallsUnread).
func (o *Cluster) ReadsNoCalls() {}

// Bind declares the options.
func (o *Cluster) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Bool(&o.Inclusive, "inclusive", false, "use inclusive values")
	b.Bool(&o.Callpath, "callpath", false, "add the call-graph nodes as dimensions")
	b.Enum(&o.Method, "method", "kmeans", []string{"kmeans", "hierarchical", "dbscan"}, "kmeans, hierarchical or dbscan")
	b.IntP(&o.K, "k", "k", 0, "number of clusters (default: chosen automatically)")
	b.Int(&o.MaxK, "max-k", 10, "largest k tried automatically")
	b.Enum(&o.AutoK, "auto", "silhouette", []string{"silhouette", "gap"}, "how k is chosen: silhouette or gap")
	b.Enum(&o.Normalization, "normalize", cluster.DefaultNormalization, []string{"zscore", "none", "percent", "range"}, "zscore (default: every region's variation counts alike), none (raw values), percent or range")
	b.Enum(&o.Reduction, "reduce", cluster.DefaultReduction, []string{"over", "none", "pca"}, "over (default: regions holding --x percent or more), none or pca")
	b.Strings(&o.Regions, "regions", nil, "cluster on these regions only: globs on the full or short name, comma-separated (MPI_*,*solve*)")
	b.Strings(&o.Exclude, "exclude", nil, "leave these regions out: globs as for --regions (MPI_Init*)")
	b.Float(&o.X, "x", 1.0, "the X of --reduce over")
	b.Int(&o.PCAComponents, "pca", 0, "principal components kept by --reduce pca (0: 90% of the variance)")
	b.Uint64(&o.Seed, "seed", 1, "random seed (results reproduce for the same seed)")
	b.Int(&o.Restarts, "restarts", 0, "k-means runs (0: adaptive, at least 10, until 10 in a row improve nothing, at most 200)")
	b.Float(&o.Eps, "eps", 0, "DBSCAN radius (0: the knee of the k-distance graph)")
	b.Int(&o.MinPts, "min-pts", 4, "DBSCAN minPts")
}

// Validate accepts every combination; cluster.Cluster checks the choices.
func (o *Cluster) Validate() error { return nil }

// Run computes cluster.Cluster of the trials' threads.
func (o *Cluster) Run(ctx context.Context, in Input) (Output, error) {
	res, err := cluster.Cluster(in.Trials, o.Options)
	return Output{Result: res}, err
}

// ClusterImages draws the pictures PerfExplorer's viewer shows of a
// clustering result, as rows to store with it.
func ClusterImages(res *result.Result) ([]store.ResultImage, error) {
	imgs, err := images.Cluster(res)
	if err != nil {
		return nil, err
	}
	rows := make([]store.ResultImage, 0, len(imgs))
	for _, im := range imgs {
		rows = append(rows, store.ResultImage{ResultType: im.ResultType, Description: im.Description, PNG: im.PNG, Thumbnail: im.Thumbnail})
	}
	return rows, nil
}

const clusterHelp = `cluster groups the threads of one trial (--trial) or of several trials
together (--trials, --where) by their profiles: one vector per thread, one
dimension per region of the flat view (--callpath: call-graph nodes too),
exclusive values (--inclusive: inclusive) of the metric; across trials
regions are aligned by name and every thread keeps its trial's name; a
region a thread did not run counts as 0.

  --normalize   zscore (the default), none, percent (PerfExplorer's
                "Percentage of Total"), range ("Range of Total": each region
                scaled to [0,1])
  --reduce      over (the default: keep regions holding --x percent of the
                total or more, PerfExplorer's "Over X Percent"), none, pca
                (--pca N components, or enough for 90% of the variance)
  --regions     cluster on the regions matching these globs only; --exclude
                leaves out those matching its globs (MPI_Init*, *solve*)
  --method      kmeans (k-means++ seeding, Lloyd then Hartigan's moves,
                --restarts runs or adaptive, --seed), hierarchical (average
                linkage), dbscan (--eps, --min-pts)

Why z-score over the regions holding 1% or more: on raw values the regions
of largest absolute spread decide alone, and across ranks that is often
launch skew in MPI_Init or a wait rather than the work each rank does; the
z-score gives every region's variation the same say, so a split that shows
in many regions (PP against PME ranks, a master against its workers) wins,
and leaving out the regions below 1% keeps their noise from counting as
much as the main computation. --normalize none --reduce none clusters the
raw values.
  -k K          the number of clusters; without it k is chosen over
                2..--max-k by the silhouette (--auto silhouette) or the gap
                statistic (--auto gap), and the score of every k is listed

It reports cluster sizes, per-cluster average, minimum and maximum of each
region, every thread's cluster and silhouette, PCA coordinates for a scatter
plot and the regions that separate the clusters most (η²). The method,
reduction and normalization are stored with PerfExplorer's strings, and the
pictures PerfExplorer's viewer shows (dendrogram, histogram of sizes,
cluster averages, maxima, minima, PCA scatter: result_type 0, 1, 3, 4, 5, 6)
as PNG image and thumbnail rows of analysis_result.`
