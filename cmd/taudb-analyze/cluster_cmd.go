package main

import (
	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/report/images"
	"github.com/taudb-analyze/taudb-analyze/store"
)

func (a *app) clusterCmd() *cobra.Command {
	var f seriesFlags
	var trial string
	var query queryFlag
	var opt cluster.Options
	cmd := &cobra.Command{
		Use:   "cluster --trial T | --trials ... | --where EXPR [-k K | --max-k N] [--method kmeans|hierarchical|dbscan]",
		Short: "Cluster threads by their performance behaviour, within a trial or across trials",
		Long: `cluster groups the threads of one trial (--trial) or of several trials
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
as PNG image and thumbnail rows of analysis_result.

` + whereHelp,
		Example: `  taudb-analyze cluster --trial matmult -k 3
  taudb-analyze cluster --trials mm-4,mm-8 --normalize percent --auto gap`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if trial != "" && (f.sel.trials != "" || f.sel.where != "" || f.sel.view != "") {
				return usagef("give --trial or a selection (--trials, --where, --view), not both")
			}
			if trial != "" {
				f.sel.trials = trial
			}
			if err := query.parse(); err != nil {
				return err
			}
			if query.q != nil && trial == "" {
				return usagef("--query needs --trial: it restricts the call graph of one trial")
			}
			opt.Metric = f.metric
			return a.runTrialsThen(cmd, &f, 1, func(ts []*drg.Trial) (*analysis.Result, error) {
				q, err := query.restrictTrial(ts[0])
				if err != nil {
					return nil, err
				}
				res, err := cluster.Cluster(append([]*drg.Trial{q.trial}, ts[1:]...), opt)
				query.annotate(res, q)
				return res, err
			}, storeWith{images: clusterImages})
		},
	}
	f.sel.register(cmd)
	cmd.Flags().StringVar(&trial, "trial", "", "one trial (id or name; id:N or name:X to be explicit)")
	query.register(cmd)
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().BoolVar(&f.noSave, "no-save", false, "do not store the result in the database")
	cmd.Flags().StringVar(&f.table, "table", "", "with --format csv: the result table to print (default: the first)")
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "use inclusive values")
	cmd.Flags().BoolVar(&opt.Callpath, "callpath", false, "add the call-graph nodes as dimensions")
	cmd.Flags().StringVar(&opt.Method, "method", "kmeans", "kmeans, hierarchical or dbscan")
	cmd.Flags().IntVarP(&opt.K, "k", "k", 0, "number of clusters (default: chosen automatically)")
	cmd.Flags().IntVar(&opt.MaxK, "max-k", 10, "largest k tried automatically")
	cmd.Flags().StringVar(&opt.AutoK, "auto", "silhouette", "how k is chosen: silhouette or gap")
	cmd.Flags().StringVar(&opt.Normalization, "normalize", cluster.DefaultNormalization, "zscore (default: every region's variation counts alike), none (raw values), percent or range")
	cmd.Flags().StringVar(&opt.Reduction, "reduce", cluster.DefaultReduction, "over (default: regions holding --x percent or more), none or pca")
	cmd.Flags().StringSliceVar(&opt.Regions, "regions", nil, "cluster on these regions only: globs on the full or short name, comma-separated (MPI_*,*solve*)")
	cmd.Flags().StringSliceVar(&opt.Exclude, "exclude", nil, "leave these regions out: globs as for --regions (MPI_Init*)")
	cmd.Flags().Float64Var(&opt.X, "x", 1.0, "the X of --reduce over")
	cmd.Flags().IntVar(&opt.PCAComponents, "pca", 0, "principal components kept by --reduce pca (0: 90% of the variance)")
	cmd.Flags().Uint64Var(&opt.Seed, "seed", 1, "random seed (results reproduce for the same seed)")
	cmd.Flags().IntVar(&opt.Restarts, "restarts", 0, "k-means runs (0: adaptive, at least 10, until 10 in a row improve nothing, at most 200)")
	cmd.Flags().Float64Var(&opt.Eps, "eps", 0, "DBSCAN radius (0: the knee of the k-distance graph)")
	cmd.Flags().IntVar(&opt.MinPts, "min-pts", 4, "DBSCAN minPts")
	return cmd
}

// clusterImages draws the pictures PerfExplorer's viewer shows of a
// clustering result, as rows to store with it.
func clusterImages(res *analysis.Result) ([]store.ResultImage, error) {
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
