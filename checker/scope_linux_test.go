//go:build linux

package checker

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The emulated machine of TestCgroupsInVM runs systemd many times slower than a real one: the
// request for a scope gets its time limit multiplied like the tests' own.
func init() { scopeTimeout *= testTimeScale() }

func TestScopeRoutes(t *testing.T) {
	tests := []struct {
		name  string
		euid  int
		env   map[string]string
		files []string
		want  []scopeRoute
		err   string
	}{
		{name: "root without systemd", euid: 0, files: []string{"/run/dbus/system_bus_socket"},
			err: "not the system's manager"},
		{name: "root, private socket and bus", euid: 0,
			files: []string{"/run/systemd/system", "/run/systemd/private", "/run/dbus/system_bus_socket"},
			want: []scopeRoute{{CgroupFromSystemdSystem, "/run/systemd/private", true},
				{CgroupFromSystemdSystem, "/run/dbus/system_bus_socket", false}}},
		{name: "root, bus named", euid: 0, env: map[string]string{"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/x/sys%2dbus"},
			files: []string{"/run/systemd/system", "/x/sys-bus"},
			want:  []scopeRoute{{CgroupFromSystemdSystem, "/x/sys-bus", false}}},
		{name: "root, systemd without sockets", euid: 0, files: []string{"/run/systemd/system"}, err: "neither"},
		{name: "user manager", euid: 1000, env: map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"},
			files: []string{"/run/user/1000/systemd/private", "/run/user/1000/bus"},
			want: []scopeRoute{{CgroupFromSystemdUser, "/run/user/1000/systemd/private", true},
				{CgroupFromSystemdUser, "/run/user/1000/bus", false}}},
		{name: "session bus named", euid: 1000,
			env:   map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/x;unix:path=/tmp/b,guid=1"},
			files: []string{"/tmp/b"},
			want:  []scopeRoute{{CgroupFromSystemdUser, "/tmp/b", false}}},
		{name: "no runtime folder", euid: 1000, files: []string{"/run/user/1000/systemd/private"}, err: "XDG_RUNTIME_DIR is not set"},
		{name: "no user manager", euid: 1000, env: map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"},
			err: "no user manager"},
		// Root never asks a user's manager: its runtime folder may be another user's (sudo).
		{name: "root with a user's runtime folder", euid: 0, env: map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"},
			files: []string{"/run/user/1000/systemd/private"}, err: "not the system's manager"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			have := map[string]bool{}
			for _, f := range tt.files {
				have[f] = true
			}
			got, err := scopeRoutes(tt.euid, func(k string) string { return tt.env[k] }, func(p string) bool { return have[p] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("scopeRoutes = %v, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || len(got) != len(tt.want) {
				t.Fatalf("scopeRoutes = %v, %v; want %v", got, err, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("route %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestScopeConditions(t *testing.T) {
	unified := []struct {
		cgroup string
		want   bool
	}{
		{"0::/user.slice/user-1000.slice/session-2.scope\n", true},
		{"0::/\n", true},
		{"12:memory:/x\n1:name=systemd:/x\n0::/x\n", false}, // hybrid
		{"12:memory:/x\n1:name=systemd:/x\n", false},        // v1
		{"", false},
	}
	for _, tt := range unified {
		if got := unifiedOnly([]byte(tt.cgroup)); got != tt.want {
			t.Errorf("unifiedOnly(%q) = %v, want %v", tt.cgroup, got, tt.want)
		}
	}
	off := []struct {
		value string
		want  bool
	}{{"", false}, {"1", false}, {"on", false}, {"0", true}, {"off", true}, {"No", true}, {" false ", true}}
	for _, tt := range off {
		if got := scopeOff(func(string) string { return tt.value }); got != tt.want {
			t.Errorf("scopeOff with %s=%q = %v, want %v", ScopeEnv, tt.value, got, tt.want)
		}
	}
}

// TestScopeTurnedOff checks that WORKBOOK_SYSTEMD_SCOPE=0 keeps the checker from asking, and says so.
func TestScopeTurnedOff(t *testing.T) {
	t.Setenv(ScopeEnv, "0")
	from, err := systemdScope()
	if err == nil || !strings.Contains(err.Error(), ScopeEnv) {
		t.Fatalf("systemdScope with %s=0 = %q, %v; want a refusal naming the variable", ScopeEnv, from, err)
	}
}

// TestScopeDeadBus checks that a manager's socket that never answers, or hangs up, leaves the
// checker with an error when the request's time is up, not stuck.
func TestScopeDeadBus(t *testing.T) {
	for _, tt := range []struct {
		name   string
		serve  func(net.Conn)
		direct bool
		isTime bool
	}{
		{"silent private socket", func(c net.Conn) {}, true, true},
		{"silent bus", func(c net.Conn) {}, false, true},
		// Hello's answer never comes: the bus took the authentication and then hung.
		{"hung after authentication", func(c net.Conn) {
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				switch {
				case strings.HasPrefix(line, "\x00AUTH\r") || strings.HasPrefix(line, "AUTH\r"):
					c.Write([]byte("REJECTED EXTERNAL\r\n"))
				case strings.HasPrefix(line, "AUTH EXTERNAL"):
					c.Write([]byte("OK 0123456789abcdef0123456789abcdef\r\n"))
				case strings.HasPrefix(line, "NEGOTIATE_UNIX_FD"):
					c.Write([]byte("ERROR\r\n"))
				case strings.HasPrefix(line, "BEGIN"):
					return // and keep the connection open without a word
				}
			}
		}, false, true},
		{"hangs up", func(c net.Conn) { c.Close() }, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sock := filepath.Join(t.TempDir(), "s")
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			var held []net.Conn
			var mu sync.Mutex
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					mu.Lock()
					held = append(held, c)
					mu.Unlock()
					go tt.serve(c)
				}
			}()
			defer func() {
				mu.Lock()
				for _, c := range held {
					c.Close()
				}
				mu.Unlock()
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			err = startScope(ctx, scopeRoute{CgroupFromSystemdUser, sock, tt.direct}, "workbook-test.scope", os.Getpid())
			if err == nil {
				t.Fatal("startScope succeeded against a socket that gives no scope")
			}
			if tt.isTime != errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("startScope: %v; want a deadline error: %v", err, tt.isTime)
			}
		})
	}
}

// fakeManager plays systemd's manager on a session bus: StartTransientUnit records its arguments
// and ends the job as result says (after a JobRemoved of another job), or refuses.
type fakeManager struct {
	conn   *dbus.Conn
	result string // the job's result, or "" to refuse the call
	early  bool   // JobRemoved before the method's reply
	mu     sync.Mutex
	name   string
	mode   string
	props  map[string]any
}

func (m *fakeManager) StartTransientUnit(name, mode string, props []property, aux []struct {
	Name  string
	Props []property
}) (dbus.ObjectPath, *dbus.Error) {
	m.mu.Lock()
	m.name, m.mode, m.props = name, mode, map[string]any{}
	for _, p := range props {
		m.props[p.Name] = p.Value.Value()
	}
	m.mu.Unlock()
	if m.result == "" {
		return "", dbus.NewError("org.freedesktop.DBus.Error.AccessDenied", []any{"not you"})
	}
	job := dbus.ObjectPath("/org/freedesktop/systemd1/job/42")
	emit := func() {
		const sig = "org.freedesktop.systemd1.Manager.JobRemoved"
		m.conn.Emit("/org/freedesktop/systemd1", sig, uint32(41), dbus.ObjectPath("/org/freedesktop/systemd1/job/41"), "other.scope", "failed")
		m.conn.Emit("/org/freedesktop/systemd1", sig, uint32(42), job, name, m.result)
	}
	if m.early {
		emit()
	} else {
		go func() { time.Sleep(10 * time.Millisecond); emit() }()
	}
	return job, nil
}

// TestScopeFakeManager asks a stand-in for systemd on a real D-Bus session bus (dbus-daemon) for a
// scope: the call systemd-run makes (name, mode, PIDs, Delegate, CollectMode), the wait for the
// job's own JobRemoved whether it comes before the reply or after, a failed job and a refusal.
// Moving the process is systemd's part, which TestCgroupsInVM's systemd scenario shows.
func TestScopeFakeManager(t *testing.T) {
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("dbus-daemon is missing; .ci/install-deps installs it")
		}
		t.Skip("no dbus-daemon here (Debian's dbus-daemon package)")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "bus")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, daemon, "--session", "--nofork", "--nopidfile", "--address=unix:path="+sock)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
	}()
	var service *dbus.Conn
	for i := 0; ; i++ {
		if service, err = dbus.Connect("unix:path=" + sock); err == nil {
			break
		}
		if i == 500 {
			t.Fatalf("dbus-daemon does not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer service.Close()
	m := &fakeManager{conn: service}
	if err := service.Export(m, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager"); err != nil {
		t.Fatal(err)
	}
	if reply, err := service.RequestName("org.freedesktop.systemd1", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v, %v", reply, err)
	}
	for _, tt := range []struct {
		name   string
		result string
		early  bool
		err    string
	}{
		{"done after the reply", "done", false, ""},
		{"done before the reply", "done", true, ""},
		{"job failed", "failed", false, `ended "failed"`},
		{"refused", "", false, "AccessDenied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m.mu.Lock()
			m.result, m.early = tt.result, tt.early
			m.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			unit := scopeName()
			err := startScope(ctx, scopeRoute{CgroupFromSystemdUser, sock, false}, unit, 4321)
			if tt.err == "" && err != nil {
				t.Fatalf("startScope: %v", err)
			}
			if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, errRefused)) {
				t.Fatalf("startScope: %v; want a refusal with %q", err, tt.err)
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.name != unit || !strings.HasPrefix(unit, "workbook-") || !strings.HasSuffix(unit, ".scope") || m.mode != "fail" {
				t.Errorf("StartTransientUnit(%q, %q), want (%q, \"fail\")", m.name, m.mode, unit)
			}
			if pids, _ := m.props["PIDs"].([]uint32); len(pids) != 1 || pids[0] != 4321 {
				t.Errorf("PIDs = %v, want [4321]", m.props["PIDs"])
			}
			if d, _ := m.props["Delegate"].(bool); !d {
				t.Errorf("Delegate = %v, want true", m.props["Delegate"])
			}
			if c := m.props["CollectMode"]; c != "inactive-or-failed" {
				t.Errorf("CollectMode = %v, want inactive-or-failed", c)
			}
		})
	}
}
