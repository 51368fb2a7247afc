package serve

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// openView returns the cached trial of the request's {id} and the view
// (metric, derived expression, exclusive or inclusive) its query asks for.
func (s *Server) openView(r *http.Request) (*cachedTrial, viewParams, error) {
	ct, err := s.openTrial(r)
	if err != nil {
		return nil, viewParams{}, err
	}
	v, err := readView(r, ct.trial)
	return ct, v, err
}

// viewColumn reads the request's view of trial ct and the value column
// it shows.
func viewColumn(r *http.Request, ct *cachedTrial) (viewParams, *column, error) {
	v, err := readView(r, ct.trial)
	if err != nil {
		return v, nil, err
	}
	col, err := ct.column(v.key())
	return v, col, err
}

// openTrial returns the cached trial of the request's {id}.
func (s *Server) openTrial(r *http.Request) (*cachedTrial, error) {
	id, err := pathInt(r, "id", "trial")
	if err != nil {
		return nil, err
	}
	return s.cache.get(r.Context(), id)
}

// regionRow is one node of the regions table.
type regionRow struct {
	Node int
	Name string
	Link string
	nodeStat
}

// regionsData is the page of one trial's regions.
type regionsData struct {
	ID        int64
	Trial     string
	Threads   int
	View      viewParams
	Sort      string
	Callpaths bool
	Rows      []regionRow
	Paging    paging
}

// sortKeys are the columns the regions table sorts by (largest first,
// the name A to Z).
var sortKeys = []string{"mean", "min", "max", "stddev", "total", "threads", "name"}

// regionsPage shows a trial's regions (the flat view; every call-graph
// node with ?callpaths=1): per region the statistics of the chosen column
// across threads, sorted, a page at a time.
func (s *Server) regionsPage(w http.ResponseWriter, r *http.Request) {
	ct, v, err := s.openView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	t := ct.trial
	col, err := ct.column(v.key())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := regionsData{ID: ct.id, Trial: t.Name, Threads: len(t.Threads), View: v,
		Sort: r.URL.Query().Get("sort"), Callpaths: r.URL.Query().Get("callpaths") == "1"}
	rows := regionRows(ct, col, d.Callpaths)
	if err := sortRows(rows, d.Sort); err != nil {
		s.fail(w, r, err)
		return
	}
	if d.Paging, err = newPaging(r, len(rows)); err != nil {
		s.fail(w, r, err)
		return
	}
	d.Rows = rows[d.Paging.From:d.Paging.To]
	for i := range d.Rows {
		d.Rows[i].Link = regionLink(ct.id, d.Rows[i].Node, v)
	}
	s.render(w, "regions.html", layoutData{Title: "Trial " + t.Name, Nav: "trial", Page: d})
}

// regionRows lists the flat view's nodes (every node with callpaths).
func regionRows(ct *cachedTrial, col *column, callpaths bool) []regionRow {
	t := ct.trial
	var nodes []int
	if callpaths {
		for i := range t.Nodes {
			nodes = append(nodes, i)
		}
	} else {
		nodes = t.Flat()
	}
	rows := make([]regionRow, 0, len(nodes))
	for _, n := range nodes {
		rows = append(rows, regionRow{Node: n, Name: t.Nodes[n].Name, nodeStat: col.stats[n]})
	}
	return rows
}

// sortRows orders rows by key (one of sortKeys; "" is mean), largest
// first, then by name.
func sortRows(rows []regionRow, key string) error {
	val := map[string]func(regionRow) float64{
		"": func(r regionRow) float64 { return r.Mean }, "mean": func(r regionRow) float64 { return r.Mean },
		"min": func(r regionRow) float64 { return r.Min }, "max": func(r regionRow) float64 { return r.Max },
		"stddev": func(r regionRow) float64 { return r.StdDev }, "total": func(r regionRow) float64 { return r.Total },
		"threads": func(r regionRow) float64 { return float64(r.Count) },
	}
	if key == "name" {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
		return nil
	}
	f, ok := val[key]
	if !ok {
		return &inputError{"parameter sort: want one of " + strings.Join(sortKeys, ", ")}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := f(rows[i]), f(rows[j])
		if a != b {
			return a > b
		}
		return rows[i].Name < rows[j].Name
	})
	return nil
}

// regionsChartTop is how many regions the chart of a trial shows.
const regionsChartTop = 20

// regionsChart answers the chart of a trial's page: the regions with the
// largest mean, with each one's mean, minimum and maximum across threads.
func (s *Server) regionsChart(w http.ResponseWriter, r *http.Request) {
	ct, v, err := s.openView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	col, err := ct.column(v.key())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rows := regionRows(ct, col, false)
	sortRows(rows, "mean") //nolint:errcheck // a known key
	rows = rows[:min(len(rows), regionsChartTop)]
	out := barSeries{Title: v.Label() + ": mean, min and max across threads",
		Series: []series{{Name: "min"}, {Name: "mean"}, {Name: "max"}}}
	for _, row := range rows {
		out.Labels = append(out.Labels, row.Name)
		out.Links = append(out.Links, regionLink(ct.id, row.Node, v))
		out.add(row.Min, row.Mean, row.Max)
	}
	writeJSON(w, out)
}

// barSeries is a chart's data: one bar per label with its mean, minimum and
// maximum, and where a click on it goes.
type barSeries struct {
	Title  string   `json:"title"`
	Labels []string `json:"labels"`
	Links  []string `json:"links"`
	Series []series `json:"series"`
	// Stacked draws the series on top of each other.
	Stacked bool `json:"stacked,omitempty"`
	// Note says how the bars were made (binned threads).
	Note string `json:"note,omitempty"`
}

// series is one named row of values of a chart.
type series struct {
	Name   string `json:"name"`
	Values []num  `json:"values"`
}

// num is a value sent as JSON: a number, or null when it is not finite
// (JSON has no NaN or infinity).
type num float64

// MarshalJSON writes the number, or null.
func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// add appends one value to each series, in order.
func (b *barSeries) add(vals ...float64) {
	for i, v := range vals {
		b.Series[i].Values = append(b.Series[i].Values, num(v))
	}
}

// SortKeys lists the columns the table sorts by.
func (d regionsData) SortKeys() []string { return sortKeys }

// SortLink is the address of the table sorted by key.
func (d regionsData) SortLink(key string) string {
	q := d.query()
	q.Set("sort", key)
	return fmt.Sprintf("/trial/%d?%s", d.ID, q.Encode())
}

// CallpathsLink is the address of the table with or without every
// callpath node.
func (d regionsData) CallpathsLink(on bool) string {
	q := d.query()
	q.Del("callpaths")
	if on {
		q.Set("callpaths", "1")
	}
	return fmt.Sprintf("/trial/%d?%s", d.ID, q.Encode())
}

func (d regionsData) query() url.Values {
	q, _ := url.ParseQuery(d.View.Query()) // made by Encode
	if d.Sort != "" {
		q.Set("sort", d.Sort)
	}
	if d.Callpaths {
		q.Set("callpaths", "1")
	}
	return q
}

// TreeLink is the address of the trial's call tree with the same column.
func (d regionsData) TreeLink() string {
	return withQuery(fmt.Sprintf("/trial/%d/tree", d.ID), d.View.Query())
}
