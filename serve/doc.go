// Package serve is a local web application over a TAUdb database: the
// trials with their metadata and a filter (the --where language), a
// trial's regions as ParaProf shows them (per-thread bars, mean, min and
// max, exclusive or inclusive, of any metric or derived metric), the call
// tree as an expandable tree table and an icicle graph with a filter box,
// two or more trials side by side, the stored results with their report
// pages and, when the server allows it, running an analysis from a form.
//
// # Big trials
//
// The server aggregates and pages; the browser never receives all values
// of a trial. A trial is read from the database once (store.LoadTrial) and
// kept in a cache bounded in bytes (Options.CacheBytes, least recently
// used first out); the statistics of one value column (a metric's
// exclusive or inclusive values) across threads are computed once per
// trial and column and kept with it. A region's per-thread values are sent
// as they are up to MaxBars threads, and above that in MaxBars bins of
// consecutive threads, each with its minimum, mean and maximum; every
// table is sent a page (PageSize rows) at a time.
//
// # Safety
//
//   - Read-only by default: the database is opened with store.OpenReadOnly
//     (SQLite mode=ro; PostgreSQL default_transaction_read_only), and the
//     analysis form only exists with Options.AllowAnalyses.
//   - The database URL and its password never reach the browser: database
//     errors are logged on the server and the page says only that the
//     database failed.
//   - Every name from a user's program is escaped: pages are made with
//     html/template, data goes as JSON and the scripts put names into the
//     page as text (textContent), never as markup. A Content-Security-Policy
//     allows scripts, styles, images and requests to this server only.
//   - A server bound beyond the loopback interface needs a token
//     (Options.Token): a request carries it as ?token=, as the cookie the
//     first such request sets, or as "Authorization: Bearer TOKEN". Requests
//     whose Host is not the server's address are refused (DNS rebinding),
//     and a POST must come from the server's own pages (Origin).
//   - No external network: the chart library (report.EChartsJS) and the
//     scripts are embedded in the binary.
package serve
