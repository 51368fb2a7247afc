package overhead

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Category is one of SCALEA's temporal overhead categories (Figure 2 of the
// paper), or Computation for the program's own work.
type Category string

// The categories. Rules assign DataMovement, Synchronization,
// ControlOfParallelism, AdditionalComputation or Computation; the analysis
// computes LossOfParallelism and Unidentified itself.
const (
	// DataMovement is any data transfer: point-to-point and collective
	// communication, remote memory access, file I/O.
	DataMovement Category = "data movement"
	// Synchronization coordinates processes (multi-address space: MPI
	// barriers, waits, window synchronization) or threads (single-address
	// space: OpenMP barriers, critical sections, locks, atomics, ordered).
	Synchronization Category = "synchronization"
	// ControlOfParallelism creates, manages and ends the parallelism: MPI
	// initialization, communicator and topology management, process
	// spawning, OpenMP fork/join, loop scheduling, work sharing, thread
	// creation.
	ControlOfParallelism Category = "control of parallelism"
	// AdditionalComputation is work the parallel version adds to the
	// sequential program (algorithmic or compiler changes, requests for
	// processing unit identifications).
	AdditionalComputation Category = "additional computation"
	// LossOfParallelism is computed: unparallelized, partially parallelized
	// and replicated code (see Analyze).
	LossOfParallelism Category = "loss of parallelism"
	// Unidentified is computed: T_o minus the identified overhead.
	Unidentified Category = "unidentified"
	// Computation marks regions that are the program's own work: no
	// overhead category, but subject to the loss-of-parallelism test.
	Computation Category = "computation"
)

// The sub-categories of LossOfParallelism (SCALEA's Figure 2(f)).
const (
	// SubUnparallelized is code executed by only one of p > 1 processes.
	SubUnparallelized = "unparallelized code"
	// SubPartial is code executed by more than one but not all processes.
	SubPartial = "partially parallelized code"
	// SubReplicated is code every process executes in full, as the
	// baseline did: the work is repeated instead of divided.
	SubReplicated = "replicated code"
)

// OverheadCategories returns the identified overhead categories in the order
// of SCALEA's Figure 2, which is the order of the experiments table's rows
// and of the sum that makes the total identified overhead.
func OverheadCategories() []Category {
	return []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, LossOfParallelism}
}

// ruleCategories are the categories a rule may assign.
var ruleCategories = []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, Computation}

// ParseCategory reads a category name. Case, underscores and hyphens do not
// matter ("Data_Movement" is DataMovement).
func ParseCategory(s string) (Category, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.NewReplacer("_", " ", "-", " ").Replace(n)
	n = strings.Join(strings.Fields(n), " ")
	for _, c := range []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, LossOfParallelism, Unidentified, Computation} {
		if n == string(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown category %q (want one of %s)", s, categoryList(append(OverheadCategories(), Unidentified, Computation)))
}

func categoryList(cs []Category) string {
	q := make([]string, len(cs))
	for i, c := range cs {
		q[i] = strconv.Quote(string(c))
	}
	return strings.Join(q, ", ")
}

// assignable reports whether a rule may assign c.
func assignable(c Category) bool {
	for _, x := range ruleCategories {
		if x == c {
			return true
		}
	}
	return false
}

func computedError(c Category) error {
	return fmt.Errorf("category %q is computed by the analysis; a rule cannot assign it (want one of %s)", c, categoryList(ruleCategories))
}

// DefaultSub is the sub-category of a rule that gives none.
const DefaultSub = "other"

// matchKind says how a Rule's Match is compared with a region name.
type matchKind int

const (
	kindUnset matchKind = iota
	kindAny
	kindExact
	kindPrefix
	kindRegex
)

// Rule maps code regions to an overhead category and sub-category, by name
// and/or TAU group. A region matches when both the name pattern (if any)
// and the group (if any) match.
//
// Names are compared in three forms: the canonical full name as TAU wrote it
// ("MPI_Send()", "barrier (barrier enter/exit) [OpenMP location: file:a.c
// <4, 4>]"), the name without TAU's decorations (source location "[{...}
// ...]", "[OpenMP location: ...]", "[OpenMP]", parameters "[ <k> = <v> ]"
// and " [THROTTLED]": "barrier (barrier enter/exit)"), and that name
// without one trailing "()" ("MPI_Send"). Match is one of:
//
//	""              any name (Group must then be given)
//	"MPI_Send"      exact: the name without "()" equals the pattern
//	                without "()" (so "MPI_Send" and "MPI_Send()" both
//	                match "MPI_Send()  "), or the full name equals it
//	"MPI_File_*"    prefix: a trailing "*"; the undecorated or the full
//	                name starts with the text before it ("*" elsewhere is
//	                an ordinary character, as in "double **f(int) C"; an
//	                exact name that ends in "*" needs a regular expression)
//	"/^MPI_I?send$/" regular expression (Go syntax, between slashes):
//	                it matches any of the three forms
type Rule struct {
	// ID names the rule, so that a rules file can override or remove it;
	// every default rule has one. Optional for user rules.
	ID string
	// Match is the name pattern ("" for any name).
	Match string
	// Group is a TAU group ("MPI", "TAU_IO"), compared without regard to
	// case; "" for any group.
	Group string
	// Category is the category the rule assigns.
	Category Category
	// Sub is the sub-category (Figure 2's leaves, such as "MPI
	// point-to-point"); "" for a Computation rule.
	Sub string
	// Note says why, for the documentation table.
	Note string
	// Source says where the rule comes from: "default" or "file:line".
	Source string

	kind matchKind
	lit  string // exact: canonical pattern without "()"; prefix: the prefix
	full string // exact: canonical pattern as given
	re   *regexp.Regexp
}

// NewRule returns a checked rule (see Rule for the forms of match). The
// category must be one a rule may assign (not LossOfParallelism or
// Unidentified); an empty sub becomes DefaultSub for an overhead category.
func NewRule(id, match, group string, c Category, sub, note string) (Rule, error) {
	r := Rule{ID: id, Match: match, Group: group, Category: c, Sub: sub, Note: note, Source: "api"}
	if err := r.compile(); err != nil {
		return Rule{}, err
	}
	return r, nil
}

// compile checks the rule and prepares its matcher.
func (r *Rule) compile() error {
	c, err := ParseCategory(string(r.Category))
	if err != nil {
		return err
	}
	if !assignable(c) {
		return computedError(c)
	}
	r.Category = c
	if r.Sub == "" && r.Category != Computation {
		r.Sub = DefaultSub
	}
	r.re = nil
	m := r.Match
	switch {
	case m == "":
		if strings.TrimSpace(r.Group) == "" {
			return fmt.Errorf("rule has neither match nor group (missing match)")
		}
		r.kind = kindAny
	case len(m) >= 2 && m[0] == '/' && m[len(m)-1] == '/':
		expr := m[1 : len(m)-1]
		if expr == "" {
			return fmt.Errorf("match %q: empty regular expression", m)
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return fmt.Errorf("match %q: bad regular expression: %v", m, err)
		}
		r.kind, r.re = kindRegex, re
	case strings.HasSuffix(m, "*"):
		r.kind, r.lit = kindPrefix, m[:len(m)-1]
	default:
		r.kind = kindExact
		r.full = drg.CanonicalName(m)
		r.lit = strings.TrimSuffix(r.full, "()")
	}
	return nil
}

// regionKey holds the forms of a region's name that rules look at.
type regionKey struct {
	full, short, bare string
	groups            []string
}

func keyOf(reg *drg.Region) regionKey {
	short := MatchName(reg.Name)
	return regionKey{full: reg.Name, short: short, bare: strings.TrimSuffix(short, "()"), groups: reg.Groups}
}

// decorations are the suffixes TAU appends to a region name.
var decorations = []string{"[{", "[OpenMP location:", "[OpenMP]", "[ <", "[THROTTLED]"}

// MatchName returns name without TAU's decorations: the text before the
// first " [{" (source location), " [OpenMP location:", " [OpenMP]", " [ <"
// (parameters) or " [THROTTLED]", trimmed, with runs of blanks collapsed.
// "void compute(double **) C [{matmult.c} {90,1}-{109,1}]" gives "void
// compute(double **) C"; "MPI_Send()" is unchanged.
func MatchName(name string) string {
	name = drg.CanonicalName(name)
	cut := len(name)
	for _, d := range decorations {
		if i := strings.Index(name, d); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(name[:cut])
}

// Matches reports whether region reg matches the rule. A rule built as a
// literal is checked first; one that does not pass the checks of NewRule
// matches nothing.
func (r *Rule) Matches(reg *drg.Region) bool {
	return r.matches(keyOf(reg))
}

func (r *Rule) matches(k regionKey) bool {
	if r.kind == kindUnset {
		c := *r
		if c.compile() != nil {
			return false
		}
		return c.matches(k)
	}
	if r.Group != "" && !hasGroupFold(k.groups, r.Group) {
		return false
	}
	switch r.kind {
	case kindAny:
		return true
	case kindExact:
		return k.bare == r.lit || k.full == r.full
	case kindPrefix:
		return strings.HasPrefix(k.short, r.lit) || strings.HasPrefix(k.full, r.lit)
	case kindRegex:
		return r.re.MatchString(k.short) || r.re.MatchString(k.bare) || r.re.MatchString(k.full)
	}
	return false
}

func hasGroupFold(groups []string, g string) bool {
	g = strings.TrimSpace(g)
	for _, x := range groups {
		if strings.EqualFold(strings.TrimSpace(x), g) {
			return true
		}
	}
	return false
}

// Classify returns the first rule of rules that matches reg, in order, and
// true; or a zero Rule and false when none does (the region is then
// computation).
func Classify(rules []Rule, reg *drg.Region) (Rule, bool) {
	k := keyOf(reg)
	for i := range rules {
		if rules[i].matches(k) {
			return rules[i], true
		}
	}
	return Rule{}, false
}

// prepare returns compiled copies of rules.
func prepare(rules []Rule) ([]Rule, error) {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		if err := r.compile(); err != nil {
			name := r.ID
			if name == "" {
				name = r.Match
			}
			src := r.Source
			if src == "" {
				src = "rule " + strconv.Itoa(i+1)
			}
			return nil, fmt.Errorf("%s (%s): %w", src, name, err)
		}
		out[i] = r
	}
	return out, nil
}

// RulesTable renders rules as a table for documentation and reports, one row
// per rule in matching order: order (1-based), id, match, group, category,
// sub, note and source.
func RulesTable(rules []Rule) analysis.Table {
	n := len(rules)
	order := make([]float64, n)
	id, match, group, cat, sub, note, src := make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, r := range rules {
		order[i] = float64(i + 1)
		id[i], match[i], group[i], cat[i], sub[i], note[i], src[i] = r.ID, r.Match, r.Group, string(r.Category), r.Sub, r.Note, r.Source
	}
	t := analysis.Table{Name: "rules", Title: "Overhead classification rules, in matching order (the first matching rule wins; unmatched regions are computation)"}
	t.AddNum("order", "", order)
	t.AddText("id", id)
	t.AddText("match", match)
	t.AddText("group", group)
	t.AddText("category", cat)
	t.AddText("sub", sub)
	t.AddText("note", note)
	t.AddText("source", src)
	return t
}

// RulesText renders rules as plain text, one block per rule, in matching
// order: the form of the default rule table in the package documentation.
func RulesText(rules []Rule) string {
	var b strings.Builder
	for i, r := range rules {
		fmt.Fprintf(&b, "rule %d: %s -> %s", i+1, r.ID, r.Category)
		if r.Sub != "" {
			fmt.Fprintf(&b, " / %s", r.Sub)
		}
		b.WriteString("\n")
		if r.Match != "" {
			fmt.Fprintf(&b, "    match %s\n", r.Match)
		}
		if r.Group != "" {
			fmt.Fprintf(&b, "    group %s\n", r.Group)
		}
		if r.Note != "" {
			fmt.Fprintf(&b, "    (%s)\n", r.Note)
		}
	}
	return b.String()
}
