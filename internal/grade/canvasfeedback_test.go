package grade

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// TestCanvasFeedbackZip: each student of a Canvas class whose submission holds a Go file gets one
// entry named as Canvas's "Upload submissions" reads it (feedback_USERID_ATTACHMENTID_FILE: the
// first two numbers are the user and one of the submission's attachments), holding the feedback as
// a Go comment; a text entry, an anonymous export, an archive, an older version Canvas kept and a
// student of another layout get none.
func TestCanvasFeedbackZip(t *testing.T) {
	res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Cases: []checker.CaseResult{
		{Name: "01", Visible: true, Status: checker.Fail, Got: "нет */ конец\n", Want: "да\n"}}}
	res.Summarize()
	st := func(name, id string, files ...CanvasEntry) Student {
		return Student{Name: name, Display: name, Lang: "ru", Result: res, Layout: LayoutCanvas, ID: id, CanvasFiles: files}
	}
	superseded := st("petrova", "1003", CanvasEntry{"main.go", "5005"}, CanvasEntry{"main-1.go", "5006"})
	superseded.Superseded = []string{"main.go"}
	anon := st("anon x1", "x1", CanvasEntry{"main.go", "5007"})
	anon.Anonymous = true
	rep := &Report{Exercise: "exercise-deadline", Students: []Student{
		st("ivanov", "1001", CanvasEntry{"util.go", "5001"}, CanvasEntry{"main.go", "5002"}),
		st("kolev", "1002", CanvasEntry{"deadline.tgz", "5003"}),
		superseded,
		st("text", "1004"),
		anon,
		st("long", "1005", CanvasEntry{strings.Repeat("длинное", 30) + ".go", "5009"}),
		st("colon", "1006", CanvasEntry{"a:b?.go", "5010"}),
		{Name: "m", Display: "m", Lang: "ru", Result: res, Layout: LayoutMoodle, ID: "100001"},
	}}
	rep.Finalize()
	data, n, err := CanvasFeedbackZip(rep)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r)
		r.Close()
		text := string(body)
		if !strings.HasPrefix(text, "/*\n") || !strings.HasSuffix(text, "\n*/\n") || strings.Count(text, "*/") != 1 {
			t.Errorf("%s is not one Go comment:\n%s", f.Name, text)
		}
		if !strings.Contains(text, "exercise-deadline") {
			t.Errorf("%s holds no feedback:\n%s", f.Name, text)
		}
	}
	// A name the student chose is made one every file system writes, the ids Canvas reads kept.
	long := shortComponent("feedback_1005_5009_" + strings.Repeat("длинное", 30) + ".go")
	if len(long) > 255 || !strings.HasPrefix(long, "feedback_1005_5009_длинное") || !strings.HasSuffix(long, ".go") {
		t.Fatalf("the long name: %q (%d bytes)", long, len(long))
	}
	want := []string{"feedback_1001_5002_main.go", "feedback_1003_5006_main-1.go", long, "feedback_1006_5010_a_b_.go"}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) || n != len(want) {
		t.Errorf("entries %q (n %d), want %q", names, n, want)
	}

	// Written beside canvas.csv, and only when a student has an entry.
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(dir, rep, "en"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, CanvasFeedbackFile)); err != nil {
		t.Error(err)
	}
}

// TestCanvasAttachmentIDs: the attachment id of a Canvas file's name reaches the student.
func TestCanvasAttachmentIDs(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ivanovivan_1001_5001_main.go":      "package main\n",
		"ivanovivan_1001_5002_util.go":      "package main\n",
		"kolevpetar_late_1002_5003_main.go": "package main\n",
		"smirnova_1003_text.html":           "<p>package main</p>\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	subs, _, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]CanvasEntry{}
	for _, s := range subs {
		got[s.ID] = s.CanvasFiles
	}
	if want := []CanvasEntry{{"main.go", "5001"}, {"util.go", "5002"}}; !slices.Equal(got["1001"], want) {
		t.Errorf("1001: %v, want %v", got["1001"], want)
	}
	if want := []CanvasEntry{{"main.go", "5003"}}; !slices.Equal(got["1002"], want) {
		t.Errorf("1002 (one file, late): %v, want %v", got["1002"], want)
	}
	if len(got["1003"]) != 0 {
		t.Errorf("1003 (a text entry): %v, want none", got["1003"])
	}
}
