package serve

import (
	"bytes"
	"net/http"
	"time"

	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// resultsData is the stored results' page.
type resultsData struct {
	Results []store.ResultInfo
	Paging  paging
}

// resultsPage lists the stored results, newest first, a page at a time.
func (s *Server) resultsPage(w http.ResponseWriter, r *http.Request) {
	infos, err := s.db.Results(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i, j := 0, len(infos)-1; i < j; i, j = i+1, j-1 {
		infos[i], infos[j] = infos[j], infos[i]
	}
	d := resultsData{}
	if d.Paging, err = newPaging(r, len(infos)); err != nil {
		s.fail(w, r, err)
		return
	}
	d.Results = infos[d.Paging.From:d.Paging.To]
	s.render(w, "results.html", layoutData{Title: "Stored results", Nav: "results", Page: d})
}

// resultPage shows one stored result as its report page (report.WritePage),
// with the chart library from this server.
func (s *Server) resultPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathInt(r, "id", "result")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.db.LoadResult(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var b bytes.Buffer
	opt := report.PageOptions{EChartsURL: "/assets/echarts.min.js", IndexURL: "/results", IndexTitle: "Stored results", Created: time.Now()}
	if err := report.WritePage(&b, res, opt); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Security-Policy", reportPolicy)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes()) //nolint:errcheck // the client went away
}

// asset answers the embedded scripts and styles and the chart library.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	var b []byte
	switch name {
	case "echarts.min.js":
		b = report.EChartsJS()
	default:
		var err error
		if b, err = assetFS.ReadFile("assets/" + name); err != nil {
			http.NotFound(w, r)
			return
		}
	}
	switch {
	case len(name) > 3 && name[len(name)-3:] == ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case len(name) > 4 && name[len(name)-4:] == ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case len(name) > 4 && name[len(name)-4:] == ".svg":
		w.Header().Set("Content-Type", "image/svg+xml")
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	w.Write(b) //nolint:errcheck // the client went away
}
