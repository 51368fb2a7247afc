package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWritePage: a page written alone has the chart library and index
// addresses given, the same charts and tables as in a report folder, and
// the hostile names as text.
func TestWritePage(t *testing.T) {
	res := evilResults(t)[0]
	var b bytes.Buffer
	opt := PageOptions{EChartsURL: "/assets/echarts.min.js", IndexURL: "/results", IndexTitle: "Stored <results>", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := WritePage(&b, res, opt); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<script src="/assets/echarts.min.js">`, `<a href="/results">Stored &lt;results&gt;</a>`, "2026-01-02T03:04:05Z", "&lt;script&gt;alert(1)&lt;/script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)</script>") {
		t.Error("a hostile name became markup")
	}
	if got, want := len(chartDivRe.FindAllString(page, -1)), len(Charts(res)); got != want || want == 0 {
		t.Errorf("%d chart divs, want %d", got, want)
	}
	if js := EChartsJS(); len(js) < 500000 || !bytes.Contains(js, []byte("echarts")) {
		t.Errorf("EChartsJS is not the library (%d bytes)", len(EChartsJS()))
	}
	if err := WritePage(&b, nil, opt); err == nil {
		t.Error("no result: no error")
	}
}
