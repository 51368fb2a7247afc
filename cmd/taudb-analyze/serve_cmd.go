package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/serve"
)

// serveFlags are the flags of the serve command.
type serveFlags struct {
	addr          string
	token         string
	allowAnalyses bool
	cacheMB       int
}

func (a *app) serveCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--allow-analyses] [--token T]",
		Short: "Explore the database's trials and results in a web browser",
		Long: `serve starts a local web application over the database: the trials with
their metadata and a filter (the --where language), a trial's regions as
ParaProf shows them (per-thread bars; mean, min, max and standard deviation
across threads; exclusive or inclusive; any metric or a derived metric such
as PAPI_FP_OPS / TIME), the call tree as an expandable tree table and an
icicle graph with a filter box, two or more trials side by side by region
with their differences, and the stored results with their report pages.

Read-only unless --allow-analyses: the database is opened read-only and
nothing is written. With --allow-analyses a form runs an analysis on the
trials chosen and stores its result.

The server listens on the loopback interface (127.0.0.1:8080) by default
and then answers only requests addressed to a loopback name. An address
beyond loopback (0.0.0.0:8080, a host name) needs --token (or
$TAUDB_SERVE_TOKEN): open the printed address once with ?token=...; the
browser keeps it in a cookie, and scripts may send "Authorization: Bearer
TOKEN". The database URL and its password never reach the browser. The
pages need no network beyond this server.

A trial is read from the database on its first view (a 16,384-thread trial
takes some seconds) and kept in memory, up to --cache-mb; later views of it
are computed from memory.`,
		Example: `  taudb-analyze serve                          # then open http://127.0.0.1:8080/
  taudb-analyze --db postgres://me@dbhost/taudb serve --addr 127.0.0.1:9000
  taudb-analyze serve --allow-analyses         # the Analyses form can store results
  TAUDB_SERVE_TOKEN=$(openssl rand -hex 16) taudb-analyze serve --addr 0.0.0.0:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runServe(cmd.Context(), f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port); beyond loopback it needs --token")
	fl.StringVar(&f.token, "token", "", "a secret every request must carry (?token=, a cookie or Authorization: Bearer); default $TAUDB_SERVE_TOKEN")
	fl.BoolVar(&f.allowAnalyses, "allow-analyses", false, "open the database read-write and offer the form that runs analyses and stores their results")
	fl.IntVar(&f.cacheMB, "cache-mb", serve.DefaultCacheBytes>>20, "memory for the trials kept loaded, in MB (least recently viewed out first)")
	return cmd
}

// runServe checks the flags, opens the database and serves until
// interrupted.
func (a *app) runServe(ctx context.Context, f serveFlags) error {
	if f.token == "" {
		f.token = os.Getenv("TAUDB_SERVE_TOKEN")
	}
	if _, _, err := net.SplitHostPort(f.addr); err != nil {
		return usagef("--addr %q: want host:port, such as 127.0.0.1:8080", f.addr)
	}
	if !serve.IsLoopback(f.addr) && f.token == "" {
		return usagef("--addr %s is beyond the loopback interface: give --token (or $TAUDB_SERVE_TOKEN) so that only those who have it can read the database", f.addr)
	}
	if f.cacheMB < 1 {
		return usagef("--cache-mb %d: want at least 1", f.cacheMB)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	db, err := a.openFor(ctx, f.allowAnalyses)
	if err != nil {
		return err
	}
	defer db.Close()
	opt := serve.Options{DB: db, AllowAnalyses: f.allowAnalyses, Token: f.token, CacheBytes: int64(f.cacheMB) << 20, Log: a.errOut}
	if f.allowAnalyses {
		opt.Runner = &analysisRunner{a: a, db: db}
	}
	srv, err := serve.New(opt)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return a.serveOn(ctx, ln, srv, f, db.URL())
}

// serveOn prints the address and serves until ctx ends, then lets running
// requests finish for up to 5 s.
func (a *app) serveOn(ctx context.Context, ln net.Listener, h http.Handler, f serveFlags, dbName string) error {
	where := "http://" + ln.Addr().String() + "/"
	if f.token != "" {
		where += "?token=" + f.token
	}
	mode := "read-only"
	if f.allowAnalyses {
		mode = "analyses allowed: results are stored"
	}
	fmt.Fprintln(a.out, where)
	a.info("serving %s (%s); interrupt to stop", dbName, mode)
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: %w", err)
	}
	a.info("stopped")
	return nil
}
