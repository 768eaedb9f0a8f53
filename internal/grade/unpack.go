package grade

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bodgit/sevenzip"
	"golang.org/x/net/html"
)

// unpack copies into root what is graded of s under the job's limits: a folder's build files, an
// archive's files, the files of an LMS group, and archives inside archives (openNested). A clone of
// the course or a learner's workspace handed in whole, however large, folder or archive, is read
// from the exercise's own folder in it (locateExercise, pickFolders).
func (g *grader) unpack(s Submission, root string) (skipped []SkippedEntry, prefix string, err error) {
	lim := g.job.Read.orDefault()
	switch s.Kind {
	case KindDir:
		if sub, ok := locateExercise(s.Path, g.job.Exercise, lim); ok {
			rel, _ := filepath.Rel(s.Path, sub)
			skipped, err = copyFolderLim(sub, root, lim)
			return skipped, filepath.ToSlash(rel), err
		}
	case KindGo:
		return nil, "", copyOne(s.Path, filepath.Join(root, "main.go"))
	}
	skipped, err = gather(s, root, lim, g.job.Exercise)
	if err != nil {
		return skipped, "", err
	}
	skipped, err = openNested(skipped, root, lim, g.job.Exercise)
	return skipped, "", err
}

// locateExercise finds, in a folder that holds more than a program (a clone of the course, a
// workspace), the folder of the exercise: a folder named after it that holds .go files, a learner's
// (not under exercises/ or solutions/, which hold the course's own starter and solution) before the
// course's, then the shallowest. Only names are looked at, never contents, and the walk is bounded.
func locateExercise(dir, exercise string, lim ReadLimits) (string, bool) {
	var found []string
	seen := 0
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		if depth > lim.Depth || seen > 20*lim.Entries {
			return
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return
		}
		seen += len(entries)
		for _, e := range entries {
			if !e.IsDir() || junkName(e.Name()) || e.Name() == "vendor" || e.Name() == "testdata" {
				continue
			}
			q := filepath.Join(p, e.Name())
			if e.Name() == exercise && hasGoFilesHere(q) {
				found = append(found, q)
				continue
			}
			walk(q, depth+1)
		}
	}
	walk(dir, 0)
	if len(found) == 0 {
		return "", false
	}
	sort.Slice(found, func(i, j int) bool { return exerciseRank(dir, found[i]) < exerciseRank(dir, found[j]) })
	return found[0], true
}

// exerciseRank orders the folders of an exercise found in a clone: a learner's first, then by depth
// and name.
func exerciseRank(root, p string) string {
	rel, _ := filepath.Rel(root, p)
	rel = filepath.ToSlash(rel)
	course := "0"
	for _, part := range strings.Split(rel, "/") {
		if part == "exercises" || part == "solutions" {
			course = "1"
		}
	}
	return fmt.Sprintf("%s%03d%s", course, strings.Count(rel, "/"), rel)
}

func hasGoFilesHere(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && goFile(e.Name()) {
			return true
		}
	}
	return false
}

// un7z unpacks a .7z archive under the rules of unzip (github.com/bodgit/sevenzip reads it): entries
// that climb out are ZipSlip, more than the limits ZipBomb (counted while unpacking, whatever the
// headers say), two files of one name ZipTwice, a damaged or encrypted archive ZipCorrupt; links and
// other entries that are not regular files are skipped and returned.
func un7z(src, dst string, lim ReadLimits) ([]SkippedEntry, error) {
	return un7zFor(src, dst, lim, "")
}

// sevenPick is what of a .7z to unpack for the exercise (pickFolders; nil for all of it). A 7z's
// files may share one compressed block, so none is looked into: a folder holding main.go is a
// program's.
func sevenPick(zr *sevenzip.Reader, exercise string, lim ReadLimits) []string {
	var entries []listed
	mains := map[string]bool{}
	for _, zf := range zr.File {
		rel, err := safeRel(strings.ReplaceAll(zf.Name, `\`, "/"))
		if err != nil {
			continue // refused when unpacked
		}
		entries = append(entries, listed{rel: rel, file: zf.Mode().IsRegular(), size: zf.UncompressedSize})
		if path.Base(rel) == "main.go" {
			mains[path.Dir(rel)] = true
		}
	}
	return pickFolders(entries, exercise, lim, func(dir string) bool { return mains[dir] })
}

// un7zFor is un7z; with exercise set, a .7z that holds more than a program is unpacked from the
// exercise's folder alone (sevenPick).
func un7zFor(src, dst string, lim ReadLimits, exercise string) ([]SkippedEntry, error) {
	lim = lim.orDefault()
	f, info, err := openArchive(src, maxZipArchive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := sevenzip.NewReader(f, info.Size())
	if err != nil {
		return nil, &ArchiveError{Code: ZipCorrupt, Entry: filepath.Base(src)}
	}
	if len(zr.File) > listLimit(lim) {
		return nil, &ArchiveError{Code: ZipBomb, Entry: filepath.Base(src), Limit: BigEntries}
	}
	var keep []string
	if exercise != "" {
		keep = sevenPick(zr, exercise, lim)
	}
	var skipped []SkippedEntry
	budget, archives, files := lim.Bytes, lim.Archives, 0
	seen := map[string]bool{}
	for _, zf := range zr.File {
		rel, err := safeRel(strings.ReplaceAll(zf.Name, `\`, "/"))
		if err != nil {
			return nil, &ArchiveError{Code: ZipSlip, Entry: zf.Name}
		}
		mode := zf.Mode()
		switch {
		case rel == "" || skipEntry(rel) || mode.IsDir() || !picked(rel, keep):
			continue
		case !mode.IsRegular():
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: skipKind(mode)})
			continue
		case seen[nameKey(rel)]:
			return nil, &ArchiveError{Code: ZipTwice, Entry: zf.Name}
		case strings.Count(rel, "/") >= lim.Depth:
			return nil, &ArchiveError{Code: ZipBomb, Entry: zf.Name, Limit: BigDepth}
		}
		seen[nameKey(rel)] = true
		if files++; files > lim.Files {
			return nil, &ArchiveError{Code: ZipBomb, Entry: zf.Name, Limit: BigFiles}
		}
		b := &budget
		if innerArchive(rel) {
			b = &archives
		}
		n, err := extract7z(zf, dst, rel, *b)
		if *b -= n; err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

func extract7z(zf *sevenzip.File, dst, rel string, budget int64) (int64, error) {
	target := filepath.Join(dst, filepath.FromSlash(rel))
	if !within(dst, target) {
		return 0, &ArchiveError{Code: ZipSlip, Entry: zf.Name}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: rel}
	}
	rc, err := zf.Open()
	if err != nil {
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: zf.Name}
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
	if err != nil {
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: zf.Name}
	}
	in := &readErr{r: io.LimitReader(rc, budget+1)}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case n > budget:
		return n, &ArchiveError{Code: ZipBomb, Entry: zf.Name, Limit: BigBytes}
	case in.err != nil:
		return n, &ArchiveError{Code: ZipCorrupt, Entry: zf.Name}
	}
	return n, err
}

// textProgram is the file a program taken out of an online text (Canvas's text entry, Moodle's online
// text) is written to; Student.FromText says so in the feedback and the report.
const textProgram = "onlinetext.go"

// codeFromHTML takes a Go program out of an online text's HTML: the text of its <pre> and <code>
// blocks when it has them (an editor puts code there), else all of its text, line breaks kept.
func codeFromHTML(data []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	var pre, all strings.Builder
	var walk func(n *html.Node, inPre bool)
	walk = func(n *html.Node, inPre bool) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "style":
				return
			case "pre":
				inPre = true
			case "code":
				inPre = inPre || n.Parent == nil || n.Parent.Data != "p"
			case "br", "p", "div", "li":
				all.WriteString("\n")
				if inPre {
					pre.WriteString("\n")
				}
			}
		}
		if n.Type == html.TextNode {
			all.WriteString(n.Data)
			if inPre {
				pre.WriteString(n.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inPre)
		}
	}
	walk(doc, false)
	code := pre.String()
	if !strings.Contains(code, "package ") {
		code = all.String()
	}
	code = strings.ReplaceAll(code, "\u00a0", " ")
	if !strings.Contains(code, "package ") {
		return "", errors.New("no Go program in the text")
	}
	return strings.TrimSpace(code) + "\n", nil
}

// onlineText writes the program of an online text file into root (textProgram), and reports whether
// there was one.
func onlineText(p, root string) (bool, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := readAtMost(f, maxFileBytes, filepath.Base(p))
	if err != nil {
		return false, err
	}
	code, err := codeFromHTML(data)
	if err != nil {
		return false, nil
	}
	return true, os.WriteFile(filepath.Join(root, textProgram), []byte(code), 0o644)
}

func isHTMLName(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, ".html") || strings.HasSuffix(l, ".htm")
}
