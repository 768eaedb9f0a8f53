package ociimage

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestDockerfileAgrees reads the Dockerfile and checks that an engine builds the image Build builds:
// Go of go.mod's version in the build stage, workbook built with BuildEnv and BuildArgs, a final
// stage FROM scratch whose files come where Build puts them (the toolchain, workbook, the shell,
// /etc/passwd and /etc/group, the home owned by the user, /tmp with the sticky bit) and the same
// user, folder, environment and command.
func TestDockerfileAgrees(t *testing.T) {
	docker := read(t, "../../Dockerfile")
	mod, err := modfile.ParseLax("go.mod", []byte(read(t, "../../go.mod")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := find(t, docker, `(?m)^ARG GO_VERSION=(\S+)$`); v != minor(mod.Go.Version) {
		t.Errorf("the Dockerfile's Go is %s, go.mod's %s", v, mod.Go.Version)
	}
	stages := regexp.MustCompile(`(?m)^FROM (\S+)(?: AS (\S+))?$`).FindAllStringSubmatch(docker, -1)
	var froms []string
	for _, s := range stages {
		froms = append(froms, strings.TrimSpace(s[1]+" "+s[2]))
	}
	if want := []string{"golang:${GO_VERSION} build", "busybox:1.36-musl shell", "scratch"}; !slices.Equal(froms, want) {
		t.Errorf("the Dockerfile's stages are %q, want %q", froms, want)
	}
	final := docker[strings.LastIndex(docker, "\nFROM scratch\n"):]

	build := strings.Fields(find(t, docker, `(?m)^RUN (.*go build .*)$`))
	want := slices.Concat(BuildEnv, []string{"go", "build"}, BuildArgs, []string{"-o", "/out/workbook", "./cmd/workbook"})
	if !slices.Equal(build, want) {
		t.Errorf("the Dockerfile builds workbook with %q, Build with %q", build, want)
	}

	copies := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^COPY (.*) (\S+)$`).FindAllStringSubmatch(final, -1) {
		copies[m[2]] = m[1]
	}
	for dst, src := range map[string]string{
		GOROOT:   "--from=build /usr/local/go", // the golang image's GOROOT
		Workbook: "--from=build /out/workbook",
		Shell:    "--from=shell /bin/busybox",
		"/":      "--from=build /out/root/",
		Home:     fmt.Sprintf("--from=build --chown=%d:%d /out/root%s", UID, UID, Home),
	} {
		if copies[dst] != src {
			t.Errorf("the final stage's %s is COPY %q, want COPY %q", dst, copies[dst], src)
		}
	}
	if len(copies) != 5 {
		t.Errorf("the final stage copies %d things, Build's layers 5: %q", len(copies), copies)
	}
	escape := func(s string) string { return "'" + strings.ReplaceAll(s, "\n", `\n`) + "'" }
	for _, w := range []string{
		"printf " + escape(Passwd) + " >/out/root/etc/passwd",
		"printf " + escape(Group) + " >/out/root/etc/group",
		"chmod 1777 /out/root/tmp", "chmod 0700 /out/root/root",
	} {
		if !strings.Contains(docker, w) {
			t.Errorf("the Dockerfile lacks %s", w)
		}
	}

	if u := find(t, final, `(?m)^USER (\S+)$`); u != fmt.Sprintf("%d:%d", UID, UID) {
		t.Errorf("the image's USER is %s, Build's %d:%d", u, UID, UID)
	}
	if d := find(t, final, `(?m)^WORKDIR (\S+)$`); d != Home {
		t.Errorf("the image's WORKDIR is %s, Build's %s", d, Home)
	}
	var env []string
	for _, m := range regexp.MustCompile(`(?m)^ENV (\S+)$`).FindAllStringSubmatch(final, -1) {
		env = append(env, m[1])
	}
	if !slices.Equal(env, Env) {
		t.Errorf("the image's ENV is %q, Build's %q", env, Env)
	}
	var cmd []string
	if err := json.Unmarshal([]byte(find(t, final, `(?m)^CMD (.*)$`)), &cmd); err != nil || !slices.Equal(cmd, Cmd) {
		t.Errorf("the image's CMD is %q (%v), Build's %q", cmd, err, Cmd)
	}
}

// TestBuild builds the image into a layout, reads it back and unpacks it: its config, the files and
// their modes, and the image's own go and workbook run.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an image of the Go toolchain")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is of Linux")
	}
	if err := checkStatic("/bin/busybox"); err != nil {
		t.Skipf("no statically linked shell to put in the image (apt-get install busybox-static): %v", err)
	}
	dir := t.TempDir()
	img, err := Build(Options{Repo: "../.."})
	if err != nil {
		t.Fatal(err)
	}
	digest, err := WriteLayout(filepath.Join(dir, "layout"), img)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadLayout(filepath.Join(dir, "layout"))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := back.Digest(); err != nil || d != digest {
		t.Fatalf("the layout's image is %v (%v), want %v", d, err, digest)
	}
	cfg, err := back.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Config; c.User != "10001:10001" || c.WorkingDir != Home || !slices.Equal(c.Env, Env) || cfg.RootFS.Type != "layers" {
		t.Errorf("the config is %+v, rootfs %+v", c, cfg.RootFS)
	}

	root := filepath.Join(dir, "root")
	if err := Unpack(back, root); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mode fs.FileMode
		uid  int
		text string
	}{
		{"etc/passwd", 0o644, 0, Passwd},
		{"etc/group", 0o644, 0, Group},
		{"tmp", fs.ModeDir | fs.ModeSticky | 0o777, 0, ""},
		{"root", fs.ModeDir | 0o700, 0, ""},
		{"home/workbook", fs.ModeDir | 0o755, UID, ""},
		{"bin/sh", 0o755, 0, ""},
		{"usr/local/bin/workbook", 0o755, 0, ""},
		{"usr/local/go/bin/go", 0o755, 0, ""},
		{"usr/local/go/src/runtime/proc.go", 0o644, 0, ""},
	} {
		info, err := os.Lstat(filepath.Join(root, c.name))
		if err != nil {
			t.Error(err)
			continue
		}
		if info.Mode() != c.mode {
			t.Errorf("/%s: mode %v, want %v", c.name, info.Mode(), c.mode)
		}
		if uid, ok := owner(info); ok && os.Geteuid() == 0 && uid != c.uid {
			t.Errorf("/%s: owner %d, want %d", c.name, uid, c.uid)
		}
		if c.text != "" && read(t, filepath.Join(root, c.name)) != c.text {
			t.Errorf("/%s: %q", c.name, read(t, filepath.Join(root, c.name)))
		}
	}
	out, err := exec.Command(filepath.Join(root, "usr/local/go/bin/go"), "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Fields(string(out)); len(lines) != 2 || lines[0] != filepath.Join(root, "usr/local/go") || minor(strings.TrimPrefix(lines[1], "go")) != minor(runtime.Version()[2:]) {
		t.Errorf("the image's go env GOROOT GOVERSION: %q", out)
	}
	if out, err := exec.Command(filepath.Join(root, "bin/sh"), "-c", "echo $((1 + 1))").Output(); err != nil || string(out) != "2\n" {
		t.Errorf("the image's sh: %q, %v", out, err)
	}
}

func TestCheckStatic(t *testing.T) {
	for _, c := range []struct {
		path, err string
	}{
		{"/bin/ls", "dynamically linked"}, // Debian's ls needs its C library
		{"ociimage.go", "bad magic"},
		{filepath.Join(runtime.GOROOT(), "bin", "go"), ""},
	} {
		if _, err := os.Stat(c.path); err != nil {
			t.Logf("%s: %v", c.path, err)
			continue
		}
		err := checkStatic(c.path)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("checkStatic(%s) = %v, want %q", c.path, err, c.err)
		}
	}
}

func TestCheckToolchain(t *testing.T) {
	goroot := runtime.GOROOT()
	if _, err := os.Stat(filepath.Join(goroot, "VERSION")); err != nil {
		t.Skip("no toolchain with a VERSION file")
	}
	here := minor(runtime.Version()[2:])
	dir := t.TempDir()
	for _, c := range []struct {
		gomod, err string
	}{
		{"module m\n\ngo " + here + ".0\n", ""},
		{"module m\n\ngo 1.21\n", "names go 1.21"},
		{"module m\n", "names no go version"},
	} {
		name := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(name, []byte(c.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		err := checkToolchain(goroot, name)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.gomod, err, c.err)
		}
	}
}

func TestMinor(t *testing.T) {
	for in, want := range map[string]string{"1.26.8": "1.26", "1.26": "1.26", "1.26rc1": "1.26rc1", "1": "1"} {
		if got := minor(in); got != want {
			t.Errorf("minor(%q) = %q, want %q", in, got, want)
		}
	}
}

func find(t *testing.T, text, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the Dockerfile has nothing that matches %s", re)
	}
	return m[1]
}

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
