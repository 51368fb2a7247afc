package storetest

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TAUTrial is a small trial for TAUFill: one metric, Threads real threads
// (node i, context 0, thread 0), and regions in the order given.
type TAUTrial struct {
	Name, Application, Experiment string
	Metric                        string
	Threads                       int
	Regions                       []TAURegion
}

// TAURegion is one profile entry: a flat name "f" or a callpath "A => f",
// with one value per thread. A thread whose Calls is 0 has no record of it
// (TAU's profiles never hold calls == 0 lines, and its loader skips them).
type TAURegion struct {
	Name, Group              string
	Incl, Excl, Calls, Subrs []float64
}

// tauDerived are the derived threads in the order TAU's loader writes
// their thread rows.
var tauDerived = []int{-1, -3, -2, -5, -4, -6, -7}

// TAUStat returns derived thread code's statistic of xs as TAU's Java
// loader computes it (formats/taudb-mapping.md §4): over the k values of
// the threads with a record (present), N = len(xs) for −6 and −7, with
// TAU's one-pass standard deviation √|Σx²/n − (Σx/n)²|.
func TAUStat(code int, xs []float64, present []bool) float64 {
	var sum, sq, mn, mx float64
	k := 0
	mn = math.Inf(1)
	for i, x := range xs {
		if !present[i] {
			continue
		}
		k++
		sum += x
		sq += x * x
		mn = math.Min(mn, x)
		mx = math.Max(mx, x)
	}
	n := float64(len(xs))
	switch code {
	case -1:
		return sum / float64(k)
	case -2:
		return sum
	case -3:
		if k <= 1 {
			return 0
		}
		m := sum / float64(k)
		return math.Sqrt(math.Abs(sq/float64(k) - m*m))
	case -4:
		if k == 0 {
			return 0
		}
		return mn
	case -5:
		return math.Max(0, mx)
	case -6:
		return sum / n
	case -7:
		m := sum / n
		return math.Sqrt(math.Abs(sq/n - m*m))
	}
	panic("TAUStat: bad code")
}

// TAUFill writes tr into the TAU-only schema of conn (TAUSchemaPostgres) the
// way TAU's taudb_loadtrial does (formats/taudb-mapping.md §2, §4, §5),
// including what it leaves out: no timer_call_data row for a thread
// without a record, a derived thread's row only where that thread's calls
// statistic is > 0 (so no STDDEV rows where all threads made the same
// number of calls), calls truncated to integers, the STDDEV rows'
// exclusive percentage own/mean without ×100 (NaN for 0/0), no
// sum_exclusive_squared, and no row in any taudb-analyze table. It returns
// the trial's id.
func TAUFill(t testing.TB, conn *pgx.Conn, tr TAUTrial) int64 {
	t.Helper()
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	id := func(sql string, args ...any) int64 {
		t.Helper()
		var v int64
		if err := tx.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return v
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := tx.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	n := tr.Threads
	trial := id(`INSERT INTO trial (name, data_source, node_count, contexts_per_node, threads_per_context, total_threads)
VALUES ($1, 1, $2, 1, 1, $2) RETURNING id`, tr.Name, n)
	metric := id(`INSERT INTO metric (trial, name, derived) VALUES ($1, $2, false) RETURNING id`, trial, tr.Metric)
	var flat []string
	for _, r := range tr.Regions {
		if !strings.Contains(r.Name, "=>") {
			flat = append(flat, r.Name)
		}
	}
	sort.Strings(flat)
	timers := map[string]int64{}
	groups := map[string]string{}
	for _, r := range tr.Regions {
		groups[r.Name] = r.Group
	}
	for _, f := range flat {
		timers[f] = id(`INSERT INTO timer (trial, name, short_name, line_number, line_number_end, column_number, column_number_end)
VALUES ($1, $2, $2, 0, 0, 0, 0) RETURNING id`, trial, f)
		exec(`INSERT INTO timer_group (timer, group_name) VALUES ($1, $2)`, timers[f], groups[f])
	}
	threads := make([]int64, n)
	for i := range threads {
		threads[i] = id(`INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) VALUES ($1, $2, 0, 0, $2) RETURNING id`, trial, i)
	}
	derived := map[int]int64{}
	for _, c := range tauDerived {
		derived[c] = id(`INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) VALUES ($1, $2, $2, $2, $2) RETURNING id`, trial, c)
	}
	paths := map[string]int64{}
	for _, r := range tr.Regions {
		parts := strings.Split(r.Name, " => ")
		var parent any
		if len(parts) > 1 {
			parent = paths[strings.Join(parts[:len(parts)-1], " => ")]
		}
		paths[r.Name] = id(`INSERT INTO timer_callpath (timer, parent) VALUES ($1, $2) RETURNING id`, timers[parts[len(parts)-1]], parent)
	}
	fillValues(t, tr, func(cp string, thread int64, calls, subrs, incl, excl, inclPct, exclPct float64) {
		tcd := id(`INSERT INTO timer_call_data (timer_callpath, thread, calls, subroutines) VALUES ($1, $2, $3, $4) RETURNING id`,
			paths[cp], thread, int64(calls), int64(subrs))
		exec(`INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, inclusive_percent, exclusive_percent)
VALUES ($1, $2, $3, $4, $5, $6)`, tcd, metric, incl, excl, inclPct, exclPct)
	}, threads, derived)
	for k, v := range map[string]string{"Application": tr.Application, "Experiment": tr.Experiment} {
		if v != "" {
			exec(`INSERT INTO primary_metadata (trial, name, value) VALUES ($1, $2, $3)`, trial, k, v)
		}
	}
	exec(`INSERT INTO primary_metadata (trial, name, value) VALUES ($1, 'File Type Name', 'Tau profiles')`, trial)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return trial
}

// fillValues calls row for every timer_call_data row TAU's loader writes:
// the real threads' records, then each derived thread's rows where its
// calls statistic is > 0, with TAU's percentages (§5).
func fillValues(t testing.TB, tr TAUTrial, row func(cp string, thread int64, calls, subrs, incl, excl, inclPct, exclPct float64),
	threads []int64, derived map[int]int64) {
	n := tr.Threads
	maxIncl := make([]float64, n)
	for _, r := range tr.Regions {
		for i := range n {
			if r.Calls[i] > 0 {
				maxIncl[i] = math.Max(maxIncl[i], r.Incl[i])
			}
		}
	}
	var sumMax float64
	for _, m := range maxIncl {
		sumMax += m
	}
	D, Dn := sumMax/100, sumMax/100/float64(n)
	for _, r := range tr.Regions {
		present := make([]bool, n)
		for i := range n {
			present[i] = r.Calls[i] > 0
			if present[i] {
				d := maxIncl[i] / 100
				row(r.Name, threads[i], r.Calls[i], r.Subrs[i], r.Incl[i], r.Excl[i], r.Incl[i]/d, r.Excl[i]/d)
			}
		}
		meanIncl, meanExcl := TAUStat(-1, r.Incl, present), TAUStat(-1, r.Excl, present)
		for _, c := range tauDerived {
			calls := TAUStat(c, r.Calls, present)
			if calls <= 0 {
				continue
			}
			in, ex := TAUStat(c, r.Incl, present), TAUStat(c, r.Excl, present)
			var ip, ep float64
			switch c {
			case -2:
				ip, ep = in/D, ex/D
			case -1, -6:
				ip, ep = TAUStat(-2, r.Incl, present)/D, meanExcl/Dn
			case -4, -5:
				ip, ep = in/Dn, ex/Dn
			case -3, -7:
				ip, ep = in/meanIncl*100, ex/meanExcl
			}
			row(r.Name, derived[c], calls, TAUStat(c, r.Subrs, present), in, ex, ip, ep)
		}
	}
}

// TAUTrials are the two trials of the TAU-made database: an MPI run on 3
// ranks and one on 1 rank, as TAU would profile them. Exclusive values add
// up: main's exclusive = inclusive − its children's inclusive.
func TAUTrials() []TAUTrial {
	three := []TAURegion{
		{Name: "main", Group: "TAU_DEFAULT", Incl: []float64{100, 110, 120}, Excl: []float64{10, 10, 10}, Calls: []float64{1, 1, 1}, Subrs: []float64{3, 3, 3}},
		// All threads made 5 calls: TAU stores no STDDEV rows.
		{Name: "compute", Group: "TAU_USER", Incl: []float64{60, 70, 80}, Excl: []float64{60, 70, 80}, Calls: []float64{5, 5, 5}, Subrs: []float64{0, 0, 0}},
		{Name: "MPI_Send()", Group: "MPI", Incl: []float64{30, 30, 30}, Excl: []float64{30, 30, 30}, Calls: []float64{2, 3, 4}, Subrs: []float64{0, 0, 0}},
		// Zero time, varying calls: STDDEV rows with 0/0 (NaN) percentages.
		{Name: "MPI_Barrier()", Group: "MPI", Incl: []float64{0, 0, 0}, Excl: []float64{0, 0, 0}, Calls: []float64{1, 2, 3}, Subrs: []float64{0, 0, 0}},
		{Name: "io", Group: "TAU_IO", Incl: []float64{5, 0, 0}, Excl: []float64{5, 0, 0}, Calls: []float64{1, 0, 0}, Subrs: []float64{0, 0, 0}},
	}
	one := []TAURegion{
		{Name: "main", Group: "TAU_DEFAULT", Incl: []float64{240}, Excl: []float64{20}, Calls: []float64{1}, Subrs: []float64{3}},
		{Name: "compute", Group: "TAU_USER", Incl: []float64{180}, Excl: []float64{180}, Calls: []float64{5}, Subrs: []float64{0}},
		{Name: "MPI_Send()", Group: "MPI", Incl: []float64{40}, Excl: []float64{40}, Calls: []float64{1}, Subrs: []float64{0}},
		{Name: "MPI_Barrier()", Group: "MPI", Incl: []float64{0}, Excl: []float64{0}, Calls: []float64{1}, Subrs: []float64{0}},
	}
	withPaths := func(rs []TAURegion) []TAURegion {
		out := append([]TAURegion(nil), rs...)
		for _, r := range rs {
			if r.Name != "main" && r.Name != "io" {
				c := r
				c.Name = "main => " + r.Name
				out = append(out, c)
			}
		}
		return out
	}
	return []TAUTrial{
		{Name: "tau-np3", Application: "app", Experiment: "strong", Metric: "TIME", Threads: 3, Regions: withPaths(three)},
		{Name: "tau-np1", Application: "app", Experiment: "strong", Metric: "TIME", Threads: 1, Regions: withPaths(one)},
	}
}

// TAUEmptyDatabase creates a PostgreSQL schema holding only TAU's schema
// (TAUSchemaPostgres), no trial, and returns its URL (the search_path
// names the schema). It skips or fails t as RequirePostgres does.
func TAUEmptyDatabase(t *testing.T) string {
	t.Helper()
	schema := NewPostgresSchema(t)
	u := PostgresURL()
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	u += sep + "search_path=" + schema
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, TAUSchemaPostgres); err != nil {
		t.Fatalf("TAU's schema: %v", err)
	}
	return u
}

// TAUDatabase creates a database as TAUEmptyDatabase does, fills it with
// TAUTrials as TAU's loader would, and returns its URL and the trials' ids.
func TAUDatabase(t *testing.T) (string, []int64) {
	t.Helper()
	u := TAUEmptyDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var ids []int64
	for _, tr := range TAUTrials() {
		ids = append(ids, TAUFill(t, conn, tr))
	}
	return u, ids
}

// TAUTrialOf turns metric m of a trial read from TAU's files into a
// TAUTrial for TAUFill: every node under its name (flat "f" or callpath
// "A => f"), with the first group of its region, and per thread the
// inclusive and exclusive values, calls and subroutines (0 calls where the
// thread has no record, which TAUFill leaves out as TAU's loader does).
func TAUTrialOf(t *drg.Trial, m int, app, exp string) TAUTrial {
	nt := len(t.Threads)
	out := TAUTrial{Name: t.Name, Application: app, Experiment: exp, Metric: t.Metrics[m].Name, Threads: nt}
	for n, node := range t.Nodes {
		r := TAURegion{Name: node.Name, Group: "TAU_DEFAULT",
			Incl: make([]float64, nt), Excl: make([]float64, nt), Calls: make([]float64, nt), Subrs: make([]float64, nt)}
		if g := t.Regions[node.Region].Groups; len(g) > 0 {
			r.Group = g[0]
		}
		for th := range nt {
			if !t.Has(n, th) {
				continue
			}
			c := t.Cell(n, th)
			r.Incl[th], r.Excl[th], r.Calls[th], r.Subrs[th] = t.Values[m].Inclusive[c], t.Values[m].Exclusive[c], t.Calls[c], t.Subroutines[c]
		}
		out.Regions = append(out.Regions, r)
	}
	// Parents before children, as TAU's loader inserts them.
	sort.SliceStable(out.Regions, func(i, j int) bool {
		return strings.Count(out.Regions[i].Name, " => ") < strings.Count(out.Regions[j].Name, " => ")
	})
	return out
}
