package store_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// startFileLimited starts the private cluster with its server unable to
// write any file beyond limitMB megabytes (RLIMIT_FSIZE, `ulimit -f`; the
// postmaster ignores SIGXFSZ, so writing past it fails with "File too
// large", as writing to a full disk fails with "No space left on device"):
// a data file that must grow past the limit cannot, while the WAL's 16 MB
// segments still can. Mounting a size-limited file system is not allowed
// here; this is the same failure for the server, seen from its clients.
func (c *privateCluster) startFileLimited(t *testing.T, limitMB int) {
	t.Helper()
	ctl := fmt.Sprintf("ulimit -f %d && exec %s -D %s -w -t 60 -l %s -o '-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off' start",
		limitMB*1024, filepath.Join(c.bin, "pg_ctl"), c.data, filepath.Join(c.data, "server.log"), c.port, c.sock)
	argv := []string{"bash", "-c", ctl}
	if c.asPostgres {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

// TestPostgresFullDisk: with the server unable to grow its files past
// 24 MB, a save of a trial too big for that fails with the server's error
// and leaves no trace; the trials stored before still list, load and pass
// db check, and a result of them is still stored (it fits); once the
// server has room again (restarted without the limit) the big trial saves
// and reads back.
func TestPostgresFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	c := newPrivateCluster(t)
	ctx := context.Background()
	db, err := store.Open(ctx, c.url())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	small := genTrial(t, "small", 8, 40)
	smallID, err := db.SaveTrial(ctx, small, store.SaveOptions{Name: "small"})
	if err != nil {
		t.Fatal(err)
	}
	c.ctl(t, "stop", "-m", "fast")
	c.startFileLimited(t, 17)
	before := counts(t, db, 0)
	big := genTrial(t, "big", 512, 800)
	_, err = db.SaveTrial(ctx, big, store.SaveOptions{Name: "big"})
	if err == nil || !strings.Contains(err.Error(), "File too large") {
		t.Fatalf("a save past the file-size limit: %v; want the server's \"File too large\"", err)
	}
	t.Logf("save on the full disk: %v", err)
	noTrace(t, db, before)
	infos, err := db.Trials(ctx)
	if err != nil || len(infos) != 1 || infos[0].Name != "small" {
		t.Fatalf("trials on the full disk: %+v, %v", infos, err)
	}
	got, err := db.LoadTrial(ctx, smallID)
	if err != nil {
		t.Fatalf("load on the full disk: %v", err)
	}
	if d := compareTrials(roundTrip(small), got); len(d) > 0 {
		t.Errorf("trial read on the full disk differs:\n  %s", strings.Join(d, "\n  "))
	}
	tb := result.Table{Name: "t"}
	tb.AddNum("x", "", []float64{1, 2})
	if _, err := db.SaveResult(ctx, &result.Result{Analysis: "imbalance", Trial: "small", Metric: "TIME", Params: map[string]string{}, Tables: []result.Table{tb}}, []int64{smallID}); err != nil {
		t.Errorf("a small result on the full disk: %v", err)
	}
	storetest.CheckIntegrity(t, db)
	c.ctl(t, "stop", "-m", "fast")
	c.start(t)
	id, err := db.SaveTrial(ctx, big, store.SaveOptions{Name: "big"})
	if err != nil {
		t.Fatalf("save once there is room: %v", err)
	}
	back, err := db.LoadTrial(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if d := compareTrials(roundTrip(big), back); len(d) > 0 {
		t.Errorf("trial saved once there is room differs:\n  %s", strings.Join(d, "\n  "))
	}
	storetest.CheckIntegrity(t, db)
}
