package serve

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// AnalysisSpec describes one analysis the form can run.
type AnalysisSpec struct {
	// Name is the analysis' command name (imbalance, compare, ...).
	Name string
	// Help is a line saying what it answers.
	Help string
	// MinTrials and MaxTrials bound how many trials it takes (MaxTrials 0:
	// no bound).
	MinTrials, MaxTrials int
	// Options are its options, in the form's order.
	Options []OptionSpec
}

// OptionSpec is one option of an analysis, as its form shows it.
type OptionSpec struct {
	// Name is the option's flag name without dashes.
	Name string
	// Type is "bool", "int", "float" or "string".
	Type string
	// Default is the default value as text; Help says what it does.
	Default, Help string
	// Choices, when set, are the only values allowed.
	Choices []string
}

// AnalysisRunner runs analyses for the form: the command line gives the
// server one built on the analysis registry.
type AnalysisRunner interface {
	// Analyses lists the analyses the form offers.
	Analyses() []AnalysisSpec
	// Run runs analysis name on the trials with the option values given
	// (by option name, as text; absent options take their defaults),
	// stores the result and returns its id. An error a user can fix is a
	// *InputError.
	Run(ctx context.Context, name string, trials []int64, options map[string]string) (int64, error)
}

// InputError is an AnalysisRunner's error about what the form asked for
// (a bad option value, a trial the analysis cannot take); its message is
// shown to the user.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// analysesOn returns the runner's analyses when the server may run them.
func (s *Server) analysesOn() ([]AnalysisSpec, bool) {
	if !s.opt.AllowAnalyses || s.opt.Runner == nil {
		return nil, false
	}
	specs := s.opt.Runner.Analyses()
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs, true
}

// analysesPage lists the analyses the server can run.
func (s *Server) analysesPage(w http.ResponseWriter, r *http.Request) {
	specs, ok := s.analysesOn()
	if !ok {
		s.fail(w, r, &notFound{"the analysis form (start the server with --allow-analyses)"})
		return
	}
	s.render(w, "analyses.html", layoutData{Title: "Run an analysis", Nav: "analyses", Page: specs})
}

// formData is one analysis' form.
type formData struct {
	Spec   AnalysisSpec
	Trials []store.TrialInfo
	// Values are the submitted values when the form comes back with an
	// error.
	Values map[string]string
	Chosen map[int64]bool
}

// findSpec returns the analysis of the request's {name}.
func (s *Server) findSpec(r *http.Request) (AnalysisSpec, error) {
	specs, ok := s.analysesOn()
	if !ok {
		return AnalysisSpec{}, &notFound{"the analysis form (start the server with --allow-analyses)"}
	}
	for _, sp := range specs {
		if sp.Name == r.PathValue("name") {
			return sp, nil
		}
	}
	return AnalysisSpec{}, &notFound{"analysis " + strconv.Quote(r.PathValue("name"))}
}

// analysisForm shows the form of one analysis: its trials and options.
func (s *Server) analysisForm(w http.ResponseWriter, r *http.Request) {
	sp, err := s.findSpec(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.showForm(w, r, sp, map[string]string{}, nil, "")
}

func (s *Server) showForm(w http.ResponseWriter, r *http.Request, sp AnalysisSpec, vals map[string]string, chosen []int64, msg string) {
	trials, err := s.db.Trials(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := formData{Spec: sp, Trials: trials, Values: vals, Chosen: map[int64]bool{}}
	for _, id := range chosen {
		d.Chosen[id] = true
	}
	if msg != "" {
		w.WriteHeader(http.StatusBadRequest)
	}
	s.render(w, "analysis.html", layoutData{Title: "Run " + sp.Name, Nav: "analyses", Error: msg, Page: d})
}

// runAnalysis runs the submitted form and shows the stored result's page.
func (s *Server) runAnalysis(w http.ResponseWriter, r *http.Request) {
	sp, err := s.findSpec(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, &inputError{"the form could not be read"})
		return
	}
	vals := map[string]string{}
	for _, o := range sp.Options {
		if v := strings.TrimSpace(r.PostForm.Get(o.Name)); v != "" {
			vals[o.Name] = v
		}
	}
	var ids []int64
	for _, v := range r.PostForm["trials"] {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			s.showForm(w, r, sp, vals, nil, "trials: "+strconv.Quote(v)+" is not a trial id")
			return
		}
		ids = append(ids, id)
	}
	if msg := trialCountError(sp, len(ids)); msg != "" {
		s.showForm(w, r, sp, vals, ids, msg)
		return
	}
	id, err := s.opt.Runner.Run(r.Context(), sp.Name, ids, vals)
	var ie *InputError
	switch {
	case err != nil && asInput(err, &ie):
		s.showForm(w, r, sp, vals, ids, ie.Msg)
	case err != nil:
		s.fail(w, r, err)
	default:
		http.Redirect(w, r, fmt.Sprintf("/results/%d", id), http.StatusSeeOther)
	}
}

// trialCountError says what is wrong with n trials for sp ("" if nothing).
func trialCountError(sp AnalysisSpec, n int) string {
	switch {
	case n < sp.MinTrials:
		return fmt.Sprintf("%s needs at least %d trial(s); %d chosen", sp.Name, sp.MinTrials, n)
	case sp.MaxTrials > 0 && n > sp.MaxTrials:
		return fmt.Sprintf("%s takes at most %d trial(s); %d chosen", sp.Name, sp.MaxTrials, n)
	}
	return ""
}
