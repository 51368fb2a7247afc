package main

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeFlags: an address beyond loopback without a token, and a
// malformed address, are usage errors (exit 2) before anything opens.
func TestServeFlags(t *testing.T) {
	r := cli(t, nil, "--db", "sqlite:"+filepath.Join(t.TempDir(), "none.db"), "serve", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "--token") {
		t.Errorf("beyond loopback without a token: %d %s", r.code, r.stderr)
	}
	r = cli(t, nil, "serve", "--addr", "8080")
	if r.code != 2 || !strings.Contains(r.stderr, "host:port") {
		t.Errorf("--addr 8080: %d %s", r.code, r.stderr)
	}
}

// startServe runs the binary's serve command and returns its address,
// stopping it (SIGINT, which must end it with exit 0) at the end of the
// test.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("serve printed no address: %v; stderr %s", err, stderr.String())
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve after SIGINT: %v; stderr %s", err, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Error("serve did not stop on SIGINT")
		}
	})
	return strings.TrimSuffix(strings.TrimSpace(line), "/")
}

// fetch sends a request and returns the status, the Location and the body.
func fetch(t *testing.T, method, u string, form url.Values, origin string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location"), string(b)
}

// TestServeCLI runs serve as a user does: read-only it shows the trials
// and leaves the database file untouched; with --allow-analyses the form
// runs an analysis, whose result "results" then lists.
func TestServeCLI(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "t.db")
	if r := cli(t, nil, "synth", "--out", filepath.Join(dir, "runs"), "--processes", "4", "--regions", "5"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := cli(t, nil, "--db", db, "load", "-q", "-n", "served", filepath.Join(dir, "runs", "p4")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	before, err := os.ReadFile(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	ro := startServe(t, "--db", db, "serve", "--addr", "127.0.0.1:0")
	if code, _, body := fetch(t, "GET", ro+"/", nil, ""); code != 200 || !strings.Contains(body, ">served</a>") {
		t.Errorf("trials page: %d", code)
	}
	if code, _, _ := fetch(t, "GET", ro+"/trial/1/region/1", nil, ""); code != 200 {
		t.Errorf("region page: %d", code)
	}
	if code, _, _ := fetch(t, "POST", ro+"/analyses/imbalance", url.Values{"trials": {"1"}}, ro); code != 404 {
		t.Errorf("read-only POST: %d, want 404", code)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "t.db"))
	if string(before) != string(after) {
		t.Error("the read-only server changed the database file")
	}
	rw := startServe(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--allow-analyses")
	code, loc, body := fetch(t, "POST", rw+"/analyses/imbalance", url.Values{"trials": {"1"}}, rw)
	if code != 303 || !strings.HasPrefix(loc, "/results/") {
		t.Fatalf("run imbalance: %d %q %s", code, loc, body)
	}
	if code, _, body := fetch(t, "GET", rw+loc, nil, ""); code != 200 || !strings.Contains(body, "imbalance") {
		t.Errorf("the result's page: %d", code)
	}
	if r := cli(t, nil, "--db", db, "results"); !strings.Contains(r.stdout, "imbalance") {
		t.Errorf("results does not list the stored imbalance:\n%s", r.stdout)
	}
	if code, _, body := fetch(t, "POST", rw+"/analyses/compare", url.Values{"trials": {"1"}}, rw); code != 400 || !strings.Contains(body, "at least 2") {
		t.Errorf("compare of one trial: %d", code)
	}
	// The form is built from the registry's options, and they reach the
	// analysis: regions --top 3 lists 3 regions.
	if _, _, body := fetch(t, "GET", rw+"/analyses/regions", nil, ""); !strings.Contains(body, `name="top"`) || !strings.Contains(body, `name="inclusive"`) {
		t.Error("the regions form lacks its options top and inclusive")
	}
	code, loc, body = fetch(t, "POST", rw+"/analyses/regions", url.Values{"trials": {"1"}, "top": {"3"}}, rw)
	if code != 303 {
		t.Fatalf("regions --top 3: %d %s", code, body)
	}
	id := strings.TrimPrefix(loc, "/results/")
	r := cli(t, nil, "--db", db, "--format", "json", "results", id)
	if !strings.Contains(r.stdout, `"top": "3"`) && !strings.Contains(r.stdout, `"top":"3"`) {
		t.Errorf("the stored regions result does not record top=3:\n%.600s", r.stdout)
	}
	if code, _, body := fetch(t, "POST", rw+"/analyses/regions", url.Values{"trials": {"1"}, "top": {"three"}}, rw); code != 400 || !strings.Contains(body, "top") {
		t.Errorf("top=three: %d %.300s", code, body)
	}
}
