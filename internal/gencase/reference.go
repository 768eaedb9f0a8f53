package gencase

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
)

// Runner gives the reference solution's stdout and exit code for arguments, in a language.
type Runner interface {
	Output(ctx context.Context, lang string, args []string) (stdout string, code int, err error)
}

// Solutions runs an exercise's reference solutions: the folders dirs[lang] of fsys, each built once
// into an executable kept under the hash of its source and the Go toolchain, so that a second check
// does not build it again: in the checker's cache folder (checker.CacheDir), where the sandbox keeps
// learners' programs out of it, else for this process only. The reference is the course's own code,
// so it runs outside the sandbox, under a time limit; an executable it could not trust is never run.
type Solutions struct {
	fsys fs.FS
	dirs map[string]string

	// Virtual says that the solutions run in virtual time (checker.Limits.Virtual); set it before
	// the first Output.
	Virtual bool

	mu    sync.Mutex
	exes  map[string]string // lang -> executable
	cache string
}

// Reference returns the Runner of the reference solutions in the folders dirs (lang -> folder) of
// fsys.
func Reference(fsys fs.FS, dirs map[string]string) *Solutions {
	return &Solutions{fsys: fsys, dirs: dirs, exes: map[string]string{}}
}

// runLimit bounds one run of a reference solution: the course's own program, which needs
// milliseconds, so the bound only stops a broken one from hanging a check. It is wall-clock time,
// so it is generous: a machine loaded many times over (learner_solved beside the checker's tests)
// took a virtual-time reference past 10 s.
const runLimit = time.Minute

// Output runs the reference solution in lang with args in an empty folder.
func (s *Solutions) Output(ctx context.Context, lang string, args []string) (string, int, error) {
	exe, err := s.executable(ctx, lang)
	if err != nil {
		return "", 0, err
	}
	dir, err := checker.TempDir("drawn")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(dir)
	rctx, cancel := context.WithTimeout(ctx, runLimit)
	defer cancel()
	cmd := exec.CommandContext(rctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "TMPDIR=" + dir, "PATH=" + os.Getenv("PATH")}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case rctx.Err() != nil:
		return "", 0, fmt.Errorf("did not finish within %s", runLimit)
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode(), nil
	case err != nil:
		return "", 0, err
	}
	return out.String(), 0, nil
}

// executable returns the reference solution's executable in lang, built at the first call.
func (s *Solutions) executable(ctx context.Context, lang string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if exe, ok := s.exes[lang]; ok {
		return exe, nil
	}
	dir, ok := s.dirs[lang]
	if !ok {
		return "", fmt.Errorf("no reference solution in %s", lang)
	}
	files, hash, err := source(s.fsys, dir)
	if err != nil {
		return "", err
	}
	if s.Virtual {
		// The harness and the flaky service are built in too.
		hash = hash[:16] + checker.VirtualFingerprint()[:16]
	}
	if exe, ok := built.Load(hash); ok {
		s.exes[lang] = exe.(string)
		return exe.(string), nil
	}
	if s.cache == "" {
		s.cache = checker.CacheDir("reference")
	}
	exe := ""
	if s.cache != "" {
		exe = filepath.Join(s.cache, hash)
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if checker.TrustedFile(exe) {
			s.exes[lang] = exe
			return exe, nil
		}
	}
	src, err := checker.TempDir("reference")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o644); err != nil {
			return "", err
		}
	}
	// The course's own code: never failed by a limit meant for a learner's compile-time bomb.
	prog, err := checker.Build(ctx, src, checker.Limits{Virtual: s.Virtual, Trusted: true})
	if err != nil {
		return "", fmt.Errorf("building the reference solution %s: %w", dir, err)
	}
	if s.cache == "" {
		// No cache to trust: the program's own scratch folder, kept for the rest of the process.
		built.Store(hash, prog.Path)
		s.exes[lang] = prog.Path
		return prog.Path, nil
	}
	defer prog.Close()
	// Written aside and renamed, so that a check running at the same time never runs half a file.
	tmp, err := os.CreateTemp(s.cache, "build-*")
	if err != nil {
		return "", err
	}
	in, err := os.Open(prog.Path)
	if err == nil {
		_, err = io.Copy(tmp, in)
		in.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), exe)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	s.exes[lang] = exe
	return exe, nil
}

// source reads the .go files of dir and hashes them with the toolchain that builds them.
func source(fsys fs.FS, dir string) (map[string][]byte, string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, "", err
	}
	files := map[string][]byte{}
	var names []string
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".go" {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, "", err
		}
		files[e.Name()] = data
		names = append(names, e.Name())
	}
	if len(files) == 0 {
		return nil, "", fmt.Errorf("%s: no Go files", dir)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s %s %s/%s\n", checker.GoVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	return files, hex.EncodeToString(h.Sum(nil))[:32], nil
}

// built holds, by source hash, the executables built in this process where there is no cache folder.
var built sync.Map
