package grade

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Layouts of a class export, as Submission.Layout and Student.Layout name them.
const (
	LayoutMoodle    = "moodle"    // Full Name_ID_assignsubmission_file_ (a folder, or flat files with the file's name after it)
	LayoutCanvas    = "canvas"    // login_[late_]userid_submissionid_name, flat files
	LayoutClassroom = "classroom" // assignment-login, a folder or repository per student (GitHub Classroom)
)

// ArchiveFormat is the code (Result.Message of a BadArchive verdict) of an archive in a format the
// grader does not read (7z, rar, xz, …): the student gets a row and feedback that says which formats do.
const ArchiveFormat = "archive_format"

var (
	// Moodle: "Иванов Иван_100001_assignsubmission_file_" for a folder per participant, the file's own
	// name after the last underscore when the export is flat.
	moodleName = regexp.MustCompile(`^(.+?)_(\d+)_assign(?:submission|feedback)_([a-z]+)_(.*)$`)
	// Canvas: "doejane_late_123456_7891011_main.go" (the late_ part only when the LMS marked it).
	canvasName = regexp.MustCompile(`^([^_\s]+)_(?:([Ll][Aa][Tt][Ee])_)?(\d+)_(\d+)_(.+)$`)
)

// archive extensions: those read as a .zip is, and those that cannot be read.
var (
	tarExts        = []string{".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar"}
	unreadableExts = []string{".7z", ".rar", ".tar.xz", ".txz", ".xz", ".tar.zst", ".zst", ".lzma", ".lz", ".cab", ".arj", ".bz2", ".gz"}
)

// archiveExt is the archive extension lower ends with ("" for none).
func archiveExt(lower string) string {
	if strings.HasSuffix(lower, ".zip") {
		return ".zip"
	}
	for _, list := range [][]string{tarExts, unreadableExts} {
		for _, e := range list {
			if strings.HasSuffix(lower, e) {
				return e
			}
		}
	}
	return ""
}

// archiveKind is the submission kind of a file named lower (in lower case) that is an archive:
// KindZip, KindTar, KindArchive (a format not read), or "" when it is no archive.
func archiveKind(lower string) string {
	switch e := archiveExt(lower); {
	case e == "":
		return ""
	case e == ".zip":
		return KindZip
	case strings.HasPrefix(e, ".t") && e != ".txz" && e != ".tar.xz" && e != ".tar.zst":
		return KindTar
	}
	return KindArchive
}

// lmsMember is an entry of the submissions folder that an LMS named after a student.
type lmsMember struct {
	sub    Submission // as List made it (Kind "" for a file List skipped)
	layout string
	key    string // the student: layout and id
	name   string // the display name
	id     string
	late   bool
	file   string // the name the student gave the file ("" for a folder)
}

// lmsGroup finds the students of an LMS export among the entries List found (and the files it
// skipped): Moodle's entries and Canvas's files are grouped per student and named as the LMS names
// them, with the LMS's id and late flag; GitHub Classroom's folders are named after the login. Entries
// of no layout are kept as they are.
func lmsGroup(dir string, subs []Submission, skipped []string) ([]Submission, []string) {
	var members []lmsMember
	var plain []Submission
	parse := func(s Submission, isDir bool) (lmsMember, bool) {
		base := cleanName(filepath.Base(s.Path))
		if m := moodleName.FindStringSubmatch(base); m != nil && (isDir == (m[4] == "")) {
			return lmsMember{sub: s, layout: LayoutMoodle, key: "m\x00" + m[2], name: strings.TrimSpace(m[1]), id: m[2], file: m[4]}, true
		}
		if m := canvasName.FindStringSubmatch(base); m != nil && !isDir {
			return lmsMember{sub: s, layout: LayoutCanvas, key: "c\x00" + m[3], name: m[1], id: m[3], late: m[2] != "", file: m[5]}, true
		}
		return lmsMember{}, false
	}
	for _, s := range subs {
		if m, ok := parse(s, s.Kind == KindDir); ok {
			members = append(members, m)
			continue
		}
		plain = append(plain, s)
	}
	var rest []string
	for _, name := range skipped {
		p := filepath.Join(dir, name)
		info, err := os.Lstat(p)
		if err == nil && !info.IsDir() {
			if m, ok := parse(Submission{Path: p}, false); ok {
				members = append(members, m)
				continue
			}
		}
		rest = append(rest, name)
	}
	if len(members) == 0 {
		return classroom(plain), rest
	}
	groups := map[string][]lmsMember{}
	var keys []string
	for _, m := range members {
		if groups[m.key] == nil {
			keys = append(keys, m.key)
		}
		groups[m.key] = append(groups[m.key], m)
	}
	sort.Strings(keys)
	names := map[string]int{}
	for _, k := range keys {
		names[groups[k][0].name]++
	}
	for _, s := range plain {
		names[s.Name]++
	}
	out := plain
	for _, k := range keys {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].sub.Path < g[j].sub.Path })
		first := g[0]
		s := Submission{Layout: first.layout, Display: first.name, ID: first.id, Name: first.name}
		if names[first.name] > 1 {
			s.Name = fmt.Sprintf("%s (%s)", first.name, first.id)
		}
		for _, m := range g {
			s.Late = s.Late || m.late
		}
		if len(g) == 1 && first.sub.Kind != "" {
			s.Path, s.Kind = first.sub.Path, first.sub.Kind
		} else {
			s.Kind = KindGroup
			s.Path = first.sub.Path
			for _, m := range g {
				s.Files = append(s.Files, m.sub.Path)
				s.Names = append(s.Names, m.file)
			}
		}
		out = append(out, s)
	}
	return out, rest
}

// classroom names the students of a GitHub Classroom export: every entry a folder, all of them named
// "assignment-login" with one assignment. Anything else is left as it is.
func classroom(subs []Submission) []Submission {
	if len(subs) < 2 {
		return subs
	}
	prefix := subs[0].Name
	for _, s := range subs {
		if s.Kind != KindDir {
			return subs
		}
		for !strings.HasPrefix(s.Name, prefix) {
			_, size := utf8.DecodeLastRuneInString(prefix)
			prefix = prefix[:len(prefix)-size]
		}
	}
	i := strings.LastIndex(prefix, "-")
	if i < 2 {
		return subs
	}
	prefix = prefix[:i+1]
	for _, s := range subs {
		if len(s.Name) == len(prefix) {
			return subs
		}
	}
	out := make([]Submission, len(subs))
	for i, s := range subs {
		login := s.Name[len(prefix):]
		s.Layout, s.Display, s.ID, s.Name = LayoutClassroom, login, login, login
		out[i] = s
	}
	return out
}

// innerArchives lists the archives (regular files, links not followed) at the top of a submission's
// folder: Moodle keeps a zip the student uploaded as it is.
func innerArchives(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && !junkName(e.Name()) && archiveKind(strings.ToLower(e.Name())) != "" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// hashInner adds the archives at the top of a folder to a SourceHash.
func hashInner(h io.Writer, dir string) error {
	for _, p := range innerArchives(dir) {
		fmt.Fprintf(h, "inner\x00%s\x00", filepath.Base(p))
		f, _, err := openRegular(p)
		if err != nil {
			fmt.Fprintf(h, "unreadable\x00")
			continue
		}
		_, err = io.Copy(h, io.LimitReader(f, maxZipArchive+1))
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// hashGroup adds the entries of a KindGroup submission to a SourceHash.
func hashGroup(h io.Writer, s Submission) error {
	for i, p := range s.Files {
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		kind := KindGo // read as bytes, whatever the file is
		if info.IsDir() {
			kind = KindDir
		}
		sub, err := SourceHash(Submission{Path: p, Kind: kind})
		if err != nil {
			sub = "unreadable"
		}
		fmt.Fprintf(h, "member\x00%s\x00%s\x00%s\x00", filepath.Base(p), s.Names[i], sub)
	}
	return nil
}

// gather copies into root what a folder, an archive other than a .zip, or a group of entries of one
// student holds: the build files of folders, the files a student handed in flat, and, when these
// hold no Go at all, the archive the student uploaded, unpacked. An *ArchiveError or a *tooBigError
// is the student's verdict.
func gather(s Submission, root string) ([]SkippedEntry, error) {
	switch s.Kind {
	case KindTar:
		return untar(s.Path, root)
	case KindArchive:
		return nil, &ArchiveError{Code: ArchiveFormat, Entry: filepath.Base(s.Path)}
	case KindDir:
		skipped, err := copyFolder(s.Path, root)
		if err != nil {
			return skipped, err
		}
		return unpackInner(skipped, root, innerArchives(s.Path))
	}
	var skipped []SkippedEntry
	var archives []string
	for i, p := range s.Files {
		info, err := os.Lstat(p)
		if err != nil {
			return skipped, err
		}
		name := s.Names[i]
		switch {
		case info.IsDir():
			sk, err := copyFolder(p, root)
			skipped = append(skipped, sk...)
			if err != nil {
				return skipped, err
			}
			archives = append(archives, innerArchives(p)...)
		case !info.Mode().IsRegular():
			skipped = append(skipped, SkippedEntry{Path: name, Kind: skipKind(info.Mode())})
		case buildFile(name) && !strings.ContainsAny(name, `/\`) && !junkName(name):
			if err := copyOne(p, filepath.Join(root, name)); err != nil {
				return skipped, err
			}
		case archiveKind(strings.ToLower(name)) != "":
			archives = append(archives, p)
		}
	}
	return unpackInner(skipped, root, archives)
}

// unpackInner unpacks, when root holds no Go yet, the first archive among archives that can be read
// into a folder of root named after it; when none can be read, the first one is refused with
// ArchiveFormat.
func unpackInner(skipped []SkippedEntry, root string, archives []string) ([]SkippedEntry, error) {
	if len(archives) == 0 || hasGoFiles(root) {
		return skipped, nil
	}
	for _, p := range archives {
		lower := strings.ToLower(filepath.Base(p))
		kind := archiveKind(lower)
		if kind == KindArchive {
			continue
		}
		name := filepath.Base(p)
		name = safeFileName(strings.TrimSuffix(name, name[len(name)-len(archiveExt(lower)):]))
		dst := filepath.Join(root, name)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return skipped, err
		}
		var sk []SkippedEntry
		var err error
		if kind == KindZip {
			sk, err = unzip(p, dst)
		} else {
			sk, err = untar(p, dst)
		}
		for _, e := range sk {
			skipped = append(skipped, SkippedEntry{Path: filepath.Base(p) + "/" + e.Path, Kind: e.Kind})
		}
		return skipped, err
	}
	return skipped, &ArchiveError{Code: ArchiveFormat, Entry: filepath.Base(archives[0])}
}

// Limits on a whole class's export given as one archive (Moodle's "Download all submissions").
const (
	maxClassEntries = 100000
	maxClassBytes   = 1 << 30
	maxClassArchive = 1 << 30
)

// ErrClassArchive is returned (wrapped) when the class's own archive cannot be unpacked.
var ErrClassArchive = errors.New("the class archive cannot be unpacked")

// OpenClass returns the folder of submissions to list for path: path itself when it is a folder; a
// .zip of the whole class (as an LMS's "download all" gives it) is unpacked into the folder scratch
// (which the caller removes). A zip whose only entry is a folder that is no student's is entered.
func OpenClass(path, scratch string) (dir string, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if info.IsDir() {
		return path, nil
	}
	if !strings.HasSuffix(strings.ToLower(path), ".zip") {
		return "", fmt.Errorf("%w: %s is neither a folder nor a .zip", ErrClassArchive, path)
	}
	dst := filepath.Join(scratch, "class")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", err
	}
	if err := unpackClass(path, dst); err != nil {
		return "", err
	}
	for {
		entries, err := os.ReadDir(dst)
		if err != nil {
			return "", err
		}
		var kept []os.DirEntry
		for _, e := range entries {
			if !junkName(e.Name()) {
				kept = append(kept, e)
			}
		}
		if len(kept) != 1 || !kept[0].IsDir() || moodleName.MatchString(kept[0].Name()) {
			return dst, nil
		}
		dst = filepath.Join(dst, kept[0].Name())
	}
}

// unpackClass unpacks a class's archive as unzip unpacks a student's, with limits for a class.
func unpackClass(src, dst string) error {
	fail := func(what string) error { return fmt.Errorf("%w: %s: %s", ErrClassArchive, src, what) }
	f, info, err := openRegular(src)
	if err != nil {
		return fail(err.Error())
	}
	defer f.Close()
	if info.Size() > maxClassArchive {
		return fail(fmt.Sprintf("more than %d bytes", maxClassArchive))
	}
	if n, err := centralRecords(io.NewSectionReader(f, 0, info.Size())); err != nil || n > maxClassEntries {
		return fail(fmt.Sprintf("more than %d entries", maxClassEntries))
	}
	zr, err := zip.NewReader(f, info.Size())
	if err != nil {
		return fail(err.Error())
	}
	budget := int64(maxClassBytes)
	seen := map[string]bool{}
	for _, zf := range zr.File {
		name := entryName(zf)
		rel, err := safeRel(name)
		if err != nil {
			return fail("the entry " + name + " would land outside its folder")
		}
		mode := zf.Mode()
		if rel == "" || skipEntry(rel) || mode&os.ModeSymlink != 0 {
			continue
		}
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if !within(dst, target) {
			return fail("the entry " + name + " would land outside its folder")
		}
		if zf.FileInfo().IsDir() || strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return fail(err.Error())
			}
			continue
		}
		if !mode.IsRegular() || seen[strings.ToLower(rel)] {
			continue
		}
		seen[strings.ToLower(rel)] = true
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fail(err.Error())
		}
		n, err := extractFile(zf, target, budget)
		budget -= n
		if err != nil {
			return fail(err.Error())
		}
	}
	return nil
}
