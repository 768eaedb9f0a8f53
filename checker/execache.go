package checker

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Executables are kept between checks, keyed by what decides them: the snapshot of the learner's
// sources (every file's path and bytes), the toolchain's full version, the target and the build's
// flags. A check after an edit builds as before; a check of unchanged sources (watch after a save
// that changed nothing, serve's Check pressed twice, a second check, a regrade) runs the executable
// it already has. An executable is kept only under the key of its own program's sources (there is
// one program in every executable), only once it has been checked (checkExe), and only when the
// program is closed with no run of it having failed for a reason outside the program (a sandbox that
// could not be set up, a run the checker had to stop itself; see Program.taint), so that a fault of
// the machine is never cached as the program's. The cache is used only where the sandbox keeps runs out of it (Landlock's file
// rules), so that no learner's program can plant an executable for another's sources.

// buildFlags are the flags of every build of a learner's program; a change of them changes the key.
const buildFlags = "build -ldflags=-s -w"

// exeCacheMax is how many executables the cache keeps (about 1.5 MiB each, so at most about
// 380 MiB); the least recently used go first. It holds a learner's last programs, and every program
// of the course an author's verify or the tests build (about 160 starters, solutions and kept wrong
// programs, and one executable of mutants per exercise and language): with room for fewer (it was
// 64), a run of the tests pushed out the programs the next one needed, and built them all again.
const exeCacheMax = 256

var (
	exeCacheOnce sync.Once
	exeCachePath string
	// testNoCache counts the tests and benchmarks running now that build without the cache (those
	// that measure builds, or compare a batch with builds alone): while one does, none uses it. A
	// count, since such tests run in parallel.
	testNoCache atomic.Int32
)

// exeCacheDir is the cache's folder, "" when there is none to use: beside the Go build cache
// (…/workbook/exe), else in the user's cache folder.
func exeCacheDir() string {
	if testNoCache.Load() > 0 || !SandboxIsolation().Has(ProtectFiles) {
		return ""
	}
	exeCacheOnce.Do(func() {
		var dirs []string
		if gc := GoCache(); filepath.Base(gc) == "go-build" {
			dirs = append(dirs, filepath.Join(filepath.Dir(gc), "workbook", "exe"))
		}
		if c, err := os.UserCacheDir(); err == nil {
			dirs = append(dirs, filepath.Join(c, "workbook", "exe"))
		}
		for _, d := range dirs {
			if os.MkdirAll(d, 0o700) != nil {
				continue
			}
			if TrustedDir(d) {
				exeCachePath = d
				return
			}
		}
	})
	return exeCachePath
}

// CacheDir returns a folder of this user's alone for the cache named sub, beside the cache of
// executables, or "" where there is no such cache (where the sandbox cannot keep learners' programs
// out of it). What is kept there is the course's own, such as the reference solutions' executables.
func CacheDir(sub string) string {
	dir := exeCacheDir()
	if dir == "" {
		return ""
	}
	d := filepath.Join(filepath.Dir(dir), sub)
	if os.MkdirAll(d, 0o700) != nil {
		return ""
	}
	if !TrustedDir(d) {
		return ""
	}
	return d
}

// TrustedFile reports whether path is a regular file of this user's that no one else may write: an
// entry of a cache this process may run.
func TrustedFile(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular() && ownedByMe(fi) && fi.Mode().Perm()&0o022 == 0
}

// TrustedDir reports whether path is a folder of this user's (not a link to one) that no one else
// may write: a folder a cache may keep what this process runs or trusts in.
func TrustedDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir() && ownedByMe(fi) && fi.Mode().Perm()&0o022 == 0
}

// exeKey is the cache key of the sources in srcCopy (a snapshot, with its go.mod).
func exeKey(srcCopy string) (string, error) {
	h := sha256.New()
	io.WriteString(h, goToolchainVersion()+"\x00"+runtime.GOOS+"/"+runtime.GOARCH+"\x00"+buildFlags+"\x00")
	var files []string
	err := filepath.WalkDir(srcCopy, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, p := range files {
		rel, _ := filepath.Rel(srcCopy, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		io.WriteString(h, filepath.ToSlash(rel)+"\x00")
		h.Write([]byte{byte(len(data) >> 24), byte(len(data) >> 16), byte(len(data) >> 8), byte(len(data))})
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:40], nil
}

// cachedExe puts the cached executable of key at exe (a link, or a copy) and reports whether there
// was one.
func cachedExe(key, exe string) bool {
	dir := exeCacheDir()
	if dir == "" || key == "" {
		return false
	}
	p := filepath.Join(dir, key)
	if !TrustedFile(p) {
		return false
	}
	if os.Link(p, exe) != nil {
		if copyFile(p, exe) != nil || os.Chmod(exe, 0o755) != nil {
			os.Remove(exe)
			return false
		}
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	return true
}

// dropExe removes the cached executable of key: a run of it failed for a reason outside the program,
// so it is built afresh next time.
func dropExe(key string) {
	if dir := exeCacheDir(); dir != "" && key != "" {
		os.Remove(filepath.Join(dir, key))
	}
}

// keepExe stores the executable exe under key, and trims the cache to exeCacheMax entries.
func keepExe(key, exe string) {
	dir := exeCacheDir()
	if dir == "" || key == "" {
		return
	}
	tmp, err := os.CreateTemp(dir, ".new-")
	if err != nil {
		return
	}
	tmp.Close()
	if copyFile(exe, tmp.Name()) != nil || os.Chmod(tmp.Name(), 0o755) != nil || os.Rename(tmp.Name(), filepath.Join(dir, key)) != nil {
		os.Remove(tmp.Name())
		return
	}
	TrimCache(dir, exeCacheMax)
}

// TrimCache removes the least recently used entries of the cache folder dir beyond the max most
// recent ones (by modification time; a cache touches an entry when it uses it).
func TrimCache(dir string, max int) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= max {
		return
	}
	type aged struct {
		name string
		t    time.Time
	}
	var all []aged
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), fi.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].t.After(all[j].t) })
	for _, a := range all[min(max, len(all)):] {
		os.Remove(filepath.Join(dir, a.name))
	}
}
