package grade

import (
	"go/parser"
	"go/token"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
)

// What a student hands in is often more than the program: a zipped clone of the course (its .git,
// lessons, solutions, other exercises, a node_modules), a workspace, a project with photos. An
// archive is listed first (a zip's central directory, a tar's headers, a 7z's file list), the
// exercise's folder is picked from the names alone (pickFolders), and only that folder is unpacked:
// the limits (--max-files, --max-bytes, --max-depth) count what is unpacked, never what is passed
// over, and what is passed over is never written anywhere.
//
// Listing costs memory, not disk: it is bounded on its own (listLimit), whatever --max-files says.
const (
	// maxListed is how many entries of one archive are listed at least (skipped ones included).
	maxListed = 100000
	// maxListedArchive is the largest zip read: only its directory and the exercise's folder are read
	// of it, so a zipped clone of tens of megabytes is no harder than a small zip. A tar or a 7z,
	// which must be read through, keeps maxZipArchive.
	maxListedArchive = 1 << 30
	// peekBytes is how much of a .go file is read to find its package clause (pickFolders).
	peekBytes = 16 << 10
	// maxPeeks is how many .go files of an archive are looked into at most for their package clause.
	maxPeeks = 200
	// maxPicked is how many folders of an archive named after the exercise are unpacked at most.
	maxPicked = 8
)

// listLimit is how many entries an archive may list under lim.
func listLimit(lim ReadLimits) int { return max(lim.Entries, maxListed) }

// listed is an entry of an archive as listed: its safe path (slashes), whether it is a regular file,
// and the size its header declares.
type listed struct {
	rel  string
	file bool
	size uint64
}

// pickFolders chooses what of an archive to unpack (nil: all of it) from its entries alone:
//
//   - the folders named after the exercise that hold .go files (my/ru/exercise-retry,
//     exercise-retry, exercises/exercise-retry/ru…), a learner's before the course's exercises/ and
//     solutions/ (all of a learner's: a workspace keeps one per language), when the archive holds Go
//     outside them or is past the limits;
//   - else, when the archive is past the limits, the only folder whose .go files are a package main
//     (isMain looks into a file, see peekMain);
//   - else all of it, as before: a student's own zip of a program and its notes.
//
// A chosen folder is unpacked whole, subfolders included, so a program's own packages come with it.
func pickFolders(entries []listed, exercise string, lim ReadLimits, isMain func(rel string) bool) []string {
	var goDirs []string
	seen := map[string]bool{}
	files, bytes := 0, uint64(0)
	for _, e := range entries {
		if e.rel == "" || skipEntry(e.rel) || !e.file {
			continue
		}
		files++
		if !innerArchive(e.rel) {
			bytes += e.size // an archive inside is opened later, under its own budget (openNested)
		}
		if d := path.Dir(e.rel); goFile(path.Base(e.rel)) && !courseJunk(e.rel) && !seen[d] {
			seen[d] = true
			goDirs = append(goDirs, d)
		}
	}
	over := files > lim.Files || bytes > uint64(lim.Bytes)
	var mine, course []string
	outside := false
	prefixes := map[string]bool{}
	for _, d := range goDirs {
		p := exercisePrefix(d, exercise)
		switch {
		case p == "":
			outside = true
		case prefixes[p]:
		case exerciseRank("", p)[0] == '0':
			mine = append(mine, p)
		default:
			course = append(course, p)
		}
		prefixes[p] = true
	}
	if len(mine) == 0 {
		mine = course
	}
	switch {
	case len(mine) > 0 && (outside || over):
		// The shallowest few: a workspace has one a language, a hostile archive may have thousands.
		sort.Slice(mine, func(i, j int) bool { return exerciseRank("", mine[i]) < exerciseRank("", mine[j]) })
		return mine[:min(len(mine), maxPicked)]
	case len(mine) > 0 || !over:
		return nil
	}
	var mains []string
	for _, d := range goDirs {
		if isMain(d) {
			mains = append(mains, d)
		}
	}
	if len(mains) == 1 && mains[0] != "." {
		return mains
	}
	return nil // the top is the program's folder: all of it
}

// courseJunk reports a path under a folder no program of the course is taken from (vendor,
// testdata).
func courseJunk(rel string) bool {
	parts := strings.Split(rel, "/")
	return slices.Contains(parts[:len(parts)-1], "vendor") || slices.Contains(parts[:len(parts)-1], "testdata")
}

// exercisePrefix is the part of the folder dir up to its last folder named exercise ("" when none is).
func exercisePrefix(dir, exercise string) string {
	parts := strings.Split(dir, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == exercise {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// picked reports whether rel is inside one of the folders of keep (nil keeps everything).
func picked(rel string, keep []string) bool {
	if keep == nil {
		return true
	}
	for _, p := range keep {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// peekMain reports whether the start of a .go file (at most peekBytes of r) is a package main.
func peekMain(r io.Reader) bool {
	data, _ := io.ReadAll(io.LimitReader(r, peekBytes))
	f, err := parser.ParseFile(token.NewFileSet(), "peek.go", data, parser.PackageClauseOnly)
	return err == nil && f.Name.Name == "main"
}

// mainDirs answers isMain for pickFolders by looking into at most maxPeeks .go files of the entries
// (open opens one), and only when asked.
func mainDirs(entries []listed, open func(rel string) (io.ReadCloser, error)) func(dir string) bool {
	var byDir map[string][]string
	peeks := 0
	return func(dir string) bool {
		if byDir == nil {
			byDir = map[string][]string{}
			for _, e := range entries {
				if e.file && goFile(path.Base(e.rel)) {
					byDir[path.Dir(e.rel)] = append(byDir[path.Dir(e.rel)], e.rel)
				}
			}
		}
		for _, rel := range byDir[dir] {
			if peeks >= maxPeeks {
				return false
			}
			peeks++
			rc, err := open(rel)
			if err != nil {
				continue
			}
			ok := peekMain(rc)
			rc.Close()
			if ok {
				return true
			}
		}
		return false
	}
}
