package report

import "html/template"

// style is shared by the index and the pages.
const style = `<style>
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}
th{background:#f2f2f2;cursor:pointer;user-select:none}
th.num,td.num{text-align:right}
th[aria-sort=ascending]::after{content:" \25B2"}
th[aria-sort=descending]::after{content:" \25BC"}
.chart{width:100%;border:1px solid #eee}
.meta{color:#555;font-size:.9em}
.finding{margin:.2em 0}
caption{text-align:left;font-weight:bold;padding:.3em 0}
.wrap{overflow-x:auto}
</style>`

// sortScript makes every table with class "sortable" sortable by a click on
// a column's header: numbers by their data-sort value (undefined last),
// text by locale order.
const sortScript = `<script>
(function () {
  function key(td, num) {
    if (!num) return td.textContent;
    var s = td.getAttribute("data-sort");
    return s === null || s === "" ? NaN : parseFloat(s);
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var num = th.classList.contains("num");
        var asc = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col], num), y = key(b.cells[col], num), c;
          if (num) {
            if (isNaN(x) || isNaN(y)) return isNaN(x) - isNaN(y);
            c = x - y;
          } else {
            c = x.localeCompare(y);
          }
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
</script>`

const tableTmpl = `{{define "table"}}<div class="wrap"><table class="sortable" id="{{.ID}}">
<caption>{{.Title}}</caption>
<thead><tr>{{range .Header}}<th{{if .Numeric}} class="num"{{end}} title="{{.Name}}">{{.Name}}{{if .Unit}} [{{.Unit}}]{{end}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}{{if .Sort}}<td class="num" data-sort="{{.Sort}}">{{.Text}}</td>{{else}}<td>{{.Text}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}`

const metaTmpl = `{{define "params"}}{{range $i, $p := .}}{{if $i}}, {{end}}{{$p.Name}}={{$p.Value}}{{end}}{{end}}`

var pageTmpl = template.Must(template.New("page").Parse(tableTmpl + metaTmpl + `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
` + style + `
<script src="{{.EChartsJS}}"></script>
</head>
<body>
<p class="meta"><a href="{{.Index}}">{{.Report}}</a></p>
<h1>{{.Title}}</h1>
<p class="meta">Analysis {{.Analysis}}{{if .Metric}}, metric {{.Metric}}{{end}}; trials: {{range $i, $t := .Trials}}{{if $i}}, {{end}}<span class="trial">{{$t}}</span>{{end}}; parameters: {{template "params" .Params}}; made {{.Created}}.</p>
{{if .Findings}}<h2>Findings</h2>
<ul>{{range .Findings}}<li class="finding">{{.}}</li>{{end}}</ul>{{end}}
{{range .Charts}}<section>
<h2>{{.Title}}</h2>
<div class="chart" id="{{.ID}}" style="height: {{.Height}}"></div>
{{with .Table}}{{template "table" .}}{{end}}
</section>
{{end}}
<h2>All tables</h2>
{{range .Tables}}{{template "table" .}}
{{end}}
<script>
(function () {
  var charts = [{{range .Charts}}{id: {{.ID}}, option: {{.Option}}},
  {{end}}];
  if (charts.length === 0) return;
  if (typeof echarts === "undefined") {
    charts.forEach(function (c) { document.getElementById(c.id).textContent = "The chart library (assets/echarts.min.js) did not load."; });
    return;
  }
  charts.forEach(function (c) {
    var chart = echarts.init(document.getElementById(c.id), null, {renderer: "canvas"});
    chart.setOption(c.option);
    window.addEventListener("resize", function () { chart.resize(); });
  });
})();
</script>
` + sortScript + `
</body>
</html>
`))

var indexTmpl = template.Must(template.New("index").Parse(metaTmpl + `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
` + style + `
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">Made {{.Created}}{{if .Source}} from {{.Source}}{{end}}; {{len .Entries}} result(s).</p>
{{range .Notes}}<p class="meta note">{{.}}</p>
{{end}}<div class="wrap"><table class="sortable" id="results">
<thead><tr><th>page</th><th>analysis</th><th>finding</th><th>trials</th><th>metric</th><th>parameters</th><th class="num">charts</th><th>made</th></tr></thead>
<tbody>
{{range .Entries}}<tr><td><a href="{{.File}}">{{.File}}</a></td><td>{{.Analysis}}</td><td>{{.Finding}}</td><td>{{range $i, $t := .Trials}}{{if $i}}, {{end}}{{$t}}{{end}}</td><td>{{.Metric}}</td><td>{{template "params" .Params}}</td><td class="num" data-sort="{{.Charts}}">{{.Charts}}</td><td>{{.Created}}</td></tr>
{{end}}</tbody>
</table></div>
<p class="meta">Charts drawn with Apache ECharts (assets/echarts.min.js, Apache License 2.0: assets/LICENSE, assets/NOTICE).</p>
` + sortScript + `
</body>
</html>
`))
