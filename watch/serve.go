package watch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/taudb-analyze/taudb-analyze/report"
)

// Server pushes the live view to open pages: GET / is the page, GET
// /events a text/event-stream (Server-Sent Events) that sends the view at
// once and then at every update, GET /echarts.min.js the chart library.
// Nothing is fetched from elsewhere.
type Server struct {
	mu   sync.Mutex
	view []byte
	subs map[chan []byte]bool
	srv  *http.Server
	ln   net.Listener
}

// Listen starts a server on addr; an address without a host listens on
// the loopback interface only (127.0.0.1), never on every interface.
func Listen(addr string) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--serve %q: want HOST:PORT or :PORT: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("--serve %s: %w", addr, err)
	}
	s := &Server{subs: map[chan []byte]bool{}, ln: ln, view: []byte(`{"status":"starting"}`)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /echarts.min.js", s.asset)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Update sends view to every open page.
func (s *Server) Update(view []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.view = view
	for ch := range s.subs {
		select { // a page that has not taken the last view gets this one instead
		case <-ch:
		default:
		}
		ch <- view
	}
	return nil
}

// Close stops the server and ends the event streams.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.mu.Lock()
	for ch := range s.subs {
		close(ch)
		delete(s.subs, ch)
	}
	s.mu.Unlock()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	v := s.view
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(PageHTML(v, 0, true))
}

func (s *Server) asset(w http.ResponseWriter, _ *http.Request) {
	b, err := report.Asset("echarts.min.js")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript")
	w.Write(b)
}

// events streams the view to one page until it goes away.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan []byte, 1)
	s.mu.Lock()
	ch <- s.view
	s.subs[ch] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	for {
		select {
		case <-r.Context().Done():
			return
		case v, open := <-ch:
			if !open {
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", v) // the JSON has no newline
			fl.Flush()
		}
	}
}
