package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// MaxBars is the most bars a chart of per-thread values gets: a region of
// more threads is drawn in MaxBars bins of consecutive threads, each with
// the minimum, mean and maximum of its threads.
const MaxBars = 512

// regionLink is the address of node's page in trial id.
func regionLink(id int64, node int, v viewParams) string {
	return withQuery(fmt.Sprintf("/trial/%d/region/%d", id, node), v.Query())
}

// threadLink is the address of thread th's page in trial id.
func threadLink(id int64, th int, v viewParams) string {
	return withQuery(fmt.Sprintf("/trial/%d/thread/%d", id, th), v.Query())
}

func withQuery(path, q string) string {
	if q == "" {
		return path
	}
	return path + "?" + q
}

// threadLabel names a thread as TAU does: "node,context,thread".
func threadLabel(th drg.Thread) string {
	return fmt.Sprintf("%d,%d,%d", th.Node, th.Context, th.Thread)
}

// threadRow is one thread of a region's table.
type threadRow struct {
	Thread int
	Label  string
	Link   string
	Value  float64
	Calls  float64
}

// regionData is the page of one node of a trial.
type regionData struct {
	ID       int64
	Trial    string
	Node     int
	Name     string
	View     viewParams
	Stat     nodeStat
	MinLabel string
	MaxLabel string
	MinLink  string
	MaxLink  string
	Back     string
	Rows     []threadRow
	Paging   paging
	Sort     string
}

// openNode returns the trial and the request's {node}.
func (s *Server) openNode(r *http.Request) (*cachedTrial, int, error) {
	ct, err := s.openTrial(r)
	if err != nil {
		return nil, 0, err
	}
	n, err := pathIndex(r, "node", "region", len(ct.trial.Nodes))
	return ct, n, err
}

// regionPage shows one node's values on every thread: its statistics, the
// per-thread chart (from regionChart) and the threads a page at a time,
// largest value first (?sort=thread: in thread order).
func (s *Server) regionPage(w http.ResponseWriter, r *http.Request) {
	ct, n, err := s.openNode(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	t := ct.trial
	v, col, err := viewColumn(r, ct)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := regionData{ID: ct.id, Trial: t.Name, Node: n, Name: t.Nodes[n].Name, View: v, Stat: col.stats[n], Sort: r.URL.Query().Get("sort")}
	if d.Stat.Count > 0 {
		d.MinLabel, d.MaxLabel = threadLabel(t.Threads[d.Stat.MinThread]), threadLabel(t.Threads[d.Stat.MaxThread])
		d.MinLink, d.MaxLink = threadLink(ct.id, d.Stat.MinThread, v), threadLink(ct.id, d.Stat.MaxThread, v)
	}
	d.Back = withQuery(fmt.Sprintf("/trial/%d", ct.id), v.Query())
	rows := threadRows(t, col, n, d.Sort == "thread")
	if d.Paging, err = newPaging(r, len(rows)); err != nil {
		s.fail(w, r, err)
		return
	}
	d.Rows = rows[d.Paging.From:d.Paging.To]
	for i := range d.Rows {
		d.Rows[i].Label, d.Rows[i].Link = threadLabel(t.Threads[d.Rows[i].Thread]), threadLink(ct.id, d.Rows[i].Thread, v)
	}
	s.render(w, "region.html", layoutData{Title: d.Name, Nav: "trial", Page: d})
}

// threadRows lists the threads that have a record of node n, largest
// value first or in thread order.
func threadRows(t *drg.Trial, col *column, n int, byThread bool) []threadRow {
	nt := len(t.Threads)
	rows := make([]threadRow, 0, nt)
	for th := 0; th < nt; th++ {
		if t.Present.Get(n*nt + th) {
			rows = append(rows, threadRow{Thread: th, Value: col.values[n*nt+th], Calls: t.Calls[n*nt+th]})
		}
	}
	if !byThread {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Value > rows[j].Value })
	}
	return rows
}

// regionChart answers the per-thread chart of one node: a bar per thread,
// or above MaxBars threads the minimum, mean and maximum of each of
// MaxBars bins of consecutive threads (absent records left out), a click
// on a bin going to its thread of largest value.
func (s *Server) regionChart(w http.ResponseWriter, r *http.Request) {
	ct, n, err := s.openNode(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, col, err := viewColumn(r, ct)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, threadBars(ct, col, n, v))
}

// threadBars makes the per-thread chart of node n (see regionChart).
func threadBars(ct *cachedTrial, col *column, n int, v viewParams) barSeries {
	t := ct.trial
	nt := len(t.Threads)
	title := fmt.Sprintf("%s on each thread", v.Label())
	if nt <= MaxBars {
		out := barSeries{Title: title, Series: []series{{Name: "value"}}}
		for th := 0; th < nt; th++ {
			out.Labels = append(out.Labels, threadLabel(t.Threads[th]))
			out.Links = append(out.Links, threadLink(ct.id, th, v))
			x := col.values[n*nt+th]
			if !t.Present.Get(n*nt + th) {
				x = 0
			}
			out.add(x)
		}
		return out
	}
	out := barSeries{Title: title, Series: []series{{Name: "min"}, {Name: "mean"}, {Name: "max"}}}
	for _, b := range bins(nt, MaxBars) {
		st := statOf(col.values[n*nt+b.from:n*nt+b.to], func(i int) bool { return t.Present.Get(n*nt + b.from + i) })
		out.Labels = append(out.Labels, threadLabel(t.Threads[b.from])+" … "+threadLabel(t.Threads[b.to-1]))
		top := b.from
		if st.Count > 0 {
			top += st.MaxThread
		}
		out.Links = append(out.Links, threadLink(ct.id, top, v))
		out.add(st.Min, st.Mean, st.Max)
	}
	out.Note = fmt.Sprintf("%d threads in %d bins of consecutive threads: the minimum, mean and maximum of each bin's threads", nt, MaxBars)
	return out
}

// span is the threads [from, to) of one bin.
type span struct{ from, to int }

// bins splits n threads into k bins of consecutive threads whose sizes
// differ by at most one.
func bins(n, k int) []span {
	out := make([]span, 0, k)
	for i := 0; i < k; i++ {
		from, to := i*n/k, (i+1)*n/k
		if to > from {
			out = append(out, span{from, to})
		}
	}
	return out
}

// OrderLink is the address of this page with the threads in thread order
// (byThread) or largest first.
func (d regionData) OrderLink(byThread bool) string {
	q, _ := url.ParseQuery(d.View.Query()) // made by Encode
	if byThread {
		q.Set("sort", "thread")
	}
	return fmt.Sprintf("/trial/%d/region/%d?%s", d.ID, d.Node, q.Encode())
}
