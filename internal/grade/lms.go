package grade

import (
	"archive/zip"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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

// archive extensions: those read as a .zip is, and those that cannot be read.
var (
	tarExts        = []string{".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar"}
	sevenExts      = []string{".7z"}
	unreadableExts = []string{".rar", ".tar.xz", ".txz", ".xz", ".tar.zst", ".zst", ".lzma", ".lz", ".cab", ".arj", ".bz2", ".gz"}
)

// archiveExt is the archive extension lower ends with ("" for none).
func archiveExt(lower string) string {
	if strings.HasSuffix(lower, ".zip") {
		return ".zip"
	}
	for _, list := range [][]string{tarExts, sevenExts, unreadableExts} {
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
	case e == ".7z":
		return Kind7z
	case strings.HasPrefix(e, ".t") && e != ".txz" && e != ".tar.xz" && e != ".tar.zst":
		return KindTar
	}
	return KindArchive
}

// lmsMember is an entry of the submissions folder that an LMS named after a student.
type lmsMember struct {
	sub Submission // as List made it (Kind "" for a file List skipped)
	reading
	rawName  string // the name before the id, exactly as the entry has it
	conflict string // ConflictAmbiguous when the entry's name reads more than one way
	trusted  bool   // the reading is one the entry's name cannot fake (the only one, or the roster's)
}

// parseMember reads an entry's name as an LMS export's (identity.go).
func parseMember(s Submission, isDir bool, roster *Roster) (lmsMember, bool) {
	raw := filepath.Base(s.Path)
	rs := readings(norm.NFC.String(raw), isDir)
	if len(rs) == 0 {
		return lmsMember{}, false
	}
	m := lmsMember{sub: s}
	r, ok := choose(rs, roster)
	if !ok {
		// Moodle writes the full name with every "_" made a space (locallib.php, download_submissions:
		// str_replace('_', ' ', fullname($student))): the reading whose name has no "_" is Moodle's.
		m.conflict = ConflictAmbiguous
		r = rs[0]
		for _, x := range rs {
			if x.layout == LayoutMoodle && !strings.Contains(x.name, "_") {
				r, ok = x, true
			}
		}
	}
	m.reading, m.trusted = r, ok
	m.rawName = r.name
	r.name = strings.TrimSpace(r.name)
	m.name = r.name
	if r.layout == LayoutMoodle && strings.Contains(r.name, "_") && !m.trustedByRoster(roster) {
		// Moodle never writes "_" in a name: this one was built, perhaps to hold another participant's
		// marker ("Eve_100002_assignsubmission_file_ Smith"). It stands apart.
		m.conflict, m.trusted = ConflictAmbiguous, false
	}
	return m, true
}

// trustedByRoster reports whether the roster lists the member's reading as a student.
func (m lmsMember) trustedByRoster(ro *Roster) bool { return ro != nil && ro.confirms(m.reading) }

// lmsGroup finds the students of an LMS export among the entries List found (and the files it
// skipped): Moodle's entries and Canvas's files are grouped per student id and named as the LMS names
// them, with the LMS's id and late flag; GitHub Classroom's folders are named after the login. Entries
// of no layout are kept as they are. An entry whose name reads more than one way, and the entries of
// one id that disagree about the name, are never merged into another's group (identity.go).
func lmsGroup(dir string, subs []Submission, skipped []string, roster *Roster) ([]Submission, []string) {
	var members []lmsMember
	var plain []Submission
	for _, s := range subs {
		if m, ok := parseMember(s, s.Kind == KindDir, roster); ok {
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
			if m, ok := parseMember(Submission{Path: p, rawEntry: name}, false, roster); ok {
				members = append(members, m)
				continue
			}
		}
		rest = append(rest, name)
	}
	if len(members) == 0 {
		subs := classroom(plain)
		for i, s := range subs {
			// GitHub Classroom's grades export names the student as the instructor linked them.
			if st, ok := roster.Student(s.ID); ok && s.Layout == LayoutClassroom && roster.Layout == LayoutClassroom && st.Display != "" {
				subs[i].Display = st.Display
			}
		}
		return subs, rest
	}
	out := plain
	for _, g := range groupMembers(members, roster) {
		out = append(out, g...)
	}
	return out, rest
}

// groupMembers makes the submissions of LMS members: one per id, the members of a conflict each one
// of their own.
func groupMembers(members []lmsMember, roster *Roster) [][]Submission {
	groups := map[string][]lmsMember{}
	var keys []string
	var out [][]Submission
	for _, m := range members {
		if m.conflict != "" {
			out = append(out, []Submission{memberSubmission([]lmsMember{m}, m.conflict, m.trusted, roster)})
			continue
		}
		if groups[m.key()] == nil {
			keys = append(keys, m.key())
		}
		groups[m.key()] = append(groups[m.key()], m)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].sub.Path < g[j].sub.Path })
		var older []lmsMember
		if g[0].layout == LayoutCanvas {
			g, older = newestVersions(g)
		}
		trusted, others := splitByName(g, roster)
		if len(others) == 0 {
			out = append(out, []Submission{supersede(memberSubmission(trusted, "", true, roster), trusted, older)})
			continue
		}
		if trusted != nil {
			out = append(out, []Submission{supersede(memberSubmission(trusted, "", true, roster), trusted, older)})
		}
		for _, o := range others {
			out = append(out, []Submission{supersede(memberSubmission(o, ConflictNamesDiffer, false, roster), o, older)})
		}
	}
	return out
}

// supersede names in s the older versions set aside (newestVersions) that were handed in under the
// same entry name as the members g it was made of.
func supersede(s Submission, g []lmsMember, older []lmsMember) Submission {
	for _, o := range older {
		if o.rawName == g[0].rawName {
			s.Superseded = append(s.Superseded, o.file)
		}
	}
	return s
}

// memberSubmission is the submission of a group of members of one student (or of one conflict).
func memberSubmission(g []lmsMember, conflict string, trusted bool, ro *Roster) Submission {
	first := g[0]
	s := Submission{Layout: first.layout, Display: first.name, Name: cleanName(first.name), Conflict: conflict,
		Anonymous: first.anon, rawEntry: first.rawName}
	if trusted {
		s.ID = first.id
	}
	if ro != nil && trusted {
		if st, ok := ro.Student(first.id); ok {
			s.Display, s.Name = st.Name, cleanName(st.Name)
		}
	}
	if conflict != "" {
		s.rawEntry = filepath.Base(first.sub.Path)
		s.ClaimedID = first.id
	}
	for _, m := range g {
		s.Late = s.Late || m.late
	}
	if len(g) == 1 && first.sub.Kind != "" {
		s.Path, s.Kind = first.sub.Path, first.sub.Kind
		s.CanvasFiles = canvasFiles(g)
		return s
	}
	s.Kind = KindGroup
	s.Path = first.sub.Path
	for _, m := range g {
		s.Files = append(s.Files, m.sub.Path)
		s.Names = append(s.Names, m.file)
	}
	s.CanvasFiles = canvasFiles(g)
	return s
}

// canvasFiles are the files of members g whose names hold Canvas's attachment ids.
func canvasFiles(g []lmsMember) []CanvasEntry {
	var out []CanvasEntry
	for _, m := range g {
		if m.attach != "" && !m.anon {
			out = append(out, CanvasEntry{Name: m.file, Attachment: m.attach})
		}
	}
	return out
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

// innerArchives lists the archives (regular files, links not followed) of a submission's folder:
// Moodle keeps a zip the student uploaded as it is, at the top of the folder or in a folder the
// student made (the file manager's folders are kept). Those at the top come first; the search goes
// at most maxInnerDepth folders down and never into junk folders.
func innerArchives(dir string) []string {
	var top, deeper []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		entries, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range entries {
			if junkName(e.Name()) {
				continue
			}
			p := filepath.Join(d, e.Name())
			switch {
			case e.Type().IsRegular() && archiveKind(strings.ToLower(e.Name())) != "":
				if depth == 0 {
					top = append(top, p)
				} else {
					deeper = append(deeper, p)
				}
			case e.IsDir() && depth < maxInnerDepth:
				walk(p, depth+1)
			}
		}
	}
	walk(dir, 0)
	return append(top, deeper...)
}

// maxInnerDepth is how deep in a submission's folder an uploaded archive is looked for.
const maxInnerDepth = 3

// hashInner adds the archives at the top of a folder to a SourceHash.
func hashInner(h io.Writer, dir string) error {
	for _, p := range innerArchives(dir) {
		fmt.Fprintf(h, "inner\x00%s\x00", filepath.Base(p))
		f, _, err := openRegular(p)
		if err != nil {
			fmt.Fprintf(h, "unreadable\x00")
			continue
		}
		_, err = io.Copy(h, io.LimitReader(f, maxListedArchive+1))
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
// hold no Go at all, the archive the student uploaded, unpacked, or the program of an online text.
// An *ArchiveError or a *tooBigError is the student's verdict.
func gather(s Submission, root string, lim ReadLimits, exercise string) ([]SkippedEntry, error) {
	switch s.Kind {
	case KindZip, KindTar, Kind7z, KindArchive:
		return unpackArchive(s.Kind, s.Path, root, lim, exercise)
	case KindDir:
		skipped, err := copyFolderLim(s.Path, root, lim)
		if err != nil {
			return skipped, err
		}
		if err := textsInto(root, topHTML(s.Path)); err != nil {
			return skipped, err
		}
		return unpackInner(skipped, root, innerArchives(s.Path), lim, exercise)
	}
	var skipped []SkippedEntry
	var archives, texts []string
	for i, p := range s.Files {
		info, err := os.Lstat(p)
		if err != nil {
			return skipped, err
		}
		name := s.Names[i]
		switch {
		case info.IsDir():
			sk, err := copyFolderLim(p, root, lim)
			skipped = append(skipped, sk...)
			if err != nil {
				return skipped, err
			}
			archives = append(archives, innerArchives(p)...)
			texts = append(texts, topHTML(p)...)
		case !info.Mode().IsRegular():
			skipped = append(skipped, SkippedEntry{Path: name, Kind: skipKind(info.Mode())})
		case buildFile(name) && !strings.ContainsAny(name, `/\`) && !junkName(name):
			if err := copyOne(p, filepath.Join(root, name)); err != nil {
				return skipped, err
			}
		case archiveKind(strings.ToLower(name)) != "":
			archives = append(archives, p)
		case isHTMLName(name):
			texts = append(texts, p)
		}
	}
	if err := textsInto(root, texts); err != nil {
		return skipped, err
	}
	return unpackInner(skipped, root, archives, lim, exercise)
}

// topHTML lists the HTML files at the top of a folder (Moodle's onlinetext.html).
func topHTML(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && isHTMLName(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// textsInto takes the program out of the first online text that holds one, when root holds no Go.
func textsInto(root string, texts []string) error {
	for _, p := range texts {
		if hasGoFiles(root) {
			return nil
		}
		if _, err := onlineText(p, root); err != nil {
			return err
		}
	}
	return nil
}

// unpackInner unpacks, when root holds no Go yet, the first archive among archives that can be read
// into a folder of root named after it (from the exercise's folder alone when it holds more than a
// program, see pickFolders); when none can be read, the first one is refused with ArchiveFormat.
func unpackInner(skipped []SkippedEntry, root string, archives []string, lim ReadLimits, exercise string) ([]SkippedEntry, error) {
	if len(archives) == 0 || hasGoFiles(root) {
		return skipped, nil
	}
	for _, p := range archives {
		kind := archiveKind(strings.ToLower(filepath.Base(p)))
		if kind == KindArchive {
			continue
		}
		dst := unpackedName(root, p)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return skipped, err
		}
		sk, err := unpackArchive(kind, p, dst, lim, exercise)
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
	dir, _, err = openClass(path, scratch)
	return dir, err
}

// openClass is OpenClass, with the entries of the class's archive left out (attachLost).
func openClass(path, scratch string) (dir string, lost []lostEntry, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", nil, err
	}
	if info.IsDir() {
		return path, nil, nil
	}
	if !strings.HasSuffix(strings.ToLower(path), ".zip") {
		return "", nil, fmt.Errorf("%w: %s is neither a folder nor a .zip", ErrClassArchive, path)
	}
	dst := filepath.Join(scratch, "class")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", nil, err
	}
	if lost, err = unpackClass(path, dst); err != nil {
		return "", nil, err
	}
	for {
		entries, err := os.ReadDir(dst)
		if err != nil {
			return "", nil, err
		}
		var kept []os.DirEntry
		for _, e := range entries {
			if !junkName(e.Name()) {
				kept = append(kept, e)
			}
		}
		if len(kept) != 1 || !kept[0].IsDir() || len(moodleReadings(kept[0].Name(), true)) > 0 {
			return dst, lost, nil
		}
		dst = filepath.Join(dst, kept[0].Name())
	}
}

// classEntryLimit is how many bytes an entry of a class's archive unpacks to at most before it is
// cut: a file one more than any file of a program may be (maxFileBytes), so that it is still too
// big; an archive, which a class's zip barely compresses, at least maxZipArchive and twenty times
// what it takes in the class's zip (a zipped clone of hundreds of megabytes passes whole).
func classEntryLimit(zf *zip.File, rel string) int64 {
	if !innerArchive(rel) {
		return maxFileBytes + 1
	}
	return max(maxZipArchive, 20*int64(min(zf.CompressedSize64, 1<<40)))
}

// unpackClass unpacks a class's archive as unzip unpacks a student's, with limits for a class.
func unpackClass(src, dst string) (lost []lostEntry, err error) {
	fail := func(what string) ([]lostEntry, error) {
		return nil, fmt.Errorf("%w: %s: %s", ErrClassArchive, src, what)
	}
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
		// An entry whose name climbs ("..") is left out, never the end of the class: the student's
		// whose folder it starts in, named in their feedback. Only a name that climbs out of the
		// archive as a whole (or is absolute) is the archive's fault.
		rel, err := safeRel(name)
		if err != nil {
			return fail("the entry " + name + " would land outside its folder")
		}
		if at, climbs := ownerPrefix(dst, strings.ReplaceAll(name, `\`, "/")); climbs {
			if r, err := filepath.Rel(dst, at); err == nil && !skipEntry(filepath.ToSlash(r)) {
				lost = append(lost, lostEntry{at: at, name: name, kind: LostOutside})
			}
			continue
		}
		mode := zf.Mode()
		if rel == "" || skipEntry(rel) || mode&os.ModeSymlink != 0 {
			continue
		}
		// A name longer than a file system takes is shortened, never the end of the class.
		parts := strings.Split(rel, "/")
		for i, p := range parts {
			parts[i] = shortComponent(p)
		}
		rel = strings.Join(parts, "/")
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if !within(dst, target) {
			return fail("the entry " + name + " would land outside its folder")
		}
		// A folder's entry ends in "/", or in "\\" when a Windows tool wrote it.
		if zf.FileInfo().IsDir() || strings.HasSuffix(name, "/") || strings.HasSuffix(name, `\`) {
			if err := os.MkdirAll(target, 0o755); err != nil {
				lost = append(lost, lostEntry{at: target, name: name, kind: LostClash})
			}
			continue
		}
		if !mode.IsRegular() || seen[nameKey(rel)] {
			continue
		}
		seen[nameKey(rel)] = true
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			// A folder of the entry's path is a file of another entry: the student's, not the class's.
			lost = append(lost, lostEntry{at: target, name: name, kind: LostClash})
			continue
		}
		if fi, err := os.Lstat(target); err == nil && fi.IsDir() {
			lost = append(lost, lostEntry{at: target, name: name, kind: LostClash})
			continue
		}
		limit := classEntryLimit(zf, rel)
		n, err := extractFile(zf, target, min(budget, limit))
		budget -= n
		var ae *ArchiveError
		if errors.As(err, &ae) && ae.Code == ZipCorrupt {
			// An entry that cannot be read is left out and named in its student's feedback.
			os.Remove(target)
			lost = append(lost, lostEntry{at: target, name: name, kind: LostDamaged})
			continue
		}
		if err != nil && !(limit < budget+n && n > limit && errors.As(err, new(*ArchiveError))) {
			return fail(err.Error())
		}
		// An entry past what any one submission may hold (a bomb one student uploaded) is kept cut
		// just past its limit: that student's verdict (too_big, or a damaged archive), never the end of
		// the class's grading.
		// The entry's time is when the LMS took the file in: what --due is judged by.
		if t := entryTime(zf); !t.IsZero() {
			os.Chtimes(target, t, t)
		}
	}
	return lost, nil
}

// entryTime is a zip entry's modification time as an instant. An entry with only the MS-DOS time
// (Moodle's zip_packer writes no extended timestamp) holds the wall clock of the server that wrote
// it, which archive/zip reads as UTC: it is taken as the grading machine's local time, the zone of
// --due. An extended timestamp is an instant already.
func entryTime(zf *zip.File) time.Time {
	t := zf.Modified
	if t.IsZero() {
		return t
	}
	if t.Location() == time.UTC {
		t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.Local)
	}
	return t
}

// versionSuffix is the "-N" Canvas adds to a file's name when the student hands in a file of that
// name again ("main.go", then "main-1.go", "main-2.go").
var versionSuffix = regexp.MustCompile(`^(.*)-(\d{1,3})$`)

// newestVersions keeps, of the files of one Canvas student that are versions of one file (its name
// with and without Canvas's "-N"), the newest: the highest N. Go files are taken for versions only
// when they could not be built together (they declare a name twice, or one does not parse); a
// student's own step-1.go and step-2.go that declare different things are both kept. older are the
// versions set aside, which the student's feedback and the report name.
func newestVersions(g []lmsMember) (kept, older []lmsMember) {
	type version struct {
		i, n int
	}
	families := map[string][]version{}
	for i, m := range g {
		base, n := versionOf(m.file)
		families[base] = append(families[base], version{i, n})
	}
	drop := map[int]bool{}
	for base, vs := range families {
		if len(vs) < 2 {
			continue
		}
		if strings.HasSuffix(base, ".go") {
			var paths []string
			for _, v := range vs {
				paths = append(paths, g[v.i].sub.Path)
			}
			if !clash(paths) {
				continue
			}
		}
		newest := vs[0]
		for _, v := range vs[1:] {
			if v.n > newest.n || v.n == newest.n && g[v.i].sub.Path > g[newest.i].sub.Path {
				newest = v
			}
		}
		for _, v := range vs {
			drop[v.i] = v != newest
		}
	}
	for i, m := range g {
		if drop[i] {
			older = append(older, m)
		} else {
			kept = append(kept, m)
		}
	}
	return kept, older
}

// versionOf is a file's name without Canvas's "-N" (in lower case) and N (0 for none).
func versionOf(name string) (string, int) {
	lower := strings.ToLower(name)
	ext := archiveExt(lower)
	if ext == "" {
		ext = filepath.Ext(lower)
	}
	stem := strings.TrimSuffix(lower, ext)
	if m := versionSuffix.FindStringSubmatch(stem); m != nil && m[1] != "" {
		n, _ := strconv.Atoi(m[2])
		return m[1] + ext, n
	}
	return lower, 0
}

// clash reports whether Go files could not be one package: two of them declare the same top-level
// name, or one of them cannot be read or parsed.
func clash(paths []string) bool {
	seen := map[string]bool{}
	for _, p := range paths {
		f, _, err := openRegular(p)
		if err != nil {
			return true
		}
		data, err := io.ReadAll(io.LimitReader(f, 1<<20))
		f.Close()
		if err != nil {
			return true
		}
		file, err := parser.ParseFile(token.NewFileSet(), "", data, parser.SkipObjectResolution)
		if err != nil {
			return true
		}
		for _, name := range topLevelNames(file) {
			if seen[name] {
				return true
			}
			seen[name] = true
		}
	}
	return false
}

// topLevelNames are the package-level names a file declares (functions without a receiver, types,
// variables, constants; not init nor _).
func topLevelNames(file *ast.File) []string {
	var out []string
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" && id.Name != "init" {
			out = append(out, id.Name)
		}
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n)
					}
				}
			}
		}
	}
	return out
}
