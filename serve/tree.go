package serve

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// treeOf returns the trial's call tree, computed on first use.
func (ct *cachedTrial) treeOf() drg.Tree {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.tree == nil {
		// The nodes a query sees (callquery.CallGraph): callpath nodes
		// under their parents; as roots the flat nodes with callpath
		// children and those of regions no callpath holds. The kind says
		// whether that is one tree rooted at main.
		tr := drg.Tree{Kind: ct.trial.Tree().Kind}
		tr.Roots, tr.Children = callquery.CallGraph(ct.trial)
		ct.tree = &tr
	}
	return *ct.tree
}

// treeData is the call-tree page.
type treeData struct {
	ID    int64
	Trial string
	View  viewParams
	Query string
	Kind  string
	Back  string
}

// treePage shows the call tree as an expandable tree table and an icicle
// graph (both filled by the scripts from treeChildren and icicle), with the
// filter box.
func (s *Server) treePage(w http.ResponseWriter, r *http.Request) {
	ct, v, err := s.openView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := treeData{ID: ct.id, Trial: ct.trial.Name, View: v, Query: r.URL.Query().Get("q"),
		Kind: treeKindText(ct.treeOf().Kind), Back: withQuery(fmt.Sprintf("/trial/%d", ct.id), v.Query())}
	s.render(w, "tree.html", layoutData{Title: "Call tree of " + ct.trial.Name, Nav: "trial", Page: d})
}

// treeKindText says what the tree shows.
func treeKindText(k drg.TreeKind) string {
	switch k {
	case drg.CompleteTree:
		return "a complete call tree rooted at the main region"
	case drg.PartialCallpaths:
		return "partial callpaths (depth-limited): the roots are the tops of partial subtrees and the regions no callpath holds, and a region may appear under several roots"
	}
	return "no callpaths: the trial has flat profiles only, so the tree lists the regions"
}

// treeRow is one node of the tree table.
type treeRow struct {
	Node     int    `json:"node"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	Link     string `json:"link"`
	Incl     num    `json:"incl"`
	Excl     num    `json:"excl"`
	Calls    num    `json:"calls"`
	Children int    `json:"children"`
}

// treeAnswer is treeChildren's answer.
type treeAnswer struct {
	Rows []treeRow `json:"rows"`
	// Matches counts the nodes the filter matched (Rows holds at most
	// maxMatches of them).
	Matches int    `json:"matches"`
	Note    string `json:"note,omitempty"`
}

// maxMatches bounds the nodes one answer holds (the children of a node,
// the roots, or the nodes a filter matched).
const maxMatches = 200

// treeChildren answers the children of ?parent=N (the roots without it),
// or with ?q= the nodes the filter matches, with the mean inclusive and
// exclusive values of the chosen metric and the mean calls, across the
// threads that have a record of the node.
func (s *Server) treeChildren(w http.ResponseWriter, r *http.Request) {
	ct, v, err := s.openView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	incl, excl, err := ct.inclExcl(v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	tr := ct.treeOf()
	nodes, ans, err := s.treeNodes(r, ct, tr)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	calls := ct.callStats()
	nodes = largestFirst(nodes, incl, &ans)
	for _, n := range nodes {
		ans.Rows = append(ans.Rows, treeRow{Node: n, Name: ct.trial.Regions[ct.trial.Nodes[n].Region].Name, Path: ct.trial.Nodes[n].Name,
			Link: regionLink(ct.id, n, v), Incl: num(incl.stats[n].Mean), Excl: num(excl.stats[n].Mean),
			Calls: num(calls[n].Mean), Children: len(tr.Children[n])})
	}
	writeJSON(w, ans)
}

// treeNodes chooses the nodes treeChildren answers with.
func (s *Server) treeNodes(r *http.Request, ct *cachedTrial, tr drg.Tree) ([]int, treeAnswer, error) {
	if q := strings.TrimSpace(r.URL.Query().Get("q")); q != "" {
		m, err := s.matchNodes(ct, q)
		if err != nil {
			return nil, treeAnswer{}, err
		}
		return m, treeAnswer{Matches: len(m)}, nil
	}
	p := r.URL.Query().Get("parent")
	if p == "" {
		return tr.Roots, treeAnswer{Matches: len(tr.Roots)}, nil
	}
	var n int
	if _, err := fmt.Sscan(p, &n); err != nil || n < 0 || n >= len(tr.Children) {
		return nil, treeAnswer{}, &notFound{"node " + p}
	}
	return tr.Children[n], treeAnswer{Matches: len(tr.Children[n])}, nil
}

// inclExcl returns the inclusive and exclusive columns of v's metric.
func (ct *cachedTrial) inclExcl(v viewParams) (incl, excl *column, err error) {
	v.Inclusive = true
	if incl, err = ct.column(v.key()); err != nil {
		return nil, nil, err
	}
	v.Inclusive = false
	excl, err = ct.column(v.key())
	return incl, excl, err
}

// callStats returns the statistics of the calls of every node, computed
// on first use.
func (ct *cachedTrial) callStats() []nodeStat {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.calls == nil {
		ct.calls = nodeStats(ct.trial, ct.trial.Calls)
	}
	return ct.calls
}

// largestFirst orders nodes by mean inclusive value, largest first, and
// keeps the first maxMatches, saying so in ans.
func largestFirst(nodes []int, incl *column, ans *treeAnswer) []int {
	out := append([]int(nil), nodes...)
	sort.SliceStable(out, func(i, j int) bool { return incl.stats[out[i]].Mean > incl.stats[out[j]].Mean })
	if len(out) > maxMatches {
		ans.Note = fmt.Sprintf("the %d largest of %d nodes", maxMatches, len(out))
		out = out[:maxMatches]
	}
	return out
}
