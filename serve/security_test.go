package serve

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// do sends a request with a Host header and extra headers.
func do(t *testing.T, ts interface{ Client() *http.Client }, method, u, host string, hdr map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestHostAndToken: without a token only loopback Host names are answered
// (DNS rebinding); with one, every request must carry it.
func TestHostAndToken(t *testing.T) {
	f := newFixture(t)
	open := f.server(t, Options{})
	for host, want := range map[string]int{"": 200, "localhost:8080": 200, "[::1]:80": 200, "127.0.0.2": 200,
		"evil.example:8080": http.StatusMisdirectedRequest, "10.0.0.1:8080": http.StatusMisdirectedRequest} {
		if got := do(t, open, "GET", open.URL+"/", host, nil, "").StatusCode; got != want {
			t.Errorf("Host %q: status %d, want %d", host, got, want)
		}
	}
	tok := f.server(t, Options{Token: "s3cr3t-t0ken"})
	if got := do(t, tok, "GET", tok.URL+"/", "", nil, "").StatusCode; got != 401 {
		t.Errorf("no token: %d", got)
	}
	if got := do(t, tok, "GET", tok.URL+"/?token=wrong", "", nil, "").StatusCode; got != 401 {
		t.Errorf("wrong token: %d", got)
	}
	res := do(t, tok, "GET", tok.URL+"/?token=s3cr3t-t0ken", "any.host:1", nil, "")
	if res.StatusCode != 200 || len(res.Cookies()) != 1 || !res.Cookies()[0].HttpOnly {
		t.Fatalf("right token: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	c := res.Cookies()[0]
	if got := do(t, tok, "GET", tok.URL+"/trial/1", "", map[string]string{"Cookie": c.Name + "=" + c.Value}, "").StatusCode; got != 200 {
		t.Errorf("with the cookie: %d", got)
	}
	if got := do(t, tok, "GET", tok.URL+"/api/trial/1/tree", "", map[string]string{"Authorization": "Bearer s3cr3t-t0ken"}, "").StatusCode; got != 200 {
		t.Errorf("with a bearer token: %d", got)
	}
	for _, a := range []string{"127.0.0.1:8080", "localhost:1", "[::1]:9"} {
		if !IsLoopback(a) {
			t.Errorf("%s is loopback", a)
		}
	}
	for _, a := range []string{":8080", "0.0.0.0:8080", "example.org:80", "[::]:8080", "10.1.2.3:80"} {
		if IsLoopback(a) {
			t.Errorf("%s is not loopback", a)
		}
	}
}

// TestNoWriteWithoutFlag: the analysis form does not exist without
// AllowAnalyses, and a POST from another site is refused even with it.
func TestNoWriteWithoutFlag(t *testing.T) {
	f := newFixture(t)
	ro := f.server(t, Options{Runner: &testRunner{db: f.db}})
	form := url.Values{"trials": {"1"}}.Encode()
	ct := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": ro.URL}
	if got := do(t, ro, "POST", ro.URL+"/analyses/regions", "", ct, form).StatusCode; got != 404 {
		t.Errorf("POST without --allow-analyses: %d", got)
	}
	if code, _ := get(t, ro, "/analyses"); code != 404 {
		t.Errorf("form without --allow-analyses: %d", code)
	}
	rw := f.server(t, Options{AllowAnalyses: true, Runner: &testRunner{db: f.db}})
	ct["Origin"] = "http://evil.example"
	if got := do(t, rw, "POST", rw.URL+"/analyses/regions", "", ct, form).StatusCode; got != 403 {
		t.Errorf("cross-site POST: %d", got)
	}
	ct["Origin"] = rw.URL
	res := do(t, rw, "POST", rw.URL+"/analyses/regions", "", ct, form)
	if res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), "/results/") {
		t.Fatalf("POST from the server's page: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	code, body := get(t, rw, res.Header.Get("Location"))
	if code != 200 || !strings.Contains(body, "regions") {
		t.Errorf("the stored result's page: %d", code)
	}
	ct["Origin"] = rw.URL
	if got := do(t, rw, "POST", rw.URL+"/analyses/regions", "", ct, "").StatusCode; got != 400 {
		t.Errorf("no trial chosen: %d, want 400", got)
	}
}

// TestSecretsStayOnServer: no page or answer names the database, even
// when the database fails; the policy header forbids other hosts.
func TestSecretsStayOnServer(t *testing.T) {
	f := newFixture(t)
	ts := f.server(t, Options{AllowAnalyses: true, Runner: &testRunner{db: f.db}})
	paths := []string{"/", "/?where=nonsense+%3D%3D", "/trial/1", "/trial/1/region/1", "/trial/1/thread/0", "/trial/1/tree",
		"/api/trial/1/tree?q=work", "/api/trial/3/icicle", "/compare?trials=1,2", "/results", "/analyses", "/analyses/regions", "/trial/12345"}
	for _, p := range paths {
		res, err := ts.Client().Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		buf := make([]byte, 8192)
		for {
			n, err := res.Body.Read(buf)
			b.WriteString(string(buf[:n]))
			if err != nil {
				break
			}
		}
		res.Body.Close()
		if strings.Contains(b.String(), "secret-db-name") || strings.Contains(b.String(), "sqlite:") {
			t.Errorf("%s names the database", p)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: policy %q", p, csp)
		}
	}
	f.db.Close() // every later query fails
	code, body := get(t, ts, "/results")
	if code != 500 || strings.Contains(body, "secret-db-name") || !strings.Contains(body, "the database could not answer") {
		t.Errorf("a failing database: %d %s", code, body)
	}
}
