package pgtest

import (
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Cluster is a PostgreSQL server of a test's own, which the test may stop
// and start again: a database outage that other tests, on the shared
// server, do not see. It runs the PostgreSQL programs installed
// (/usr/lib/postgresql/*/bin, as scripts/postgres.sh installs them, or on
// the PATH), as the postgres user when the test runs as root.
type Cluster struct {
	t    testing.TB
	bin  string // the directory of initdb, pg_ctl
	dir  string // its data directory and socket
	port int
	as   string // the user it runs as, "" for the test's own
}

// NewCluster makes a new cluster in a temporary directory, starts it on a
// free port of 127.0.0.1 and stops it when the test ends. The test fails
// if PostgreSQL is not installed (tests never skip): scripts/postgres.sh
// installs it.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	var err error
	if c.bin, err = binDir(); err != nil {
		t.Fatalf("pgtest: %v; `bash scripts/postgres.sh` installs PostgreSQL", err)
	}
	if os.Geteuid() == 0 {
		c.as = "postgres" // PostgreSQL refuses to run as root
		if _, err := user.Lookup(c.as); err != nil {
			t.Fatalf("pgtest: running as root and there is no postgres user to run the server as: %v", err)
		}
	}
	// Not t.TempDir(): its parent is the test's alone (mode 0700), and
	// the postgres user must reach it.
	if c.dir, err = os.MkdirTemp("", "chaturaji-pg-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(c.dir) })
	if c.as != "" {
		if out, err := osexec.Command("chown", c.as+":", c.dir).CombinedOutput(); err != nil {
			t.Fatalf("pgtest: chown %s: %v\n%s", c.dir, err, out)
		}
	}
	c.run("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	c.port = freePort(t)
	c.Start()
	t.Cleanup(func() {
		if c.running() {
			c.Stop()
		}
	})
	return c
}

// URL returns the URL of the cluster's postgres database.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// Start starts the cluster, on the same port as before, and returns once it
// takes connections.
func (c *Cluster) Start() {
	c.t.Helper()
	c.run("pg_ctl", "start", "-D", c.data(), "-w", "-t", "60", "-l", filepath.Join(c.dir, "server.log"),
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", c.port, c.dir))
}

// Stop stops the cluster at once, as a crash would (pg_ctl stop -m
// immediate): every connection breaks.
func (c *Cluster) Stop() {
	c.t.Helper()
	c.run("pg_ctl", "stop", "-D", c.data(), "-m", "immediate", "-w", "-t", "60")
}

// running reports whether the cluster runs.
func (c *Cluster) running() bool {
	return c.command("pg_ctl", "status", "-D", c.data()).Run() == nil
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// run runs one of the PostgreSQL programs and fails the test if it fails.
func (c *Cluster) run(prog string, args ...string) {
	c.t.Helper()
	if out, err := c.command(prog, args...).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
		c.t.Fatalf("pgtest: %s %s: %v\n%s\n%s", prog, strings.Join(args, " "), err, out, log)
	}
}

// command is a PostgreSQL program run as the cluster's user.
func (c *Cluster) command(prog string, args ...string) *osexec.Cmd {
	path := filepath.Join(c.bin, prog)
	var cmd *osexec.Cmd
	if c.as != "" {
		cmd = osexec.Command("runuser", append([]string{"-u", c.as, "--", path}, args...)...)
	} else {
		cmd = osexec.Command(path, args...)
	}
	cmd.Dir = c.dir
	return cmd
}

// binDir returns the directory of the newest PostgreSQL installed.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	if p, err := osexec.LookPath("pg_ctl"); err == nil && isExec(filepath.Join(filepath.Dir(p), "initdb")) {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("no PostgreSQL programs (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on the PATH")
}

// version is the major version of a /usr/lib/postgresql/N/bin directory.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&0o111 != 0
}

// freePort returns a port of 127.0.0.1 free now.
func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
