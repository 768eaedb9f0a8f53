package gradebook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/i18n"
)

// writeReport writes rep as dir/results.json, as grade would.
func writeReport(t *testing.T, dir string, rep *grade.Report) string {
	t.Helper()
	rep.Version = 3
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, grade.ResultsFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// moodleReport is a Moodle class's report of exercise: its participant ids are the assignment's
// own (base+n), the worksheet given as roster gives their emails.
func moodleReport(exercise string, base int, scores map[string]float64) *grade.Report {
	rows := [][]string{{"Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed", "Last modified (submission)", "Last modified (grade)", "Feedback comments"}}
	rep := &grade.Report{Exercise: exercise, Titles: map[string]string{"ru": exercise}}
	i := 0
	for _, name := range []string{"Иванов Иван", "Петрова Мария", "Колев Петър"} {
		i++
		id := string(rune('0'+base)) + "0000" + string(rune('0'+i))
		email := map[string]string{"Иванов Иван": "Ivan@example.com", "Петрова Мария": "maria@example.com", "Колев Петър": "petar@example.com"}[name]
		rows = append(rows, []string{"Participant " + id, name, email, "Submitted for grading", "", "100.00", "Yes", "-", "-", ""})
		score, ok := scores[name]
		if !ok {
			continue
		}
		lang := "ru"
		if name == "Колев Петър" {
			lang = "bg"
		}
		rep.Students = append(rep.Students, grade.Student{Name: name, Display: name, Layout: grade.LayoutMoodle, ID: id, Status: grade.StatusFail, Score: score, Lang: lang})
	}
	rep.Roster = &grade.RosterFile{Layout: grade.LayoutMoodle, Comma: ",", Rows: rows}
	return rep
}

// TestBuildMoodle joins a Moodle class's exercises by email, in the course's order, whatever the
// participant ids and the order the reports are named in.
func TestBuildMoodle(t *testing.T) {
	dir := t.TempDir()
	a := writeReport(t, filepath.Join(dir, "a"), moodleReport("exercise-deadline", 1, map[string]float64{"Иванов Иван": 80, "Петрова Мария": 40, "Колев Петър": 100}))
	b := writeReport(t, filepath.Join(dir, "b"), moodleReport("exercise-retry", 2, map[string]float64{"Иванов Иван": 60, "Колев Петър": 50}))
	weights := filepath.Join(dir, "w.toml")
	os.WriteFile(weights, []byte("exercise-deadline = 3\nexercise-retry = 1.0\n"), 0o644)
	book, err := Build(workbook.Content(), []string{a, b}, weights)
	if err != nil {
		t.Fatal(err)
	}
	if got := book.Exercises[0].Exercise + " " + book.Exercises[1].Exercise; got != "exercise-retry exercise-deadline" {
		t.Errorf("columns: %s, want the course's order", got)
	}
	want := map[string]struct {
		id    string
		total float64
		lang  string
	}{
		"Иванов Иван":   {"ivan@example.com", 75, "ru"},  // (60·1 + 80·3)/4
		"Петрова Мария": {"maria@example.com", 30, "ru"}, // (0·1 + 40·3)/4: no row in exercise-retry
		"Колев Петър":   {"petar@example.com", 87.5, "bg"},
	}
	if len(book.Students) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(book.Students), len(want), book.Students)
	}
	for _, r := range book.Students {
		w := want[r.Name]
		if r.ID != w.id || r.Total != w.total || r.Lang != w.lang {
			t.Errorf("%s: id %q total %v lang %s, want %q %v %s", r.Name, r.ID, r.Total, r.Lang, w.id, w.total, w.lang)
		}
	}
	csv := string(book.MoodleCSV())
	for _, line := range []string{"Email address,Full name,exercise-retry (0–100),exercise-deadline (0–100)", "maria@example.com,Петрова Мария,,40", "ivan@example.com,Иванов Иван,60,80"} {
		if !strings.Contains(csv, line+"\n") {
			t.Errorf("moodle.csv lacks %q:\n%s", line, csv)
		}
	}
	kolev := book.Students[slices.IndexFunc(book.Students, func(r Row) bool { return r.Name == "Колев Петър" })]
	sum := string(book.Summary(kolev))
	if !strings.Contains(sum, "Общо\u00a0— 87,5 от 100") || !strings.Contains(sum, "| exercise-deadline | 3 |") {
		t.Errorf("Колев Петър's summary is not his, in Bulgarian:\n%s", sum)
	}
}

func TestBuildRefuses(t *testing.T) {
	dir := t.TempDir()
	a := writeReport(t, filepath.Join(dir, "a"), moodleReport("exercise-deadline", 1, map[string]float64{"Иванов Иван": 80, "Петрова Мария": 40}))
	b := writeReport(t, filepath.Join(dir, "b"), moodleReport("exercise-retry", 2, map[string]float64{"Иванов Иван": 60}))
	// Two students of one name and no email: they could not be told apart in the other exercise.
	twins := &grade.Report{Exercise: "exercise-retry", Students: []grade.Student{
		{Name: "Иванов Иван", Display: "Иванов Иван", Layout: grade.LayoutMoodle, ID: "1"},
		{Name: "Иванов Иван (2)", Display: "Иванов Иван", Layout: grade.LayoutMoodle, ID: "2"}}}
	tw := writeReport(t, filepath.Join(dir, "twins"), twins)
	other := writeReport(t, filepath.Join(dir, "other"), &grade.Report{Exercise: "exercise-retry", Students: []grade.Student{
		{Name: "smith", Layout: grade.LayoutMoodle, ID: "9", Display: "Smith"}, {Name: "jones", Layout: grade.LayoutMoodle, ID: "8", Display: "Jones"}}})
	shard := writeReport(t, filepath.Join(dir, "shard"), &grade.Report{Exercise: "exercise-retry", Shard: "1/2"})
	tool := writeReport(t, filepath.Join(dir, "tool"), &grade.Report{Exercise: "exercise-retry", Summary: grade.Summary{Tool: 1}})
	unknown := writeReport(t, filepath.Join(dir, "unknown"), &grade.Report{Exercise: "exercise-nothing"})
	w := func(text string) string {
		p := filepath.Join(t.TempDir(), "w.toml")
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	for _, tc := range []struct {
		name    string
		dirs    []string
		weights string
		code    string
	}{
		{"none", nil, "", "no_report"},
		{"missing", []string{a, filepath.Join(dir, "nowhere")}, "", "no_report"},
		{"a file", []string{a, w("x")}, "", "no_report"},
		{"twice", []string{a, a}, "", "same_exercise"},
		{"unknown exercise", []string{a, unknown}, "", "unknown_exercise"},
		{"a shard", []string{a, shard}, "", "shard"},
		{"tool errors", []string{a, tool}, "", "tool_errors"},
		{"twins", []string{a, tw}, "", "ambiguous"},
		{"another class", []string{a, other}, "", "mixed_classes"},
		{"weights missing", []string{a, b}, w("exercise-retry = 1"), "weights_missing"},
		{"weights unknown", []string{a, b}, w("exercise-retry = 1\nexercise-deadline = 1\nexercise-x = 1"), "weights_unknown"},
		{"weights negative", []string{a, b}, w("exercise-retry = -1\nexercise-deadline = 1"), "weights_value"},
		{"weights text", []string{a, b}, w("exercise-retry = \"1\"\nexercise-deadline = 1"), "weights_value"},
		{"weights zero", []string{a, b}, w("exercise-retry = 0\nexercise-deadline = 0"), "weights_zero"},
		{"weights syntax", []string{a, b}, w("exercise-retry = = 1"), "weights_syntax"},
		{"weights file", []string{a, b}, filepath.Join(dir, "none.toml"), "weights_file"},
		{"good", []string{a, b}, w("exercise-retry = 0\nexercise-deadline = 1"), ""},
	} {
		_, err := Build(workbook.Content(), tc.dirs, tc.weights)
		var e *Error
		got := ""
		if errors.As(err, &e) {
			got = e.Code
		} else if err != nil {
			got = err.Error()
		}
		if got != tc.code {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.code)
		}
	}
}

// TestWriteSwaps: a gradebook replaces the earlier one whole; a folder of other files, or one that
// holds a report, is refused before anything is written.
func TestWriteSwaps(t *testing.T) {
	dir := t.TempDir()
	a := writeReport(t, filepath.Join(dir, "a"), moodleReport("exercise-deadline", 1, map[string]float64{"Иванов Иван": 80}))
	out := filepath.Join(dir, "book")
	for range 2 {
		if err := CheckOut(out, []string{a}); err != nil {
			t.Fatal(err)
		}
		b, err := Build(workbook.Content(), []string{a}, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(out, b, "en"); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries beside the gradebook, want the report and the book alone: %v", len(entries), entries)
	}
	for _, f := range []string{BookFile, GradesFile, HTMLFile, MoodleFile, filepath.Join(SummariesDir, "Иванов Иван.md")} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	os.WriteFile(filepath.Join(dir, "a", "notes.txt"), nil, 0o644)
	for _, tc := range []struct{ out, code string }{
		{filepath.Join(dir, "a"), "out_report"},
		{dir, "out_report"},
		{filepath.Join(dir, "a", "book"), "out_report"},
		{filepath.Join(dir, "a", "notes.txt"), "out_report"},
		{"", "no_out"},
	} {
		var e *Error
		if err := CheckOut(tc.out, []string{filepath.Join(dir, "a")}); !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("CheckOut(%s) = %v, want %s", tc.out, err, tc.code)
		}
	}
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "x"), nil, 0o644)
	var e *Error
	if err := CheckOut(other, []string{a}); !errors.As(err, &e) || e.Code != "out_other" {
		t.Errorf("CheckOut(other) = %v, want out_other", err)
	}
}

// worksheetReport is a Moodle class's report of exercise whose grading worksheet shows the
// identity column title (none when "") with the cells ids, and max as the assignment's maximum
// grade; every student of scores handed in.
func worksheetReport(exercise string, base int, max, title string, ids map[string]string, scores map[string]float64) *grade.Report {
	hdr := []string{"Identifier", "Full name"}
	if title != "" {
		hdr = append(hdr, title)
	}
	hdr = append(hdr, "Status", "Grade", "Maximum grade", "Grade can be changed", "Last modified (submission)", "Last modified (grade)", "Feedback comments")
	rows := [][]string{hdr}
	rep := &grade.Report{Exercise: exercise, Titles: map[string]string{"ru": exercise}}
	for i, name := range []string{"Иванов Иван", "Петрова Мария", "Колев Петър"} {
		id := fmt.Sprintf("%d0000%d", base, i+1)
		row := []string{"Participant " + id, name}
		if title != "" {
			row = append(row, ids[name])
		}
		rows = append(rows, append(row, "Submitted for grading", "", max, "Yes", "-", "-", ""))
		rep.Students = append(rep.Students, grade.Student{Name: name, Display: name, Layout: grade.LayoutMoodle, ID: id, Status: grade.StatusFail, Score: scores[name], Lang: "ru"})
	}
	rep.Roster = &grade.RosterFile{Layout: grade.LayoutMoodle, Comma: ",", Rows: rows}
	return rep
}

// TestMoodleImport: moodle.csv is what Moodle's grade import takes (gradeimport_csv): each grade
// in points out of its assignment's maximum (the import refuses the whole file over one grade above
// it), the students found by the identity the worksheets show (an ID number or a username when
// they show no email), and a student without it left out and named, since a row Moodle cannot
// find a user for stops the import.
func TestMoodleImport(t *testing.T) {
	scores := map[string]float64{"Иванов Иван": 80, "Петрова Мария": 45, "Колев Петър": 100}
	tests := []struct {
		name      string
		title     string
		ids       map[string]string
		maxA      string // exercise-deadline's maximum grade
		identity  string
		lines     []string // lines moodle.csv holds
		unmatched []string
		say       []string // what the instructor is told (en)
	}{
		{"emails, a maximum of 10", "Email address", map[string]string{"Иванов Иван": "Ivan@Example.com", "Петрова Мария": "maria@example.com", "Колев Петър": "petar@example.com"}, "10.00",
			grade.IdentityEmail, []string{"Email address,Full name,exercise-retry (0–100),exercise-deadline (0–10)", "ivan@example.com,Иванов Иван,80,8", "maria@example.com,Петрова Мария,45,4.5", "petar@example.com,Колев Петър,100,10"},
			nil, []string{"find users by “Email address”"}},
		{"ID numbers, one missing", "ID number", map[string]string{"Иванов Иван": "S-001", "Колев Петър": "S-003"}, "20",
			grade.IdentityIDNumber, []string{"ID number,Full name,exercise-retry (0–100),exercise-deadline (0–20)", "S-001,Иванов Иван,80,16", "S-003,Колев Петър,100,20"},
			[]string{"Петрова Мария"}, []string{"find users by “ID number”", "1 student is not in moodle.csv, since the grading worksheets give no “ID number” for them and Moodle's import could not find them: Петрова Мария."}},
		{"usernames in a Russian worksheet", "Логин", map[string]string{"Иванов Иван": "ivanov", "Петрова Мария": "Petrova", "Колев Петър": "kolev"}, "100,00",
			grade.IdentityUsername, []string{"Username,Full name,exercise-retry (0–100),exercise-deadline (0–100)", "petrova,Петрова Мария,45,45"},
			nil, []string{"find users by “Username”"}},
		{"no identity at all", "", nil, "10",
			"", nil, []string{"Иванов Иван", "Колев Петър", "Петрова Мария"}, []string{"moodle.csv is not written"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			a := writeReport(t, filepath.Join(dir, "a"), worksheetReport("exercise-deadline", 1, tt.maxA, tt.title, tt.ids, scores))
			b := writeReport(t, filepath.Join(dir, "b"), worksheetReport("exercise-retry", 2, "100", tt.title, tt.ids, scores))
			book, err := Build(workbook.Content(), []string{a, b}, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(book.Students) != 3 {
				t.Fatalf("%d rows, want the 3 students joined: %+v", len(book.Students), book.Students)
			}
			if book.MoodleIdentity != tt.identity {
				t.Errorf("moodle.csv finds students by %q, want %q", book.MoodleIdentity, tt.identity)
			}
			if got := book.MoodleUnmatched(); !slices.Equal(got, tt.unmatched) {
				t.Errorf("left out of moodle.csv: %q, want %q", got, tt.unmatched)
			}
			out := filepath.Join(dir, "book")
			if err := Write(out, book, "en"); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(out, MoodleFile))
			if tt.identity == "" {
				if err == nil {
					t.Errorf("moodle.csv written with no identity to find anyone by:\n%s", data)
				}
			} else {
				csv := string(data)
				for _, line := range tt.lines {
					if !strings.Contains(csv, line+"\n") {
						t.Errorf("moodle.csv lacks %q:\n%s", line, csv)
					}
				}
				if n := strings.Count(csv, "\n"); n != 1+3-len(tt.unmatched) {
					t.Errorf("moodle.csv has %d lines, want a header and one per student it can find:\n%s", n, csv)
				}
			}
			said := strings.Join(moodleLines(book, i18n.New("en")), "\n")
			for _, s := range tt.say {
				if !strings.Contains(said, s) {
					t.Errorf("the instructor is not told %q:\n%s", s, said)
				}
			}
		})
	}
}

// TestBookUnchanged: an untouched starter is a cell of its own status in the gradebook, told as such
// in the student's summary, also from a report of grader 9 or older (which wrote it as an error);
// its score is 0 in the LMS's imports, never left out.
func TestBookUnchanged(t *testing.T) {
	dir := t.TempDir()
	rep := moodleReport("exercise-deadline", 1, map[string]float64{"Иванов Иван": 80, "Колев Петър": 0})
	for i := range rep.Students {
		if rep.Students[i].Name == "Колев Петър" {
			rep.Students[i].Status = grade.StatusError // as grader 9 wrote it
			rep.Students[i].Result = &checker.Result{Verdict: grade.Unchanged, Total: 34}
			rep.Students[i].Total = 34
		}
	}
	a := writeReport(t, filepath.Join(dir, "a"), rep)
	book, err := Build(workbook.Content(), []string{a}, "")
	if err != nil {
		t.Fatal(err)
	}
	kolev := book.Students[slices.IndexFunc(book.Students, func(r Row) bool { return r.Name == "Колев Петър" })]
	if c := kolev.Cells[0]; !c.Graded || c.Status != grade.StatusUnchanged || c.Score != 0 {
		t.Errorf("Колев Петър's cell: %+v, want graded, unchanged, 0", c)
	}
	if sum := string(book.Summary(kolev)); !strings.Contains(sum, "непроменена заготовка") {
		t.Errorf("Колев Петър's summary does not name the unchanged starter:\n%s", sum)
	}
	if csv := string(book.MoodleCSV()); !strings.Contains(csv, "petar@example.com,Колев Петър,0\n") {
		t.Errorf("moodle.csv does not give Колев Петър 0:\n%s", csv)
	}
}
