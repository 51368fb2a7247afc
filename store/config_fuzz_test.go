package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// FuzzReadTAUConfig feeds arbitrary bytes, as a perfdmf.cfg file, to the
// TAU configuration reader. It must not panic; what it accepts must turn
// into a URL that ParseURL takes for PostgreSQL, or an error; and neither
// the description (String) nor the redacted URL may depend on the password,
// which is what shows that they never print it. Seeded with configurations
// as TAU's configure writes them and the hand-made forms of the unit tests.
func FuzzReadTAUConfig(f *testing.F) {
	f.Add(tauConfig("postgresql", "db.example.org", "5433", "taudb", "khuck", `p@ss:w/rd?#% x&=y'"\`, true))
	f.Add(tauConfig("postgresql", "", "", "perfdmf", "tau", "", false))
	f.Add(tauConfig("h2", "", "", "/home/u/.ParaProf/perfdmf", "", "", false))
	f.Add(tauConfig("mysql", "m", "3306", "d", "u", "pw", true))
	f.Add("\uFEFF# made by hand\r\n  JDBC_DB_TYPE = postgresql\r\ndb_hostname=h\r\n\r\ndb_portnum= 6000 \r\ndb_dbname=d\r\ndb_username=u\r\ndb_password=a:b\r\n")
	f.Add("jdbc_db_type:postgresql\ndb_hostname:::1\ndb_dbname:d\ndb_use_ssl: yes\ndb_keystore_password:kpw\n")
	f.Add("jdbc_db_type:postgresql\ndb_portnum:99999\ndb_dbname:d\n")
	f.Add("not a config line\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "perfdmf.cfg.fuzz")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := store.ReadTAUConfig(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		other := c
		other.Password = "Zq9-other-secret"
		if c.String() != other.String() {
			t.Errorf("String depends on the password:\n%s\n%s", c.String(), other.String())
		}
		u, err := c.URL()
		if err != nil {
			return
		}
		if d, _, err := store.ParseURL(u); err != nil || d != store.Postgres {
			t.Fatalf("URL() = %q, which ParseURL takes for %q (%v)", store.Redact(u), d, err)
		}
		if c.HasPassword && c.Password != "" {
			uo, err := other.URL()
			if err != nil {
				t.Fatalf("URL() with another password: %v", err)
			}
			if store.Redact(u) != store.Redact(uo) {
				t.Errorf("the redacted URL depends on the password: %q, %q", store.Redact(u), store.Redact(uo))
			}
		}
	})
}
