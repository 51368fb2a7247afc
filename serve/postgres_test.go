package serve

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestPostgres serves the fixture's trials from PostgreSQL (skipped
// without a server unless TAUDB_REQUIRE_PG=1): the same numbers as from
// SQLite, and the same hostile names as text.
func TestPostgres(t *testing.T) {
	db := storetest.OpenInit(t, store.Postgres)
	fillFixture(t, db)
	ts := (&fixture{db: db}).server(t, Options{})
	_, body := get(t, ts, "/trial/1")
	if got, want := strings.Join(rowOf(t, body, "work"), " "), "4 65 50 80 "+formatNum(math.Sqrt(125))+" 260"; got != want {
		t.Errorf("work: %s, want %s", got, want)
	}
	if strings.Contains(body, hostileRegion) {
		t.Error("a hostile name became markup")
	}
	_, body = get(t, ts, "/compare?trials=1,2")
	if !strings.Contains(body, `<td class="name">work</td><td class="num">65</td><td class="num">130</td>`) {
		t.Error("the comparison of work is not 65 against 130")
	}
	var ans treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/1/tree?q=MATCH+%28%22.%22%2C+p%29+WHERE+p.%22name%22+%3D+%22work%22", &ans)
	if len(ans.Rows) != 1 || ans.Rows[0].Incl != 65 {
		t.Errorf("query: %+v", ans)
	}
}
