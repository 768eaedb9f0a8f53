package grade

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// orderedZip packs entries in the order given (zipOf's map has none); an entry whose data starts
// with "DAMAGED" is stored uncompressed and then damaged, so that its checksum fails.
func orderedZip(t testing.TB, entries ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	for {
		i := bytes.Index(b, []byte("DAMAGED"))
		if i < 0 {
			break
		}
		b[i] = 'X'
	}
	return b
}

const (
	moodleAnna = "Anna Ivanova_100001_assignsubmission_file_/"
	moodleMal  = "Mal Hacker_100002_assignsubmission_file_/"
)

// TestClassArchiveEntriesStayTheirs: an entry of a class's archive is its student's alone. One whose
// name leads into a classmate's folder (M/../A/main.go, or a Canvas file named ..\..\anna_…_main.go) is
// left out, never written over the classmate's program; one whose name leads to the archive's top
// (a go.mod there would make the class "one program"), a path that is a file in one entry and a
// folder in another, and an entry whose data is damaged are left out too; none of them stops the
// class, and each is named in its student's row (Submission.Lost).
func TestClassArchiveEntriesStayTheirs(t *testing.T) {
	const honest, evil = "package main // Anna's own\n", "package main // Mal's\n"
	tests := []struct {
		name    string
		entries [][2]string
		anna    string // the file holding Anna's program, relative to her entry
		lost    []string
	}{
		{"sibling folder", [][2]string{
			{moodleMal + "../" + moodleAnna + "main.go", evil},
			{moodleAnna + "main.go", honest},
			{moodleMal + "main.go", evil},
		}, moodleAnna + "main.go", []string{LostOutside}},
		{"backslashes", [][2]string{
			{moodleMal + `..\` + moodleAnna + "main.go", evil},
			{moodleAnna + "main.go", honest},
			{moodleMal + "main.go", evil},
			{moodleMal + `sub\..\..\go.mod`, "module x\n"},
		}, moodleAnna + "main.go", []string{LostOutside, LostOutside}},
		{"wrapped", [][2]string{
			{"export/" + moodleMal + "../" + moodleAnna + "main.go", evil},
			{"export/" + moodleAnna + "main.go", honest},
			{"export/" + moodleMal + "main.go", evil},
		}, moodleAnna + "main.go", []string{LostOutside}},
		{"canvas flat", [][2]string{
			{`hackermal_1002_5002_..\..\annaivanova_1001_5001_main.go`, evil},
			{"annaivanova_1001_5001_main.go", honest},
			{"hackermal_1002_5003_main.go", evil},
			{`hackermal_1002_5004_..\..\go.mod`, "module x\n"},
		}, "annaivanova_1001_5001_main.go", []string{LostOutside, LostOutside}},
		{"file then folder", [][2]string{
			{moodleAnna + "main.go", honest},
			{moodleMal + "main.go", evil},
			{moodleMal + "x", "x"},
			{moodleMal + "x/main.go", evil},
			{moodleMal + "x/", ""},
		}, moodleAnna + "main.go", []string{LostClash, LostClash}},
		{"folder then file", [][2]string{
			{moodleAnna + "main.go", honest},
			{moodleMal + "x/main.go", evil},
			{moodleMal + "x", "x"},
		}, moodleAnna + "main.go", []string{LostClash}},
		{"damaged", [][2]string{
			{moodleAnna + "main.go", honest},
			{moodleMal + "main.go", "package main // DAMAGED\n"},
			{moodleMal + "notes.txt", "fine"},
		}, moodleAnna + "main.go", []string{LostDamaged}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zipPath := filepath.Join(t.TempDir(), "class.zip")
			os.WriteFile(zipPath, orderedZip(t, tt.entries...), 0o644)
			dir, lost, err := openClass(zipPath, t.TempDir())
			if err != nil {
				t.Fatalf("the class is refused for one student's entry: %v", err)
			}
			subs, skipped, err := ListWith(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkClass(zipPath, dir, subs, skipped); err != nil {
				t.Fatalf("checkClass: %v", err)
			}
			attachLost(subs, lost)
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tt.anna)))
			if err != nil || string(got) != honest {
				t.Fatalf("Anna's program is %q (%v), want her own", got, err)
			}
			var kinds []string
			for _, s := range subs {
				if s.ID == "1001" || s.ID == "100001" {
					if len(s.Lost) > 0 {
						t.Errorf("Anna is given Mal's lost entries: %v", s.Lost)
					}
					continue
				}
				for _, l := range s.Lost {
					kinds = append(kinds, l.Kind)
				}
			}
			if strings.Join(kinds, " ") != strings.Join(tt.lost, " ") {
				t.Errorf("Mal's lost entries are %v, want %v", kinds, tt.lost)
			}
		})
	}
}

// TestGradeClassArchiveLost grades a Moodle export in which one student's entries reach into a
// classmate's folder, are damaged, and clash: the class is graded, the classmate passes with her own
// program, and the student's feedback names what was left out and why, in the student's language.
func TestGradeClassArchiveLost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "Course-Deadline-12345.zip")
	os.WriteFile(zipPath, orderedZip(t,
		[2]string{moodleMal + "../" + moodleAnna + "main.go", "package main\n\nfunc main() {}\n"},
		[2]string{moodleAnna + "main.go", sol},
		[2]string{moodleMal + "main.go", sol},
		[2]string{moodleMal + "x", "x"},
		[2]string{moodleMal + "x/y.go", "package main\n"},
		[2]string{moodleMal + "extra.go", "package main // DAMAGED\n"},
	), 0o644)
	out := filepath.Join(dir, "report")
	rep, _, err := Run(context.Background(), deadlineJob(t), zipPath, out)
	if err != nil {
		t.Fatalf("the class is not graded: %v", err)
	}
	if err := Write(out, rep, "en"); err != nil {
		t.Fatal(err)
	}
	byName := map[string]Student{}
	for _, st := range rep.Students {
		byName[st.Name] = st
	}
	if st := byName["Anna Ivanova"]; st.Status != StatusPass || len(st.Lost) != 0 {
		t.Errorf("Anna: %s, lost %v; want pass with nothing lost", st.Status, st.Lost)
	}
	mal := byName["Mal Hacker"]
	if len(mal.Lost) != 3 {
		t.Fatalf("Mal's lost entries: %v, want 3", mal.Lost)
	}
	fb, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["Mal Hacker"]))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 файла вашей сдачи не удалось взять из архива класса", "(его имя ведёт за пределы вашей папки («..»))",
		"в архиве\u00a0— то файл, то папка", "повреждены и не читаются"} {
		if !strings.Contains(string(fb), want) {
			t.Errorf("Mal's feedback lacks %q:\n%s", want, fb)
		}
	}
}
