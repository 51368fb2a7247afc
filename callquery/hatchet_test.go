package callquery

import (
	"errors"
	"strings"
	"testing"
)

// The cases of Hatchet's tests/query.py (test_apply_cypher, test_apply,
// the compound-query tests and the string-dialect multi-query tests),
// re-stated on the forest trial: the same shapes of query, with the
// expected node sets worked out by hand from the tree drawn at forest.

func TestHatchetCountsNotRegexAndStar(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// p takes 1 node (inclusive >= 100: main, solve), q exactly 2 not
	// starting with "b", r zero or more matching [^b][a-z]+ at the start
	// ("MPI_..." does not: "P" is not a lower-case letter), s a node
	// starting with MPI_S. From main: solve, stepP, then r = exchange, then
	// MPI_Send; from solve: stepP, exchange, r empty, MPI_Send.
	expect(t, tr, `MATCH (p)->(2, q)->("*", r)->(s)
		WHERE p."time (inc)" >= 100 AND NOT q."name" STARTS WITH "b"
		AND r."name" =~ "[^b][a-z]+" AND s."name" STARTS WITH "MPI_S"`,
		"main", "main => solve", stepP, exch, exch+" => MPI_Send()")
}

func TestHatchetDotThenStarToLeaves(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// p (>= 100), any one child, q named stepP, then every path below.
	expect(t, tr, `MATCH (p)->(".")->(q)->("*") WHERE p."time (inc)" >= 100 AND q."name" = "step"`,
		"main", "main => solve", stepP, stepP+" => "+cmpt, stepP+" => "+cmpt+" => "+blas,
		exch, exch+" => MPI_Send()", exch+" => MPI_Recv()")
}

func TestHatchetThreeSingleNodes(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// r."time" is exclusive time: MPI_Init() has 5, read has 10.
	expect(t, tr, `MATCH (p)->(q)->(r) WHERE p."name" = "main" AND q."name" = "init" AND r."time" = 5`,
		"main", "main => init", "main => init => MPI_Init()")
}

func TestHatchetPlusAtTheEnd(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// "+" with inclusive > 40 below solve: stepP (90), compute (50); blas
	// (10) and exchange (30) end the chain.
	expect(t, tr, `MATCH (p)->(q)->("+", r) WHERE p."name" = "main" AND q."name" = "solve" AND r."time (inc)" > 40`,
		"main", "main => solve", stepP, stepP+" => "+cmpt)
}

func TestHatchetConditionsGroupedByNode(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// As Hatchet reads it: p."time (inc)" > 120 OR p."time (inc)" <= 40 on
	// p, q."time (inc)" = 30 on q. Only worker (40) has a child of 30;
	// main (130) has none, and of the nodes <= 40 only worker and main's
	// exchange have children, exchange's being 15 and 10.
	expect(t, tr, `MATCH (p)->(q) WHERE p."time (inc)" > 120 OR p."time (inc)" <= 40 AND q."time (inc)" = 30`,
		"worker", "worker => exchange")
}

func TestHatchetNonsenseMatchesNothing(t *testing.T) {
	tr := build(t, forest, forestGroups)
	r := run(t, tr, `MATCH (p)->("*", q)->(r) WHERE p."name" = "this" AND q."name" = "is" AND r."name" = "nonsense"`)
	if r.Len() != 0 || len(r.Paths(10)) != 0 {
		t.Errorf("matched %v", names(tr, r))
	}
}

func TestHatchetTypeMismatch(t *testing.T) {
	tr := build(t, forest, forestGroups)
	for _, c := range []struct{ q, col, msg string }{
		{`MATCH (p)->("*")->(q) WHERE p."name" = 5 AND q."name" = "whatever"`, "column 31", `"name" is text`},
		{`MATCH (p)->("*")->(q) WHERE p."time" = "badstring" AND q."name" = "whatever"`, "column 31", `"time" is a number`},
	} {
		pq, err := Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		_, err = pq.Match(tr)
		var qe *Error
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), c.col) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want %s and %s", c.q, err, c.col, c.msg)
		}
	}
}

func TestHatchetStarBeforeAndAfter(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// Every exchange with an MPI_Send() child, with every path above it
	// (from each ancestor) and nothing below MPI_Send() (a leaf).
	expect(t, tr, `MATCH ("*")->(p)->(q)->("*") WHERE p."name" = "exchange" AND q."name" = "MPI_Send()"`,
		"main", "main => solve", stepP, exch, exch+" => MPI_Send()",
		"worker", "worker => exchange", "worker => exchange => MPI_Send()")
	// "+" after a leaf can never match.
	expect(t, tr, `MATCH ("*")->(p)->(q)->("+") WHERE p."name" = "exchange" AND q."name" = "MPI_Send()"`)
}

func TestHatchetNaN(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// RATIO = exclusive/exclusive is 0/0 for main only (exclusive 0).
	expect(t, tr, `MATCH ("*", p) WHERE p."RATIO" IS NAN`, "main")
	r := run(t, tr, `MATCH ("*", p) WHERE p."RATIO" IS NOT NAN`)
	if r.Len() != len(forest)-1 || r.Has(tr.NodeIndex("main")) {
		t.Errorf("IS NOT NAN matched %d nodes, want %d without main", r.Len(), len(forest)-1)
	}
	expect(t, tr, `MATCH ("*", p) WHERE p."RATIO" IS INF`)
}

func TestHatchetCompoundQueries(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// Intersection: 20 <= inclusive <= 60 and inclusive >= 30.
	expect(t, tr, `{MATCH ("*", p) WHERE p."time (inc)" >= 20 AND p."time (inc)" <= 60} AND {MATCH ("*", p) WHERE p."time (inc)" >= 30}`,
		stepP+" => "+cmpt, exch, "worker", "worker => exchange")
	five := []string{"main => init => MPI_Init()", "main => finalize => MPI_Finalize()", "worker => exchange => MPI_Recv()"}
	ten := []string{"main => init => read", stepP + " => " + cmpt + " => " + blas, exch + " => MPI_Recv()", "main => finalize"}
	// Union: inclusive 5 or 10, as two queries and as two condition groups.
	expect(t, tr, `{MATCH ("*", p) WHERE p."time (inc)" = 5} OR {MATCH ("*", p) WHERE p."time (inc)" = 10}`, append(five, ten...)...)
	expect(t, tr, `MATCH ("*", p) WHERE {p."time (inc)" = 5} OR {p."time (inc)" = 10}`, append(five, ten...)...)
	// Symmetric difference: 5 <= inclusive <= 10, but not 10.
	expect(t, tr, `{MATCH ("*", p) WHERE p."time (inc)" >= 5.0 AND p."time (inc)" <= 10.0} XOR {MATCH ("*", p) WHERE p."time (inc)" = 10.0}`, five...)
	expect(t, tr, `MATCH ("*", p) WHERE {p."time (inc)" >= 5 AND p."time (inc)" <= 10} XOR {p."time (inc)" = 10}`, five...)
}

func TestHatchetLeafDepthAndNone(t *testing.T) {
	tr := build(t, forest, forestGroups)
	leaves := []string{"main => init => MPI_Init()", "main => init => read", stepP + " => " + cmpt + " => " + blas,
		exch + " => MPI_Send()", exch + " => MPI_Recv()", "main => finalize => MPI_Finalize()",
		"worker => exchange => MPI_Send()", "worker => exchange => MPI_Recv()"}
	expect(t, tr, `MATCH (".", p) WHERE p IS LEAF`, leaves...)
	expect(t, tr, `MATCH (".", p) WHERE p."depth" = -1`, leaves...) // Hatchet's spelling of IS LEAF
	r := run(t, tr, `MATCH (".", p) WHERE p IS NOT LEAF`)
	if r.Len() != len(forest)-len(leaves) {
		t.Errorf("IS NOT LEAF: %d nodes, want %d", r.Len(), len(forest)-len(leaves))
	}
	expect(t, tr, `MATCH (".", p) WHERE p."depth" = 0`, "main", "worker")
	expect(t, tr, `MATCH (".", p) WHERE p."depth" >= 4`, stepP+" => "+cmpt+" => "+blas, exch+" => MPI_Send()", exch+" => MPI_Recv()")
	expect(t, tr, `MATCH (".", p) WHERE p."file" IS NOT NONE`, stepP+" => "+cmpt, stepP+" => "+cmpt+" => "+blas)
	expect(t, tr, `MATCH (".", p) WHERE p."file" = "blas.f" AND p."line" = 5`, stepP+" => "+cmpt+" => "+blas)
}
