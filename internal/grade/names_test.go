package grade

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// longName is a student's name of about n bytes in Latin or Cyrillic, words of five letters.
func longName(n int, cyrillic bool) string {
	word := "Ivanov"
	if cyrillic {
		word = "Иванов"
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(word)
	}
	return capBytes(b.String(), n)
}

func TestFeedbackNames(t *testing.T) {
	got := FeedbackNames([]string{"a:b", "a?b", "CON", "Иван Петров", "x. ", ".hidden", "nul.txt", "Com1 ", "LPT¹"})
	want := map[string]string{
		"a:b": "a_b ~" + nameHash("a:b") + ".md", "a?b": "a_b ~" + nameHash("a?b") + ".md", "CON": "_CON.md",
		"Иван Петров": "Иван Петров.md", "x. ": "x.md", ".hidden": "_.hidden.md", "nul.txt": "_nul.txt.md",
		"Com1 ": "_Com1.md", "LPT¹": "_LPT¹.md",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%q: got %q, want %q", k, got[k], w)
		}
	}
}

// TestFeedbackNamesAtEveryLength: every name, however long and whatever its letters, gets a file name
// that every OS takes, that no other student's shares (case and normalisation aside), and that is
// the same whatever the rest of the class.
func TestFeedbackNamesAtEveryLength(t *testing.T) {
	var names []string
	for _, n := range []int{100, 240, 1000} {
		for _, cyr := range []bool{false, true} {
			names = append(names, longName(n, cyr))
			// The same long name but for its end: they must not share a file once cut.
			names = append(names, longName(n, cyr)+"x")
		}
	}
	nfd := norm.NFD.String("Йордан Йорданов")
	names = append(names, "Йордан Йорданов", nfd, "ivan", "IVAN", "trailing. . .", "CON.txt", strings.Repeat(".", 300))
	got := FeedbackNames(names)
	dir := t.TempDir()
	seen := map[string]string{}
	for _, s := range names {
		f := got[s]
		if len(f) > maxStemBytes+len(".md") || !utf8.ValidString(f) || strings.ContainsAny(f, `/\:*?"<>|`) {
			t.Errorf("%d bytes of %q: the file name %q (%d bytes) is not safe", len(s), capBytes(s, 20), f, len(f))
		}
		if other, ok := seen[foldName(f)]; ok {
			t.Errorf("%q and %q share the file %q", capBytes(s, 20), capBytes(other, 20), f)
		}
		seen[foldName(f)] = s
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Errorf("%d bytes: %v", len(s), err)
		}
		// Alone, or in another class, a name that needed no hash keeps its file.
		if alone := FeedbackNames([]string{s})[s]; alone != f && !strings.Contains(f, "~") {
			t.Errorf("%q: %q alone, %q in the class", capBytes(s, 20), alone, f)
		}
	}
	// A rerun, the class in another order, gives every student the same file.
	rev := make([]string, len(names))
	for i, s := range names {
		rev[len(names)-1-i] = s
	}
	again := FeedbackNames(rev)
	for _, s := range names {
		if again[s] != got[s] {
			t.Errorf("%q: %q, then %q", capBytes(s, 20), got[s], again[s])
		}
	}
}

// TestGradeLongNames grades classes whose students have names of 100, 240 and 1,000 bytes, in Latin
// and Cyrillic: folders, a Moodle export's folder names and students of the roster who handed in
// nothing. Every student gets a row and a feedback file; nobody stops the class, and a rerun agrees.
func TestGradeLongNames(t *testing.T) {
	starter := courseFile(t, "exercises/exercise-deadline/bg/main.go")
	t.Run("folders", func(t *testing.T) {
		class := t.TempDir()
		var want []string
		for _, n := range []int{100, 240} {
			for _, cyr := range []bool{false, true} {
				name := longName(n, cyr)
				writeFiles(t, filepath.Join(class, name), files{"main.go": string(starter)})
				want = append(want, name)
			}
		}
		checkLongNames(t, deadlineJob(t), class, want)
	})
	t.Run("moodle zip and roster", func(t *testing.T) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		sheet := [][]string{{"Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed",
			"Last modified (submission)", "Last modified (grade)", "Feedback comments"}}
		var want []string
		id := 100001
		for _, n := range []int{100, 240, 1000} {
			for _, cyr := range []bool{false, true} {
				name := longName(n, cyr)
				w, err := zw.Create(fmt.Sprintf("%s_%d_assignsubmission_file_/main.go", name, id))
				if err != nil {
					t.Fatal(err)
				}
				w.Write(starter)
				sheet = append(sheet, []string{fmt.Sprintf("Participant %d", id), name, "", "Submitted for grading", "", "100.00", "Yes", "-", "-", ""})
				want = append(want, name)
				id++
				// A student of the roster with a name as long who handed in nothing.
				missing := longName(n, cyr) + " Missing"
				sheet = append(sheet, []string{fmt.Sprintf("Participant %d", id), missing, "", "No submission", "", "100.00", "Yes", "-", "-", ""})
				want = append(want, missing)
				id++
			}
		}
		zw.Close()
		dir := t.TempDir()
		classZip := filepath.Join(dir, "class.zip")
		os.WriteFile(classZip, buf.Bytes(), 0o644)
		var csvBuf bytes.Buffer
		cw := csv.NewWriter(&csvBuf)
		cw.WriteAll(sheet)
		rosterPath := filepath.Join(dir, "worksheet.csv")
		os.WriteFile(rosterPath, csvBuf.Bytes(), 0o644)
		ro, err := ReadRoster(rosterPath, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		job := deadlineJob(t)
		job.Roster = ro
		rep := checkLongNames(t, job, classZip, want)
		for _, st := range rep.Students {
			if st.Conflict != "" || st.ID == "" {
				t.Errorf("%q: conflict %q, id %q: the shortened entry was not matched to the roster", capBytes(st.Name, 20), st.Conflict, st.ID)
			}
		}
	})
}

// checkLongNames grades class twice into one report folder and checks that every student of want
// has a row and a feedback file of their own.
func checkLongNames(t *testing.T, job *Job, class string, want []string) *Report {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report")
	var rep *Report
	for run := range 2 {
		rep, _ = runGrade(t, job, class, out)
		byName := map[string]Student{}
		for _, st := range rep.Students {
			byName[st.Name] = st
		}
		if len(rep.Students) != len(want) {
			t.Errorf("run %d: %d rows, want %d", run, len(rep.Students), len(want))
		}
		for _, name := range want {
			st, ok := byName[name]
			if !ok {
				t.Errorf("run %d: no row for the %d-byte name %q…", run, len(name), capBytes(name, 20))
				continue
			}
			if st.FeedbackError != "" {
				t.Errorf("run %d: %q…: %s", run, capBytes(name, 20), st.FeedbackError)
			}
			data, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback[name]))
			if err != nil {
				t.Errorf("run %d: %v", run, err)
			} else if !bytes.Contains(data, []byte(capBytes(name, 40))) {
				t.Errorf("run %d: the feedback of %q… does not name the student", run, capBytes(name, 20))
			}
		}
		for _, f := range []string{GradesFile, ResultsFile, HTMLFile} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("run %d: %v", run, err)
			}
		}
	}
	return rep
}

// TestWriteFeedbackFailure: a feedback file that cannot be written is its student's row, and the
// class's report is written.
func TestWriteFeedbackFailure(t *testing.T) {
	rep := exportReport("")
	rep.Finalize()
	out := t.TempDir()
	// A report is written in a new folder (Write), so nothing of an earlier one is in the way: the
	// file cannot be made because its folder does not exist.
	rep.Feedback["Иванов Иван"] = filepath.Join("no such folder", rep.Feedback["Иванов Иван"])
	if err := Write(out, rep, "en"); err != nil {
		t.Fatalf("one student's file stopped the report: %v", err)
	}
	for _, st := range rep.Students {
		if (st.FeedbackError != "") != (st.Name == "Иванов Иван") {
			t.Errorf("%s: feedback error %q", st.Name, st.FeedbackError)
		}
	}
	if n := rep.FeedbackErrors(); n != 1 {
		t.Errorf("FeedbackErrors = %d, want 1 (the command's summary counts them)", n)
	}
	for _, f := range []string{GradesFile, ResultsFile, HTMLFile} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if f != HTMLFile && !bytes.Contains(data, []byte("feedback_error")) {
			t.Errorf("%s does not say which feedback was not written", f)
		}
		if f == HTMLFile && !bytes.Contains(data, []byte("feedback file not written")) {
			t.Errorf("%s does not say which feedback was not written", f)
		}
	}
}

// windowsKey is how NTFS, through the Windows API, compares a file name: trailing dots and spaces
// dropped, then each character upper-cased by its table (the simple upper case of each UTF-16 unit:
// "ı" and "i" are "I", "ς" and "σ" are "Σ", "ſ" is "S"), no normalisation.
func windowsKey(name string) string {
	return strings.Map(unicode.ToUpper, strings.TrimRight(name, ". "))
}

// macKey is how macOS compares a file name, HFS+ and APFS taken together: canonical equivalents
// alike (decomposed), case folded in full ("ß" is "ss"), and what HFS+ ignores left out (U+200C-200F,
// U+202A-202E, U+206A-206F, U+FEFF).
func macKey(name string) string {
	name = strings.Map(func(r rune) rune {
		if r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff {
			return -1
		}
		return r
	}, name)
	return norm.NFD.String(cases.Fold().String(norm.NFD.String(name)))
}

// TestFileNamesApartOnEveryOS: students whose names differ only in what a file system ignores (case,
// Unicode normalisation, trailing dots and spaces, invisible characters, letters one case mapping
// takes to another) get feedback files that are apart on Windows and on macOS, each checked by a
// model of how that OS compares names (windowsKey, macKey), not by the function under test; and
// every file name is one every OS takes.
func TestFileNamesApartOnEveryOS(t *testing.T) {
	groups := [][]string{
		{"Ivanov", "IVANOV", "ivanov", "Ivanov.", "Ivanov ", "Ivanov. .", "Iva\u200dnov", "Iva\u200cnov", "\ufeffIvanov", "Ivanov\u200e", "Iva\u00adnov", "\u202eIvanov"},
		{"Йордан", norm.NFD.String("Йордан"), "ЙОРДАН", norm.NFD.String("йордан")},
		// Pairs alone: in a group, a third name that folds as both would give them hashes anyway.
		{"Yıldız", "Yildiz"},
		{"Yıldız", "YILDIZ", "İlker", "ilker"},
		{"Σοφος", "Σοφοσ"},
		{"Σοφος", "ΣΟΦΟΣ"},
		{"Straße", "Strasse"},
		{"Straße", "STRASSE"},
		{"Kelvin", "\u212aelvin", "Joſef", "Josef"},
		{"ﬁlip", "filip"},
		{"CON", "con", "CON.txt", "con.TXT", "Con "},
		{"...", ". . .", "", " ", "\u200d", "???", "***"},
		// 4-byte scripts past 255 bytes, and names that differ only past the cut.
		{strings.Repeat("😀", 64), strings.Repeat("😀", 64) + "x", strings.Repeat("😀", 250), strings.Repeat("😀", 250) + "😁",
			strings.Repeat("👨\u200d👩\u200d👧", 14), strings.Repeat("👨\u200d👩\u200d👧", 56), strings.Repeat("🇧🇬", 125), strings.Repeat("𐌰", 300)},
	}
	for _, group := range groups {
		got := FeedbackNames(group)
		for i, a := range group {
			f := got[a]
			if f == "" || len(f) > maxStemBytes+len(".md") || !utf8.ValidString(f) || strings.ContainsAny(f, "/\\:*?\"<>|") ||
				windowsDevice(f) || strings.HasPrefix(f, ".") || strings.TrimRight(strings.TrimSuffix(f, ".md"), ". ") != strings.TrimSuffix(f, ".md") {
				t.Errorf("%q: the file name %q is not one every OS takes", a, f)
			}
			for _, r := range f {
				if unicode.Is(unicode.Cf, r) || unicode.IsControl(r) {
					t.Errorf("%q: the file name %q holds the invisible %U", a, f, r)
				}
			}
			for _, b := range group[i+1:] {
				g := got[b]
				if windowsKey(f) == windowsKey(g) {
					t.Errorf("%q and %q: %q and %q are one file on Windows", a, b, f, g)
				}
				if macKey(f) == macKey(g) {
					t.Errorf("%q and %q: %q and %q are one file on macOS", a, b, f, g)
				}
			}
		}
	}
}

// TestCapBytes: a name is cut on a rune boundary and, where one character as a reader sees it fits,
// never inside it (a decomposed letter, an emoji sequence, a flag).
func TestCapBytes(t *testing.T) {
	nfd := norm.NFD.String("й") // и + U+0306, 4 bytes
	family := "👨\u200d👩\u200d👧" // 18 bytes
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"Ivanov", 10, "Ivanov"},
		{"Иванов", 3, "И"},
		{"Иванов", 1, ""},
		{"a" + nfd, 3, "a"},
		{"a" + nfd, 5, "a" + nfd},
		{nfd, 2, "и"}, // one character longer than n: the rune boundary
		{"a" + family, 12, "a"},
		{"a" + family + "b", 19, "a" + family},
		{"👍🏽x", 5, "👍"}, // one character longer than n
		{"a👍🏽", 6, "a"},
		{"a❤\ufe0f", 4, "a"},
		{"🇧🇬🇷🇺", 12, "🇧🇬"},
		{"a🇧🇬", 9, "a🇧🇬"},
		{"a🇧🇬", 8, "a"},
		{"ab\xff\xfe", 3, "ab\xff"},
	} {
		if got := capBytes(tc.s, tc.n); got != tc.want {
			t.Errorf("capBytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestPortablePath: names of an archive's entries are written so that every OS takes them as they
// are, alike on every OS.
func TestPortablePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Иван Петров_100001_assignsubmission_file_/main.go", "Иван Петров_100001_assignsubmission_file_/main.go"},
		{"main.go.", "main.go"},
		{"main.go . ", "main.go"},
		{"dir./main.go", "dir/main.go"},
		{"a:b.go", "a_b.go"},
		{`x*?"<>|.go`, "x______.go"},
		{"x\x01\x7f.go", "x__.go"},
		{"nul.go", "_nul.go"},
		{"CON", "_CON"},
		{"d/com1.txt/lpt9", "d/_com1.txt/_lpt9"},
		{"...", "_"},
		{"a/. ./b", "a/_/b"},
		{".hidden/x", ".hidden/x"},
		{"console.go", "console.go"},
	} {
		if got := portablePath(tc.in); got != tc.want {
			t.Errorf("portablePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestUnpackClassPortable: a Moodle export (files in folders) in which a student handed in files
// whose names Windows or macOS take for one file, or for a device, unpacks to files that no OS
// confuses: each a name every OS writes as it is, no two one file on Windows or on macOS, the first
// of each kept, and the class unpacked whole.
func TestUnpackClassPortable(t *testing.T) {
	const ivan, maria = "Иван Петров_100001_assignsubmission_file_/", "Мария_100002_assignsubmission_file_/"
	entries := [][2]string{
		{ivan + "main.go", "package main // first"},
		{ivan + "main.go.", "package main // trailing dot"},
		{ivan + "main.go ", "package main // trailing space"},
		{ivan + "MAIN.GO", "package main // upper"},
		{ivan + "nul.go", "package main"},
		{ivan + "a:b.go", "package main"},
		{ivan + "a_b.go", "package main // after a:b"},
		{ivan + "Yıldız.go", "package main"},
		{ivan + "YILDIZ.go", "package main"},
		{ivan + "Iva\u200dnov.go", "package main"},
		{ivan + "Ivanov.go", "package main"},
		{maria + "main.go", "package main // Мария"},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e[1]))
	}
	zw.Close()
	src := filepath.Join(t.TempDir(), "class.zip")
	os.WriteFile(src, buf.Bytes(), 0o644)
	dst := t.TempDir()
	if _, err := unpackClass(src, dst); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{ivan, maria} {
		des, err := os.ReadDir(filepath.Join(dst, dir))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, de := range des {
			n := de.Name()
			if portableComponent(n) != n {
				t.Errorf("%s: %q is not written as it is on every OS", dir, n)
			}
			for _, o := range names {
				if windowsKey(n) == windowsKey(o) || macKey(n) == macKey(o) {
					t.Errorf("%s: %q and %q are one file on Windows or macOS", dir, n, o)
				}
			}
			names = append(names, n)
		}
		t.Logf("%s: %q", dir, names)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, ivan, "main.go")); string(data) != "package main // first" {
		t.Errorf("main.go holds %q, want the first of its names", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, maria, "main.go")); string(data) != "package main // Мария" {
		t.Errorf("Мария's main.go holds %q", data)
	}
}
