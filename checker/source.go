package checker

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Limits on what is read from a learner's folder into the scratch copy: files and bytes in all, and
// bytes of any one file.
const (
	maxSourceFiles    = 500
	maxSourceBytes    = 20 << 20
	maxSourceFileSize = 8 << 20 // as internal/grade reads a submission's file, so that what grade takes the build takes too
)

// snapshot copies what may take part in a build from the learner's folder src into dst: the .go
// files and go.mod, in src and its sub-folders. It reads only regular files, each opened without
// following a link and without waiting on a FIFO or a device, and re-checked once open, so that a
// file swapped between the look and the open is refused too; sizes are checked while reading, not
// trusted. Everything else (hidden files, symbolic links, FIFOs, devices, sockets, files of other
// kinds such as .s, .c, .h or .syso, which the go command would hand to a tool) is left out and
// named in the returned list, one "path: why" each, so that the learner is told. An error means
// src holds more than a program's folder can (a wrongly aimed --dir) or could not be read.
func snapshot(src, dst string) (skipped []string, err error) {
	files, total := 0, int64(0)
	skip := func(rel, why string) {
		if len(skipped) < 50 {
			skipped = append(skipped, filepath.ToSlash(rel)+": "+why)
		}
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == src {
				return err
			}
			return nil
		}
		rel, _ := filepath.Rel(src, path)
		if rel == "." {
			return os.MkdirAll(dst, 0o755)
		}
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "testdata":
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			skip(rel, "symlink")
			return nil
		case !d.Type().IsRegular():
			skip(rel, "not_regular")
			return nil
		case !strings.HasSuffix(name, ".go") && !(name == "go.mod" && filepath.Dir(rel) == "."):
			// Only what the go command would hand to a tool is named; a README or notes beside the
			// program take no part in any build and are passed over in silence.
			if toolFiles[strings.ToLower(filepath.Ext(name))] {
				skip(rel, "not_go")
			}
			return nil
		case strings.HasSuffix(name, "_test.go"):
			return nil
		}
		files++
		if files > maxSourceFiles {
			return fmt.Errorf("%s holds more than %d files; point --dir at the program's own folder", src, maxSourceFiles)
		}
		n, ok, err := copyRegular(path, filepath.Join(dst, rel), min(maxSourceFileSize, maxSourceBytes-total))
		if err != nil {
			return err
		}
		if !ok {
			skip(rel, "not_regular")
			return nil
		}
		if n < 0 {
			return fmt.Errorf("%s holds more than %d MiB of Go source (%s alone may hold at most %d MiB); point --dir at the program's own folder",
				src, maxSourceBytes>>20, rel, maxSourceFileSize>>20)
		}
		total += n
		return nil
	})
	sort.Strings(skipped)
	return skipped, err
}

// copyRegular copies the file from to to when it is a regular file, at most max bytes. ok is false
// when it is not a regular file (nothing is copied); n is -1 when it is larger than max.
func copyRegular(from, to string, max int64) (n int64, ok bool, err error) {
	in, ok, err := openRegular(from)
	if err != nil || !ok {
		return 0, ok, err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, true, err
	}
	n, err = io.Copy(out, io.LimitReader(in, max+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, true, err
	}
	if n > max {
		return -1, true, nil
	}
	return n, true, nil
}

// toolFiles are the kinds of file the go command would feed to the assembler, a C compiler or the
// linker, had they been left in the folder.
var toolFiles = map[string]bool{
	".s": true, ".sx": true, ".c": true, ".cc": true, ".cxx": true, ".cpp": true, ".m": true,
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".f": true, ".for": true, ".f90": true,
	".swig": true, ".swigcxx": true, ".syso": true,
}

// goModLine matches the directives a learner's go.mod may hold.
var (
	goModModule = regexp.MustCompile(`^module\s+("[^"]+"|\S+)$`)
	goModGo     = regexp.MustCompile(`^go\s+1\.(\d+)(\.\d+)?$`)
	goModTool   = regexp.MustCompile(`^toolchain\s+go1\.(\d+)(\.\d+)?\S*$`)
)

// The words checkGoMod's logs end with, after the place and the line or word refused.
const (
	goModNewerTail   = ": this checker has Go %s and downloads no other"
	goModRefusedTail = ": a go.mod under check may hold only its module line and a go line"
)

// goModLog reads a log of checkGoMod's back.
var goModLog = regexp.MustCompile(`^(go\.mod:\d+): (.*?)(?:: this checker has Go (\S+) and downloads no other|` +
	regexp.QuoteMeta(goModRefusedTail) + `)$`)

// GoModRefusal reads back the build log of a go.mod the checker refused itself (Reason go_mod or
// go_version), for a presenter to say in the reader's language: where (go.mod:3), what (the word
// or line refused, as written there) and, for a go version above the checker's, the checker's Go.
// ok is false for any other log (the go command's own, say).
func GoModRefusal(log string) (place, what, goVersion string, ok bool) {
	m := goModLog.FindStringSubmatch(strings.TrimSpace(log))
	if m == nil {
		return "", "", "", false
	}
	return m[1], m[2], m[3], true
}

// checkGoMod judges the learner's go.mod in dir: it may name its module and a go version, nothing
// else that reaches outside the scratch copy or changes the build (require, replace, exclude,
// retract, tool, godebug, ignore: refused, Reason "go_mod"), and a go version or a toolchain line
// above the installed toolchain's is refused as "go_version", since nothing is downloaded (a
// toolchain line naming the installed Go or an older one changes nothing under GOTOOLCHAIN=local).
func checkGoMod(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	toolMinor, _ := strconv.Atoi(strings.TrimPrefix(GoVersion(), "1."))
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "", goModModule.MatchString(line):
		case goModGo.MatchString(line), goModTool.MatchString(line):
			m := goModGo.FindStringSubmatch(line)
			if m == nil {
				m = goModTool.FindStringSubmatch(line)
			}
			if minor, _ := strconv.Atoi(m[1]); minor > toolMinor {
				return &BuildFailure{Verdict: BuildError, Reason: "go_version",
					Log: fmt.Sprintf("go.mod:%d: %s"+goModNewerTail, i+1, line, GoVersion())}
			}
		default:
			word, _, _ := strings.Cut(line, " ")
			return &BuildFailure{Verdict: BuildError, Reason: "go_mod",
				Log: fmt.Sprintf("go.mod:%d: %q"+goModRefusedTail, i+1, strings.TrimSpace(word))}
		}
	}
	return nil
}
