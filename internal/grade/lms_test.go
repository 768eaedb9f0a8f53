package grade

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files is a fixture: slash paths and their contents.
type files map[string]string

func writeFiles(t testing.TB, dir string, fs files) {
	t.Helper()
	for name, data := range fs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func zipOf(t testing.TB, fs files) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range fs {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// tgzOf packs files as a .tar.gz; a name ending in "@" is a symbolic link to /etc/passwd.
func tgzOf(t testing.TB, fs files) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, data := range fs {
		if n, ok := strings.CutSuffix(name, "@"); ok {
			tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
			continue
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(data))
	}
	tw.Close()
	gz.Close()
	return buf.String()
}

func TestListLayouts(t *testing.T) {
	const prog = "package main\n\nfunc main() {}\n"
	type row struct {
		Name, Kind, Layout, ID string
		Late                   bool
		Files                  int
	}
	tests := []struct {
		name    string
		fs      files
		want    []row
		skipped []string
	}{
		{
			name: "moodle folders",
			fs: files{
				"Иванов Иван_100001_assignsubmission_file_/main.go":               prog,
				"Иванов Иван_100001_assignsubmission_onlinetext_/onlinetext.html": "<p>done</p>",
				"Петрова Мария_100002_assignsubmission_file_/deadline.zip":        "zip",
				"Петрова Мария_100007_assignsubmission_file_/deadline.go":         prog,
				"Сидоров Пётр_100003_assignsubmission_file_/work.7z":              "7z",
			},
			want: []row{
				{"Иванов Иван", KindGroup, LayoutMoodle, "100001", false, 2},
				{"Петрова Мария (100002)", KindDir, LayoutMoodle, "100002", false, 0},
				{"Петрова Мария (100007)", KindDir, LayoutMoodle, "100007", false, 0},
				{"Сидоров Пётр", KindDir, LayoutMoodle, "100003", false, 0},
			},
		},
		{
			name: "moodle flat",
			fs: files{
				"Иванов Иван_100001_assignsubmission_file_main.go":  prog,
				"Иванов Иван_100001_assignsubmission_file_notes.go": prog,
				"Ана Петрова_100004_assignsubmission_file_hw.zip":   "zip",
			},
			want: []row{
				{"Ана Петрова", KindZip, LayoutMoodle, "100004", false, 0},
				{"Иванов Иван", KindGroup, LayoutMoodle, "100001", false, 2},
			},
		},
		{
			name: "canvas",
			fs: files{
				"doejane_123_456_main.go":             prog,
				"doejane_123_457_helpers.go":          prog,
				"smithjohn_late_124_458_deadline.zip": "zip",
				"leeann_125_459_notes.txt":            "notes",
				"ivanov_LATE_126_460_main.go":         prog,
				"readme.txt":                          "the instructor's",
			},
			want: []row{
				{"doejane", KindGroup, LayoutCanvas, "123", false, 2},
				{"ivanov", KindGo, LayoutCanvas, "126", true, 0},
				{"leeann", KindGroup, LayoutCanvas, "125", false, 1},
				{"smithjohn", KindZip, LayoutCanvas, "124", true, 0},
			},
			skipped: []string{"readme.txt"},
		},
		{
			name: "github classroom",
			fs: files{
				"deadline-alice/main.go":   prog,
				"deadline-bob42/main.go":   prog,
				"deadline-c-d-e/x/main.go": prog,
			},
			want: []row{
				{"alice", KindDir, LayoutClassroom, "alice", false, 0},
				{"bob42", KindDir, LayoutClassroom, "bob42", false, 0},
				{"c-d-e", KindDir, LayoutClassroom, "c-d-e", false, 0},
			},
		},
		{
			name: "plain folders and archives",
			fs: files{
				"anna/main.go": prog,
				"Борис.tgz":    "tgz",
				"vera.tar.gz":  "tgz",
				"dima.rar":     "rar",
				"gosho.7z":     "7z",
				"notes.txt":    "x",
			},
			want: []row{
				{"anna", KindDir, "", "", false, 0},
				{"dima", KindArchive, "", "", false, 0},
				{"gosho", Kind7z, "", "", false, 0},
				{"vera", KindTar, "", "", false, 0},
				{"Борис", KindTar, "", "", false, 0},
			},
			skipped: []string{"notes.txt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.fs)
			subs, skipped, err := List(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			for _, s := range subs {
				got = append(got, row{s.Name, s.Kind, s.Layout, s.ID, s.Late, len(s.Files)})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d submissions %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("submission %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
			if strings.Join(skipped, ",") != strings.Join(tt.skipped, ",") {
				t.Errorf("skipped: got %q, want %q", skipped, tt.skipped)
			}
		})
	}
}

func TestSelectByID(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, files{"Иванов Иван_100001_assignsubmission_file_/main.go": "package main\n"})
	subs, _, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"Иванов Иван", "иванов иван", "100001", "Иванов Иван_100001_assignsubmission_file_"} {
		if s, ok := Select(subs, q); !ok || s.ID != "100001" {
			t.Errorf("Select(%q) = %+v, %v; want the student 100001", q, s, ok)
		}
	}
	if _, ok := Select(subs, "100002"); ok {
		t.Error("Select(100002) found a student")
	}
}

func TestUntar(t *testing.T) {
	tests := []struct {
		name     string
		fs       files
		wantCode string
		want     []string // files unpacked
		skipped  int
	}{
		{"program", files{"hw/main.go": "package main\n", "hw/.git/config": "x", "hw/evil@": ""}, "", []string{"hw/main.go"}, 1},
		{"slip", files{"../../evil.go": "package main\n"}, ZipSlip, nil, 0},
		{"twice", files{"a/Main.go": "1", "a/main.go": "2"}, ZipTwice, nil, 0},
		{"bomb", files{"big.go": strings.Repeat("x", int(DefaultReadLimits.Bytes)+1)}, ZipBomb, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "hw.tar.gz")
			os.WriteFile(src, []byte(tgzOf(t, tt.fs)), 0o644)
			dst := filepath.Join(dir, "out")
			os.Mkdir(dst, 0o755)
			skipped, err := untar(src, dst)
			var ae *ArchiveError
			switch {
			case tt.wantCode != "":
				if !errors.As(err, &ae) || ae.Code != tt.wantCode {
					t.Fatalf("got %v, want the code %s", err, tt.wantCode)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(skipped) != tt.skipped {
				t.Errorf("skipped: got %v, want %d", skipped, tt.skipped)
			}
			for _, f := range tt.want {
				if _, err := os.Stat(filepath.Join(dst, filepath.FromSlash(f))); err != nil {
					t.Errorf("got no %s: %v", f, err)
				}
			}
		})
	}
	// A damaged stream is the archive's fault.
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.tgz")
	os.WriteFile(src, []byte("not gzip at all"), 0o644)
	var ae *ArchiveError
	if _, err := untar(src, dir); !errors.As(err, &ae) || ae.Code != ZipCorrupt {
		t.Errorf("got %v, want %s", err, ZipCorrupt)
	}
}

// TestGradeMoodleExport grades Moodle's "download all" zip of a class as it comes: a folder per
// participant holding a .go file, a zip, a .tar.gz, a .rar or nothing of use, and an online-text
// folder beside one of them. Every participant is a row once, with their name and id.
func TestGradeMoodleExport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // grades a class of its own
	sol := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	solRU := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	dir := t.TempDir()
	class := zipOf(t, files{
		"Иванов Иван_100001_assignsubmission_file_/main.go":               solRU,
		"Иванов Иван_100001_assignsubmission_onlinetext_/onlinetext.html": "<p>готово</p>",
		"Петрова Мария_100002_assignsubmission_file_/deadline.zip":        zipOf(t, files{"deadline/main.go": sol}),
		"Колев Петър_100003_assignsubmission_file_/deadline.tar.gz":       tgzOf(t, files{"deadline/main.go": sol}),
		"Сидоров Пётр_100004_assignsubmission_file_/deadline.rar":         "Rar!\x1a\x07\x00",
		"Ана Георгиева_100005_assignsubmission_file_/отчет.pdf":           "%PDF-1.4",
	})
	zipPath := filepath.Join(dir, "Course-Deadline-12345.zip")
	os.WriteFile(zipPath, []byte(class), 0o644)
	out := filepath.Join(dir, "report")
	rep, _, err := Run(context.Background(), deadlineJob(t), zipPath, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep, "en"); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ id, status, verdict, lang string }{
		"Иванов Иван":   {"100001", StatusPass, "pass", "ru"},
		"Петрова Мария": {"100002", StatusPass, "pass", "bg"},
		"Колев Петър":   {"100003", StatusPass, "pass", "bg"},
		"Сидоров Пётр":  {"100004", StatusError, "bad_archive", "bg"},
		"Ана Георгиева": {"100005", StatusError, "no_program", "bg"},
	}
	if len(rep.Students) != len(want) {
		t.Fatalf("got %d students, want %d", len(rep.Students), len(want))
	}
	for _, st := range rep.Students {
		w, ok := want[st.Name]
		if !ok {
			t.Errorf("got a student %q", st.Name)
			continue
		}
		if got := [4]string{st.ID, st.Status, string(st.Result.Verdict), st.Lang}; got != [4]string{w.id, w.status, w.verdict, w.lang} {
			t.Errorf("%s: got %v, want %v", st.Name, got, w)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, GradesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(utf8BOM+"student,")) {
		t.Errorf("grades.csv starts %q, want a BOM and the header", data[:min(len(data), 20)])
	}
	rows, err := csv.NewReader(bytes.NewReader(data[len(utf8BOM):])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(want) {
		t.Errorf("grades.csv has %d rows, want %d", len(rows), 1+len(want))
	}
	moodle, err := os.ReadFile(filepath.Join(out, MoodleFile))
	if err != nil {
		t.Fatal(err)
	}
	// What Moodle's importer makes of it (importer_test.go): every participant's grade, and the
	// feedback itself, in the student's language.
	ids := map[string]bool{"100001": true, "100002": true, "100003": true, "100004": true, "100005": true}
	imported, err := moodleImport(t, moodle, "en", ids, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := imported["100001"]; g.grade != 100 || !strings.Contains(g.feedback, "Пройдено 16 тестов из 16") {
		t.Errorf("100001 imports as %+v", g)
	}
	if g := imported["100004"]; g.grade != 0 || !strings.Contains(g.feedback, "deadline.rar") || strings.Contains(g.feedback, "bad_archive") {
		t.Errorf("100004 imports as %+v, want 0 and the feedback's words, no code", g)
	}
	fb, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["Сидоров Пётр"]))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fb), "deadline.rar") || !strings.Contains(string(fb), ".tar.gz") {
		t.Errorf("the feedback of a .rar does not say which formats are read:\n%s", fb)
	}
}

// TestGradeCanvasExport grades Canvas's flat export: one student's two files graded as one program,
// another's zip, the late flag kept, and canvas.csv for the gradebook.
func TestGradeCanvasExport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // grades a class of its own
	sol := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	dir := t.TempDir()
	writeFiles(t, dir, files{
		"petrovaana_1001_5001_main.go":           sol,
		"petrovaana_1001_5002_helpers.go":        "package main\n\nfunc helper() int { return 1 }\n",
		"kolevpetar_late_1002_5003_deadline.zip": zipOf(t, files{"main.go": sol}),
	})
	out := filepath.Join(dir, "report")
	job := deadlineJob(t)
	rep, _, err := Run(context.Background(), job, dir, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep, "bg"); err != nil {
		t.Fatal(err)
	}
	if len(rep.Students) != 2 {
		t.Fatalf("got %d students, want 2", len(rep.Students))
	}
	for _, st := range rep.Students {
		if st.Layout != LayoutCanvas {
			t.Errorf("%s: layout %q", st.Name, st.Layout)
		}
		if st.Name == "kolevpetar" != st.Late {
			t.Errorf("%s: late %v", st.Name, st.Late)
		}
		if st.Status != StatusPass {
			t.Errorf("%s: %s (%s)", st.Name, st.Status, st.Result.BuildLog)
		}
	}
	canvas, err := os.ReadFile(filepath.Join(out, CanvasFile))
	if err != nil {
		t.Fatal(err)
	}
	imported, err := canvasImport(t, canvas, map[string]bool{"1001": true, "1002": true}, map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if imported["1002"]["-1"] != "100" || imported["1001"]["-1"] != "100" {
		t.Errorf("canvas.csv imports as %v", imported)
	}
	grades, _ := os.ReadFile(filepath.Join(out, GradesFile))
	if !strings.Contains(string(grades), "\nkolevpetar;pass;16;16;100;pass;bg;3;3;13;13;") || !strings.Contains(string(grades), ";1002;true;") {
		t.Errorf("grades.csv in Bulgarian (semicolons, id, late):\n%s", grades)
	}
}
