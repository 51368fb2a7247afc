package serve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's Chromium.
const chromiumPath = "/usr/bin/chromium"

// browser starts headless Chromium (skipping the test when there is none,
// unless TAUDB_REQUIRE_BROWSER is set) with every host name unresolvable,
// and records every request and console message of the page.
func browser(t *testing.T) (context.Context, *pageLog) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("TAUDB_REQUIRE_BROWSER") != "" {
			t.Fatalf("TAUDB_REQUIRE_BROWSER is set but %s is missing: %v", chromiumPath, err)
		}
		t.Skipf("no headless browser at %s (apt install chromium); set TAUDB_REQUIRE_BROWSER=1 to make this a failure", chromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath), chromedp.NoSandbox,
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"), chromedp.Flag("disable-gpu", true),
		chromedp.WindowSize(1200, 800), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	pl := &pageLog{}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(pl.record))
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancel(); cancelA() })
	return ctx, pl
}

// pageLog holds what the pages did: every request's URL and every console
// message (console calls, exceptions, browser log entries such as a failed
// load or a policy violation).
type pageLog struct {
	mu       sync.Mutex
	requests []string
	console  []string
}

func (p *pageLog) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, e.Request.URL)
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range e.Args {
			args = append(args, string(a.Value)+a.Description)
		}
		p.console = append(p.console, string(e.Type)+": "+strings.Join(args, " "))
	case *runtime.EventExceptionThrown:
		p.console = append(p.console, "exception: "+e.ExceptionDetails.Text)
	case *log.EventEntryAdded:
		p.console = append(p.console, string(e.Entry.Level)+": "+e.Entry.Text+" "+e.Entry.URL)
	}
}

// check fails the test for any console message or any request beyond the
// server.
func (p *pageLog) check(t *testing.T, server string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.console {
		t.Errorf("console: %s", c)
	}
	for _, u := range p.requests {
		if !strings.HasPrefix(u, server+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("a request beyond the server: %s", u)
		}
		if strings.Contains(u, "x-injected") {
			t.Errorf("a hostile name became an element that loaded %s", u)
		}
	}
	if len(p.requests) < 10 {
		t.Errorf("only %d requests recorded: is the listener working?", len(p.requests))
	}
}

// shots is where the screenshots go: $TAUDB_SERVE_SHOTS (docs/img to
// refresh the README's), else a temporary folder.
func shots(t *testing.T) string {
	if d := os.Getenv("TAUDB_SERVE_SHOTS"); d != "" {
		return d
	}
	return t.TempDir()
}

// shot saves a screenshot of the window as serve-NAME.png.
func shot(t *testing.T, dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		png, err := chromedp.CaptureScreenshot()(ctx, tg)
		if err != nil {
			return err
		}
		if len(png) < 10000 {
			t.Errorf("screenshot %s: only %d bytes", name, len(png))
		}
		return os.WriteFile(filepath.Join(dir, "serve-"+name+".png"), png, 0o644)
	})
}

// noMarkup fails when a hostile name became an element, and when want (a
// hostile name) is not shown as text.
func noMarkup(t *testing.T, page string, want ...string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		n, err := chromedp.Evaluate[int](`document.querySelectorAll("b, i, img").length`)(ctx, tg)
		if err != nil {
			return err
		}
		if n != 0 {
			t.Errorf("%s: %d elements made from a hostile name", page, n)
		}
		text, err := chromedp.Evaluate[string](`document.body.innerText + " " + Array.from(document.querySelectorAll("[title]")).map(e => e.title).join(" ")`)(ctx, tg)
		if err != nil {
			return err
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q is not shown as text", page, w)
			}
		}
		return nil
	})
}
