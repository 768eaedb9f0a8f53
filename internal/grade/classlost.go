package grade

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Kinds of a class archive's entry that could not be unpacked where its name put it (LostEntry).
const (
	LostOutside = "outside" // its name climbs out of the folder it starts in ("..")
	LostClash   = "clash"   // its path is a file in one entry and a folder in another
	LostDamaged = "damaged" // its data cannot be read (a bad checksum, a damaged stream)
)

// lostEntry is an entry of a class's archive left out: where it would have landed (at, an absolute
// path under the folder the archive is unpacked into: the part of its name before what went wrong),
// its name as the archive gives it, and why (LostOutside, …). It is its student's, never the class's:
// an entry of one student's folder that names another's (M/../A/main.go), or one that is a file
// where another entry of that student is a folder, is left out and named in that student's feedback.
type lostEntry struct {
	at   string
	name string
	kind string
}

// ownerPrefix is where an entry whose slash path is n (backslashes read as slashes) lands up to its
// first "..": dst joined with the parts before it (the whole path when it has none), and whether n
// has a "..". An entry with one is never unpacked: even one that stays in the archive's folder may
// reach into a classmate's (Mallory_2_assignsubmission_file_/../Anna_1_assignsubmission_file_/main.go,
// or a Canvas file named ..\anna_1_2_main.go).
func ownerPrefix(dst, n string) (string, bool) {
	parts := strings.Split(n, "/")
	var kept []string
	for _, p := range parts {
		if p == ".." {
			return filepath.Join(append([]string{dst}, kept...)...), true
		}
		if p != "" && p != "." {
			kept = append(kept, shortComponent(p))
		}
	}
	return filepath.Join(append([]string{dst}, kept...)...), false
}

// attachLost gives each entry of lost to the submission it was part of: the student's folder it is
// in, or, in a flat export (Canvas's), the student whose files' prefix its name starts with. An entry
// that is no one's is left out without a word: it was in no student's part of the archive.
func attachLost(subs []Submission, lost []lostEntry) {
	for _, l := range lost {
		if i := lostOwner(subs, l.at); i >= 0 {
			subs[i].Lost = append(subs[i].Lost, SkippedEntry{Path: l.name, Kind: l.kind})
		}
	}
}

func lostOwner(subs []Submission, at string) int {
	for i, s := range subs {
		for _, p := range append([]string{s.Path}, s.Files...) {
			if at == p || within(p, at) {
				return i
			}
		}
	}
	key := lmsOwner(filepath.Base(at))
	if key == "" {
		return -1
	}
	for i, s := range subs {
		for _, p := range append([]string{s.Path}, s.Files...) {
			if filepath.Dir(p) == filepath.Dir(at) && lmsOwner(filepath.Base(p)) == key {
				return i
			}
		}
	}
	return -1
}

// lmsOwnerName reads whose a flat entry of an LMS's export is: Moodle's Full Name_ID_assignsubmission_
// file_, Canvas's login_[late_]userid_ (without the id of the file that follows it).
var lmsOwnerName = regexp.MustCompile(`^(?:(.+_\d+_assignsubmission_[a-z]+_)|(.+?_(?:late_)?\d+_)\d+_)`)

// lmsOwner is the part of an entry's name that says whose it is in an LMS's export, or "".
func lmsOwner(name string) string {
	m := lmsOwnerName.FindStringSubmatch(name)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}
