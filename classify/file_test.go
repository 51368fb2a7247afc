package classify

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRules(t *testing.T) {
	rules, err := LoadRules("../testdata/rules/waitall_as_p2p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	if len(rules) != len(def) {
		t.Fatalf("%d rules, want %d (one added, one removed)", len(rules), len(def))
	}
	r := rules[0]
	if r.ID != "waitall-p2p" || r.Match != "MPI_Waitall" || r.Group != "MPI" || r.Category != DataMovement ||
		r.Sub != SubMPIPointToPoint || r.Class != ClassMPI || r.Note != "Waitall completes the halo exchange" ||
		r.Source != "../testdata/rules/waitall_as_p2p.yaml:5" {
		t.Errorf("added rule %+v", r)
	}
	if indexOf(rules, "unit-identification-mpi") >= 0 {
		t.Error("removed rule still present")
	}
	// Override in place, keeping the position; match replaced by id.
	rules, err = LoadRules("../testdata/rules/reclassify_finalize.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pos := indexOf(rules, "mpi-init-finalize")
	x := rules[pos]
	if x.Match != "/^MPI_(Init|Init_thread)$/" || x.Sub != "MPI init" || x.Category != ControlOfParallelism ||
		x.Class != ClassMPI || !strings.HasSuffix(x.Source, "reclassify_finalize.yaml:3") {
		t.Errorf("overridden rule %+v", x)
	}
	if pos != 1+indexOf(def, "mpi-init-finalize") {
		t.Errorf("overridden rule at %d", pos)
	}
	fin := region(t, "MPI_Finalize()", "MPI")
	if c, _ := Classify(rules, &fin); c.ID != "finalize-wait" || c.Category != Synchronization || c.Class != ClassMPI {
		t.Errorf("MPI_Finalize: %+v", c)
	}
	// Override by match and group (no id), changing the category: the old
	// sub is dropped, the class kept.
	src := "rules:\n  - action: override\n    match: 'MPI_*'\n    category: synchronization\n"
	rules, err = ParseRules(strings.NewReader(src), "x.yaml", def)
	if err != nil {
		t.Fatal(err)
	}
	x = rules[indexOf(def, "mpi-other-name")]
	if x.Category != Synchronization || x.Sub != DefaultSub || x.ID != "mpi-other-name" || x.Class != ClassMPI {
		t.Errorf("override by match: %+v", x)
	}
	// Override of the class alone: MPI-IO counted as MPI.
	rules, err = ParseRules(strings.NewReader("rules:\n- {action: override, id: mpi-io, class: mpi}\n"), "x.yaml", def)
	open := region(t, "MPI_File_open()", "MPI")
	if c, _ := Classify(rules, &open); err != nil || c.Class != ClassMPI || c.Category != DataMovement || c.Sub != SubMPIIO {
		t.Errorf("class override: %+v, %v", c, err)
	}
	// Remove by match and group; an empty file changes nothing.
	rules, err = ParseRules(strings.NewReader("rules:\n  - action: remove\n    group: \"mpi\" # comment\n"), "x.yaml", def)
	if err != nil || len(rules) != len(def)-1 || indexOf(rules, "mpi-other-group") >= 0 {
		t.Errorf("remove by group: %v", err)
	}
	// A removed rule's id may be reused by a later add.
	src = "rules:\n- action: remove\n  id: mpi-p2p\n- id: mpi-p2p\n  match: MPI_Send\n  category: synchronization\n  class: mpi\n"
	rules, err = ParseRules(strings.NewReader(src), "x.yaml", def)
	if err != nil || rules[0].ID != "mpi-p2p" || rules[0].Category != Synchronization || len(rules) != len(def) {
		t.Errorf("remove then add: %v", err)
	}
	for _, empty := range []string{"", "\n# nothing\n", "rules:\n", "rules: []\n"} {
		rules, err = ParseRules(strings.NewReader(empty), "x.yaml", def)
		if err != nil || len(rules) != len(def) {
			t.Errorf("empty file %q: %v", empty, err)
		}
	}
	// Computation needs no class; a group may be a regular expression.
	src = "rules:\n- match: \"a\\\"b\\\\c\\u00e9\\t\"\n  group: /^US/\n  category: Computation\n"
	rules, err = ParseRules(strings.NewReader(src), "x.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rules[0].Match != "a\"b\\cé\t" || rules[0].Category != Computation || rules[0].Class != ClassComputation {
		t.Errorf("parsed %+v", rules[0])
	}
	user, other := region(t, "a\"b\\cé\t", "USER"), region(t, "a\"b\\cé\t", "MPI")
	if !rules[0].Matches(&user) || rules[0].Matches(&other) {
		t.Error("group regular expression")
	}
}

func indexOf(rules []Rule, id string) int {
	for i, r := range rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}

func TestParseRulesErrors(t *testing.T) {
	const head = "rules:\n  - "
	for _, c := range []struct{ src, want string }{
		{head + "match: MPI_Send\n    category: communication\n", `x.yaml:3: unknown category "communication"`},
		{head + "match: '/(/'\n    category: data movement\n    class: io\n", `x.yaml:2: match "/(/": bad regular expression`},
		{head + "match: x\n    group: '/[/'\n    category: computation\n", `x.yaml:3: group "/[/": bad regular expression`},
		{head + "match: MPI_Send\n    catgory: data movement\n", `x.yaml:3: unknown key "catgory" (want action, id, match, group, category, sub, class, note)`},
		{"\nrules:\n  - category: data movement\n    class: io\n", "x.yaml:3: rule has neither match nor group (missing match)"},
		{head + "match: x\n", "x.yaml:2: rule has no category"},
		{head + "match: x\n    category: data movement\n", "x.yaml:3: rule has no class (want one of sampled, mpi, openmp, io, other, computation"},
		{head + "match: x\n    category: data movement\n    class: network\n", `x.yaml:4: unknown class "network"`},
		{head + "match: x\n    category: loss of parallelism\n", `x.yaml:3: category "loss of parallelism" is computed`},
		{head + "match: x\n    category: unidentified\n", `x.yaml:3: category "unidentified" is computed`},
		{"match: x\n", `x.yaml:1: unknown key "match" (want rules)`},
		{"- match: x\n", "x.yaml:1: a rules file is a mapping with the key rules, not a list"},
		{"rules: x\n", "x.yaml:1: rules: want a list of rules, not a single value"},
		{"rules: []\nrules: []\n", "x.yaml:2: "},
		{"rules:\n  - x\n", "x.yaml:2: a rule is a mapping of action, id, match"},
		{head + "match: [a, b]\n", "x.yaml:2: match: want a single value, not a list"},
		{head + "match: 'x\n", "x.yaml:"},
		{"rules:\n\t- match: x\n", "x.yaml:2: not valid YAML"},
		{head + "match: x\n    match: y\n", `x.yaml:3: `},
		{head + "action: delete\n    match: x\n", `x.yaml:2: unknown action "delete"`},
		{head + "action: remove\n    id: nope\n", `x.yaml:2: remove: no rule has id "nope"`},
		{head + "action: remove\n", "x.yaml:2: remove: name the rule to change by id, or by match and group"},
		{head + "action: override\n    match: nope\n    category: synchronization\n", `x.yaml:2: override: no rule has match "nope" and group ""`},
		{head + "action: remove\n    id: mpi-p2p\n    category: synchronization\n", "x.yaml:4: remove takes only id"},
		{head + "action: override\n    id: mpi-p2p\n    match: '/[/'\n", `x.yaml:4: match "/[/": bad regular expression`},
		{head + "action: override\n    id: mpi-p2p\n    category: nope\n", `x.yaml:4: unknown category "nope"`},
		{head + "action: override\n    id: mpi-p2p\n    class: nope\n", `x.yaml:4: unknown class "nope"`},
		{head + "id: mpi-p2p\n    match: x\n    category: synchronization\n    class: mpi\n", `x.yaml:2: id "mpi-p2p" is already used by the rule at default`},
		{"rules:\n  - match: \"\xff\"\n", "x.yaml:"},
		{"rules: &a [*a]\n", "x.yaml:"},
		{"rules:\n  - note: " + strings.Repeat("a", MaxFileSize) + "\n", "x.yaml: larger than 1048576 bytes"},
	} {
		_, err := ParseRules(strings.NewReader(c.src), "x.yaml", Default())
		var e *Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &e) {
			t.Errorf("%q:\n got %v\nwant %q", c.src[:min(len(c.src), 60)], err, c.want)
		}
	}
}

// TestRulesFileErrors reads the error examples of testdata/rules: each names
// its file and the line the example's first comment gives.
func TestRulesFileErrors(t *testing.T) {
	for file, want := range map[string]string{
		"err_unknown_category.yaml": `:5: unknown category "communication"`,
		"err_bad_regex.yaml":        `:5: match "/^MPI_(Send|Recv$/": bad regular expression: error parsing regexp: missing closing )`,
		"err_unknown_key.yaml":      `:6: unknown key "catgory"`,
		"err_missing_match.yaml":    `:6: rule has neither match nor group (missing match)`,
		"err_no_class.yaml":         `:5: rule has no class`,
	} {
		path := filepath.Join("..", "testdata", "rules", file)
		_, err := LoadRules(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+want) {
			t.Errorf("%s: %v, want %q", file, err, path+want)
		}
	}
	if _, err := LoadRules("../testdata/rules/does-not-exist.yaml"); err == nil {
		t.Error("missing file: want an error")
	}
}

func TestWriteRulesRoundTrip(t *testing.T) {
	rules := Default()
	odd, err := NewRule("odd", "a\"b\\c\n\x01é'", "g", Synchronization, "s\tt", ClassOpenMP, "n#1: x")
	if err != nil {
		t.Fatal(err)
	}
	rules = append(rules, odd)
	var b bytes.Buffer
	if err := WriteRules(&b, rules); err != nil {
		t.Fatal(err)
	}
	back, err := ParseRules(&b, "w.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameRules(rules, back) {
		t.Error("round trip changed the rules")
	}
}

func sameRules(a, b []Rule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.ID != y.ID || x.Match != y.Match || x.Group != y.Group || x.Category != y.Category || x.Sub != y.Sub || x.Class != y.Class || x.Note != y.Note {
			return false
		}
	}
	return true
}
