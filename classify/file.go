package classify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/internal/yamlmsg"
	"go.yaml.in/yaml/v3"
)

// A rules file changes a list of rules (normally Default). It is YAML: a
// mapping with one key, rules, a list of rule entries (docs/rules.md has the
// full description):
//
//	rules:
//	  # Count MPI_Waitall as point-to-point communication, not as a wait.
//	  - id: waitall-p2p
//	    match: MPI_Waitall
//	    category: data movement
//	    sub: MPI point-to-point
//	    class: mpi
//	  # Drop the default rule that makes MPI_Comm_rank additional computation.
//	  - action: remove
//	    id: unit-identification-mpi
//
// Keys of an entry (each at most once):
//
//	action    add (the default), override or remove
//	id        the rule's name; for override and remove, the id of the
//	          rule to change
//	match     the name pattern: exact ("MPI_Send", a trailing "()" does
//	          not matter), prefix ("MPI_File_*") or a Go regular
//	          expression between slashes ("/^MPI_I?send$/"); see Rule
//	group     a TAU group ("MPI"), compared without regard to case, or a
//	          regular expression between slashes
//	category  data movement, synchronization, control of parallelism,
//	          additional computation or computation (case, "_" and "-" do
//	          not matter)
//	sub       the sub-category; default "other" (none for computation)
//	class     the coarse class of splits: computation, mpi, openmp, io,
//	          other or sampled; required unless category is computation
//	note      free text shown in the rule table
//
// Actions:
//
//	add       a new rule (needs category, and match or group); the added
//	          rules come before the rules being changed, in file order,
//	          so they win over them (the first matching rule wins)
//	override  changes the rule named by id (or, without id, the rule with
//	          the same match and group) in place, keeping its position:
//	          the keys given replace the rule's values
//	remove    deletes the rule named by id (or with the same match and
//	          group); no other key is allowed
//
// Every error is an *Error naming the file and line:
// "site.yaml:12: unknown key "catgory" (want action, id, ...)".

// entryKeys lists the keys of a rule entry, in the order of error messages.
var entryKeys = []string{"action", "id", "match", "group", "category", "sub", "class", "note"}

// MaxFileSize bounds a rules file, in bytes.
const MaxFileSize = 1 << 20

// Error is a problem at a line of a rules file.
type Error struct {
	// File names the rules file; Line is 1-based (0 when unknown).
	File string
	Line int
	// Msg says what is wrong.
	Msg string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// LoadRules reads the rules file at path and applies it to Default.
func LoadRules(path string) ([]Rule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read rules: %w", err)
	}
	defer f.Close()
	return ParseRules(f, path, Default())
}

// entry is one rule entry of a file: its values and their lines.
type entry struct {
	line int
	vals map[string]string
	at   map[string]int
}

func (e entry) has(k string) bool { _, ok := e.vals[k]; return ok }

// lineOf returns the line of the first of keys the entry has, else the
// entry's line.
func (e entry) lineOf(keys ...string) int {
	for _, k := range keys {
		if l, ok := e.at[k]; ok {
			return l
		}
	}
	return e.line
}

// ParseRules reads a rules file from r (name is the file name used in
// errors) and applies it to base: the result is the file's added rules in
// file order followed by base with the file's overrides and removals
// applied. base is not modified. On error nothing is returned.
func ParseRules(r io.Reader, name string, base []Rule) ([]Rule, error) {
	entries, err := parseEntries(r, name)
	if err != nil {
		return nil, err
	}
	a := applier{name: name, rest: append([]Rule(nil), base...), ids: map[string]string{}}
	a.removed = make([]bool, len(a.rest))
	for i, r := range a.rest {
		if r.ID != "" {
			a.ids[r.ID] = sourceOf(r, i)
		}
	}
	for _, e := range entries {
		if err := a.apply(e); err != nil {
			return nil, err
		}
	}
	out := a.added
	for i, r := range a.rest {
		if !a.removed[i] {
			out = append(out, r)
		}
	}
	if out == nil {
		out = []Rule{}
	}
	return out, nil
}

// applier applies a file's entries to a list of rules.
type applier struct {
	name    string
	rest    []Rule
	removed []bool
	added   []Rule
	ids     map[string]string // rule id -> where it is defined
}

func (a *applier) fail(line int, format string, args ...any) error {
	return &Error{File: a.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (a *applier) apply(e entry) error {
	action := "add"
	if e.has("action") {
		action = strings.ToLower(strings.TrimSpace(e.vals["action"]))
	}
	switch action {
	case "add":
		return a.add(e)
	case "override":
		return a.override(e)
	case "remove":
		return a.remove(e)
	}
	return a.fail(e.lineOf("action"), "unknown action %q (want add, override or remove)", action)
}

func (a *applier) add(e entry) error {
	rule := Rule{Source: fmt.Sprintf("%s:%d", a.name, e.line), ID: e.vals["id"], Match: e.vals["match"],
		Group: e.vals["group"], Sub: e.vals["sub"], Class: e.vals["class"], Note: e.vals["note"]}
	if !e.has("category") {
		return a.fail(e.line, "rule has no category (want one of %s)", categoryList(ruleCategories))
	}
	c, err := checkCategory(e.vals["category"])
	if err != nil {
		return a.fail(e.lineOf("category"), "%v", err)
	}
	rule.Category = c
	if err := a.compile(&rule, e); err != nil {
		return err
	}
	if rule.ID != "" {
		if prev, dup := a.ids[rule.ID]; dup {
			return a.fail(e.lineOf("id"), "id %q is already used by the rule at %s", rule.ID, prev)
		}
		a.ids[rule.ID] = rule.Source
	}
	a.added = append(a.added, rule)
	return nil
}

func (a *applier) override(e entry) error {
	target, err := findTarget(a.rest, a.removed, e)
	if err != nil {
		return a.fail(e.line, "override: %v", err)
	}
	rule := a.rest[target]
	rule.Source = fmt.Sprintf("%s:%d", a.name, e.line)
	if e.has("category") {
		c, err := checkCategory(e.vals["category"])
		if err != nil {
			return a.fail(e.lineOf("category"), "%v", err)
		}
		if c != rule.Category && !e.has("sub") {
			rule.Sub = "" // the old sub belongs to the old category
		}
		rule.Category = c
	}
	keys := []string{"sub", "class", "note"}
	if e.has("id") { // named by id: match and group may be replaced too
		keys = append(keys, "match", "group")
	}
	for _, k := range keys {
		if v, ok := e.vals[k]; ok {
			*rule.field(k) = v
		}
	}
	if err := a.compile(&rule, e); err != nil {
		return err
	}
	a.rest[target] = rule
	return nil
}

func (a *applier) remove(e entry) error {
	for _, k := range []string{"category", "sub", "class", "note"} {
		if e.has(k) {
			return a.fail(e.at[k], "remove takes only id, or match and group; not %s", k)
		}
	}
	target, err := findTarget(a.rest, a.removed, e)
	if err != nil {
		return a.fail(e.line, "remove: %v", err)
	}
	a.removed[target] = true
	if id := a.rest[target].ID; id != "" {
		delete(a.ids, id) // a later add may reuse the id
	}
	return nil
}

// compile checks a rule made from entry e, with the error at the line of
// the key at fault.
func (a *applier) compile(rule *Rule, e entry) error {
	if rule.Match == "" && rule.Group == "" {
		return a.fail(e.line, "rule has neither match nor group (missing match)")
	}
	if err := rule.compile(); err != nil {
		switch msg := err.Error(); {
		case strings.HasPrefix(msg, "group "):
			return a.fail(e.lineOf("group"), "%s", msg)
		case strings.HasPrefix(msg, "rule has no class"), strings.HasPrefix(msg, "unknown class"):
			return a.fail(e.lineOf("class", "category"), "%s", msg)
		}
		return a.fail(e.lineOf("match"), "%v", err)
	}
	return nil
}

// field returns the address of the rule's value for key k of an entry.
func (r *Rule) field(k string) *string {
	switch k {
	case "id":
		return &r.ID
	case "match":
		return &r.Match
	case "group":
		return &r.Group
	case "sub":
		return &r.Sub
	case "class":
		return &r.Class
	}
	return &r.Note
}

// checkCategory reads a category a rule may assign.
func checkCategory(s string) (Category, error) {
	c, err := ParseCategory(s)
	if err != nil {
		return "", err
	}
	if !assignable(c) {
		return "", computedError(c)
	}
	return c, nil
}

func sourceOf(r Rule, i int) string {
	if r.Source != "" && r.Source != "default" && r.Source != "api" {
		return r.Source
	}
	return fmt.Sprintf("%s rule %d", strings.TrimSpace(r.Source+" "), i+1)
}

// findTarget finds the rule an override or remove entry names: by id, or
// else by the same match and group.
func findTarget(rules []Rule, removed []bool, e entry) (int, error) {
	if id := e.vals["id"]; id != "" {
		for i, r := range rules {
			if !removed[i] && r.ID == id {
				return i, nil
			}
		}
		return -1, fmt.Errorf("no rule has id %q", id)
	}
	if !e.has("match") && !e.has("group") {
		return -1, errors.New("name the rule to change by id, or by match and group")
	}
	m, g := e.vals["match"], e.vals["group"]
	for i, r := range rules {
		if !removed[i] && r.Match == m && strings.EqualFold(strings.TrimSpace(r.Group), strings.TrimSpace(g)) {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no rule has match %q and group %q", m, g)
}

// parseEntries reads the YAML of a rules file into entries, checking its
// structure: a mapping with the key rules, holding a list of mappings of
// entryKeys to single values.
func parseEntries(r io.Reader, name string) ([]entry, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read rules %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("larger than %d bytes: not a rules file", MaxFileSize)}
	}
	var doc yaml.Node
	if e := yamlmsg.Unmarshal(data, &doc); e != nil {
		return nil, &Error{File: name, Line: e.Line, Msg: e.Msg}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // an empty file changes nothing
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: root.Line, Msg: fmt.Sprintf("a rules file is a mapping with the key rules, not a %s", kindName(root))}
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value != "rules" {
			return nil, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("unknown key %q (want rules)", k.Value)}
		}
		if list != nil {
			return nil, &Error{File: name, Line: k.Line, Msg: `key "rules" given twice`}
		}
		list = root.Content[i+1]
	}
	if list == nil || (list.Kind == yaml.ScalarNode && list.Tag == "!!null") {
		return nil, nil
	}
	if list.Kind != yaml.SequenceNode {
		return nil, &Error{File: name, Line: list.Line, Msg: fmt.Sprintf("rules: want a list of rules, not a %s", kindName(list))}
	}
	out := make([]entry, 0, len(list.Content))
	for _, item := range list.Content {
		e, err := parseEntry(name, item)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// parseEntry reads one rule entry.
func parseEntry(name string, item *yaml.Node) (entry, error) {
	fail := func(line int, format string, args ...any) (entry, error) {
		return entry{}, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if item.Kind != yaml.MappingNode {
		return fail(item.Line, "a rule is a mapping of %s, not a %s", strings.Join(entryKeys, ", "), kindName(item))
	}
	e := entry{line: item.Line, vals: map[string]string{}, at: map[string]int{}}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		if k.Kind != yaml.ScalarNode || !known(k.Value) {
			return fail(k.Line, "unknown key %q (want %s)", k.Value, strings.Join(entryKeys, ", "))
		}
		if e.has(k.Value) {
			return fail(k.Line, "key %q given twice", k.Value)
		}
		if v.Kind != yaml.ScalarNode {
			return fail(v.Line, "%s: want a single value, not a %s", k.Value, kindName(v))
		}
		val := v.Value
		if v.Tag == "!!null" {
			val = ""
		}
		e.vals[k.Value], e.at[k.Value] = val, k.Line
	}
	return e, nil
}

func known(k string) bool {
	for _, x := range entryKeys {
		if x == k {
			return true
		}
	}
	return false
}

// kindName names a YAML node's kind for a message.
func kindName(n *yaml.Node) string { return yamlmsg.KindName(n) }

// WriteRules writes rules as a rules file of add entries. Parsing it with
// ParseRules(r, name, nil) gives the same rules (Source aside).
func WriteRules(w io.Writer, rules []Rule) error {
	type out struct {
		ID       string `yaml:"id,omitempty"`
		Match    string `yaml:"match,omitempty"`
		Group    string `yaml:"group,omitempty"`
		Category string `yaml:"category"`
		Sub      string `yaml:"sub,omitempty"`
		Class    string `yaml:"class,omitempty"`
		Note     string `yaml:"note,omitempty"`
	}
	doc := struct {
		Rules []out `yaml:"rules"`
	}{Rules: []out{}}
	for _, r := range rules {
		doc.Rules = append(doc.Rules, out{r.ID, r.Match, r.Group, string(r.Category), r.Sub, r.Class, r.Note})
	}
	var b bytes.Buffer
	b.WriteString("# taudb-analyze classification rules (first match wins; see docs/rules.md)\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write rules: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("write rules: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
