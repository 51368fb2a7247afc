package watch

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/report"
)

// Page keeps the live page of a watch in a folder: index.html, with the
// view embedded and reloading itself every Refresh seconds while the run
// goes on (it works opened from the file system: no server, no network),
// and the chart library beside it (echarts.min.js with its licence).
type Page struct {
	Dir string
	// Refresh is the reload period in seconds (default 2).
	Refresh int
	assets  bool
}

// Write replaces the page with one showing view (Watcher.View). The new
// page is written to a temporary file and renamed over the old one, so a
// reload never sees half a page.
func (p *Page) Write(view []byte) error {
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return fmt.Errorf("live page: %w", err)
	}
	if !p.assets {
		for _, name := range []string{"echarts.min.js", "LICENSE", "NOTICE"} {
			b, err := report.Asset(name)
			if err != nil {
				return fmt.Errorf("live page: %w", err)
			}
			if err := writeAtomic(filepath.Join(p.Dir, assetName(name)), b); err != nil {
				return err
			}
		}
		p.assets = true
	}
	refresh := p.Refresh
	if refresh <= 0 {
		refresh = 2
	}
	if bytes.Contains(view, []byte(`"status":"ended"`)) {
		refresh = 0
	}
	return writeAtomic(filepath.Join(p.Dir, "index.html"), PageHTML(view, refresh, false))
}

// assetName is where an asset goes in the page's folder.
func assetName(name string) string {
	if name == "echarts.min.js" {
		return name
	}
	return "echarts-" + name
}

// writeAtomic writes b to path through a temporary file and a rename.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("live page: %w", err)
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("live page %s: %w", path, err)
	}
	return nil
}

// PageHTML returns the live page for view: it reloads itself every refresh
// seconds (0: never) or, with live, takes each new view from the server's
// event stream (events, relative to the page).
func PageHTML(view []byte, refresh int, live bool) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	if refresh > 0 && !live {
		fmt.Fprintf(&b, "<meta http-equiv=\"refresh\" content=\"%d\">\n", refresh)
	}
	b.WriteString("<title>taudb-analyze watch</title>\n<style>" + pageCSS + "</style>\n")
	b.WriteString("<script src=\"echarts.min.js\"></script>\n</head><body>\n" + pageBody)
	b.WriteString("<script id=\"state\" type=\"application/json\">")
	b.Write(view) // json.Marshal escapes <, > and &: no </script> inside
	b.WriteString("</script>\n<script>\n" + pageJS)
	if live {
		b.WriteString("var es = new EventSource('events');\nes.onmessage = function (e) { render(JSON.parse(e.data)); };\n")
	}
	b.WriteString("render(JSON.parse(document.getElementById('state').textContent));\n</script>\n</body></html>\n")
	return []byte(b.String())
}

const pageCSS = `body{font-family:sans-serif;margin:1em 2em;color:#222}
.chart{width:100%;height:320px}
.row{display:flex;gap:2em;flex-wrap:wrap}.row>div{flex:1;min-width:420px}
table{border-collapse:collapse;font-size:90%;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
td.t,th.t{text-align:left}
.flag{color:#a00}.meta{color:#666}`

const pageBody = `<h1>taudb-analyze watch</h1>
<p class="meta" id="status"></p>
<div class="row"><div><h2>Program time per rank (µs)</h2><div class="chart" id="c-program"></div></div>
<div><h2>Top regions, exclusive µs per rank</h2><div class="chart" id="c-regions"></div></div></div>
<div class="row"><div><h2 id="h-hist">Histogram</h2><div class="chart" id="c-hist"></div></div>
<div><h2>Clusters of ranks (k-means)</h2><p id="k-note"></p><table id="t-clusters"></table></div></div>
<h2>Anomalies</h2><table id="t-anomalies"></table>
<h2>Regions in the latest interval</h2><table id="t-regions"></table>
<h2>Notes</h2><ul id="notes"></ul>
`

const pageJS = `var charts = {};
function chart(id) {
  if (typeof echarts === 'undefined') { document.getElementById(id).textContent = 'The chart library (echarts.min.js) did not load.'; return null; }
  if (!charts[id]) charts[id] = echarts.init(document.getElementById(id));
  return charts[id];
}
function fmt(x) { return (typeof x === 'number') ? (Math.abs(x) >= 1e5 || (x !== 0 && Math.abs(x) < 1e-2) ? x.toExponential(3) : (Math.round(x * 1000) / 1000).toString()) : String(x); }
function rank(r) { return r.Node + '.' + r.Context + '.' + r.Thread; }
function table(id, head, rows) {
  var t = document.getElementById(id); t.textContent = '';
  var tr = t.insertRow();
  head.forEach(function (h, i) { var th = document.createElement('th'); th.textContent = h; if (i === 0) th.className = 't'; tr.appendChild(th); });
  rows.forEach(function (r) { var tr = t.insertRow(); r.forEach(function (c, i) { var td = tr.insertCell(); td.textContent = fmt(c); if (typeof c !== 'number') td.className = 't'; }); });
}
function render(s) {
  var cur = s.current, n = s.series || [];
  document.body.dataset.interval = cur ? cur.index : -1;
  document.body.dataset.status = s.status;
  document.getElementById('status').textContent = s.dir + ': ' + s.status + ', ' + n.length + ' intervals' +
    (cur ? ', latest ' + cur.index + ' with ' + cur.ranks + ' ranks' + (cur.missing && cur.missing.length ? ' (' + cur.missing.length + ' missing)' : '') : '') + '; updated ' + s.updated;
  var x = n.map(function (p) { return p.index; });
  var c = chart('c-program');
  if (c) c.setOption({ animation: false, tooltip: { trigger: 'axis' }, legend: {}, xAxis: { type: 'category', name: 'interval', data: x }, yAxis: { type: 'value' },
    series: ['mean', 'min', 'max'].map(function (k) { return { name: k, type: 'line', data: n.map(function (p) { return p[k]; }) }; }) });
  var names = {};
  n.forEach(function (p) { Object.keys(p.top || {}).forEach(function (r) { names[r] = true; }); });
  c = chart('c-regions');
  if (c) c.setOption({ animation: false, tooltip: { trigger: 'axis' }, legend: { type: 'scroll' }, xAxis: { type: 'category', name: 'interval', data: x }, yAxis: { type: 'value' },
    series: Object.keys(names).map(function (r) { return { name: r, type: 'line', data: n.map(function (p) { return (p.top && r in p.top) ? p.top[r] : null; }) }; }) }, true);
  if (cur && cur.histograms && cur.histograms.length) {
    var h = cur.histograms[0], w = (h.Max - h.Min) / h.Counts.length;
    document.getElementById('h-hist').textContent = 'Ranks by program time, interval ' + cur.index;
    c = chart('c-hist');
    if (c) c.setOption({ animation: false, tooltip: {}, xAxis: { type: 'category', name: 'µs', data: h.Counts.map(function (_, i) { return fmt(h.Min + i * w); }) }, yAxis: { type: 'value', name: 'ranks' },
      series: [{ type: 'bar', data: h.Counts }] });
  }
  document.getElementById('k-note').textContent = !cur ? '' : (cur.silhouette === undefined ?
    'One group: no k-means of 2 or more clusters reaches a mean silhouette of 0.5, so the ranks differ by noise only.' :
    'k chosen by the largest mean silhouette: ' + fmt(cur.silhouette) + ' (at least 0.5).');
  table('t-clusters', ['cluster', 'ranks', 'program mean µs', 'first ranks'], cur && cur.clusters ? cur.clusters.map(function (k, i) { return [String(i), k.Size, k.ProgramMean, (k.Ranks || []).map(rank).join(' ')]; }) : []);
  table('t-anomalies', ['interval', 'rule', 'rank', 'region', 'what'], (s.anomalies || []).slice().reverse().map(function (a) { return [String(a.Interval), a.Kind, a.Rank, a.Region, a.Message]; }));
  table('t-regions', ['region', 'ranks', 'mean µs', 'min', 'max', 'stddev', 'max rank'], cur && cur.regions ? cur.regions.map(function (r) { return [r.Region, r.Count, r.Mean, r.Min, r.Max, r.StdDev, rank(r.MaxRank)]; }) : []);
  var ul = document.getElementById('notes'); ul.textContent = '';
  (s.notes || []).forEach(function (m) { var li = document.createElement('li'); li.textContent = m; ul.appendChild(li); });
}
`
