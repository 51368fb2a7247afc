// Package registry is the one list of taudb-analyze's analyses: every
// front end (the command line, study files, reports, Go programs) finds an
// analysis here by name, makes its typed options with their defaults, sets
// and validates them, and runs it on trials it has read, the same way.
//
// Each analysis is one file: a typed options struct (its doc comment gives
// the formulas), Bind (every option with its default and help), Validate,
// Run(ctx, Input) (Output, error), and an init function that registers its
// name, the trials it takes and its help. The analyses:
//
//	analysis     trials      options type
//	imbalance    one         Imbalance     load imbalance per region
//	regions      one         Regions       top regions, inclusive/exclusive
//	ratio        one         Ratio         derived metric from an expression
//	summary      one         Summary       time per node/process/thread by class
//	correlate    one         Correlate     Pearson r between regions, metadata
//	compare      two         Compare       trial B against trial A per region
//	speedup      a series    Speedup       speedup, efficiency (or two versions)
//	scalability  a series    Scalability   Karp-Flatt, Amdahl, fitted model
//	multiregion  a series    MultiRegion   chosen regions across experiments
//	multiset     a series    MultiSet      sets of experiments by a property
//	overhead     a series    Overhead      SCALEA's overhead breakdown
//	cluster      a series    Cluster       threads clustered by behaviour
//	regress      a series    Regress       regressions in a history of runs
//
// A Go program runs one so:
//
//	a, _ := registry.Lookup("imbalance")
//	o := a.Defaults()
//	_ = a.Set(o, "inclusive", "true") // or o.(*registry.Imbalance).Inclusive = true
//	out, err := a.Run(ctx, o, registry.Input{Trials: []*drg.Trial{t}})
//
// Analysis.Options describes the options (name, type, default, help,
// allowed values) for a form; Analysis.FlagSet binds them to a command
// line. Adding an analysis is adding its file.
//
// ReadTrials reads the trials of a run from a store. An analysis whose
// Run reads one metric's values (imbalance, regions, summary, cluster)
// says so by OneMetric, and one that reads no call counts either
// (imbalance, summary, cluster) by CallsUnread; ReadingOf(options) is then
// the Reading that reads only those values (store.DB.LoadTrialMetric),
// with the same result in less time and memory.
package registry
