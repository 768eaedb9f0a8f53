package checker

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// One executable in the cache of executables. It is kept once, as "one-HASH", and each member's
// sources are kept as a record "KEY.one" that names it and the member's token. A lookup by a
// program's key (cachedExe) never finds one: a record is read only by cachedOneExe, and it gives the
// token that selects the package built from the sources of that very key, so a cached executable
// never runs another learner's code for this one. Without the token the dispatcher runs nothing.

// oneExeKept is a member of one executable to keep in the cache: its sources' key and its token.
type oneExeKept struct {
	key, token string
}

// keepOneExe stores the executable exe that holds the programs of kept.
func keepOneExe(exe string, kept []oneExeKept) {
	dir := exeCacheDir()
	if dir == "" || len(kept) == 0 {
		return
	}
	h := sha256.New()
	for _, k := range kept {
		io.WriteString(h, k.key+"\x00"+k.token+"\x00")
	}
	name := "one-" + hex.EncodeToString(h.Sum(nil))[:40]
	if !keepFile(dir, name, func(f string) error {
		if err := copyFile(exe, f); err != nil {
			return err
		}
		return os.Chmod(f, oneExeMode)
	}) {
		return
	}
	for _, k := range kept {
		keepFile(dir, k.key+".one", func(f string) error {
			return os.WriteFile(f, []byte(name+"\n"+k.token+"\n"), 0o600)
		})
	}
	TrimCache(dir, exeCacheMax)
}

// keepFile writes a cache entry through a temporary file, so that no reader sees half of it.
func keepFile(dir, name string, write func(string) error) bool {
	tmp, err := os.CreateTemp(dir, ".new-")
	if err != nil {
		return false
	}
	tmp.Close()
	if write(tmp.Name()) != nil || os.Rename(tmp.Name(), filepath.Join(dir, name)) != nil {
		os.Remove(tmp.Name())
		return false
	}
	return true
}

// cachedOneExe puts the cached executable that holds the program of key at exe (a link, or a copy)
// and returns the program's token; ok is false when there is none.
func cachedOneExe(key, exe string) (token string, ok bool) {
	dir := exeCacheDir()
	if dir == "" || key == "" {
		return "", false
	}
	rec := filepath.Join(dir, key+".one")
	if !TrustedFile(rec) {
		return "", false
	}
	data, err := os.ReadFile(rec)
	if err != nil || len(data) > 256 {
		return "", false
	}
	name, token, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	if !strings.HasPrefix(name, "one-") || strings.ContainsAny(name, `/\`) || len(token) != 32 || strings.Trim(token, "0123456789abcdef") != "" {
		return "", false
	}
	p := filepath.Join(dir, name)
	if !TrustedFile(p) || linkExe(p, exe) != nil {
		os.Remove(exe)
		return "", false
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	os.Chtimes(rec, now, now)
	return token, true
}
