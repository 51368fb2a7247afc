package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// pgDatabase is a private PostgreSQL database of the benchmark, created
// next to the database of the admin URL and dropped by drop.
type pgDatabase struct {
	admin, name, url string
}

// createDatabase creates an empty database with a random name
// (taudb_bench_<16 hex digits>) on the server of admin.
func createDatabase(ctx context.Context, admin string) (*pgDatabase, error) {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, fmt.Errorf("random database name: %w", err)
	}
	name := "taudb_bench_" + hex.EncodeToString(r[:])
	u, err := url.Parse(admin)
	if err != nil {
		return nil, fmt.Errorf("parse the PostgreSQL URL %s: %w", store.Redact(admin), err)
	}
	u.Path = "/" + name
	d := &pgDatabase{admin: admin, name: name, url: u.String()}
	if err := d.adminExec(ctx, "CREATE DATABASE "+name); err != nil {
		return nil, err
	}
	return d, nil
}

// drop drops the database, closing the connections still open to it.
func (d *pgDatabase) drop(ctx context.Context) error {
	return d.adminExec(ctx, "DROP DATABASE IF EXISTS "+d.name+" WITH (FORCE)")
}

func (d *pgDatabase) adminExec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, d.admin)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", store.Redact(d.admin), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %w", sql, err)
	}
	return nil
}
