package serve

import (
	"context"
	"net/http"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// trialRow is one trial of the trials page.
type trialRow struct {
	store.TrialInfo
	// Meta is the trial's metadata sorted by key.
	Meta []keyValue
}

type keyValue struct{ Key, Value string }

// trialsData is the trials page.
type trialsData struct {
	Where  string
	Trials []trialRow
	Paging paging
}

// trialsPage lists the trials, those of ?where= when given, a page at a
// time, with their metadata, and a form to compare the checked ones.
func (s *Server) trialsPage(w http.ResponseWriter, r *http.Request) {
	where := strings.TrimSpace(r.URL.Query().Get("where"))
	d := trialsData{Where: where}
	infos, err := s.selectTrials(r.Context(), where)
	if err != nil {
		code, msg := s.classify(r, err)
		w.WriteHeader(code)
		s.render(w, "trials.html", layoutData{Title: "Trials", Error: msg, Page: d})
		return
	}
	pg, err := newPaging(r, len(infos))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Paging = pg
	for _, ti := range infos[pg.From:pg.To] {
		md, err := s.db.TrialMetadata(r.Context(), ti.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		d.Trials = append(d.Trials, trialRow{TrialInfo: ti, Meta: sortedMeta(md)})
	}
	s.render(w, "trials.html", layoutData{Title: "Trials", Nav: "trials", Page: d})
}

// selectTrials returns every trial, or those where selects.
func (s *Server) selectTrials(ctx context.Context, where string) ([]store.TrialInfo, error) {
	if where == "" {
		return s.db.Trials(ctx)
	}
	return s.db.SelectTrials(ctx, store.Selection{Where: where})
}

func sortedMeta(md map[string]string) []keyValue {
	out := make([]keyValue, 0, len(md))
	for k, v := range md {
		out = append(out, keyValue{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
