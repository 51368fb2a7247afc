package callquery

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no query makes Parse or Match panic, hang or
// return an error that is not an *Error with a position inside the query.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`MATCH (".", p)->("*")->(q) WHERE p."name" STARTS WITH "MPI_" AND q."time (inc)" > 10`,
		`{MATCH ("*", p) WHERE p."time (inc)" = 5} XOR {MATCH (3, q) WHERE q IS NOT LEAF}`,
		`MATCH ("+", p) WHERE {p."group" =~ "MP."} OR {NOT (p."file" IS NONE OR p."depth" = -1)}`,
		`match (p)->(q) where p."RATIO" is not nan or q."calls" >= 1e3`,
		"MATCH (\".\", p)\nWHERE p.\"name\" = 'a\\'b'",
	} {
		f.Add(s)
	}
	tr := build(f, forest, forestGroups)
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			checkError(t, s, err)
			return
		}
		r, err := q.Match(tr)
		if err != nil {
			checkError(t, s, err)
			return
		}
		for _, n := range r.Nodes {
			if n < 0 || n >= len(tr.Nodes) {
				t.Fatalf("node %d out of range", n)
			}
		}
		Restrict(tr, r)
		r.Paths(50)
	})
}

func checkError(t *testing.T, s string, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %v is not an *Error", s, err)
	}
	if e.Offset < 0 || e.Offset > len(s) || e.Line < 1 || e.Column < 1 {
		t.Fatalf("%q: position %+v outside the query", s, e)
	}
	if clean(e.Msg) != e.Msg || !utf8.ValidString(e.Msg) {
		t.Fatalf("%q: the message %q holds a control character or bad UTF-8", s, e.Msg)
	}
}
