package serve

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
)

// compareData is the comparison page.
type compareData struct {
	Set    *compareSet
	Rows   []compareCells
	Paging paging
	// API is the address of the chart's data.
	API string
}

// comparePage shows two or more trials side by side by region, with the
// differences against the first, largest difference first, a page at a
// time.
func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	cs, err := s.readCompare(r.Context(), r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := compareData{Set: cs, API: "/api/compare?" + compareQuery(r)}
	if d.Paging, err = newPaging(r, len(cs.Rows)); err != nil {
		s.fail(w, r, err)
		return
	}
	for _, row := range cs.Rows[d.Paging.From:d.Paging.To] {
		d.Rows = append(d.Rows, row.cells())
	}
	s.render(w, "compare.html", layoutData{Title: "Comparison", Nav: "compare", Page: d})
}

// compareQuery keeps the parameters that choose a comparison.
func compareQuery(r *http.Request) string {
	q := url.Values{}
	for _, k := range []string{"trials", "metric", "value"} {
		if v, ok := r.URL.Query()[k]; ok {
			q[k] = v
		}
	}
	return q.Encode()
}

// compareChartTop is how many regions the comparison's chart shows.
const compareChartTop = 15

// compareChart answers the comparison's chart: the regions that differ
// most, one series per trial.
func (s *Server) compareChart(w http.ResponseWriter, r *http.Request) {
	cs, err := s.readCompare(r.Context(), r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	kind := "exclusive "
	if cs.Inclusive {
		kind = "inclusive "
	}
	out := barSeries{Title: kind + cs.Metric + ": mean over threads, the regions that differ most"}
	for i, n := range cs.Names {
		out.Series = append(out.Series, series{Name: strconv.Itoa(i+1) + ". " + n})
	}
	for _, row := range cs.Rows[:min(len(cs.Rows), compareChartTop)] {
		out.Labels = append(out.Labels, row.Name)
		out.Links = append(out.Links, "")
		out.add(row.Values...)
	}
	writeJSON(w, out)
}

// compareCells is one row of the comparison as shown: the values ("—"
// for a trial without the region), then each difference and change.
type compareCells struct {
	Name, Verdict string
	Cells         []string
}

func (row compareRow) cells() compareCells {
	c := compareCells{Name: row.Name, Verdict: row.Verdict}
	for i, v := range row.Values {
		if row.Has[i] {
			c.Cells = append(c.Cells, formatNum(v))
		} else {
			c.Cells = append(c.Cells, "—")
		}
	}
	for i, d := range row.Diffs {
		ch := "—"
		if !math.IsNaN(row.Changes[i]) {
			ch = strconv.FormatFloat(row.Changes[i], 'f', 1, 64)
		}
		c.Cells = append(c.Cells, formatNum(d), ch)
	}
	return c
}
