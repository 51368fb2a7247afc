package serve

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// icicleMinWidth is the narrowest box the icicle graph gets, as a fraction
// of the whole width: narrower subtrees are left out (and counted), which
// bounds the answer to a few thousand boxes whatever the trial's size.
const icicleMinWidth = 0.002

// icicleBox is one node of the icicle graph: at row Depth, from X0 to X1
// (fractions of the width), its inclusive value Value.
type icicleBox struct {
	Node  int    `json:"node"`
	Name  string `json:"name"`
	Path  string `json:"path"`
	Link  string `json:"link"`
	Depth int    `json:"depth"`
	X0    num    `json:"x0"`
	X1    num    `json:"x1"`
	Value num    `json:"value"`
	// Hit is true for a node the filter (?q=) matches.
	Hit bool `json:"hit,omitempty"`
}

// icicleAnswer is the icicle graph's data.
type icicleAnswer struct {
	Title string      `json:"title"`
	Boxes []icicleBox `json:"boxes"`
	Note  string      `json:"note,omitempty"`
}

// icicle answers the icicle graph of the call tree: the roots side by side
// on the top row, each node's children under it, every box as wide as the
// node's mean inclusive value (across the threads with a record of it),
// children laid out from the left edge of their parent. Children sum to
// at most their parent (the rest is the parent's exclusive value).
func (s *Server) icicle(w http.ResponseWriter, r *http.Request) {
	ct, v, err := s.openView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Inclusive = true
	incl, err := ct.column(v.key())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	tr := ct.treeOf()
	ans := icicleAnswer{Title: v.Label() + ": mean across threads"}
	if tr.Kind == drg.NoCallpaths {
		ans.Note = "the trial has no callpaths: there is no tree to draw"
		writeJSON(w, ans)
		return
	}
	lay := icicleLayout{ct: ct, tr: tr, col: incl, v: v}
	if q := strings.TrimSpace(r.URL.Query().Get("q")); q != "" {
		m, err := s.matchNodes(ct, q)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		lay.hits = map[int]bool{}
		for _, n := range m {
			lay.hits[n] = true
		}
	}
	lay.run()
	ans.Boxes = lay.boxes
	if lay.hidden > 0 {
		ans.Note = fmt.Sprintf("%d nodes narrower than %.1f%% of the width are not drawn", lay.hidden, icicleMinWidth*100)
	}
	if tr.Kind == drg.PartialCallpaths {
		ans.Note += "; the callpaths are partial, so a region may appear under several roots"
	}
	writeJSON(w, ans)
}

// icicleLayout places the boxes of the icicle graph.
type icicleLayout struct {
	ct     *cachedTrial
	tr     drg.Tree
	col    *column
	v      viewParams
	total  float64
	boxes  []icicleBox
	hidden int
	// hits are the nodes the filter matched (nil without a filter).
	hits map[int]bool
}

func (l *icicleLayout) run() {
	for _, n := range l.tr.Roots {
		l.total += pos(l.col.stats[n].Mean)
	}
	if l.total <= 0 {
		return
	}
	x := 0.0
	for _, n := range l.tr.Roots {
		x = l.place(n, 0, x, 1)
	}
}

// place puts node n at row depth from x, no further than end (its
// parent's right edge: means over different threads need not nest), and
// its children under it, and returns where the next sibling starts.
func (l *icicleLayout) place(n, depth int, x, end float64) float64 {
	w := min(pos(l.col.stats[n].Mean)/l.total, pos(end-x))
	if w < icicleMinWidth {
		l.hidden += 1 + l.subtree(n)
		return x + w
	}
	t := l.ct.trial
	l.boxes = append(l.boxes, icicleBox{Node: n, Name: t.Regions[t.Nodes[n].Region].Name, Path: t.Nodes[n].Name,
		Link: regionLink(l.ct.id, n, l.v), Depth: depth, X0: num(x), X1: num(x + w), Value: num(l.col.stats[n].Mean), Hit: l.hits[n]})
	cx := x
	for _, c := range l.tr.Children[n] {
		cx = l.place(c, depth+1, cx, x+w)
	}
	return x + w
}

// subtree counts the descendants of n.
func (l *icicleLayout) subtree(n int) int {
	k := 0
	for _, c := range l.tr.Children[n] {
		k += 1 + l.subtree(c)
	}
	return k
}

// pos is v when positive, else 0 (a box cannot be negative).
func pos(v float64) float64 {
	if v > 0 {
		return v
	}
	return 0
}
