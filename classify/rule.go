package classify

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// matchKind says how a Rule's Match is compared with a region name.
type matchKind int

const (
	kindUnset matchKind = iota
	kindAny
	kindExact
	kindPrefix
	kindRegex
)

// Rule maps code regions to an overhead category and sub-category and to a
// coarse class, by name and/or TAU group. A region matches when both the
// name pattern (if any) and the group (if any) match.
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
	// case, or a Go regular expression between slashes that one of the
	// region's groups must match ("/(?i)openmp/"); "" for any group.
	Group string
	// Category is the category the rule assigns.
	Category Category
	// Sub is the sub-category (Figure 2's leaves, such as "MPI
	// point-to-point"); "" for a Computation rule.
	Sub string
	// Class is the coarse class the rule assigns (ClassMPI, ClassIO, ...);
	// "" becomes ClassComputation for a Computation rule and is an error
	// otherwise.
	Class Class
	// Note says why, for the documentation table.
	Note string
	// Source says where the rule comes from: "default" or "file:line".
	Source string

	kind matchKind
	lit  string // exact: canonical pattern without "()"; prefix: the prefix
	full string // exact: canonical pattern as given
	re   *regexp.Regexp
	gre  *regexp.Regexp // group regular expression
}

// NewRule returns a checked rule (see Rule for the forms of match). The
// category must be one a rule may assign (not LossOfParallelism or
// Unidentified); an empty sub becomes DefaultSub for an overhead category;
// an empty class becomes ClassComputation for a Computation rule.
func NewRule(id, match, group string, c Category, sub string, class Class, note string) (Rule, error) {
	r := Rule{ID: id, Match: match, Group: group, Category: c, Sub: sub, Class: class, Note: note, Source: "api"}
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
	if err := r.compileGroup(); err != nil {
		return err
	}
	return r.compileClass()
}

// compileClass checks the rule's class, defaulting it for computation.
func (r *Rule) compileClass() error {
	if strings.TrimSpace(r.Class) == "" {
		if r.Category != Computation {
			return fmt.Errorf("rule has no class (want one of %s: the class a split of time counts the region in)", strings.Join(Classes(), ", "))
		}
		r.Class = ClassComputation
		return nil
	}
	c, err := ParseClass(r.Class)
	r.Class = c
	return err
}

// compileGroup prepares a group given as a regular expression.
func (r *Rule) compileGroup() error {
	g := strings.TrimSpace(r.Group)
	r.gre = nil
	if len(g) < 2 || g[0] != '/' || g[len(g)-1] != '/' {
		return nil
	}
	if g == "//" {
		return fmt.Errorf("group %q: empty regular expression", r.Group)
	}
	re, err := regexp.Compile(g[1 : len(g)-1])
	if err != nil {
		return fmt.Errorf("group %q: bad regular expression: %v", r.Group, err)
	}
	r.gre = re
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
	if r.gre != nil {
		if !anyMatch(k.groups, r.gre) {
			return false
		}
	} else if r.Group != "" && !hasGroupFold(k.groups, r.Group) {
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

func anyMatch(groups []string, re *regexp.Regexp) bool {
	for _, x := range groups {
		if re.MatchString(strings.TrimSpace(x)) {
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

// ClassOf returns the class of reg under rules: the first matching rule's
// class, or ClassComputation when none matches.
func ClassOf(rules []Rule, reg *drg.Region) Class {
	if r, ok := Classify(rules, reg); ok {
		return r.Class
	}
	return ClassComputation
}

// Prepare returns compiled copies of rules, or an error naming the first
// rule that does not pass the checks of NewRule (by its Source and id).
func Prepare(rules []Rule) ([]Rule, error) {
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

// RulesText renders rules as plain text, one block per rule, in matching
// order: the form of the default rule table in the package documentation.
func RulesText(rules []Rule) string {
	var b strings.Builder
	for i, r := range rules {
		fmt.Fprintf(&b, "rule %d: %s -> %s", i+1, r.ID, r.Category)
		if r.Sub != "" {
			fmt.Fprintf(&b, " / %s", r.Sub)
		}
		fmt.Fprintf(&b, " [class %s]", r.Class)
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
