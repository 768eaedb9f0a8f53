//go:build linux

package checker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"golang.org/x/sys/unix"
)

// Where the checker was not started in a cgroup it can use, it asks systemd for one, as
// `systemd-run --user --scope -p Delegate=yes` does for the command it runs: a transient scope unit,
// workbook-PID-RANDOM.scope, holding the checker's own process, with Delegate=yes (the scope's
// cgroup is the checker's to write) and CollectMode=inactive-or-failed (systemd forgets it when the
// checker exits). An ordinary user asks the user's manager (systemd --user), root asks the system
// manager. The manager moves the checker into the scope's cgroup, where it is alone, and the usual
// path follows (setupCgroups). The request has a short time limit: a manager or bus that does not
// answer leaves the checker with its watchdog, and the reason in CgroupStatus.

// scopeTimeout bounds the whole request: connecting, the call and the wait for its job.
var scopeTimeout = 5 * time.Second

// scopeRoute is one way to reach a systemd manager.
type scopeRoute struct {
	from   string // CgroupFromSystemdUser or CgroupFromSystemdSystem
	socket string // a Unix socket's path
	direct bool   // the manager's own private socket: no bus daemon between, no Hello
}

// scopeOff reports whether the environment turns the request off.
func scopeOff(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(ScopeEnv))) {
	case "0", "off", "no", "false":
		return true
	}
	return false
}

// unifiedOnly reports whether /proc/self/cgroup (its contents) lists the unified hierarchy alone:
// on a hybrid system the memory controller is cgroup v1's, and no scope can delegate it.
func unifiedOnly(procCgroup []byte) bool {
	found := false
	for _, line := range strings.Split(strings.TrimSpace(string(procCgroup)), "\n") {
		if !strings.HasPrefix(line, "0::") {
			return false
		}
		found = true
	}
	return found
}

// busPath returns the path of the first unix:path= address of a D-Bus address list, or "".
func busPath(address string) string {
	for _, a := range strings.Split(address, ";") {
		rest, ok := strings.CutPrefix(a, "unix:")
		if !ok {
			continue
		}
		for _, kv := range strings.Split(rest, ",") {
			if p, ok := strings.CutPrefix(kv, "path="); ok {
				if u, err := unescapeBus(p); err == nil {
					return u
				}
			}
		}
	}
	return ""
}

// unescapeBus undoes a D-Bus address value's %XX escapes.
func unescapeBus(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("bad escape")
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", err
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}

// scopeRoutes lists the ways to the manager that would give the checker a scope, best first: the
// manager's private socket, then the bus. Root asks the system manager, anyone else the user's.
// With none, it says why.
func scopeRoutes(euid int, getenv func(string) string, exists func(string) bool) ([]scopeRoute, error) {
	var routes []scopeRoute
	if euid == 0 {
		if !exists("/run/systemd/system") {
			return nil, errors.New("systemd is not the system's manager (no /run/systemd/system)")
		}
		if exists("/run/systemd/private") {
			routes = append(routes, scopeRoute{CgroupFromSystemdSystem, "/run/systemd/private", true})
		}
		bus := busPath(getenv("DBUS_SYSTEM_BUS_ADDRESS"))
		if bus == "" {
			bus = "/run/dbus/system_bus_socket"
		}
		if exists(bus) {
			routes = append(routes, scopeRoute{CgroupFromSystemdSystem, bus, false})
		}
		if len(routes) == 0 {
			return nil, errors.New("neither /run/systemd/private nor the system bus is there")
		}
		return routes, nil
	}
	run := getenv("XDG_RUNTIME_DIR")
	if run != "" && exists(filepath.Join(run, "systemd", "private")) {
		routes = append(routes, scopeRoute{CgroupFromSystemdUser, filepath.Join(run, "systemd", "private"), true})
	}
	bus := busPath(getenv("DBUS_SESSION_BUS_ADDRESS"))
	if bus == "" && run != "" {
		bus = filepath.Join(run, "bus")
	}
	if bus != "" && exists(bus) {
		routes = append(routes, scopeRoute{CgroupFromSystemdUser, bus, false})
	}
	if len(routes) == 0 {
		if run == "" {
			return nil, errors.New("no user manager to ask: XDG_RUNTIME_DIR is not set")
		}
		return nil, fmt.Errorf("no user manager to ask: neither %s nor a session bus is there", filepath.Join(run, "systemd", "private"))
	}
	return routes, nil
}

// systemdScope asks systemd for a delegated scope holding the checker's process and waits until the
// process is in it. It returns where the scope came from, or why there is none.
func systemdScope() (from string, err error) {
	if scopeOff(os.Getenv) {
		return "", fmt.Errorf("not asked for a scope: %s=%s", ScopeEnv, os.Getenv(ScopeEnv))
	}
	pc, err := os.ReadFile(cgroupProcs)
	if err != nil {
		return "", err
	}
	if !unifiedOnly(pc) {
		return "", errors.New("the system mixes cgroup v1 and v2 (hybrid or v1), so no scope can delegate the memory controller")
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	routes, err := scopeRoutes(os.Geteuid(), os.Getenv, exists)
	if err != nil {
		return "", err
	}
	name := scopeName()
	var errs []string
	for _, r := range routes {
		ctx, cancel := context.WithTimeout(context.Background(), scopeTimeout)
		err := startScope(ctx, r, name, os.Getpid())
		cancel()
		if err == nil {
			if err := inScope(name); err != nil {
				return "", err
			}
			return r.from, nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v", r.socket, err))
		if errors.Is(err, errRefused) || errors.Is(err, context.DeadlineExceeded) {
			break // the manager answered no, or may still act on the request: do not ask twice
		}
	}
	return "", errors.New(strings.Join(errs, "; "))
}

// scopeName is a unit name no other checker uses: workbook-PID-RANDOM.scope.
func scopeName() string {
	b := make([]byte, 4)
	rand.Read(b)
	return fmt.Sprintf("workbook-%d-%s.scope", os.Getpid(), hex.EncodeToString(b))
}

// inScope checks that the checker's process is in the cgroup of the scope name now.
func inScope(name string) error {
	pc, err := os.ReadFile(cgroupProcs)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(pc), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok && filepath.Base(rest) == name {
			return nil
		}
	}
	return fmt.Errorf("systemd started %s, but the checker is not in its cgroup (%s)", name, strings.TrimSpace(string(pc)))
}

// errRefused marks a request the manager answered with an error or a failed job.
var errRefused = errors.New("refused")

// property is one (sv) of StartTransientUnit's properties.
type property struct {
	Name  string
	Value dbus.Variant
}

// startScope asks the manager that r reaches for the transient scope name with the process pid in
// it, Delegate=yes, and waits for the job to finish, as systemd-run does. ctx bounds it all: when it
// ends, the connection is closed, which ends any read or write in progress.
func startScope(ctx context.Context, r scopeRoute, name string, pid int) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", r.socket)
	if err != nil {
		return err
	}
	uc := c.(*net.UnixConn)
	stop := context.AfterFunc(ctx, func() { uc.Close() })
	defer stop()
	if r.direct {
		// The manager's private socket must be the manager's: root's, or the user's own.
		if err := peerIsTrusted(uc); err != nil {
			uc.Close()
			return err
		}
	}
	conn, err := dbus.DialUnix(uc)
	if err != nil {
		uc.Close()
		return err
	}
	defer conn.Close()
	if err := conn.Auth([]dbus.Auth{dbus.AuthExternal(strconv.Itoa(os.Geteuid()))}); err != nil {
		return timedOut(ctx, err)
	}
	signals := make(chan *dbus.Signal, 64)
	conn.Signal(signals)
	if !r.direct {
		// On a bus, a name of its own and a match for the job's end; a private socket gets every
		// signal of the manager.
		if err := conn.Hello(); err != nil {
			return timedOut(ctx, err)
		}
		if err := conn.AddMatchSignalContext(ctx, dbus.WithMatchObjectPath("/org/freedesktop/systemd1"),
			dbus.WithMatchInterface("org.freedesktop.systemd1.Manager"), dbus.WithMatchMember("JobRemoved")); err != nil {
			return timedOut(ctx, err)
		}
	}
	props := []property{
		{"Description", dbus.MakeVariant("workbook: the checker's delegated cgroup")},
		{"PIDs", dbus.MakeVariant([]uint32{uint32(pid)})},
		{"Delegate", dbus.MakeVariant(true)},
		{"CollectMode", dbus.MakeVariant("inactive-or-failed")},
	}
	aux := []struct {
		Name  string
		Props []property
	}{}
	var job dbus.ObjectPath
	call := conn.Object("org.freedesktop.systemd1", "/org/freedesktop/systemd1").CallWithContext(ctx,
		"org.freedesktop.systemd1.Manager.StartTransientUnit", 0, name, "fail", props, aux)
	if err := call.Store(&job); err != nil {
		var derr dbus.Error
		if errors.As(err, &derr) {
			return fmt.Errorf("%w: %s: %v", errRefused, derr.Name, err)
		}
		return timedOut(ctx, err)
	}
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the job %s: %w", job, ctx.Err())
		case s, ok := <-signals:
			if !ok {
				return timedOut(ctx, errors.New("the connection closed before the job ended"))
			}
			if s.Name != "org.freedesktop.systemd1.Manager.JobRemoved" || len(s.Body) < 4 {
				continue
			}
			if p, _ := s.Body[1].(dbus.ObjectPath); p != job {
				continue
			}
			if result, _ := s.Body[3].(string); result != "done" {
				return fmt.Errorf("%w: the job starting %s ended %q", errRefused, name, result)
			}
			return nil
		}
	}
}

// timedOut names the deadline as the cause of err when ctx ended (a closed connection says less).
func timedOut(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("no answer in time: %w", ctx.Err())
	}
	return err
}

// peerIsTrusted checks that the process at the other end of c runs as root or as the checker's user.
func peerIsTrusted(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if cred.Uid != 0 && int(cred.Uid) != os.Geteuid() {
		return fmt.Errorf("the socket belongs to the user %d, neither root nor the checker's", cred.Uid)
	}
	return nil
}
