package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

const chromiumPath = "/usr/bin/chromium"

// browser starts headless Chromium with every remote host unresolvable
// and records the URL of every request the pages make.
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("TAUDB_REQUIRE_BROWSER") != "" {
			t.Fatalf("TAUDB_REQUIRE_BROWSER is set but %s is missing", chromiumPath)
		}
		t.Skipf("no headless browser at %s", chromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()), chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	var mu sync.Mutex
	var urls []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	return ctx, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), urls...) }
}

// waitInterval waits until the page shows interval k.
func waitInterval(t *testing.T, ctx context.Context, k string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? (document.body.dataset.interval || "") : ""`))
		if err == nil && got == k {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never showed interval %s (last %q)", k, got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// liveJob is a watched job whose intervals the test writes on demand.
type liveJob struct {
	t  *testing.T
	wr *synth.Writer
	w  *Watcher
}

func newLiveJob(t *testing.T) *liveJob {
	job, err := synth.NewJob(synth.JobSpec{Ranks: 8, Regions: 4, Intervals: 8, Noise: 0.02, Seed: 5, SlowRank: 2, SlowFrom: 5, SlowFactor: 2, PhaseRegion: -1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := New(dir, Options{Ranks: 8})
	if err != nil {
		t.Fatal(err)
	}
	return &liveJob{t: t, wr: &synth.Writer{Job: job, Dir: dir}, w: w}
}

// advance writes n more intervals and returns the view once they closed.
func (j *liveJob) advance(n int) []byte {
	for range n {
		if _, err := j.wr.Next(); err != nil {
			j.t.Fatal(err)
		}
	}
	ivs, err := j.w.Poll(context.Background())
	if err != nil || len(ivs) != n {
		j.t.Fatalf("poll: %d intervals, %v", len(ivs), err)
	}
	j.w.Add(ivs)
	return j.w.View()
}

func (j *liveJob) checkDOM(ctx context.Context) {
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.chart canvas').length`))
	if err != nil {
		j.t.Fatal(err)
	}
	anomalies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('t-anomalies').textContent`))
	if err != nil {
		j.t.Fatal(err)
	}
	if charts < 3 {
		j.t.Errorf("%d chart canvases, want 3 (the chart library did not draw)", charts)
	}
	if !strings.Contains(anomalies, "rank 2.0.0") {
		j.t.Errorf("the anomalies table lacks the slow rank: %q", anomalies)
	}
}

// TestLivePageFile opens the page from the file system: it reloads itself
// and shows each new interval, with no request other than file:// ones.
func TestLivePageFile(t *testing.T) {
	ctx, urls := browser(t)
	j := newLiveJob(t)
	page := &Page{Dir: filepath.Join(t.TempDir(), "live"), Refresh: 1}
	if err := page.Write(j.advance(2)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(page.Dir, "index.html"))); err != nil {
		t.Fatal(err)
	}
	waitInterval(t, ctx, "1")
	if err := page.Write(j.advance(4)); err != nil {
		t.Fatal(err)
	}
	waitInterval(t, ctx, "5")
	j.checkDOM(ctx)
	reqs := urls()
	if len(reqs) < 4 { // two pages and their chart library at least
		t.Errorf("only %d requests recorded: %v", len(reqs), reqs)
	}
	for _, u := range reqs {
		if !strings.HasPrefix(u, "file://") {
			t.Errorf("network request: %s", u)
		}
	}
}

// TestLivePageServe opens the served page: updates arrive over the event
// stream without a reload, and every request goes to the watch's server.
func TestLivePageServe(t *testing.T) {
	ctx, urls := browser(t)
	j := newLiveJob(t)
	srv, err := Listen(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Errorf("server not on loopback: %s", srv.URL())
	}
	srv.Update(j.advance(2))
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL()), chromedp.Evaluate[chromedp.Void](`window.marker = 42`)); err != nil {
		t.Fatal(err)
	}
	waitInterval(t, ctx, "1")
	srv.Update(j.advance(4))
	waitInterval(t, ctx, "5")
	marker, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.marker || 0`))
	if err != nil || marker != 42 {
		t.Errorf("the page was reloaded instead of updated (marker %d, %v)", marker, err)
	}
	j.checkDOM(ctx)
	for _, u := range urls() {
		if !strings.HasPrefix(u, srv.URL()) {
			t.Errorf("request outside the watch's server: %s", u)
		}
	}
}
