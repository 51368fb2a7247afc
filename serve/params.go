package serve

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// viewParams are the choices every view of one trial shares: which value
// column (metric or derived-metric expression, exclusive or inclusive).
type viewParams struct {
	// Metric is the chosen metric's name (the trial's time metric when the
	// request names none); Expr a derived metric's expression, which wins
	// over Metric when set.
	Metric, Expr string
	Inclusive    bool
	// Metrics lists the trial's metrics for the selector.
	Metrics []string
}

// readView reads ?metric=, ?expr= and ?value=incl|excl for trial t.
func readView(r *http.Request, t *drg.Trial) (viewParams, error) {
	q := r.URL.Query()
	v := viewParams{Metric: q.Get("metric"), Expr: strings.TrimSpace(q.Get("expr"))}
	for _, m := range t.Metrics {
		v.Metrics = append(v.Metrics, m.Name)
	}
	if v.Metric == "" {
		if tm := t.TimeMetric(); tm >= 0 {
			v.Metric = t.Metrics[tm].Name
		}
	}
	switch q.Get("value") {
	case "", "excl", "exclusive":
	case "incl", "inclusive":
		v.Inclusive = true
	default:
		return v, &inputError{"parameter value: want excl or incl, not " + quoteList([]string{q.Get("value")})}
	}
	return v, nil
}

// key returns the column the parameters choose.
func (v viewParams) key() columnKey {
	if v.Expr != "" {
		return columnKey{Metric: v.Expr, Expr: true, Inclusive: v.Inclusive}
	}
	return columnKey{Metric: v.Metric, Inclusive: v.Inclusive}
}

// Label names the column for titles: "exclusive TIME".
func (v viewParams) Label() string {
	kind := "exclusive"
	if v.Inclusive {
		kind = "inclusive"
	}
	if v.Expr != "" {
		return kind + " " + v.Expr
	}
	return kind + " " + v.Metric
}

// Query returns the parameters as a query string to carry into links.
func (v viewParams) Query() string {
	q := url.Values{}
	if v.Expr != "" {
		q.Set("expr", v.Expr)
	} else if v.Metric != "" {
		q.Set("metric", v.Metric)
	}
	if v.Inclusive {
		q.Set("value", "incl")
	}
	return q.Encode()
}

// ValueName is "incl" or "excl", for the selector.
func (v viewParams) ValueName() string {
	if v.Inclusive {
		return "incl"
	}
	return "excl"
}
