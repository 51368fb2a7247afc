package serve

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net/http"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// DefaultCacheBytes bounds the trials kept in memory when Options.CacheBytes
// is 0: 4 GiB, a 16,384-thread × 1,000-region trial of 2 metrics about 1 GB.
const DefaultCacheBytes = 4 << 30

// Options configure a Server.
type Options struct {
	// DB is the database, opened read-only unless AllowAnalyses (the
	// server never writes without it).
	DB *store.DB
	// AllowAnalyses shows the analysis form and lets it run analyses and
	// store their results.
	AllowAnalyses bool
	// Token, when set, must accompany every request (see the package
	// documentation); required for an address beyond loopback.
	Token string
	// CacheBytes bounds the loaded trials kept in memory
	// (DefaultCacheBytes when 0).
	CacheBytes int64
	// Log receives the server's log: database errors in full, which the
	// browser never sees (os.Stderr in the command; io.Discard when nil).
	Log io.Writer
	// Runner runs analyses for the form; nil means no analysis can be run
	// even with AllowAnalyses.
	Runner AnalysisRunner
}

// Server is the web application; it is an http.Handler.
type Server struct {
	opt   Options
	db    *store.DB
	cache *trialCache
	log   *log.Logger
	pages map[string]*template.Template
	mux   *http.ServeMux
}

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

// New makes a server over opt.DB.
func New(opt Options) (*Server, error) {
	if opt.DB == nil {
		return nil, errors.New("serve: no database")
	}
	if opt.CacheBytes <= 0 {
		opt.CacheBytes = DefaultCacheBytes
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	s := &Server{opt: opt, db: opt.DB, log: log.New(opt.Log, "serve: ", log.LstdFlags)}
	s.cache = newTrialCache(func(ctx context.Context, id int64) (*drg.Trial, error) {
		t, err := s.db.LoadTrial(ctx, id)
		if err == nil {
			// The views index every (node, thread) cell.
			err = t.MakeDense("the web views")
		}
		if err != nil {
			return nil, err
		}
		return t, nil
	}, opt.CacheBytes)
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s.pages = pages
	s.mux = s.routes()
	return s, nil
}

// parsePages parses every page template with the layout.
func parsePages() (map[string]*template.Template, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		if n == "templates/layout.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("serve: template %s: %w", n, err)
		}
		out[n[len("templates/"):]] = t
	}
	return out, nil
}

// routes lists every address the server answers.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.trialsPage)
	m.HandleFunc("GET /trial/{id}", s.regionsPage)
	m.HandleFunc("GET /trial/{id}/region/{node}", s.regionPage)
	m.HandleFunc("GET /trial/{id}/thread/{th}", s.threadPage)
	m.HandleFunc("GET /trial/{id}/tree", s.treePage)
	m.HandleFunc("GET /compare", s.comparePage)
	m.HandleFunc("GET /results", s.resultsPage)
	m.HandleFunc("GET /results/{id}", s.resultPage)
	m.HandleFunc("GET /analyses", s.analysesPage)
	m.HandleFunc("GET /analyses/{name}", s.analysisForm)
	m.HandleFunc("POST /analyses/{name}", s.runAnalysis)
	m.HandleFunc("GET /api/trial/{id}/regions", s.regionsChart)
	m.HandleFunc("GET /api/trial/{id}/threads", s.threadsOverview)
	m.HandleFunc("GET /api/trial/{id}/region/{node}", s.regionChart)
	m.HandleFunc("GET /api/trial/{id}/thread/{th}", s.threadChart)
	m.HandleFunc("GET /api/trial/{id}/tree", s.treeChildren)
	m.HandleFunc("GET /api/trial/{id}/icicle", s.icicle)
	m.HandleFunc("GET /api/compare", s.compareChart)
	m.HandleFunc("GET /assets/{file}", s.asset)
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		r.SetPathValue("file", "favicon.svg")
		s.asset(w, r)
	})
	return m
}

// ServeHTTP checks the request (host, token, origin) and answers it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSafetyHeaders(w)
	if !s.allowed(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}
