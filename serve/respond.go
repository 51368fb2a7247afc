package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// inputError is a mistake in what the user asked for (a bad expression, an
// unknown metric): its message is shown in the page.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// notFound is a trial, region, thread or result that does not exist.
type notFound struct{ what string }

func (e *notFound) Error() string { return e.what + " not found" }

// layoutData is what every page's layout shows around its content.
type layoutData struct {
	Title    string
	Nav      string
	Analyses bool
	Error    string
	// Page is the page's own data.
	Page any
}

// render writes page name with data; an error while rendering is logged
// and answered with a plain error page.
func (s *Server) render(w http.ResponseWriter, name string, d layoutData) {
	d.Analyses = s.opt.AllowAnalyses
	var b bytes.Buffer
	if err := s.pages[name].Execute(&b, d); err != nil {
		s.log.Printf("render %s: %v", name, err)
		http.Error(w, "the page could not be made; see the server's log", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes()) //nolint:errcheck // the client went away
}

// fail answers a request that failed: the user's mistakes and missing
// things with their message, anything else (a database error, which may
// name the database) with a generic message, logged in full on the server.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := s.classify(r, err)
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeJSONStatus(w, code, map[string]string{"error": msg})
		return
	}
	w.WriteHeader(code)
	s.render(w, "error.html", layoutData{Title: "Error", Error: msg})
}

// classify chooses the status and the message the browser may see.
func (s *Server) classify(r *http.Request, err error) (int, string) {
	var in *inputError
	var ie *InputError
	var nf *notFound
	var we *store.WhereError
	switch {
	case errors.As(err, &in):
		return http.StatusBadRequest, in.msg
	case errors.As(err, &ie):
		return http.StatusBadRequest, ie.Msg
	case errors.As(err, &we):
		return http.StatusBadRequest, we.Error()
	case errors.As(err, &nf):
		return http.StatusNotFound, nf.Error()
	case errors.Is(err, store.ErrNoTrial):
		return http.StatusNotFound, "no such trial"
	case errors.Is(err, store.ErrNoResult):
		return http.StatusNotFound, "no such result"
	}
	s.log.Printf("%s %s: %v", r.Method, r.URL.Path, err)
	return http.StatusInternalServerError, "the database could not answer; the server's log says why"
}

// writeJSON answers with v as JSON; encoding/json escapes <, > and &, so
// no name can become markup even if the data were shown as HTML.
func writeJSON(w http.ResponseWriter, v any) { writeJSONStatus(w, http.StatusOK, v) }

func writeJSONStatus(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b) //nolint:errcheck // the client went away
}

// intParam reads a non-negative integer query parameter (def when absent).
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, &inputError{"parameter " + name + ": " + strconv.Quote(v) + " is not a non-negative integer"}
	}
	return n, nil
}

// pathInt reads an integer path element.
func pathInt(r *http.Request, name, what string) (int64, error) {
	v := r.PathValue(name)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, &notFound{what + " " + strconv.Quote(v)}
	}
	return n, nil
}

// pathIndex returns path value name as an index below n (a node or a
// thread of a trial), or a notFound naming what the value was to be.
func pathIndex(r *http.Request, name, what string, n int) (int, error) {
	i, err := pathInt(r, name, what)
	if err != nil || i >= int64(n) {
		return 0, &notFound{what + " " + r.PathValue(name)}
	}
	return int(i), nil
}

// quoteList quotes each name and joins them with commas.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"num": formatNum,
	"add": func(a, b int) int { return a + b },
}

// formatNum shows a value with 4 significant digits, in full below 10^6.
func formatNum(v float64) string {
	if v == float64(int64(v)) && v < 1e15 && v > -1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	if a := abs(v); a >= 1e-3 && a < 1e6 {
		return strconv.FormatFloat(v, 'f', decimals(a), 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func decimals(a float64) int {
	switch {
	case a >= 1000:
		return 1
	case a >= 1:
		return 3
	}
	return 5
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// asInput reports whether err is an *InputError, setting *target.
func asInput(err error, target **InputError) bool { return errors.As(err, target) }
