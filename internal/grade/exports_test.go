package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/unicode/norm"
)

// Class exports as LMSes and the machines around them really make them, odd ones included: each
// gives the right rows (who, which id, which program was found, which files it is made of) or a
// clear refusal, before anything is built.

// oddRow is what grading will work on for one submission.
type oddRow struct {
	Name, ID, Program, Verdict string
	Files                      string // the program's files, comma-separated
	Recoded                    string // the files read as Windows-1251
	Superseded                 string // the older versions set aside (Canvas)
}

// prepareClass lists the class at path as Run does (a class zip unpacked, the roster checked) and
// prepares each submission (unpacked, its program found), building nothing.
func prepareClass(t *testing.T, job *Job, path string) ([]oddRow, error) {
	t.Helper()
	subs, _, err := listClass(job, path, t.TempDir())
	if err != nil {
		return nil, err
	}
	g := newGrader(job)
	g.work = t.TempDir()
	var rows []oddRow
	for i, s := range subs {
		it, err := g.prepare(s, i, "")
		if err != nil {
			t.Fatal(err)
		}
		r := oddRow{Name: it.st.Name, ID: it.st.ID, Program: it.st.Program, Recoded: strings.Join(it.st.Recoded, ","),
			Superseded: strings.Join(it.st.Superseded, ",")}
		if it.st.Result != nil {
			r.Verdict = string(it.st.Result.Verdict)
		}
		var names []string
		for _, f := range it.st.Source {
			names = append(names, f.Name)
		}
		r.Files = strings.Join(names, ",")
		rows = append(rows, r)
	}
	return rows, nil
}

func TestOddExports(t *testing.T) {
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	// The one rune of the solution that Windows-1251 lacks is a minus sign in a comment.
	cp1251, err := charmap.Windows1251.NewEncoder().String(strings.ReplaceAll(sol, "−", "-"))
	if err != nil {
		t.Fatal(err)
	}
	helper := "package main\n\nfunc helper() int { return 1 }\n"
	const m = "_assignsubmission_file_"
	tests := []struct {
		name    string
		zip     []zipEntry // a class zip
		dir     files      // or a folder
		want    []oddRow
		wantErr error
	}{
		{
			name: "moodle folders with a folder inside",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/deadline/main.go", body: sol},
				{name: "Иванов Иван_100001" + m + "/deadline/README.md", body: "notes"},
			},
			want: []oddRow{{Name: "Иванов Иван", ID: "100001", Program: "deadline", Files: "main.go"}},
		},
		{
			name: "moodle folders: the student's zip in a folder of their own",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/Лаба 3/deadline.zip", body: zipOf(t, files{"main.go": sol})},
				{name: "Иванов Иван_100001" + m + "/Лаба 3/отчёт.pdf", body: "%PDF-1.4"},
			},
			want: []oddRow{{Name: "Иванов Иван", ID: "100001", Program: "deadline", Files: "main.go"}},
		},
		{
			name: "backslashes, folders entered as entries",
			zip: []zipEntry{
				{name: `Петрова Мария_100002` + m + `\`},
				{name: `Петрова Мария_100002` + m + `\deadline\`},
				{name: `Петрова Мария_100002` + m + `\deadline\main.go`, body: sol},
			},
			want: []oddRow{{Name: "Петрова Мария", ID: "100002", Program: "deadline", Files: "main.go"}},
		},
		{
			name: "zipped again on Windows: code page 866 names",
			zip:  []zipEntry{{name: "Колев Петър_100003" + m + "/main.go", body: sol, cp866: true}},
			want: []oddRow{{Name: "Колев Петър", ID: "100003", Program: ".", Files: "main.go"}},
		},
		{
			name: "a byte order mark before package main, and in go.mod",
			zip: []zipEntry{
				{name: "Ана Георгиева_100004" + m + "/main.go", body: "\ufeff" + sol},
				{name: "Ана Георгиева_100004" + m + "/go.mod", body: "\ufeffmodule deadline\n\ngo 1.22\n"},
			},
			want: []oddRow{{Name: "Ана Георгиева", ID: "100004", Program: ".", Files: "main.go"}},
		},
		{
			name: "a program saved in Windows-1251",
			zip:  []zipEntry{{name: "Сидоров Пётр_100005" + m + "/main.go", body: cp1251}},
			want: []oddRow{{Name: "Сидоров Пётр", ID: "100005", Program: ".", Files: "main.go", Recoded: "main.go"}},
		},
		{
			name: "a symbolic link in the class zip is never made",
			zip: []zipEntry{
				{name: "Eve Adams_100006" + m + "/main.go", body: "/etc/passwd", symlink: true},
				{name: "Eve Adams_100006" + m + "/notes.txt", body: "x"},
			},
			want: []oddRow{{Name: "Eve Adams", ID: "100006", Verdict: "no_program"}},
		},
		{
			name:    "an entry that climbs out of the class zip",
			zip:     []zipEntry{{name: "Иванов Иван_100001" + m + "/main.go", body: sol}, {name: "../../evil.go", body: "package main"}},
			wantErr: ErrClassArchive,
		},
		{
			name:    "an absolute entry",
			zip:     []zipEntry{{name: "/tmp/evil.go", body: "package main"}},
			wantErr: ErrClassArchive,
		},
		{
			name:    "an entry with a drive letter",
			zip:     []zipEntry{{name: `C:\Users\evil.go`, body: "package main"}},
			wantErr: ErrClassArchive,
		},
		{
			name: "a student's zip that climbs out is that student's verdict",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/hw.zip", body: zipOf(t, files{"../../evil.go": "package main"})},
				{name: "Петрова Мария_100002" + m + "/main.go", body: sol},
			},
			want: []oddRow{
				{Name: "Иванов Иван", ID: "100001", Verdict: "bad_archive"},
				{Name: "Петрова Мария", ID: "100002", Program: ".", Files: "main.go"},
			},
		},
		{
			name: "moodle: two students of one name stay apart by their ids",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/main.go", body: sol},
				{name: "Иванов Иван_100002" + m + "/main.go", body: sol},
			},
			want: []oddRow{
				{Name: "Иванов Иван (100001)", ID: "100001", Program: ".", Files: "main.go"},
				{Name: "Иванов Иван (100002)", ID: "100002", Program: ".", Files: "main.go"},
			},
		},
		{
			name: "moodle names in NFD (a Mac's zip): one student with one id, two with two",
			zip: []zipEntry{
				{name: norm.NFD.String("Йорданов Йордан_100001") + m + "/main.go", body: sol},
				{name: "Йорданов Йордан_100001" + m + "/util.go", body: helper},
				{name: norm.NFD.String("Йорданов Йордан_100002") + m + "/main.go", body: sol},
			},
			want: []oddRow{
				{Name: "Йорданов Йордан (100001)", ID: "100001", Program: ".", Files: "main.go,util.go"},
				{Name: "Йорданов Йордан (100002)", ID: "100002", Program: ".", Files: "main.go"},
			},
		},
		{
			name: "go.mod alone, an empty folder",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/go.mod", body: "module x\n\ngo 1.22\n"},
				{name: "Петрова Мария_100002" + m + "/"},
				{name: "Колев Петър_100003" + m + "/main.go", body: sol},
			},
			want: []oddRow{
				{Name: "Иванов Иван", ID: "100001", Verdict: "no_program"},
				{Name: "Колев Петър", ID: "100003", Program: ".", Files: "main.go"},
				{Name: "Петрова Мария", ID: "100002", Verdict: "no_program"},
			},
		},
		{
			name: "a bomb in a zip in a student's zip is that student's verdict",
			zip: []zipEntry{
				{name: "Иванов Иван_100001" + m + "/hw.zip", body: zipOf(t, files{"b.zip": zipOf(t, files{"main.go": strings.Repeat("/", 30<<20)})})},
				{name: "Петрова Мария_100002" + m + "/main.go", body: sol},
			},
			want: []oddRow{
				{Name: "Иванов Иван", ID: "100001", Verdict: "bad_archive"},
				{Name: "Петрова Мария", ID: "100002", Program: ".", Files: "main.go"},
			},
		},
		{
			name:    "backslashes that climb out of a student's folder",
			zip:     []zipEntry{{name: "Иванов Иван_100001" + m + `/..\..\evil.go`, body: sol}},
			wantErr: ErrClassArchive,
		},
		{
			name: "github classroom: a repository nothing was pushed to",
			dir: files{
				"deadline-ivan/main.go":     sol,
				"deadline-maria/.git/HEAD":  "ref: refs/heads/main\n",
				"deadline-petr/.git/config": "[core]\n",
				"deadline-petr/README.md":   "# deadline\n",
			},
			want: []oddRow{
				{Name: "ivan", ID: "ivan", Program: ".", Files: "main.go"},
				{Name: "maria", ID: "maria", Verdict: "no_program"},
				{Name: "petr", ID: "petr", Verdict: "no_program"},
			},
		},
		{
			name: "canvas resubmissions: the newest of each file wins",
			dir: files{
				"doejane_123_456_main.go":     strings.Replace(sol, "package main", "package main // first try", 1),
				"doejane_123_789_main-1.go":   sol,
				"doejane_123_790_helpers.go":  helper,
				"smithjohn_124_500_main-1.go": "package main\n\nfunc main() { broken",
				"smithjohn_124_501_main-2.go": sol,
				"leeann_125_600_main.go":      sol,
				"leeann_125_601_step-1.go":    "package main\n\nfunc step1() {}\n",
				"leeann_125_602_step-2.go":    "package main\n\nfunc step2() {}\n",
			},
			want: []oddRow{
				{Name: "doejane", ID: "123", Program: ".", Files: "helpers.go,main-1.go", Superseded: "main.go"},
				{Name: "leeann", ID: "125", Program: ".", Files: "main.go,step-1.go,step-2.go"},
				{Name: "smithjohn", ID: "124", Program: ".", Files: "main.go", Superseded: "main-1.go"}, // one file left: graded as main.go
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := t.TempDir()
			if tt.zip != nil {
				path = makeZip(t, tt.zip)
			} else {
				writeFiles(t, path, tt.dir)
			}
			got, err := prepareClass(t, deadlineJob(t), path)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				// The instructor reads it as such (and the command exits 2).
				if msg := RunMessage(err, "report", path, "", Shard{}); msg.ID != "grade_err_class_archive" {
					t.Errorf("the message of %v is %s", err, msg.ID)
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(path), "evil.go")); err == nil {
					t.Error("evil.go was written outside the class's folder")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d rows %+v, want %+v", len(got), got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("row %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestOddRosters reads rosters as spreadsheets and LMSes save them, and refuses a roster of another
// assignment before anything is graded.
func TestOddRosters(t *testing.T) {
	const worksheet = "Identifier;Full name;Email address;Status;Grade;Maximum grade;Grade can be changed;Last modified (submission);Last modified (grade);Feedback comments\r\n" +
		"Participant 100001;Иванов Иван;ivan@example.com;Submitted for grading;;10,00;Yes;Tuesday, 1 December 2026, 8:00 PM;-;\r\n" +
		"Participant 100002;Петрова Мария;maria@example.com;No submission;;10,00;Yes;-;-\r\n" +
		";;;;;;;;;\r\n"
	cp1251, err := charmap.Windows1251.NewEncoder().String(worksheet)
	if err != nil {
		t.Fatal(err)
	}
	gradebook := "Student,ID,SIS User ID,SIS Login ID,Integration ID,Section,Notes,Quiz 1 (4712),Deadline retries (4711)," +
		"Assignments Current Score,Assignments Unposted Current Score,Current Score,Unposted Current Score,Final Score,Unposted Final Score\n" +
		"    Points Possible,,,,,,,10,20,(read only),(read only),(read only),(read only),(read only),(read only)\n" +
		"\"Ivanov, Ivan\",1001,S1,ivanov,,Group A,,5,,50,50,50,50,25,25\n" +
		"\"Student, Test\",1099,,,,Group A,,,,,,,,,\n"
	tests := []struct {
		name, file, data, assignment string
		wantNames                    []string
		wantCode                     string
	}{
		{"moodle worksheet saved by Excel: BOM, semicolons, CRLF, decimal comma, an empty row", "w.csv", utf8BOM + worksheet, "",
			[]string{"Иванов Иван", "Петрова Мария"}, ""},
		{"moodle worksheet saved in Windows-1251", "w.csv", cp1251, "", []string{"Иванов Иван", "Петрова Мария"}, ""},
		// One student's name cut in the middle of a letter garbles no other name (it read the whole
		// table as Windows-1251: "Р�РІР°РЅРѕРІ Р�РІР°РЅ"), and what goes back to the LMS is UTF-8.
		{"moodle worksheet in UTF-8 with one name cut in a letter", "w.csv", strings.Replace(worksheet, "Мария", "Мари\xd1", 1), "",
			[]string{"Иванов Иван", "Петрова Мари\uFFFD"}, ""},
		{"moodle worksheet as Unicode text with one name's lone surrogate", "w.txt",
			strings.Replace(unicodeText(t, strings.ReplaceAll(worksheet, ";", "\t")), "\x1f\x04\x35\x04", "\x00\xd8\x35\x04", 1), "",
			[]string{"Иванов Иван", "\uFFFDетрова Мария"}, ""},
		{"moodle worksheet saved by Excel as Unicode text: UTF-16, tabs", "w.txt", unicodeText(t, strings.ReplaceAll(worksheet, ";", "\t")), "",
			[]string{"Иванов Иван", "Петрова Мария"}, ""},
		{"canvas gradebook with more columns, the Points Possible row and the test student", "g.csv", gradebook, "4711",
			[]string{"Ivanov, Ivan", "Student, Test"}, ""},
		{"canvas gradebook without the assignment", "g.csv", gradebook, "4799", nil, RosterAssignment},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tt.file)
			os.WriteFile(p, []byte(tt.data), 0o644)
			ro, err := ReadRoster(p, tt.assignment, []string{"exercise-deadline"})
			if tt.wantCode != "" {
				var re *RosterError
				if !errors.As(err, &re) || re.Code != tt.wantCode {
					t.Fatalf("got %v, want the code %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range ro.Students {
				names = append(names, s.Name)
			}
			if strings.Join(names, "|") != strings.Join(tt.wantNames, "|") {
				t.Errorf("got %q, want %q", names, tt.wantNames)
			}
			if ro.Layout == LayoutCanvas && ro.PointsPossible != "20" {
				t.Errorf("points possible %q, want 20", ro.PointsPossible)
			}
			if ro.Layout != LayoutMoodle {
				return
			}
			// What goes back is a worksheet Moodle's importer reads: commas, whatever the roster had.
			rep := exportReport(LayoutMoodle)
			got, err := moodleImport(t, MoodleCSV(rep, ro, ro.Students[0].Submitted), "en", map[string]bool{"100001": true, "100002": true}, 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got["100001"].grade != 7.5 {
				t.Errorf("100001 imports as %+v, want 7.5 of 10", got["100001"])
			}
		})
	}
	// A roster of another assignment: its ids are not the export's. Refused before any grading.
	t.Run("moodle roster of another assignment", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "w.csv")
		os.WriteFile(p, []byte(worksheet), 0o644)
		job := deadlineJob(t)
		if job.Roster, err = ReadRoster(p, "", nil); err != nil {
			t.Fatal(err)
		}
		class := makeZip(t, []zipEntry{{name: "Тодоров Тодор_100009_assignsubmission_file_/main.go", body: "package main"}})
		_, err := prepareClass(t, job, class)
		var re *RosterError
		if !errors.As(err, &re) || re.Code != RosterMissingID {
			t.Errorf("got %v, want %s", err, RosterMissingID)
		}
		if msg := RunMessage(err, "report", class, "", Shard{}); msg.ID != "grade_err_roster_missing_id" {
			t.Errorf("the message of %v is %s", err, msg.ID)
		}
	})
	// Blind marking: the worksheet names nobody, and Moodle names the entries after the participant.
	t.Run("moodle blind marking", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "w.csv")
		os.WriteFile(p, []byte("Identifier,Status,Grade,Maximum grade,Grade can be changed,Last modified (submission),Last modified (grade),Feedback comments\n"+
			"Participant 2345678,Submitted for grading,,100.00,Yes,-,-,\nParticipant 2345679,No submission,,100.00,Yes,-,-,\n"), 0o644)
		job := deadlineJob(t)
		if job.Roster, err = ReadRoster(p, "", nil); err != nil {
			t.Fatal(err)
		}
		class := makeZip(t, []zipEntry{{name: "Participant_2345678_assignsubmission_file_/main.go", body: "package main\n\nfunc main() {}\n"}})
		rows, err := prepareClass(t, job, class)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].ID != "2345678" || rows[0].Name != "Participant 2345678" {
			t.Errorf("got %+v, want the participant 2345678 under the worksheet's identifier", rows)
		}
	})
	// A header whose identifier is its last column reads without going past the row.
	t.Run("identifier last", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "w.csv")
		os.WriteFile(p, []byte("Grade,Last modified (grade),Identifier\n,-,Participant 1\n"), 0o644)
		ro, err := ReadRoster(p, "", nil)
		if err != nil || len(ro.Students) != 1 || ro.Students[0].ID != "1" {
			t.Errorf("got %+v, %v", ro, err)
		}
	})
	t.Run("canvas roster for a moodle export", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "g.csv")
		os.WriteFile(p, []byte(gradebook), 0o644)
		job := deadlineJob(t)
		if job.Roster, err = ReadRoster(p, "4711", nil); err != nil {
			t.Fatal(err)
		}
		class := makeZip(t, []zipEntry{{name: "Иванов Иван_1001_assignsubmission_file_/main.go", body: "package main"}})
		_, err := prepareClass(t, job, class)
		var re *RosterError
		if !errors.As(err, &re) || re.Code != RosterOtherLayout {
			t.Errorf("got %v, want %s", err, RosterOtherLayout)
		}
	})
}

// TestOddExportGrades grades the odd submissions that must pass: a byte order mark, Windows-1251, a
// folder inside, backslashes.
func TestOddExportGrades(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel() // grades a class of its own
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	// The one rune of the solution that Windows-1251 lacks is a minus sign in a comment.
	cp1251, err := charmap.Windows1251.NewEncoder().String(strings.ReplaceAll(sol, "−", "-"))
	if err != nil {
		t.Fatal(err)
	}
	const m = "_assignsubmission_file_"
	class := makeZip(t, []zipEntry{
		{name: "Иванов Иван_100001" + m + "/deadline/main.go", body: sol},
		{name: `Петрова Мария_100002` + m + `\deadline\main.go`, body: sol},
		{name: "Ана Георгиева_100004" + m + "/main.go", body: "\ufeff" + sol},
		{name: "Ана Георгиева_100004" + m + "/go.mod", body: "\ufeffmodule deadline\r\n\r\ngo 1.22\r\n"},
		{name: "Сидоров Пётр_100005" + m + "/main.go", body: cp1251},
	})
	out := filepath.Join(t.TempDir(), "report")
	rep, _, err := Run(context.Background(), deadlineJob(t), class, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep, "ru"); err != nil {
		t.Fatal(err)
	}
	if len(rep.Students) != 4 {
		t.Fatalf("got %d students, want 4", len(rep.Students))
	}
	for _, st := range rep.Students {
		if st.Status != StatusPass || st.Lang != "ru" {
			t.Errorf("%s: %s in %s (%s %s)", st.Name, st.Status, st.Lang, st.Result.Verdict, st.Result.BuildLog)
		}
	}
	fb, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["Сидоров Пётр"]))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fb), "Windows-1251") {
		t.Errorf("the feedback does not say the file was read as Windows-1251:\n%s", fb)
	}
}

// unicodeText is s as Excel's "Unicode text" saves it: UTF-16 little-endian with a byte order mark.
func unicodeText(t *testing.T, s string) string {
	t.Helper()
	out, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
