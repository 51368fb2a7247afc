package store

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrUnsupportedDatabase is wrapped by Config.URL when a TAU configuration
// names a database system that taudb-analyze cannot open.
var ErrUnsupportedDatabase = errors.New("unsupported database type")

// Config is a TAU PerfDMF/TAUdb configuration file (perfdmf.cfg), as written
// by TAU's taudb_configure and read by TAU's Java tools
// (edu.uoregon.tau.perfdmf.database.ParseConfig) and C API
// (taudb_parse_config_file).
//
// The file holds one "name:value" item a line; blank lines and lines whose
// first non-blank character is '#' are comments. Names are case-insensitive,
// and the name and value are trimmed of blanks. A value runs to the end of
// the line, so it may hold ':' (a password or a Windows path, say). As an
// extension, "name=value" is accepted too: the name ends at the first ':' or
// '=', neither of which a name holds. A later line overrides an earlier one
// with the same name, as in TAU.
//
// Config's String method never shows the password, so a Config can be
// printed with %v.
type Config struct {
	// Path is the file that was read.
	Path string
	// Name is the configuration name: NAME for a file named
	// perfdmf.cfg.NAME, "" for perfdmf.cfg or any other file name.
	Name string

	// DBType is jdbc_db_type: postgresql, h2, derby, mysql, oracle, db2 or
	// sqlite.
	DBType string
	// Hostname is db_hostname.
	Hostname string
	// Port is db_portnum.
	Port string
	// DBName is db_dbname: the database name, or for the file-based systems
	// (h2, derby, sqlite) the database's path.
	DBName string
	// SchemaPrefix is db_schemaprefix. TAU uses it for Oracle and DB2 only;
	// it plays no part for PostgreSQL.
	SchemaPrefix string
	// Username is db_username.
	Username string
	// Password is db_password.
	Password string
	// HasPassword tells whether the file has a db_password line. TAU writes
	// it only when the user agreed to store the password in clear text;
	// otherwise TAU asks for the password, and taudb-analyze leaves it to the
	// PGPASSWORD variable or ~/.pgpass.
	HasPassword bool
	// UseSSL is db_use_ssl ("yes" or "true"): connect with TLS.
	UseSSL bool

	// JDBCJarFile is jdbc_db_jarfile (Java only).
	JDBCJarFile string
	// JDBCDriver is jdbc_db_driver (Java only).
	JDBCDriver string
	// SchemaFile is db_schemafile: the DDL TAU loads when configuring.
	SchemaFile string
	// XMLSAXParser is xml_sax_parser (Java only).
	XMLSAXParser string
	// Other holds every other item, by lower-case name: perfdmf_home, TAU's
	// Java SSL keystore settings (db_keystore, db_truststore and their
	// passwords), or names TAU does not know either.
	Other map[string]string
}

// ConfigPath returns the path of the TAU configuration named name:
// ~/.ParaProf/perfdmf.cfg.NAME, or ~/.ParaProf/perfdmf.cfg when name is ""
// (TAU's default configuration), as TAU's tools look them up.
func ConfigPath(name string) (string, error) {
	if strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("TAU configuration name %q: a name, not a path, is expected (use a configuration file instead)", name)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("locate TAU configuration %q: %w", name, err)
	}
	file := "perfdmf.cfg"
	if name != "" {
		file += "." + name
	}
	return filepath.Join(home, ".ParaProf", file), nil
}

// ReadTAUConfig reads the TAU configuration file at path (see Config for the
// format). A line that is neither blank, a comment nor an item is an error
// naming the file and the line; the error does not quote the line, which
// could hold a password. ReadTAUConfig accepts configurations of any
// database type: Config.URL says whether taudb-analyze can open it.
func ReadTAUConfig(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fmt.Errorf("read TAU configuration: %w", err)
	}
	defer f.Close()

	c := Config{Path: path, Other: map[string]string{}}
	if rest, ok := strings.CutPrefix(filepath.Base(path), "perfdmf.cfg."); ok {
		c.Name = rest
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		sep := strings.IndexAny(text, ":=")
		if sep < 0 {
			return Config{}, fmt.Errorf("%s:%d: not a \"name:value\" line (no ':' after the item name)", path, line)
		}
		name := strings.ToLower(strings.TrimSpace(text[:sep]))
		if !isConfigName(name) {
			return Config{}, fmt.Errorf("%s:%d: not a \"name:value\" line (the text before ':' is not an item name such as db_hostname)", path, line)
		}
		c.set(name, strings.TrimSpace(text[sep+1:]))
	}
	if err := sc.Err(); err != nil {
		return Config{}, fmt.Errorf("read TAU configuration %s (line %d): %w", path, line+1, err)
	}
	if c.DBType == "" {
		return Config{}, fmt.Errorf("%s: no jdbc_db_type item; is this a TAU perfdmf.cfg file?", path)
	}
	return c, nil
}

// isConfigName reports whether s is a plausible item name: letters, digits
// and '_'.
func isConfigName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// set stores one item.
func (c *Config) set(name, value string) {
	switch name {
	case "jdbc_db_type":
		c.DBType = value
	case "db_hostname":
		c.Hostname = value
	case "db_portnum":
		c.Port = value
	case "db_dbname":
		c.DBName = value
	case "db_schemaprefix":
		c.SchemaPrefix = value
	case "db_username":
		c.Username = value
	case "db_password":
		c.Password = value
		c.HasPassword = true
	case "db_use_ssl":
		v := strings.ToLower(value)
		c.UseSSL = v == "yes" || v == "y" || v == "true" || v == "1"
	case "jdbc_db_jarfile":
		c.JDBCJarFile = value
	case "jdbc_db_driver":
		c.JDBCDriver = value
	case "db_schemafile":
		c.SchemaFile = value
	case "xml_sax_parser":
		c.XMLSAXParser = value
	default:
		c.Other[name] = value
	}
}

// instead says what to use in place of a database taudb-analyze cannot open.
const instead = "Use taudb-analyze's embedded database (--db sqlite:PATH) or a PostgreSQL TAUdb " +
	"(a postgresql TAU configuration, or --db postgres://...); to move trials over, export them from ParaProf " +
	"as packed profiles (.ppk) and load those with taudb-analyze load"

// unsupportedDBTypes says, for each database type TAU supports and
// taudb-analyze does not, why not.
var unsupportedDBTypes = map[string]string{
	"h2":     "H2 is a Java-only embedded database; taudb-analyze cannot open it",
	"derby":  "Derby is a Java-only embedded database; taudb-analyze cannot open it",
	"mysql":  "taudb-analyze speaks PostgreSQL and SQLite only, not MySQL",
	"oracle": "taudb-analyze speaks PostgreSQL and SQLite only, not Oracle",
	"db2":    "taudb-analyze speaks PostgreSQL and SQLite only, not DB2",
	"sqlite": "a TAU SQLite database is created from TAU's taudb.sqlite.sql, whose schema differs from TAUdb's " +
		"(time_range, secondary_metadata) and which TAU's own loader cannot fill; taudb-analyze does not open it",
}

// URL returns the PostgreSQL URL that the configuration describes, for
// Open: postgres://USER:PASSWORD@HOST:PORT/DBNAME, with the user and
// password percent-escaped, HOST and PORT defaulting to localhost and 5432
// as in TAU, and sslmode=require when db_use_ssl is set. Without a
// db_password item the URL has no password, and PostgreSQL's PGPASSWORD or
// ~/.pgpass supply it.
//
// Configurations of the other database types TAU supports (h2, derby, mysql,
// oracle, db2, sqlite) fail with an error wrapping ErrUnsupportedDatabase
// that says why and what to use instead. The URL holds the password: show
// it through Redact.
func (c Config) URL() (string, error) {
	t := strings.ToLower(strings.TrimSpace(c.DBType))
	if why, ok := unsupportedDBTypes[t]; ok {
		return "", fmt.Errorf("%s: jdbc_db_type %s: %w: %s. %s", c.Path, t, ErrUnsupportedDatabase, why, instead)
	}
	if t != "postgresql" && t != "postgres" {
		return "", fmt.Errorf("%s: jdbc_db_type %q: %w: taudb-analyze opens PostgreSQL TAUdb databases only. %s", c.Path, c.DBType, ErrUnsupportedDatabase, instead)
	}
	host := c.Hostname
	if host == "" {
		host = "localhost"
	}
	port := c.Port
	if port == "" {
		port = "5432"
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return "", fmt.Errorf("%s: db_portnum %q is not a port number", c.Path, port)
	}
	if c.DBName == "" {
		return "", fmt.Errorf("%s: db_dbname is empty: the configuration names no database", c.Path)
	}
	u := url.URL{Scheme: "postgres", Host: net.JoinHostPort(host, port), Path: "/" + c.DBName}
	switch {
	case c.HasPassword && c.Password != "":
		u.User = url.UserPassword(c.Username, c.Password)
	case c.Username != "":
		u.User = url.User(c.Username)
	}
	if c.UseSSL {
		u.RawQuery = "sslmode=require"
	}
	return u.String(), nil
}

// String describes the configuration without its password.
func (c Config) String() string {
	pw := "no password"
	if c.HasPassword {
		pw = "password set"
	}
	return fmt.Sprintf("TAU configuration %s (%s): %s database %q on %s:%s as %q, %s",
		c.Path, c.Name, c.DBType, c.DBName, c.Hostname, c.Port, c.Username, pw)
}

// GoString is String, so that %#v does not show the password either.
func (c Config) GoString() string { return c.String() }
