package grade

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Identity: a student is keyed by what the LMS gave (the participant or user id in the entry's name),
// never by a display string. An LMS's entry names are read from what the LMS guarantees of them:
//
//   - Moodle's "Download all submissions" names a participant's entries
//     "Full Name_PARTICIPANTID_assignsubmission_PLUGIN_" (a folder, with "Download submissions in
//     folders") or "Full Name_PARTICIPANTID_assignsubmission_PLUGIN_filename" (flat). The id is the
//     digits right before "_assignsubmission_"; a folder's name ends there, so it reads one way only.
//     A flat name holds the student's own file name after it, and the full name before it is one the
//     student may be able to change: a name or a file name that holds another
//     "_DIGITS_assignsubmission_PLUGIN_" reads two ways.
//   - Canvas's "Download submissions" names a file "login[_late]_USERID_SUBMISSIONID_filename" (a
//     text entry "login[_late]_USERID_text.html"), and in an anonymous assignment "anon_…" with the
//     anonymous id in place of the user id. The login may hold "_" and digits, so a name can again read
//     more than one way.
//
// A name that reads more than one way, and files of one id that disagree about the name before it,
// are never merged into anyone's group: the roster (--roster) decides when it is given (the reading
// whose id it lists under the same name), and otherwise each such entry is a row of its own, keyed
// by the entry's own name, and listed as a conflict in the report (Student.Conflict).

// Conflict codes (Submission.Conflict, Student.Conflict).
const (
	ConflictAmbiguous   = "ambiguous"    // the entry's name reads as more than one student
	ConflictNamesDiffer = "names_differ" // entries of one id disagree about the name before it
)

// moodleMarker is what Moodle puts after the participant's full name: the participant id and the
// plugin (mod/assign/locallib.php, download_submissions: $prefix = str_replace('_', ' ', $fullname)
// . '_' . $uniqueid . '_'; the submission plugin adds "assignsubmission_" . type . "_").
var moodleMarker = regexp.MustCompile(`^_(\d+)_assign(?:submission|feedback)_([a-z]+)_`)

// canvasMarker is what Canvas puts after the login: [late_]userid_submissionid_ (a file) or
// [late_]userid_text.html (a text entry). Canvas writes "late" in lower case; some exports in upper.
var (
	canvasFile = regexp.MustCompile(`^_(?:([Ll][Aa][Tt][Ee])_)?(\d+)_(\d+)_(.+)$`)
	canvasText = regexp.MustCompile(`^_(?:([Ll][Aa][Tt][Ee])_)?(\d+)_(text\.html?)$`)
	// An anonymous export: anon_[late_]ANONID_SUBMISSIONID_filename, the anonymous id letters and digits.
	canvasAnon     = regexp.MustCompile(`^anon_(?:([Ll][Aa][Tt][Ee])_)?([A-Za-z0-9]+)_(\d+)_(.+)$`)
	canvasAnonText = regexp.MustCompile(`^anon_(?:([Ll][Aa][Tt][Ee])_)?([A-Za-z0-9]+)_(text\.html?)$`)
)

// reading is one way to read an LMS entry's name.
type reading struct {
	layout, name, id, file string
	rest                   string // what follows the name in the entry's name (Moodle)
	attach                 string // the id of Canvas's attachment (the file), in a Canvas file's name
	late, anon             bool
}

func (r reading) key() string {
	if r.anon {
		return r.layout + "\x00anon\x00" + r.id
	}
	return r.layout + "\x00" + r.id
}

// moodleReadings lists every way base reads as a Moodle entry: a folder's name must end right after
// the plugin, a file's must go on with the file's name.
func moodleReadings(base string, isDir bool) []reading {
	var out []reading
	for i := 1; i < len(base); i++ {
		if base[i] != '_' {
			continue
		}
		m := moodleMarker.FindStringSubmatch(base[i:])
		if m == nil {
			continue
		}
		file := base[i+len(m[0]):]
		if isDir != (file == "") {
			continue
		}
		out = append(out, reading{layout: LayoutMoodle, name: base[:i], id: m[1], file: file, rest: base[i:]})
	}
	return out
}

// canvasReadings lists every way base (a file's name) reads as a Canvas entry.
func canvasReadings(base string) []reading {
	if m := canvasAnon.FindStringSubmatch(base); m != nil {
		return []reading{{layout: LayoutCanvas, name: "anon " + m[2], id: m[2], file: m[4], late: m[1] != "", anon: true}}
	}
	if m := canvasAnonText.FindStringSubmatch(base); m != nil {
		return []reading{{layout: LayoutCanvas, name: "anon " + m[2], id: m[2], file: m[3], late: m[1] != "", anon: true}}
	}
	var out []reading
	for i := 1; i < len(base); i++ {
		if base[i] != '_' {
			continue
		}
		login := base[:i]
		if strings.ContainsAny(login, " \t") {
			break // a Canvas login has no spaces: what follows is the student's own file name
		}
		if m := canvasFile.FindStringSubmatch(base[i:]); m != nil {
			out = append(out, reading{layout: LayoutCanvas, name: login, id: m[2], file: m[4], attach: m[3], late: m[1] != ""})
		}
		if m := canvasText.FindStringSubmatch(base[i:]); m != nil {
			out = append(out, reading{layout: LayoutCanvas, name: login, id: m[2], file: m[3], late: m[1] != ""})
		}
	}
	return sameCanvas(out)
}

// sameCanvas folds the readings that differ only in where the late marker goes
// ("smith_late_124_458_a.go" as smith, late, or as the login smith_late): one reading, the late one.
func sameCanvas(rs []reading) []reading {
	var out []reading
	for _, r := range rs {
		folded := false
		for i, o := range out {
			if o.id == r.id && o.file == r.file && (o.name == r.name+"_late" || o.name == r.name+"_LATE" || r.name == o.name+"_late" || r.name == o.name+"_LATE") {
				if r.late {
					out[i] = r
				}
				folded = true
			}
		}
		if !folded {
			out = append(out, r)
		}
	}
	return out
}

// readings lists the ways an entry's name reads: Moodle's first, then Canvas's for files.
func readings(base string, isDir bool) []reading {
	if r := moodleReadings(base, isDir); len(r) > 0 {
		return r
	}
	if isDir {
		return nil
	}
	return canvasReadings(base)
}

// choose picks the one reading of an entry's name that can be trusted: the only one, or the only one
// the roster lists (its id, and under the same name for Moodle, whose export writes the roster's
// full name). ok is false when the name reads more than one way and nothing decides.
func choose(rs []reading, roster *Roster) (reading, bool) {
	if len(rs) == 1 {
		return rs[0], true
	}
	if roster == nil {
		return reading{}, false
	}
	var fit []reading
	for _, r := range rs {
		if roster.confirms(r) {
			fit = append(fit, r)
		}
	}
	if len(fit) == 1 {
		return fit[0], true
	}
	return reading{}, false
}

// splitByName splits the members of one id by the name before the id. With a roster, the members
// under the roster's name are the student; the others are conflicts. Without one, every name is a
// group of its own and each is a conflict when there is more than one.
func splitByName(g []lmsMember, roster *Roster) (trusted []lmsMember, others [][]lmsMember) {
	byName := map[string][]lmsMember{}
	var names []string
	for _, m := range g {
		if byName[m.rawName] == nil {
			names = append(names, m.rawName)
		}
		byName[m.rawName] = append(byName[m.rawName], m)
	}
	if len(names) == 1 {
		return g, nil
	}
	sort.Strings(names)
	for _, n := range names {
		ms := byName[n]
		if roster != nil && trusted == nil && roster.confirms(ms[0].reading) {
			trusted = ms
			continue
		}
		others = append(others, ms)
	}
	return trusted, others
}

// entrySuffix is a short visible mark that tells apart two entries whose names normalise alike
// ("Ivan Petrov" and "Ivan Petrov " with a trailing space, a name in NFC and in NFD): a hash of the
// entry's exact bytes, the same in every run.
func entrySuffix(raw string) string {
	h := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(h[:3])
}

// uniqueNames gives every submission a Name no other has: a name that two entries share gets the
// LMS id, or else a mark of the entry's exact name, after it. The suffixes depend on the entries
// alone, never on the order or the number of the others, so a journal resumes under the same names.
func uniqueNames(subs []Submission) {
	count := map[string]int{}
	for _, s := range subs {
		count[s.Name]++
	}
	used := map[string]bool{}
	for i := range subs {
		s := &subs[i]
		if count[s.Name] < 2 && !used[s.Name] {
			used[s.Name] = true
			continue
		}
		base := s.Name
		switch {
		case s.ID != "" && s.Conflict == "":
			s.Name = fmt.Sprintf("%s (%s)", base, s.ID)
		default:
			s.Name = fmt.Sprintf("%s (%s)", base, entrySuffix(s.rawEntry))
		}
		for n := 2; used[s.Name]; n++ {
			s.Name = fmt.Sprintf("%s (%s, %d)", base, entrySuffix(s.rawEntry), n)
		}
		used[s.Name] = true
	}
}

// ConflictCount is how many rows of the report stand apart because their student is in doubt.
func (r *Report) ConflictCount() int {
	n := 0
	for _, st := range r.Students {
		if st.Conflict != "" {
			n++
		}
	}
	return n
}
