// Package callquery is the call-path query language of taudb-analyze:
// Hatchet's string dialect ("MATCH (".", p)->("*")->(q) WHERE p."name"
// STARTS WITH "MPI_" AND q."time (inc)" > 10") over the call graph of one
// trial. docs/query.md describes the language; in short:
//
//	q, err := callquery.Parse(text)  // syntax; *Error with Line, Column
//	r, err := q.Match(trial)         // attributes checked against the trial
//	r.Nodes, r.Has(n), r.Preorder()  // the matched call-graph nodes
//	r.Paths(limit)                   // the matched call paths
//	callquery.Restrict(trial, r)     // the matched part as a trial
//
// The call graph (CallGraph) holds every callpath node under its parent,
// and as roots the flat nodes that have callpath children or whose region
// appears in no callpath. A node matches when it lies on a call path (a
// chain of nodes, each the parent of the next, starting and ending
// anywhere) that splits into one part per node pattern of the MATCH, each
// as long as the pattern's quantifier says ("." one, "*" zero or more, "+"
// one or more, n exactly n) and each node of it satisfying the pattern's
// WHERE conditions. Matching is one pass down and one pass up the graph
// over the states of the pattern (at most 63 steps): time linear in nodes ×
// steps, plus one pass over threads × nodes for each metric a condition
// names (its per-node mean over the threads that executed the node).
//
// A query naming no metric (NeedsValues false) depends on the call graph's
// structure only: store.DB.LoadCallGraph reads that without values, and
// Match on it gives the same nodes as on the whole trial.
//
// Queries are bounded (MaxQueryBytes, 63 steps, 64 compound parts, 200
// nested conditions), so no input makes parsing or matching grow without
// bound. Parse and Match never panic on any input (FuzzParse).
package callquery
