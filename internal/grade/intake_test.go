package grade

import (
	"archive/zip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckPrograms: a class in which no submission holds a Go program (GitHub Classroom's
// repositories never pushed to, folders of reports, go.mod alone) is refused before anything is
// written, however it is packed and wherever in the class a program would be; a class with one
// program, or with untouched starters or refused archives (the students' own verdicts), is graded;
// --force and --only grade all the same.
func TestCheckPrograms(t *testing.T) {
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	starter := string(courseFile(t, "exercises/exercise-deadline/ru/main.go"))
	empties := func(n int) files {
		fs := files{}
		for i := range n {
			fs[filepath.Join("deadline-s"+string(rune('a'+i)), ".git", "HEAD")] = "ref: refs/heads/main\n"
		}
		return fs
	}
	withLast := empties(25)
	withLast["deadline-zz/main.go"] = sol
	tests := []struct {
		name  string
		class files
		force bool
		only  string
		want  bool // refused
	}{
		{name: "classroom repositories never pushed to", class: empties(3), want: true},
		{name: "a class of 25 with one program, the last", class: withLast},
		{name: "reports only", class: files{"ivan/report.pdf": "%PDF", "maria/report.docx": "PK", "petr/notes.txt": "x"}, want: true},
		{name: "go.mod alone", class: files{"ivan/go.mod": "module x\n\ngo 1.22\n", "maria/go.mod": "module y\n"}, want: true},
		{name: "a zip of a report", class: files{"ivan/hw.zip": zipOf(t, files{"report.pdf": "%PDF"}), "maria/x.txt": "x"}, want: true},
		{name: "a program in a zip in a zip", class: files{"ivan/hw.zip": zipOf(t, files{"in.zip": zipOf(t, files{"main.go": sol})}), "maria/x.txt": "x"}},
		{name: "untouched starters", class: files{"ivan/main.go": starter, "maria/main.go": starter}},
		{name: "refused archives", class: files{"ivan/hw.zip": "not a zip", "maria/hw.zip": "nor this"}},
		{name: "--force", class: empties(3), force: true},
		{name: "--only", class: empties(3), only: "sa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.class)
			job := deadlineJob(t)
			job.Force, job.Only = tt.force, tt.only
			subs, _, err := listClass(job, dir, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			err = checkPrograms(job, subs)
			var ce *ClassError
			switch {
			case tt.want && (!errors.As(err, &ce) || ce.Code != ClassNoGo):
				t.Fatalf("got %v, want the class refused (%s)", err, ClassNoGo)
			case !tt.want && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want:
				if m := RunMessage(err, "out", dir, "", Shard{}); m.ID != "grade_err_class_no_go" {
					t.Errorf("message %s", m.ID)
				}
			}
		})
	}
}

// TestClassZipBombOfOne: an entry of the class's zip that unpacks to far more than a submission may
// hold (a bomb one student uploaded: a .go file, a file beside it, an archive) is that student's
// verdict, cut just past its limit; the class is graded.
func TestClassZipBombOfOne(t *testing.T) {
	sol := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	const m = "_assignsubmission_file_"
	tests := []struct {
		name, entry string
		size        int64
		verdict     string
	}{
		{"a .go file", "Иванов Иван_100001" + m + "/main.go", 3 * maxFileBytes, "too_big"},
		{"a file beside the program", "Иванов Иван_100001" + m + "/data.txt", 3 * maxFileBytes, "no_program"},
		{"an archive", "Иванов Иван_100001" + m + "/hw.zip", maxZipArchive + maxFileBytes, "bad_archive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "class.zip")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			zw := zip.NewWriter(f)
			w, _ := zw.Create("Петрова Мария_100002" + m + "/main.go")
			io.WriteString(w, sol)
			w, _ = zw.Create(tt.entry)
			block := make([]byte, 1<<20)
			for n := int64(0); n < tt.size; n += int64(len(block)) {
				w.Write(block)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			rows, err := prepareClass(t, deadlineJob(t), path)
			if err != nil {
				t.Fatalf("the class is refused for one student's entry: %v", err)
			}
			got := map[string]string{}
			for _, r := range rows {
				got[r.Name] = r.Verdict
			}
			if got["Иванов Иван"] != tt.verdict || got["Петрова Мария"] != "" {
				t.Errorf("verdicts %v, want Иванов Иван %s and Петрова Мария's program graded", got, tt.verdict)
			}
		})
	}
}
