package serve

import (
	"strings"

	"github.com/taudb-analyze/taudb-analyze/callquery"
)

// isQuery reports whether a filter is a call-path query (it starts with
// MATCH, in any case) rather than a part of a name.
func isQuery(q string) bool {
	return len(q) >= 5 && strings.EqualFold(q[:5], "MATCH")
}

// matchNodes returns the nodes a filter matches: with a call-path query
// (package callquery, Hatchet's string dialect, docs/query.md) every node
// of every matched call path; with any other text the nodes whose callpath
// contains it, ignoring case. A query that does not parse, or names what
// the trial lacks, is the user's mistake, shown with its position.
func (s *Server) matchNodes(ct *cachedTrial, q string) ([]int, error) {
	if !isQuery(q) {
		return substringNodes(ct, q), nil
	}
	pq, err := callquery.Parse(q)
	if err != nil {
		return nil, &inputError{"query: " + err.Error()}
	}
	r, err := pq.Match(ct.trial)
	if err != nil {
		return nil, &inputError{"query: " + err.Error()}
	}
	return r.Nodes, nil
}

// substringNodes returns the nodes whose full name contains q, ignoring
// case.
func substringNodes(ct *cachedTrial, q string) []int {
	lq := strings.ToLower(q)
	var out []int
	for i, n := range ct.trial.Nodes {
		if !n.Derived && strings.Contains(strings.ToLower(n.Name), lq) {
			out = append(out, i)
		}
	}
	return out
}
