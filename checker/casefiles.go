package checker

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// A case's files are of two kinds. Expected files (those an `expect NAME` line compares with: NAME
// and NAME.<lang>) never reach the disk: they are taken out of the archive before testscript unpacks
// it and kept in memory, so that no program, at any sandbox level, can read or rewrite what it is
// compared against. Input files (those a `run` line names as an argument, or as the value of a
// -flag=value argument) are copied into the fresh, empty folder each run starts in. Nothing else of
// the case is within the program's reach: it never runs in testscript's work folder.

// splitCase returns the case's script as testscript may unpack it (the expected files taken out)
// and the expected files by name.
func splitCase(script []byte) (onDisk []byte, expected map[string][]byte) {
	ar := txtar.Parse(script)
	names := expectedNames(ar.Comment)
	expected = map[string][]byte{}
	kept := ar.Files[:0:0]
	for _, f := range ar.Files {
		if isExpected(f.Name, names) {
			expected[f.Name] = f.Data
			continue
		}
		kept = append(kept, f)
	}
	ar.Files = kept
	return txtar.Format(ar), expected
}

// expectedNames lists the NAME of every `expect NAME` line of a script.
func expectedNames(script []byte) []string {
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(script))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "expect" {
			names = append(names, f[1])
		}
	}
	return names
}

// isExpected reports whether the archive file name is one that an expect line compares with.
func isExpected(name string, names []string) bool {
	for _, n := range names {
		if name == n || strings.HasPrefix(name, n+".") && !strings.Contains(name[len(n)+1:], "/") {
			return true
		}
	}
	return false
}

// maxInputBytes bounds what a run's input files may hold together.
const maxInputBytes = 16 << 20

// runFolder returns the folder one run starts in, with the input files of the case that the
// arguments name copied into it (expected files never are), and whether the folder is the run's
// own, to remove after it. A run gets a fresh, empty folder made for it under root; but where the
// sandbox init copies the folder into the run's private /tmp, and the program never sees the folder
// itself (see privateTmp), a run without input files is handed empty, a folder that stays empty,
// when it is not "": making and removing a folder per run cost a tenth of a run (BENCHMARKS.md).
func runFolder(root, empty string, inputs inputSource, args []string, expected map[string][]byte) (dir string, own bool, err error) {
	var names []string
	for _, name := range inputNames(args) {
		if _, ok := expected[filepath.ToSlash(name)]; !ok && inputs.has(name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 && empty != "" {
		return empty, false, nil
	}
	if err := makeDirs(filepath.Dir(root), filepath.Base(root)); err != nil {
		return "", false, err
	}
	dir, err = os.MkdirTemp(root, "run-")
	if err != nil {
		return "", false, err
	}
	total := int64(0)
	for _, name := range names {
		n, err := inputs.copyInput(name, filepath.Join(dir, name), maxInputBytes-total)
		if err != nil {
			os.RemoveAll(dir)
			return "", false, err
		}
		total += n
	}
	return dir, true, nil
}

// inputNames are the relative file names that args may refer to: each argument, and the part of a
// -flag=value argument after '='.
func inputNames(args []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, a := range args {
		cands := []string{a}
		if _, v, ok := strings.Cut(a, "="); ok {
			cands = append(cands, v)
		}
		for _, c := range cands {
			c = filepath.FromSlash(c)
			if c == "" || !filepath.IsLocal(c) || seen[c] {
				continue
			}
			seen[c] = true
			names = append(names, c)
		}
	}
	return names
}

// copyInput copies the regular file from to to, at most max bytes, and returns how many it copied.
// A name that is not a regular file of the case (a flag value that merely looks like a name) is
// skipped.
func copyInput(from, to string, max int64) (int64, error) {
	if fi, err := os.Lstat(from); err != nil || !fi.Mode().IsRegular() {
		return 0, nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return 0, err
	}
	n, ok, err := copyRegular(from, to, max)
	switch {
	case err != nil || !ok:
		return 0, err
	case n < 0:
		return 0, fmt.Errorf("the case's input %s is larger than %d MiB", filepath.Base(from), maxInputBytes>>20)
	}
	return n, nil
}
