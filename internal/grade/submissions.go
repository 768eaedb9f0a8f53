package grade

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Submission kinds.
const (
	KindDir = "dir" // a folder
	KindZip = "zip" // a .zip archive
	KindGo  = "go"  // a single .go file
	// KindTar is a .tar, .tar.gz, .tgz or .tar.bz2 archive, read as a .zip is.
	KindTar = "tar"
	// KindArchive is an archive the grader cannot read (.7z, .rar, …): a row with its verdict.
	KindArchive = "archive"
	// Kind7z is a .7z archive, read as a .zip is (github.com/bodgit/sevenzip).
	Kind7z = "7z"
	// KindGroup is several entries of one student in an LMS export (Canvas's flat files, Moodle's
	// folders of one participant): Submission.Files lists them.
	KindGroup = "group"
)

// Submission is one student's entry in the submissions folder.
type Submission struct {
	Name string // the student: the entry's name without .zip or .go, in Unicode NFC
	Path string // the entry on disk
	Kind string // KindDir, KindZip, KindGo, KindTar, KindArchive or KindGroup
	// What an LMS export says of the student (see lms.go): the layout (LayoutMoodle, …), the name to
	// show, the LMS's id of the student and whether the LMS marked the submission late.
	Layout  string
	Display string
	ID      string
	Late    bool
	// Files are the entries of a KindGroup submission, and Names the file names the student gave
	// them (the LMS's prefix taken off; "" for a folder).
	Files []string
	Names []string
	// CanvasFiles are the student's files in a Canvas export, each with the id of Canvas's
	// attachment from its entry's name: what Canvas's "Upload submissions" matches a comment by.
	CanvasFiles []CanvasEntry
	// Conflict is set when the entry's name reads as more than one student, or the entries of one id
	// disagree about the name (ConflictAmbiguous, ConflictNamesDiffer): the submission is a row of its
	// own, and ClaimedID the id its name claims.
	Conflict  string
	ClaimedID string
	Anonymous bool // an anonymous Canvas export: ID is the anonymous id
	// Superseded names the student's older versions of a file that Canvas kept ("main-1.go" beside
	// "main-2.go"), set aside for the newest.
	Superseded []string
	// Lost names the entries of the class's archive that were this student's and could not be
	// unpacked (attachLost): named in the student's feedback.
	Lost     []SkippedEntry
	rawEntry string
}

// List returns the submissions in dir, sorted by student name: every folder, .zip and .go file.
// Hidden entries and archive junk (__MACOSX) are ignored; other files come back in skipped. Two
// entries that would give the same student name (Иван and Иван.zip) keep their full entry names.
func List(dir string) (subs []Submission, skipped []string, err error) {
	return ListWith(dir, nil)
}

// ListWith is List with the class's roster (nil for none), which decides the names that read more
// than one way and gives the students' names as the LMS has them.
func ListWith(dir string, roster *Roster) (subs []Submission, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		name := e.Name()
		if junkName(name) {
			continue
		}
		if sub, ok := entryOf(dir, name); ok {
			subs = append(subs, sub)
		} else {
			skipped = append(skipped, name)
		}
	}
	// An LMS export (Moodle, Canvas, GitHub Classroom) names its entries after the students: they
	// are grouped per student, named as the LMS names them, with their ids and late flags.
	subs, skipped = lmsGroup(dir, subs, skipped, roster)
	// Entries whose names collide (Иван and Иван.zip, "Ivan" and "Ivan " with a trailing space, a
	// name in NFC and in NFD) stay apart, each with a visible suffix; the folder keeps the short one.
	sort.Slice(subs, func(i, j int) bool {
		if subs[i].Name != subs[j].Name {
			return subs[i].Name < subs[j].Name
		}
		if kindRank(subs[i].Kind) != kindRank(subs[j].Kind) {
			return kindRank(subs[i].Kind) < kindRank(subs[j].Kind)
		}
		return subs[i].rawEntry < subs[j].rawEntry
	})
	seen := map[string]bool{}
	for i := range subs {
		if seen[subs[i].Name] && subs[i].ID == "" {
			if full := cleanName(subs[i].rawEntry); !seen[full] && full != "" {
				subs[i].Name = full
			}
		}
		seen[subs[i].Name] = true
	}
	uniqueNames(subs)
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	sort.Strings(skipped)
	return subs, skipped, nil
}

// entryOf is the submission an entry of the submissions folder is: a folder, a .zip, a .go file or
// another archive; ok is false for anything else (skipped).
func entryOf(dir, name string) (Submission, bool) {
	p := filepath.Join(dir, name)
	info, err := os.Stat(p) // follows a symbolic link the instructor made
	if err != nil {
		return Submission{}, false
	}
	s := Submission{Path: p, rawEntry: name}
	lower := strings.ToLower(name)
	switch {
	case info.IsDir():
		s.Kind, s.Name = KindDir, name
	case info.Mode().IsRegular() && strings.HasSuffix(lower, ".zip"):
		s.Kind, s.Name = KindZip, name[:len(name)-len(".zip")]
	case info.Mode().IsRegular() && strings.HasSuffix(lower, ".go"):
		s.Kind, s.Name = KindGo, name[:len(name)-len(".go")]
	case info.Mode().IsRegular() && archiveKind(lower) != "":
		ext := archiveExt(lower)
		s.Kind, s.Name = archiveKind(lower), name[:len(name)-len(ext)]
	default:
		return Submission{}, false
	}
	s.Name = cleanName(s.Name)
	if s.Name == "" {
		s.Name = cleanName(name)
	}
	return s, true
}

func kindRank(k string) int {
	switch k {
	case KindDir:
		return 0
	case KindZip:
		return 1
	}
	return 2
}

// junkName reports entries that are never anyone's work: hidden files and the folders archivers
// and editors leave behind.
func junkName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~") || name == "__MACOSX" ||
		name == "node_modules" || name == "Thumbs.db" || strings.EqualFold(name, "desktop.ini")
}

// cleanName is a student's name as the reports show it: NFC (macOS writes names decomposed), with
// surrounding spaces trimmed, and always UTF-8: a byte that is not (a folder named in a legacy code
// page, an entry cut in the middle of a letter) is written out as \xNN, as the reports show it. The
// name is what keys a student in the journal and results.json, whose JSON would turn every such byte
// into U+FFFD: two students "A\xff" and "A\xfe" would share one record, and after a rerun of one
// student (--only) both would be missing from the report. Written out, each keeps its own name, and a
// folder whose name is that text already is told apart by uniqueNames.
func cleanName(s string) string {
	if !utf8.ValidString(s) {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n <= 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		s = b.String()
	}
	return strings.TrimSpace(norm.NFC.String(s))
}

// Select returns the submission called name (compared in NFC, ignoring case), or whose LMS id or
// entry name is name.
func Select(subs []Submission, name string) (Submission, bool) {
	name = cleanName(name)
	for _, s := range subs {
		if s.Name == name {
			return s, true
		}
	}
	for _, s := range subs {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	// The LMS's id of the student, or the entry's own name (a Moodle folder's whole name).
	for _, s := range subs {
		if (s.ID != "" && s.ID == name) || strings.EqualFold(cleanName(filepath.Base(s.Path)), name) {
			return s, true
		}
	}
	return Submission{}, false
}

// Shard is one slice of a class, k of n (1 ≤ k ≤ n). The zero Shard is the whole class.
type Shard struct{ K, N int }

// ParseShard reads "k/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("%q is not a shard k/n with 1 ≤ k ≤ n", s)
	}
	return Shard{K: k, N: n}, nil
}

func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Whole reports whether the shard is the whole class.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether the student belongs to the shard. The slice a student falls in depends on the
// name alone (a hash of it), so every node of a distributed run agrees on it even when their copies
// of the submissions folder differ.
func (s Shard) Has(student string) bool {
	if s.Whole() {
		return true
	}
	return ShardOf(student, s.N) == s.K
}

// ShardOf returns the slice (1…n) the student belongs to when the class is cut in n.
func ShardOf(student string, n int) int {
	h := fnv.New32a()
	io.WriteString(h, cleanName(student))
	return int(h.Sum32()%uint32(n)) + 1
}

// SourceHash identifies a submission's content, so that a resumed run regrades a student whose
// submission changed since it was graded: the archive's or file's bytes, or a folder's build files
// (paths and contents) and the entries left out of it, read as copyFolder reads them.
func SourceHash(s Submission) (string, error) {
	h := sha256.New()
	switch s.Kind {
	case KindGroup:
		if err := hashGroup(h, s); err != nil {
			return "", err
		}
	case KindZip, KindGo, KindTar, KindArchive, Kind7z:
		f, _, err := openRegular(s.Path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		io.WriteString(h, s.Kind+"\x00")
		if _, err := io.Copy(h, io.LimitReader(f, maxListedArchive+1)); err != nil {
			return "", err
		}
	default:
		skipped, err := walkFolder(s.Path, func(rel string, data []byte) error {
			fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
		for _, e := range skipped {
			fmt.Fprintf(h, "skipped\x00%s\x00%s\x00", e.Path, e.Kind)
		}
		// An archive the student put in the folder (Moodle keeps an uploaded zip as it is).
		if err := hashInner(h, s.Path); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}
