// Package study reads study files: YAML documents that describe a whole
// analysis session (the database, the trials to load or select, the
// analyses to run with their parameters, and the report to write) so that
// `taudb-analyze study FILE` can run and re-run it in one command.
//
// A study file looks like this (every key but analyses is optional):
//
//	title: matmult strong scaling           # the report's title
//	database: sqlite:matmult.db             # else --db, $TAUDB_URL, the default
//	trials:
//	  - name: mm-np1                        # load PATH as trial "mm-np1"
//	    path: runs/np1                      # unless a trial of that name exists
//	    application: matmult
//	    experiment: strong
//	    format: profile                     # else detected
//	  - name: mm-np2                        # a trial already in the database
//	  - where: application == "matmult"     # trials selected by an expression
//	  - view: nightly                       # the trials of a TAUdb view
//	analyses:
//	  - run: speedup                        # any analysis command
//	    with: {metric: TIME, aggregate: mean}   # its flags, without dashes
//	  - run: imbalance                      # single-trial analyses run once
//	    trials: [mm-np1]                    # per trial; default: every trial
//	report:
//	  out: matmult-report                   # else no report
//	  title: matmult at 1..8 processes
//
// Relative paths (trial paths, a sqlite: database, the report folder) are
// relative to the folder that holds the study file. Keys are checked: a key
// the format does not know, a value of the wrong kind, a trial path that
// does not exist or an analysis that is not one of the analysis commands
// is an error naming the file, the line and the problem, found before
// anything is loaded or run. The parameters under "with" are checked
// against the command's flags by the caller (see [Study.Validate]).
package study

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/internal/yamlmsg"
	"go.yaml.in/yaml/v3"
)

// MaxSize bounds the size of a study file (1 MiB): a study is a page of
// text, and the bound keeps a wrong file (a trial, a core dump) from being
// parsed as one.
const MaxSize = 1 << 20

// Study is a parsed study file.
type Study struct {
	// File is the path the study was read from ("" for Parse of bytes
	// without a name); Dir is the folder relative paths start from.
	File, Dir string
	// Title is the report's default title.
	Title string
	// Database is the database URL, with a relative sqlite: path made
	// relative to Dir ("" when the file names none).
	Database string
	// Trials are the trial entries in file order.
	Trials []Trial
	// Analyses are the analyses in file order.
	Analyses []Analysis
	// Report is the report to write; Report.Out is "" when none.
	Report Report
}

// Trial is one entry of the trials list: a trial to load (Path set), a
// trial named in the database (Name only), or a selection (Where or View).
type Trial struct {
	// Line is the entry's line in the file.
	Line int
	// Name is the trial's name (required with Path).
	Name string
	// Path is the file or folder to load, relative to the study's folder
	// resolved; Format is its format ("" to detect).
	Path, Format string
	// Application and Experiment file a loaded trial.
	Application, Experiment string
	// Where selects stored trials by a --where expression.
	Where string
	// View selects the trials of a TAUdb view by id or name.
	View string
}

// Analysis is one entry of the analyses list.
type Analysis struct {
	// Line is the entry's line in the file.
	Line int
	// Run is the analysis command (speedup, overhead, cluster, ...).
	Run string
	// Trials restricts the analysis to these trials (names or ids); empty
	// means every trial of the study.
	Trials []string
	// With are the command's flags without their dashes, in file order.
	With []Param
	// Query is a call-path query (docs/query.md) that restricts a
	// single-trial analysis to the call-graph nodes it matches, as --query
	// does on the command line; "" for none. QueryLine is its line.
	Query     string
	QueryLine int
}

// Param is one flag of an analysis: --Name=Value.
type Param struct {
	// Line is the parameter's line in the file.
	Line int
	// Name is the flag's long name; Value its value as the command line
	// would give it (lists are joined with commas).
	Name, Value string
}

// Report is where the study's report goes.
type Report struct {
	// Line is the report entry's line.
	Line int
	// Out is the report folder ("" for no report), resolved against the
	// study's folder; Title overrides the study's title.
	Out, Title string
}

// Error is a problem at a line of a study file.
type Error struct {
	// File is the study file; Line the 1-based line (0 when unknown).
	File string
	Line int
	// Msg says what is wrong.
	Msg string
}

func (e *Error) Error() string {
	f := e.File
	if f == "" {
		f = "study"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", f, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", f, e.Msg)
}

// Read reads and parses the study file at path; see [Parse].
func Read(path string) (*Study, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read study: %w", err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxSize+1)); err != nil {
		return nil, fmt.Errorf("read study %s: %w", path, err)
	}
	if buf.Len() > MaxSize {
		return nil, &Error{File: path, Msg: fmt.Sprintf("larger than %d bytes: not a study file", MaxSize)}
	}
	return Parse(path, filepath.Dir(path), buf.Bytes())
}

// Keys of each mapping of the format, for the unknown-key check and its
// message.
var (
	topKeys      = []string{"title", "database", "trials", "analyses", "report"}
	trialKeys    = []string{"name", "path", "application", "experiment", "format", "where", "view"}
	analysisKeys = []string{"run", "trials", "with", "query"}
	reportKeys   = []string{"out", "title"}
)

// Parse parses a study file's text; file names it in errors and dir is the
// folder relative paths start from. It checks the structure and the values'
// kinds, not the trial paths or the analyses (see [Study.Validate]).
func Parse(file, dir string, data []byte) (*Study, error) {
	s := &Study{File: file, Dir: dir}
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if e := yamlmsg.Unmarshal(data, &doc); e != nil {
		return nil, &Error{File: file, Line: e.Line, Msg: e.Msg}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fail(0, "empty study: it needs at least an \"analyses\" list")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "a study is a mapping of %s, not a %s", strings.Join(topKeys, ", "), kindName(root))
	}
	err := eachKey(file, root, topKeys, func(key string, v *yaml.Node) error {
		var err error
		switch key {
		case "title":
			s.Title, err = scalar(file, key, v)
		case "database":
			s.Database, err = scalar(file, key, v)
		case "trials":
			s.Trials, err = parseTrials(file, v)
		case "analyses":
			s.Analyses, err = parseAnalyses(file, v)
		case "report":
			s.Report, err = parseReport(file, v)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(s.Analyses) == 0 && s.Report.Out == "" && len(s.Trials) == 0 {
		return nil, fail(root.Line, "the study does nothing: give trials, analyses or a report")
	}
	s.resolve()
	return s, nil
}

// resolve makes relative paths relative to the study's folder.
func (s *Study) resolve() {
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(s.Dir, p)
	}
	for i := range s.Trials {
		s.Trials[i].Path = rel(s.Trials[i].Path)
	}
	s.Report.Out = rel(s.Report.Out)
	if p, ok := strings.CutPrefix(s.Database, "sqlite:"); ok {
		s.Database = "sqlite:" + rel(p)
	} else if !strings.Contains(s.Database, "://") && !strings.Contains(s.Database, "=") &&
		(strings.HasSuffix(s.Database, ".db") || strings.HasSuffix(s.Database, ".sqlite")) {
		s.Database = rel(s.Database)
	}
}

func parseTrials(file string, v *yaml.Node) ([]Trial, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("trials: want a list of trials, not a %s", kindName(v))}
	}
	var out []Trial
	for _, item := range v.Content {
		t := Trial{Line: item.Line}
		if item.Kind != yaml.MappingNode {
			return nil, &Error{File: file, Line: item.Line, Msg: fmt.Sprintf("trials: each trial is a mapping of %s, not a %s", strings.Join(trialKeys, ", "), kindName(item))}
		}
		err := eachKey(file, item, trialKeys, func(key string, v *yaml.Node) error {
			val, err := scalar(file, key, v)
			switch key {
			case "name":
				t.Name = val
			case "path":
				t.Path = val
			case "application":
				t.Application = val
			case "experiment":
				t.Experiment = val
			case "format":
				t.Format = val
			case "where":
				t.Where = val
			case "view":
				t.View = val
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		kinds := 0
		for _, set := range []bool{t.Name != "" || t.Path != "", t.Where != "", t.View != ""} {
			if set {
				kinds++
			}
		}
		switch {
		case kinds == 0:
			return nil, &Error{File: file, Line: t.Line, Msg: "trial: give name (and path to load one), where, or view"}
		case kinds > 1:
			return nil, &Error{File: file, Line: t.Line, Msg: "trial: give one of name/path, where, view per entry"}
		case t.Path != "" && t.Name == "":
			return nil, &Error{File: file, Line: t.Line, Msg: fmt.Sprintf("trial %s: a trial to load needs a name", t.Path)}
		case t.Path == "" && (t.Application != "" || t.Experiment != "" || t.Format != ""):
			return nil, &Error{File: file, Line: t.Line, Msg: "trial: application, experiment and format go with a path to load"}
		}
		out = append(out, t)
	}
	return out, nil
}

func parseAnalyses(file string, v *yaml.Node) ([]Analysis, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("analyses: want a list of analyses, not a %s", kindName(v))}
	}
	var out []Analysis
	for _, item := range v.Content {
		an := Analysis{Line: item.Line}
		if item.Kind != yaml.MappingNode {
			return nil, &Error{File: file, Line: item.Line, Msg: fmt.Sprintf("analyses: each analysis is a mapping of %s, not a %s", strings.Join(analysisKeys, ", "), kindName(item))}
		}
		err := eachKey(file, item, analysisKeys, func(key string, v *yaml.Node) error {
			var err error
			switch key {
			case "run":
				an.Run, err = scalar(file, key, v)
			case "trials":
				an.Trials, err = list(file, key, v)
			case "with":
				an.With, err = params(file, v)
			case "query":
				an.Query, err = scalar(file, key, v)
				an.QueryLine = v.Line
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if an.Run == "" {
			return nil, &Error{File: file, Line: an.Line, Msg: "analysis: \"run\" names the analysis (speedup, overhead, cluster, ...)"}
		}
		out = append(out, an)
	}
	return out, nil
}

func parseReport(file string, v *yaml.Node) (Report, error) {
	r := Report{Line: v.Line}
	if v.Kind != yaml.MappingNode {
		return r, &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("report: want a mapping of %s, not a %s", strings.Join(reportKeys, ", "), kindName(v))}
	}
	err := eachKey(file, v, reportKeys, func(key string, v *yaml.Node) error {
		var err error
		switch key {
		case "out":
			r.Out, err = scalar(file, key, v)
		case "title":
			r.Title, err = scalar(file, key, v)
		}
		return err
	})
	if err == nil && r.Out == "" {
		err = &Error{File: file, Line: r.Line, Msg: "report: \"out\" names the report's folder"}
	}
	return r, err
}

// params reads the "with" mapping: flag names to scalars or lists of
// scalars (joined by commas).
func params(file string, v *yaml.Node) ([]Param, error) {
	if v.Kind != yaml.MappingNode {
		return nil, &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("with: want a mapping of flag names to values, not a %s", kindName(v))}
	}
	var out []Param
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return nil, &Error{File: file, Line: k.Line, Msg: "with: a parameter's name is a flag name"}
		}
		name := strings.TrimLeft(k.Value, "-")
		if seen[name] {
			return nil, &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("with: parameter %q given twice", name)}
		}
		seen[name] = true
		var s string
		var err error
		if val.Kind == yaml.SequenceNode {
			var items []string
			items, err = list(file, name, val)
			s = strings.Join(items, ",")
		} else {
			s, err = scalar(file, name, val)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Param{Line: k.Line, Name: name, Value: s})
	}
	return out, nil
}

// eachKey calls fn for every key of mapping m, in order, after checking
// that it is one of known and given once.
func eachKey(file string, m *yaml.Node, known []string, fn func(key string, v *yaml.Node) error) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("a key must be a name, not a %s", kindName(k))}
		}
		if !contains(known, k.Value) {
			msg := fmt.Sprintf("unknown key %q (known: %s)", k.Value, strings.Join(known, ", "))
			if near := nearest(k.Value, known); near != "" {
				msg = fmt.Sprintf("unknown key %q: did you mean %q? (known: %s)", k.Value, near, strings.Join(known, ", "))
			}
			return &Error{File: file, Line: k.Line, Msg: msg}
		}
		if seen[k.Value] {
			return &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("key %q given twice", k.Value)}
		}
		seen[k.Value] = true
		if err := fn(k.Value, v); err != nil {
			return err
		}
	}
	return nil
}

// scalar reads a scalar value (a string, number or boolean) as text.
func scalar(file, key string, v *yaml.Node) (string, error) {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind != yaml.ScalarNode {
		return "", &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: want a single value, not a %s", key, kindName(v))}
	}
	if v.Tag == "!!null" {
		return "", nil
	}
	return v.Value, nil
}

// list reads a list of scalars; a single scalar is a list of one.
func list(file, key string, v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		s, err := scalar(file, key, v)
		if s == "" {
			return nil, err
		}
		return []string{s}, err
	}
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: want a list, not a %s", key, kindName(v))}
	}
	var out []string
	for _, it := range v.Content {
		s, err := scalar(file, key, it)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// kindName names a YAML node's kind for a message.
func kindName(n *yaml.Node) string { return yamlmsg.KindName(n) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nearest returns the element of known within edit distance 2 of s, if
// one is nearest; "" otherwise.
func nearest(s string, known []string) string {
	best, bestD := "", 3
	cands := append([]string(nil), known...)
	sort.Strings(cands)
	for _, k := range cands {
		if d := distance(strings.ToLower(s), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Validate checks what Parse cannot: that every trial path exists and its
// format is one of formats, that trial names to load are distinct, that
// every analysis is one of analyses, and (through check, which may be nil)
// that every parameter is a flag of its analysis with a valid value. The
// first problem is returned as an *Error with its line.
func (s *Study) Validate(analyses, formats []string, check func(run string, p Param) error) error {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: s.File, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	names := map[string]int{}
	for _, t := range s.Trials {
		if t.Path != "" {
			if _, err := os.Stat(t.Path); err != nil {
				return fail(t.Line, "trial %q: path %s does not exist", t.Name, t.Path)
			}
			if t.Format != "" && !contains(formats, t.Format) {
				return fail(t.Line, "trial %q: unknown format %q (known: %s)", t.Name, t.Format, strings.Join(formats, ", "))
			}
		}
		if t.Name != "" {
			if prev, ok := names[t.Name]; ok {
				return fail(t.Line, "trial %q is listed twice (first at line %d)", t.Name, prev)
			}
			names[t.Name] = t.Line
		}
	}
	for _, an := range s.Analyses {
		if !contains(analyses, an.Run) {
			msg := fmt.Sprintf("unknown analysis %q (known: %s)", an.Run, strings.Join(analyses, ", "))
			if near := nearest(an.Run, analyses); near != "" {
				msg = fmt.Sprintf("unknown analysis %q: did you mean %q? (known: %s)", an.Run, near, strings.Join(analyses, ", "))
			}
			return fail(an.Line, "%s", msg)
		}
		if check == nil {
			continue
		}
		for _, p := range an.With {
			if err := check(an.Run, p); err != nil {
				return fail(p.Line, "%s: %v", an.Run, err)
			}
		}
	}
	return nil
}
