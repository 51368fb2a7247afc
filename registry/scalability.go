package registry

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/extrap"
)

// Scalability studies every region across a series (analysis.Scalability):
// efficiency, the Karp-Flatt serial fraction
//
//	e = (1/S − 1/p')/(1 − 1/p'),   p' = p/p_b
//
// an Amdahl fit T(p) = T_1(f + (1−f)/p), and a model c0 + c1·p^i·log2(p)^j
// (or its p·T form, or two terms) fitted on relative errors and chosen by
// leave-one-out error (analysis.FitModel), evaluated at Predict.
type Scalability struct {
	SeriesOptions
	// Baseline names the baseline trial; "" the smallest p.
	Baseline string
	// Weak selects weak scaling.
	Weak bool
	// Inclusive models inclusive values (default exclusive).
	Inclusive bool
	// Threshold is the efficiency below which a region stopped scaling.
	Threshold float64
	// Predict is the p the models are evaluated at; 0 twice the largest p.
	Predict float64
	// Input is an Extra-P text or JSON measurement file to model instead
	// of trials (package extrap); the result is printed, not stored.
	Input string
	// Repetitions reduces the repetitions of a point (in Input, or trials
	// at equal parameter values with Params): "median" or "mean".
	Repetitions string
	// Suggest is how many next measurements to suggest (0: none): values
	// of p, or with Params grid points chosen together.
	Suggest int
	// Params are the parameters of a multi-parameter model ("p",
	// "threads", "nodes", "hosts", "meta:KEY"); none (or only p) is the
	// single-parameter study.
	Params []string
	// ExportExtrap is a file the series' values are written to in
	// Extra-P's text format (the program and every region present at each p).
	ExportExtrap string
}

func init() {
	Register(&Analysis{Name: "scalability", Trials: Series, New: func() Options { return new(Scalability) },
		Use:   "scalability --trials ... | --where EXPR [--predict P]",
		Short: "Per-region efficiency, Karp-Flatt, Amdahl fit and a fitted scaling model",
		Long: `scalability studies every region across the series: efficiency, the
Karp-Flatt serial fraction e = (1/S − 1/p')/(1 − 1/p') with p' = p/p_b, an
Amdahl fit T(p) = T_1(f + (1−f)/p), and a performance model in the spirit of
Extra-P, c0 + c1*p^i*log2(p)^j, (c0 + c1*p^i*log2(p)^j)/p, or two terms from
5 points on, with i in {-3, ..., -1/4, 0, 1/4, ..., 3} and j in {-2, ..., 2},
fitted on relative errors and chosen by leave-one-out error (docs/models.md),
never negative, with its fit error and a prediction at --predict P (default
twice the largest p). It ranks
the regions that stop scaling first (efficiency below --threshold) and those
whose share of the time grows fastest.`,
		Example: `  taudb-analyze scalability --trials mm-1,mm-2,mm-4,mm-8 --predict 64`,
	})
}

// Bind declares the options.
func (o *Scalability) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.Baseline, "baseline", "", "the baseline trial (default: the smallest p)")
	b.Bool(&o.Weak, "weak", false, "weak scaling")
	b.Bool(&o.Inclusive, "inclusive", false, "model inclusive values (default exclusive)")
	b.Float(&o.Threshold, "threshold", 0.5, "efficiency below which a region has stopped scaling")
	b.Float(&o.Predict, "predict", 0, "predict the time at this p (default: twice the largest p)")
	b.String(&o.Input, "input", "", "model an Extra-P text or JSON measurement file instead of trials (printed, not stored)")
	b.Enum(&o.Repetitions, "repetitions", "median", []string{"median", "mean"}, "with --input or --param: fit the median or the mean of a point's repetitions")
	b.Int(&o.Suggest, "suggest", 0, "suggest the N values of p (with --param: the N grid points, together) whose measurement would most narrow the prediction at --predict, with each run's cost")
	b.Strings(&o.Params, "param", nil, "model over several parameters: repeat (--param p --param meta:SIZE); trials at equal values are repetitions")
	b.String(&o.ExportExtrap, "export-extrap", "", "also write the series' values to this file in Extra-P's text format")
}

// Validate rejects --export-extrap with --input (the file is already
// Extra-P's).
func (o *Scalability) Validate() error {
	if len(o.Params) == 1 && o.Params[0] != "p" {
		return &UsageError{Option: "param", Msg: "one --param: use --p-from " + o.Params[0] + " for a single parameter, or give two or more"}
	}
	if len(o.Params) > 1 && (o.Input != "" || o.ExportExtrap != "") {
		return &UsageError{Option: "param", Msg: "--param selects trial values; with --input the file's parameters are used, and --export-extrap writes one parameter (p)"}
	}
	if o.Suggest < 0 || o.Suggest > 100 {
		return &UsageError{Option: "suggest", Msg: fmt.Sprintf("--suggest %d: want 0 to 100", o.Suggest)}
	}
	if o.Suggest > 0 && o.Input != "" {
		return &UsageError{Option: "suggest", Msg: "--suggest works on a series of trials, not on --input"}
	}
	if o.Input != "" && o.ExportExtrap != "" {
		return &UsageError{Option: "export-extrap", Msg: "--export-extrap exports trials; --input is already an Extra-P file"}
	}
	return nil
}

// FileInput returns the measurement file to model instead of trials.
func (o *Scalability) FileInput() string { return o.Input }

// Run computes analysis.Scalability of the series, or with Input the
// models of the file's series (analysis.ModelDataset).
func (o *Scalability) Run(ctx context.Context, in Input) (Output, error) {
	if o.Input != "" {
		d, err := extrap.Read(o.Input)
		if err != nil {
			return Output{}, err
		}
		res, err := analysis.ModelDataset(d, analysis.DatasetOptions{Source: o.Input, Mean: o.Repetitions == "mean", Predict: o.Predict})
		return Output{Result: res}, err
	}
	s, err := analysis.NewSeries(in.Trials, o.PFrom, "")
	if err != nil {
		return Output{}, err
	}
	opt := analysis.ScalabilityOptions{SeriesOptions: o.options(), Baseline: o.Baseline, Weak: o.Weak,
		Inclusive: o.Inclusive, Threshold: o.Threshold, Predict: o.Predict, Suggest: o.Suggest}
	if len(o.Params) > 1 {
		res, err := analysis.ScalabilityMulti(in.Trials, o.Params, opt, map[bool]analysis.MultiReduce{true: analysis.ReduceMean}[o.Repetitions == "mean"])
		return Output{Result: res}, err
	}
	res, err := analysis.Scalability(s, opt)
	if err != nil || o.ExportExtrap == "" {
		return Output{Result: res}, err
	}
	return Output{Result: res}, exportExtrap(o.ExportExtrap, s, opt, res)
}

// exportExtrap writes the series to path in Extra-P's text format,
// through a temporary file renamed into place (nothing half-written), and
// says so in a finding.
func exportExtrap(path string, s analysis.Series, opt analysis.ScalabilityOptions, res *analysis.Result) error {
	d, dropped, err := analysis.ScalabilityExport(s, opt)
	if err != nil {
		return err
	}
	if err := writeAtomic(path, func(w io.Writer) error { return extrap.WriteText(w, d) }); err != nil {
		return fmt.Errorf("--export-extrap %s: %w", path, err)
	}
	res.Findf("Exported %d series to %s in Extra-P's text format (%d region(s) without a value at every p left out).", len(d.Kernels), path, dropped)
	return nil
}

// writeAtomic writes path through a temporary file in its folder, renamed
// into place only when write succeeded.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
