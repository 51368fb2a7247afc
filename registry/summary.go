package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Summary is the execution summary (one trial): the time of each node
// (machine), process or thread split into computation, MPI, OpenMP, I/O
// and other (exclusive values of the flat view summed per class), with
// min, mean and max across the level's members (analysis.Summary).
type Summary struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// By is the level: node, process or thread.
	By string
	// Node restricts the summary to one machine.
	Node string
	// Rules is a YAML rules file changing the region classes.
	Rules string
}

func init() {
	Register(&Analysis{Name: "summary", Trials: Single, Sparse: true, New: func() Options { return new(Summary) },
		Use:   "summary [--trial T] [--by node|process|thread] [--node NAME] [--rules FILE]",
		Short: "Execution summary: time per node, process or thread broken into MPI, OpenMP, I/O, computation",
		Long: `summary breaks the time of each computational node (--by node: machine, from
the threads' host metadata), process (TAU node rank) or thread into groups:
computation, MPI, OpenMP, I/O and other (exclusive values of the flat view
summed per group), and gives min, mean and max across the members of the
level (SCALEA's execution summary). --node NAME drills into one machine.
Regions are classified by the rules overhead and imbalance use (MPI-IO is
I/O); --rules FILE changes them (docs/rules.md).`,
		Example: `  taudb-analyze summary --trial cpi-4 --by process`,
	})
}

// OnlyMetric is the metric whose values alone Run reads (OneMetric).
func (o *Summary) OnlyMetric() string { return o.Metric }

// ReadsNoCalls says that Run reads no call counts (CallsUnread).
func (o *Summary) ReadsNoCalls() {}

// Bind declares the options.
func (o *Summary) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Enum(&o.By, "by", "node", []string{"node", "process", "thread"}, "level: node (machine), process or thread")
	b.String(&o.Node, "node", "", "restrict to one computational node (machine)")
	bindRules(b, &o.Rules)
}

// Validate reads the rules file, so that a bad one is reported before any
// trial is read.
func (o *Summary) Validate() error {
	_, err := loadRules(o.Rules)
	return err
}

// Run computes analysis.Summary of the trial.
func (o *Summary) Run(ctx context.Context, in Input) (Output, error) {
	rules, err := loadRules(o.Rules)
	if err != nil {
		return Output{}, err
	}
	res, err := analysis.Summary(in.Trials[0], analysis.SummaryOptions{Metric: o.Metric, By: o.By, Node: o.Node, Rules: rules})
	return Output{Result: res}, err
}
