// Package modproxy lays out a module proxy folder that serves the project as it is published: one
// version of the module, made from a git commit by golang.org/x/mod/zip the way the Go command and
// proxy.golang.org make it. CI points GOPROXY at that folder and installs workbook from it with
// `go install MODULE/cmd/workbook@VERSION`, as a user does, so a replace directive, a nested module
// or a file left out of the module zip shows up before a release.
//
//	v, err := modproxy.Write("/tmp/proxy", ".", "HEAD") // v.Version: v0.0.0-20261201211500-abcdef123456
//	// GOPROXY=file:///tmp/proxy,$(go env GOPROXY) GONOSUMDB=MODULE go install MODULE/cmd/workbook@VERSION
//
// The folder holds MODULE/@v/list, VERSION.info, VERSION.mod and VERSION.zip (the GOPROXY protocol,
// module paths case-encoded). The version is the commit's pseudo-version unless one is given.
package modproxy

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// Write lays out under dir a proxy folder serving the module at commit rev of the git work tree
// repo, as version (the commit's pseudo-version when version is ""). It returns the module and
// version served.
func Write(dir, repo, rev, version string) (module.Version, error) {
	hash, err := git(repo, "rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		return module.Version{}, err
	}
	hash = strings.TrimSpace(hash)
	when, err := git(repo, "log", "-1", "--format=%cI", hash)
	if err != nil {
		return module.Version{}, err
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(when))
	if err != nil {
		return module.Version{}, fmt.Errorf("commit time of %s: %w", hash, err)
	}
	gomod, err := git(repo, "show", hash+":go.mod")
	if err != nil {
		return module.Version{}, err
	}
	path := modfile.ModulePath([]byte(gomod))
	if path == "" {
		return module.Version{}, errors.New("go.mod at " + hash + " names no module")
	}
	if version == "" {
		version = module.PseudoVersion("", "", t.UTC(), hash[:12])
	}
	m := module.Version{Path: path, Version: version}
	if err := module.Check(m.Path, m.Version); err != nil {
		return m, err
	}
	src, err := os.MkdirTemp("", "modproxy-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(src)
	if err := unpack(repo, hash, src); err != nil {
		return m, err
	}
	var zbuf bytes.Buffer
	if err := modzip.CreateFromDir(&zbuf, m, src); err != nil {
		return m, err
	}
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return m, err
	}
	ev, err := module.EscapeVersion(m.Version)
	if err != nil {
		return m, err
	}
	vdir := filepath.Join(dir, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return m, err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, t.UTC()})
	if err != nil {
		return m, err
	}
	for name, data := range map[string][]byte{
		"list":       []byte(m.Version + "\n"),
		ev + ".info": info,
		ev + ".mod":  []byte(gomod),
		ev + ".zip":  zbuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return m, err
		}
	}
	if _, err := modzip.CheckZip(m, filepath.Join(vdir, ev+".zip")); err != nil {
		return m, err
	}
	return m, nil
}

// unpack writes the files of commit hash into dir, as `git archive` gives them: only what is
// committed, never what git ignores (a learner's my/, build output).
func unpack(repo, hash, dir string) error {
	out, err := git(repo, "-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", hash)
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(strings.NewReader(out), int64(len(out)))
	if err != nil {
		return err
	}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		if f.Mode()&os.ModeSymlink != 0 {
			continue // a module zip holds no symbolic links
		}
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) {
			return fmt.Errorf("git archive holds %q, outside the tree", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		r, err := f.Open()
		if err != nil {
			return err
		}
		w, err := os.Create(name)
		if err == nil {
			_, err = io.Copy(w, r)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
