package grade

import (
	"errors"
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
