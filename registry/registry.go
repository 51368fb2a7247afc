package registry

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// Trials is how many trials an analysis takes.
type Trials int

const (
	// Single analyses take one trial; a front end runs them once per
	// trial (the CLI's --trial T).
	Single Trials = iota
	// Pair analyses take two trials, A then B (compare: --trial A
	// --trial B).
	Pair
	// Series analyses take the trials of a series together, at least
	// Analysis.MinTrials of them (--trials, --where, --view).
	Series
)

// String names the arity as the documentation does: "one trial", "two
// trials", "a series".
func (t Trials) String() string {
	switch t {
	case Single:
		return "one trial"
	case Pair:
		return "two trials"
	}
	return "a series"
}

// Options are the typed options of one analysis (a struct such as
// *Imbalance) that runs it.
type Options interface {
	// Bind declares every option on b, each with its name, default (which
	// Bind stores in the struct) and help.
	Bind(b *Binder)
	// Validate checks the options alone, before any trial is read; its
	// errors are usage errors (*UsageError) where the caller's request is
	// wrong.
	Validate() error
	// Run computes the analysis of the input trials.
	Run(ctx context.Context, in Input) (Output, error)
}

// Input is what an analysis runs on: its trials (one, two or a series, as
// Analysis.Trials says) and, for speedup --compare-set, a second set.
type Input struct {
	// Trials are the trials, in the order chosen (A then B for a Pair).
	Trials []*drg.Trial
	// Compare is a second version's trials (Speedup.CompareSet); nil
	// otherwise.
	Compare []*drg.Trial
	// IDs are the database ids of Trials, when they were read from a
	// store (regress --order-by id orders by them); nil otherwise.
	IDs []int64
}

// Output is an analysis's result and what is stored with it.
type Output struct {
	// Result is the result: settings, tables, findings.
	Result *result.Result
	// Metric, when not nil, is a derived metric of the first trial to
	// store with the result (ratio --save-metric).
	Metric *store.NewMetric
}

// Analysis is one registered analysis: its name, the trials it takes, its
// help, and how to make its options.
type Analysis struct {
	// Name is the command's name ("imbalance").
	Name string
	// Trials is how many trials it takes.
	Trials Trials
	// MinTrials is the fewest trials of a Series (1 or 2).
	MinTrials int
	// AlsoSingle says a Series analysis also takes one trial by --trial
	// (cluster clusters the threads of one trial).
	AlsoSingle bool
	// Use, Short, Long and Example are the help: the synopsis, one line,
	// the formulas, and example command lines.
	Use, Short, Long, Example string
	// New returns the zero options; Defaults binds them to their defaults.
	New func() Options
	// Sparse says the analysis reads a trial's values through
	// drg.Trial.Col and so runs on a sparse trial (drg.SparseValues);
	// Run refuses a sparse trial to any other analysis, which would need
	// every (node, thread) cell.
	Sparse bool
	// Images, when not nil, draws the pictures stored with a result
	// (cluster's PNGs), in the result's transaction.
	Images func(res *result.Result) ([]store.ResultImage, error)
}

var analyses = map[string]*Analysis{}

// Register adds an analysis; each analysis's file registers itself in its
// init function. A second analysis of the same name, or one without New,
// is a programming error and panics at start-up.
func Register(a *Analysis) {
	if a.Name == "" || a.New == nil {
		panic("registry: an analysis needs a name and New")
	}
	if _, dup := analyses[a.Name]; dup {
		panic("registry: analysis " + a.Name + " registered twice")
	}
	if a.MinTrials == 0 {
		a.MinTrials = map[Trials]int{Single: 1, Pair: 2, Series: 2}[a.Trials]
	}
	analyses[a.Name] = a
}

// All returns every registered analysis, sorted by name.
func All() []*Analysis {
	out := make([]*Analysis, 0, len(analyses))
	for _, a := range analyses {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the names of every registered analysis, sorted.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}

// Lookup returns the analysis called name, or an error listing the names.
func Lookup(name string) (*Analysis, error) {
	if a, ok := analyses[name]; ok {
		return a, nil
	}
	return nil, &UsageError{Msg: fmt.Sprintf("no analysis %q (the analyses: %v)", name, Names())}
}

// Defaults returns new options of the analysis holding their defaults.
func (a *Analysis) Defaults() Options {
	o := a.New()
	a.FlagSet(o)
	return o
}

// FlagSet returns a flag set whose flags are o's options, bound to o: a
// command line front end adds it to its command, and setting a flag sets
// the option. Binding stores the defaults in o.
func (a *Analysis) FlagSet(o Options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(a.Name, pflag.ContinueOnError)
	o.Bind(&Binder{fs: fs})
	return fs
}

// Options describes the analysis's options, sorted by name: what a form
// or a study file may set.
func (a *Analysis) Options() []Option {
	var out []Option
	a.FlagSet(a.New()).VisitAll(func(f *pflag.Flag) { out = append(out, optionOf(f)) })
	return out
}

// Set sets the option called name (or its one-letter shorthand) of o to
// the value written as on a command line ("true", "10", "a,b"). An unknown
// option or a bad value is a *UsageError naming the option.
func (a *Analysis) Set(o Options, name, value string) error {
	fs := pflag.NewFlagSet(a.Name, pflag.ContinueOnError)
	o.Bind(&Binder{fs: fs, keep: true})
	f := fs.Lookup(name)
	if f == nil && len(name) == 1 {
		f = fs.ShorthandLookup(name)
	}
	if f == nil {
		var names []string
		fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		return &UsageError{Option: name, Msg: fmt.Sprintf("unknown parameter %q (%s takes: %s)", name, a.Name, strings.Join(names, ", "))}
	}
	if err := f.Value.Set(value); err != nil {
		return &UsageError{Option: f.Name, Msg: fmt.Sprintf("parameter %s: bad value %q: %v", f.Name, value, err)}
	}
	return nil
}

// Run validates o and runs the analysis on in, checking first that it has
// as many trials as the analysis takes.
func (a *Analysis) Run(ctx context.Context, o Options, in Input) (Output, error) {
	if err := a.CheckTrials(len(in.Trials)); err != nil {
		return Output{}, err
	}
	if err := o.Validate(); err != nil {
		return Output{}, err
	}
	if err := a.CheckSparse(in); err != nil {
		return Output{}, err
	}
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	return o.Run(ctx, in)
}

// CheckTrials says whether n trials suit the analysis.
func (a *Analysis) CheckTrials(n int) error {
	switch {
	case a.Trials == Single && n != 1:
		return &UsageError{Msg: fmt.Sprintf("%s takes one trial, got %d", a.Name, n)}
	case a.Trials == Pair && n != 2:
		return &UsageError{Msg: fmt.Sprintf("%s compares two trials, got %d", a.Name, n)}
	case n < a.MinTrials:
		return &UsageError{Msg: fmt.Sprintf("%s needs at least %d trials, got %d", a.Name, a.MinTrials, n)}
	}
	return nil
}

// CheckSparse refuses the input when one of its trials is stored sparsely
// (drg.Trial.IsSparse) and the analysis is not one that runs on sparse
// trials (Analysis.Sparse); the error wraps drg.ErrTooSparse.
func (a *Analysis) CheckSparse(in Input) error {
	if a.Sparse {
		return nil
	}
	for _, t := range append(append([]*drg.Trial(nil), in.Trials...), in.Compare...) {
		if t != nil {
			if err := t.MakeDense(a.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// UsageError is an error in the request (an option's value, a missing
// option, the number of trials): a command line exits 2 for it.
type UsageError struct {
	// Option is the option at fault, "" when none.
	Option string
	// Msg says what is wrong.
	Msg string
}

func (e *UsageError) Error() string { return e.Msg }

// Usage reports that the error is in the request.
func (e *UsageError) Usage() bool { return true }

// usagef returns a *UsageError.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}
