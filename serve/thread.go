package serve

import (
	"fmt"
	"net/http"
	"sort"
)

// threadData is the page of one thread of a trial: its regions, as
// ParaProf's thread window shows them.
type threadData struct {
	ID     int64
	Trial  string
	Thread int
	Label  string
	View   viewParams
	Rows   []threadRegion
	Paging paging
	Back   string
	// Total is the sum of the thread's flat-view values (exclusive values
	// add up to the thread's time; inclusive ones do not).
	Total float64
}

// threadRegion is one region of a thread.
type threadRegion struct {
	Node  int
	Name  string
	Link  string
	Value float64
	Calls float64
}

// openThread returns the trial and the request's {th}.
func (s *Server) openThread(r *http.Request) (*cachedTrial, int, error) {
	ct, err := s.openTrial(r)
	if err != nil {
		return nil, 0, err
	}
	th, err := pathIndex(r, "th", "thread", len(ct.trial.Threads))
	return ct, th, err
}

// threadPage lists the regions (flat view) one thread has a record of,
// largest value first, a page at a time.
func (s *Server) threadPage(w http.ResponseWriter, r *http.Request) {
	ct, th, err := s.openThread(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, col, err := viewColumn(r, ct)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	t := ct.trial
	d := threadData{ID: ct.id, Trial: t.Name, Thread: th, Label: threadLabel(t.Threads[th]), View: v,
		Back: withQuery(fmt.Sprintf("/trial/%d", ct.id), v.Query())}
	rows := threadRegions(ct, col, th, v)
	for _, row := range rows {
		d.Total += row.Value
	}
	if d.Paging, err = newPaging(r, len(rows)); err != nil {
		s.fail(w, r, err)
		return
	}
	d.Rows = rows[d.Paging.From:d.Paging.To]
	s.render(w, "thread.html", layoutData{Title: "Thread " + d.Label + " of " + t.Name, Nav: "trial", Page: d})
}

// threadRegions lists the flat-view regions thread th has a record of,
// largest value first.
func threadRegions(ct *cachedTrial, col *column, th int, v viewParams) []threadRegion {
	t := ct.trial
	nt := len(t.Threads)
	var rows []threadRegion
	for _, n := range t.Flat() {
		if !t.Present.Get(n*nt + th) {
			continue
		}
		rows = append(rows, threadRegion{Node: n, Name: t.Nodes[n].Name, Link: regionLink(ct.id, n, v),
			Value: col.values[n*nt+th], Calls: t.Calls[n*nt+th]})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Value > rows[j].Value })
	return rows
}

// threadChartTop is how many regions a thread's chart shows.
const threadChartTop = 25

// threadChart answers the chart of a thread's page: its regions with the
// largest values.
func (s *Server) threadChart(w http.ResponseWriter, r *http.Request) {
	ct, th, err := s.openThread(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, col, err := viewColumn(r, ct)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rows := threadRegions(ct, col, th, v)
	rows = rows[:min(len(rows), threadChartTop)]
	out := barSeries{Title: fmt.Sprintf("%s on thread %s", v.Label(), threadLabel(ct.trial.Threads[th])), Series: []series{{Name: "value"}}}
	for _, row := range rows {
		out.Labels = append(out.Labels, row.Name)
		out.Links = append(out.Links, row.Link)
		out.add(row.Value)
	}
	writeJSON(w, out)
}
