package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// ObjectiveTolerance is the bound on the objective of the sampled
// k-means against full Lloyd's: W_k at most 1% above.
const ObjectiveTolerance = 0.01

// clusterQuality reads k and W_k from the "quality" table of a cluster
// result printed with --format json.
func clusterQuality(out []byte) (k int, w float64, err error) {
	var res struct {
		Tables []struct {
			Name string           `json:"name"`
			Rows []map[string]any `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return 0, 0, fmt.Errorf("cluster's JSON: %w", err)
	}
	for _, t := range res.Tables {
		if t.Name != "quality" || len(t.Rows) != 1 {
			continue
		}
		kf, ok1 := t.Rows[0]["k"].(float64)
		w, ok2 := t.Rows[0]["within_ss"].(float64)
		if ok1 && ok2 {
			return int(kf), w, nil
		}
	}
	return 0, 0, fmt.Errorf("cluster's JSON has no quality table with k and within_ss")
}

// clusterObjective compares the CLI's automatic-k clustering of trial name
// in the database at url (its k and W_k, from out) with full Lloyd's:
// cluster.KMeans with cluster.DefaultRestarts k-means++ restarts on every
// thread's vector (cluster.Vectors, with cluster's default options), for
// the same k. The figure is the CLI's W_k, the reference full Lloyd's; a
// ratio at most 1 + ObjectiveTolerance meets the bound.
func clusterObjective(ctx context.Context, url, name string, out []byte, threads int) (Row, error) {
	k, w, err := clusterQuality(out)
	if err != nil {
		return Row{}, err
	}
	db, err := store.Open(ctx, url)
	if err != nil {
		return Row{}, err
	}
	defer db.Close()
	id, err := db.TrialsNamed(ctx, name)
	if err != nil || len(id) != 1 {
		return Row{}, fmt.Errorf("trial %q: %v (%d found)", name, err, len(id))
	}
	t, err := db.LoadTrial(ctx, id[0])
	if err != nil {
		return Row{}, err
	}
	a, err := registry.Lookup("cluster")
	if err != nil {
		return Row{}, err
	}
	opt := a.Defaults().(*registry.Cluster).Options
	m, err := cluster.Vectors([]*drg.Trial{t}, opt)
	if err != nil {
		return Row{}, err
	}
	start := time.Now()
	full := cluster.KMeans(m, k, cluster.DefaultRestarts, 0, cluster.NewRand(opt.Seed))
	return Row{Step: 6, Figure: fmt.Sprintf("CLI cluster, automatic k: W_k of its k = %d, %d threads × %d dimensions", k, m.N, m.D),
		Value: w, Unit: "W_k", Ref: full.W, RefUnit: "W_k", RefWhat: fmt.Sprintf("full Lloyd's: k-means with %d restarts on every thread (%.1f s)", cluster.DefaultRestarts, time.Since(start).Seconds()),
		Notes: fmt.Sprintf("ratio ≤ %.2f meets the issue's bound (the sampled objective within %g%% of full Lloyd's); %d threads", 1+ObjectiveTolerance, 100*ObjectiveTolerance, threads)}, nil
}
