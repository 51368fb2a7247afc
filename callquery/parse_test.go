package callquery

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrorsGiveTheColumn(t *testing.T) {
	for _, c := range []struct {
		q      string
		line   int
		col    int
		substr string
	}{
		{`MATCH (".", p) WHERE p."name" STARTS "MPI_"`, 1, 38, "expected WITH"},
		{`MATCH ({"bad": "wildcard"}, a)`, 1, 14, `unexpected character ':'`},
		{`MATCH ("?", a)`, 1, 8, "unknown quantifier"},
		{`MATCH (0, a)`, 1, 8, "count of nodes"},
		{`MATCH (64, a)`, 1, 8, "count of nodes"},
		{`MATCH (".", p) WHERE q."name" = "x"`, 1, 22, `"q" is not in the MATCH`},
		{`MATCH (".", p)->(".", p)`, 1, 17, "named twice"},
		{`MATCH (".", p) WHERE p."name" =~ "(["`, 1, 34, "bad regular expression"},
		{`MATCH (".", p) WHERE p."time" > "x"`, 1, 33, "expected a number"},
		{`MATCH (".", p) WHERE p."name" STARTS WITH 5`, 1, 43, "expected a string"},
		{`MATCH (".", p)->(".", q) WHERE (p."name" = "a" OR q."name" = "b")`, 1, 33, `nodes "p" and "q"`},
		{"MATCH (\".\", p)\nWHERE p.\"name\" = \"a\" AND AND", 2, 26, "AND is a keyword"},
		{`MATCH (".", p) WHERE p."name" = "unclosed`, 1, 33, "string not closed"},
		{`{MATCH (".")} AND MATCH (".")`, 1, 19, `expected "{"`},
		{`MATCH (".") extra`, 1, 13, "after the end"},
		{`MATCH (".", match)`, 1, 13, "keyword"},
		{`MATCH (".", é) WHERE`, 1, 13, "unexpected character 'é'"},
		{"MATCH (\".\", \xff)", 1, 13, "not valid UTF-8"},
		{``, 1, 1, "expected MATCH"},
	} {
		_, err := Parse(c.q)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v, want an *Error", c.q, err)
			continue
		}
		if e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.substr) {
			t.Errorf("%q: line %d column %d %q, want line %d column %d and %q", c.q, e.Line, e.Column, e.Msg, c.line, c.col, c.substr)
		}
	}
}

func TestParseBoundsAndForms(t *testing.T) {
	if _, err := Parse(`MATCH (63)`); err != nil {
		t.Errorf("63 steps: %v", err)
	}
	if _, err := Parse(`MATCH (62)->("+")`); err == nil {
		t.Error("64 steps accepted")
	}
	if _, err := Parse(strings.Repeat(" ", MaxQueryBytes+1)); err == nil {
		t.Error("a query longer than the bound accepted")
	}
	deep := `MATCH (".", p) WHERE ` + strings.Repeat("NOT ", maxDepth+1) + `p IS LEAF`
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
	// Keywords in any case; single quotes; escapes.
	for _, q := range []string{
		`match (".", p) where p."name" starts with 'MPI_' and not p is leaf`,
		`MATCH (p) WHERE p."name" = "a \"quoted\" name"`,
		`MATCH ("*", p)->("+")->(3) WHERE (p."time" > 1e3 OR p."time" < -1.5) AND p."name" CONTAINS "x"`,
	} {
		pq, err := Parse(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if pq.String() != q {
			t.Errorf("String() = %q, want %q", pq.String(), q)
		}
	}
}

func TestNeedsValues(t *testing.T) {
	for q, want := range map[string]bool{
		`MATCH (".", p) WHERE p."name" STARTS WITH "MPI_" AND p IS LEAF`:                  false,
		`MATCH (".", p) WHERE p."group" = "MPI" AND p."depth" < 3`:                        false,
		`MATCH (".", p) WHERE p."time (inc)" > 10`:                                        true,
		`{MATCH (".", p) WHERE p."file" IS NONE} OR {MATCH ("*", q) WHERE q."calls" > 1}`: true,
		`MATCH ("*")`: false,
	} {
		pq, err := Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		if pq.NeedsValues() != want {
			t.Errorf("%s: NeedsValues %v, want %v", q, !want, want)
		}
	}
}

// TestErrorsEscapeHostileText: what a query holds comes back in an error
// escaped, never as raw control characters.
func TestErrorsEscapeHostileText(t *testing.T) {
	tr := build(t, forest, forestGroups)
	for _, q := range []string{
		"MATCH (\".\", p) WHERE p.\"name\" =~ \"(\x1b]0;pwn\x07\"",
		"MATCH (\".\", p) WHERE p.\"na\x1b[2Jme\u202e\" = \"x\"",
		"MATCH (\".\", p) WHERE p.\"name\" = \"\\\x1b\"",
		"MATCH (\".\", p) WHERE p.\"name\" = 'a' \x9b",
	} {
		pq, err := Parse(q)
		if err == nil {
			_, err = pq.Match(tr)
		}
		if err == nil {
			t.Fatalf("%q: no error", q)
		}
		if strings.ContainsAny(err.Error(), "\x1b\x07\u009b\u202e") {
			t.Errorf("%q: raw control text in %q", q, err.Error())
		}
	}
}
