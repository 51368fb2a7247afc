// taudb-analyze serve: draws the charts, the icicle graph and the tree
// table from the server's JSON. Every name is put into the page as text
// (textContent, title, chart labels drawn on a canvas), never as markup.
(function () {
  "use strict";

  function getJSON(url, done, fail) {
    fetch(url, {credentials: "same-origin"}).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error || r.statusText);
        return body;
      });
    }).then(done).catch(function (e) { fail(e.message); });
  }

  function say(el, text) {
    var p = document.createElement("p");
    p.className = "error";
    p.textContent = text;
    el.replaceChildren(p);
  }

  function barChart(el, d) {
    if (typeof echarts === "undefined") { say(el, "The chart library did not load."); return; }
    var many = d.labels.length > 40 || (d.stacked && d.labels.length > 12);
    var cat = {type: "category", data: d.labels, axisLabel: many ? {show: false} : {width: 260, overflow: "truncate"}};
    var val = {type: "value", scale: false};
    var opt = {
      animation: false,
      title: {text: d.title, subtext: d.note || "", left: "center", textStyle: {fontSize: 13}},
      tooltip: {trigger: "axis", axisPointer: {type: "shadow"}},
      legend: {bottom: 0, type: "scroll", formatter: function (n) { return n.length > 40 ? n.slice(0, 40) + "…" : n; }},
      grid: many ? {left: 60, right: 20, top: 60, bottom: 40} : {left: 280, right: 30, top: 60, bottom: 40},
      xAxis: many ? cat : val,
      yAxis: many ? val : Object.assign({inverse: true}, cat),
      series: d.series.map(function (s) {
        if (d.stacked) return {name: s.name, type: "bar", stack: "all", data: s.values};
        return {name: s.name, type: many && d.series.length > 1 ? "line" : "bar", data: s.values, showSymbol: false};
      })
    };
    var chart = echarts.init(el, null, {renderer: "canvas"});
    chart.setOption(opt);
    chart.on("click", function (p) {
      var to = d.links && d.links[p.dataIndex];
      if (to) window.location.href = to;
    });
    window.addEventListener("resize", function () { chart.resize(); });
    el.setAttribute("data-drawn", String(d.labels.length));
  }

  function charts() {
    document.querySelectorAll(".chart[data-api]").forEach(function (el) {
      getJSON(el.getAttribute("data-api"), function (d) { barChart(el, d); }, function (m) { say(el, m); });
    });
  }

  function icicle() {
    var el = document.getElementById("icicle");
    if (!el) return;
    var note = document.getElementById("icicle-note");
    var q = el.getAttribute("data-query");
    if (q) el.classList.add("filtered");
    getJSON(el.getAttribute("data-api") + (q ? "&q=" + encodeURIComponent(q) : ""), function (d) {
      var rows = 0;
      d.boxes.forEach(function (b) {
        var a = document.createElement("a");
        a.href = b.link;
        a.className = b.hit ? "box hit" : "box";
        a.textContent = b.name;
        a.title = b.path + ": " + b.value;
        a.style.left = (100 * b.x0) + "%";
        a.style.width = (100 * (b.x1 - b.x0)) + "%";
        a.style.top = (b.depth * 18) + "px";
        rows = Math.max(rows, b.depth + 1);
        el.appendChild(a);
      });
      el.style.height = (rows * 18 + 2) + "px";
      el.setAttribute("data-drawn", String(d.boxes.length));
      note.textContent = d.note || "";
    }, function (m) { say(el, m); });
  }

  function fmt(v) {
    if (v === null) return "—";
    return Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toPrecision(4) : String(Math.round(v * 1000) / 1000);
  }

  function treeRow(table, r, depth, flat) {
    var tr = document.createElement("tr");
    tr.setAttribute("data-node", String(r.node));
    tr.setAttribute("data-depth", String(depth));
    var name = document.createElement("td");
    name.className = "name";
    name.style.paddingLeft = (0.4 + depth * 1.2) + "em";
    var toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "toggle";
    toggle.textContent = r.children > 0 ? "▸" : "";
    toggle.disabled = r.children === 0;
    toggle.setAttribute("aria-label", "expand");
    name.appendChild(toggle);
    var a = document.createElement("a");
    a.href = r.link;
    a.className = "region";
    a.textContent = flat ? r.path : r.name;
    a.title = r.path;
    name.appendChild(a);
    tr.appendChild(name);
    [r.incl, r.excl, r.calls].forEach(function (v) {
      var td = document.createElement("td");
      td.className = "num";
      td.textContent = fmt(v);
      tr.appendChild(td);
    });
    toggle.addEventListener("click", function () { expand(table, tr, r.node, depth, toggle); });
    return tr;
  }

  function expand(table, tr, node, depth, toggle) {
    if (toggle.getAttribute("aria-expanded") === "true") {
      var next = tr.nextElementSibling;
      while (next && Number(next.getAttribute("data-depth")) > depth) {
        var after = next.nextElementSibling;
        next.remove();
        next = after;
      }
      toggle.setAttribute("aria-expanded", "false");
      toggle.textContent = "▸";
      return;
    }
    getJSON(table.getAttribute("data-api") + "&parent=" + node, function (d) {
      var at = tr.nextElementSibling;
      d.rows.forEach(function (r) { tr.parentNode.insertBefore(treeRow(table, r, depth + 1, false), at); });
      toggle.setAttribute("aria-expanded", "true");
      toggle.textContent = "▾";
    }, function (m) { say(document.getElementById("tree-note"), m); });
  }

  function tree() {
    var table = document.getElementById("tree");
    if (!table) return;
    var q = table.getAttribute("data-query");
    var url = table.getAttribute("data-api") + (q ? "&q=" + encodeURIComponent(q) : "");
    var note = document.getElementById("tree-note");
    getJSON(url, function (d) {
      var body = table.tBodies[0];
      d.rows.forEach(function (r) { body.appendChild(treeRow(table, r, 0, !!q)); });
      note.textContent = (q ? d.matches + " matching node(s)" : "") + (d.note ? "; " + d.note : "");
      table.setAttribute("data-loaded", String(d.rows.length));
    }, function (m) { say(note, m); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    charts();
    icicle();
    tree();
  });
})();
