package serve

import (
	"fmt"
	"net/http"
)

// overviewTop is how many regions the threads overview stacks; the rest of
// the flat view is one "other" part.
const overviewTop = 6

// threadsOverview answers the chart of ParaProf's main window: a stacked
// bar per thread of the chosen column's values of the regions with the
// largest means and of all other regions of the flat view together; above
// MaxBars threads, a bar per bin of consecutive threads holding each
// part's mean over the bin's threads (absent records as 0). A click opens
// the thread (a bin's first thread).
func (s *Server) threadsOverview(w http.ResponseWriter, r *http.Request) {
	ct, err := s.openTrial(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, col, err := viewColumn(r, ct)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ct.mu.Lock()
	if col.overview == nil {
		ov := overviewBars(ct, col, v)
		col.overview = &ov
	}
	ov := *col.overview
	ct.mu.Unlock()
	writeJSON(w, ov)
}

// overviewBars makes the threads overview (see threadsOverview).
func overviewBars(ct *cachedTrial, col *column, v viewParams) barSeries {
	t := ct.trial
	nt := len(t.Threads)
	rows := regionRows(ct, col, false)
	sortRows(rows, "mean") //nolint:errcheck // a known key
	top := rows[:min(len(rows), overviewTop)]
	out := barSeries{Title: v.Label() + " of each thread: the largest regions and the others", Stacked: true}
	for _, row := range top {
		out.Series = append(out.Series, series{Name: row.Name})
	}
	out.Series = append(out.Series, series{Name: "other regions"})
	parts := make([][]float64, len(top)+1) // per part, per thread
	isTop := map[int]int{}
	for i, row := range top {
		isTop[row.Node] = i
	}
	for i := range parts {
		parts[i] = make([]float64, nt)
	}
	for _, n := range t.Flat() {
		p, ok := isTop[n]
		if !ok {
			p = len(top)
		}
		for th := 0; th < nt; th++ {
			if t.Present.Get(n*nt + th) {
				parts[p][th] += col.values[n*nt+th]
			}
		}
	}
	groups := bins(nt, min(nt, MaxBars))
	for _, g := range groups {
		label := threadLabel(t.Threads[g.from])
		if g.to-g.from > 1 {
			label += " … " + threadLabel(t.Threads[g.to-1])
		}
		out.Labels = append(out.Labels, label)
		out.Links = append(out.Links, threadLink(ct.id, g.from, v))
		for p := range parts {
			var sum float64
			for th := g.from; th < g.to; th++ {
				sum += parts[p][th]
			}
			out.Series[p].Values = append(out.Series[p].Values, num(sum/float64(g.to-g.from)))
		}
	}
	if nt > MaxBars {
		out.Note = fmt.Sprintf("%d threads in %d bins of consecutive threads: each part's mean over the bin's threads", nt, len(groups))
	}
	return out
}
