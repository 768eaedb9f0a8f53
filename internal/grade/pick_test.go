package grade

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
)

const (
	mainGo  = "package main\n\nfunc main() {}\n"
	otherGo = "package pkg\n"
)

// cloneOf is a clone of the course as a student zips it: the learner's programs in my/ (in the
// languages given), the course's starters and solutions, other exercises, lessons, a .git and a
// node_modules of many files each, and filler files past lim (Go packages and a large file).
func cloneOf(lim ReadLimits, langs ...string) files {
	fs := files{
		"exercises/exercise-deadline/ru/main.go":  mainGo,
		"exercises/exercise-deadline/bg/main.go":  mainGo,
		"solutions/exercise-deadline/ru/main.go":  mainGo,
		"exercises/exercise-retry/ru/main.go":     mainGo,
		"solutions/exercise-retry/ru/main.go":     mainGo,
		"cmd/workbook/main.go":                    mainGo,
		"README.md":                               "# workbook\n",
		"exercises/exercise-deadline/ru.md":       "# задача\n",
		"exercises/exercise-deadline/cases/a.txt": "case\n",
	}
	for _, l := range langs {
		fs["my/"+l+"/exercise-deadline/main.go"] = mainGo
		fs["my/"+l+"/exercise-retry/main.go"] = mainGo
	}
	for i := range lim.Files + 20 {
		fs[fmt.Sprintf("internal/pkg%d/f.go", i)] = otherGo
		fs[fmt.Sprintf("lessons/topic%d/ru.md", i)] = "# урок\n"
		fs[fmt.Sprintf(".git/objects/%02x/%038x", i%256, i)] = "blob"
		fs[fmt.Sprintf("node_modules/m%d/index.js", i)] = "module.exports = 1\n"
	}
	fs["lessons/video.bin"] = strings.Repeat("x", int(lim.Bytes)+1)
	return fs
}

// storedZip packs files as a zip without compression (Store), as large as they are.
func storedZip(t testing.TB, fs files) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range fs {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestArchivePackagings: every way a program comes packed, read as the grader reads it (unpack):
// a clone of the course past every limit from the exercise's folder, a project past the limits from
// its only package main, archives inside archives up to maxNesting deep within one budget, and
// bombs inside them refused. Whatever is passed over is never written.
func TestArchivePackagings(t *testing.T) {
	lim := ReadLimits{Files: 40, Bytes: 64 << 10, Depth: 32}
	bomb := zipOf(t, files{"main.txt": strings.Repeat("0", 4<<20)}) // 4 MiB of zeros in a few KiB
	chain := func(depth int) string {
		data := zipOf(t, files{"prog/main.go": mainGo})
		for i := depth - 1; i > 0; i-- {
			data = zipOf(t, files{fmt.Sprintf("level%d.zip", i+1): data})
		}
		return data
	}
	project := files{"project/cmd/app/main.go": mainGo, "project/photos/big.jpg": strings.Repeat("j", int(lim.Bytes))}
	for i := range lim.Files {
		project[fmt.Sprintf("project/internal/p%d/p.go", i)] = otherGo
	}
	twoMains := files{"a/main.go": mainGo, "b/main.go": mainGo, "c/big.bin": strings.Repeat("b", int(lim.Bytes)+1)}
	tests := []struct {
		name     string
		kind     string
		entry    string // the submission's name
		data     string // its contents (an archive), or
		folder   files  // a folder's files
		program  string // the folder of the program found, when it unpacks
		code     string // the ArchiveError's code, when it is refused
		limit    string // and the limit it hit
		max      int    // most files unpacked ("": no bound checked)
		archives int64  // ReadLimits.Archives, when not the default
	}{
		{name: "zipped clone past every limit", kind: KindZip, entry: "clone.zip", data: storedZip(t, cloneOf(lim, "ru")),
			program: "my/ru/exercise-deadline", max: 3},
		{name: "zipped workspace in two languages", kind: KindZip, entry: "ws.zip", data: storedZip(t, cloneOf(lim, "bg", "ru")),
			program: "my/bg/exercise-deadline", max: 3},
		{name: "clone without my/: the course's folder of the exercise", kind: KindZip, entry: "clone.zip", data: storedZip(t, cloneOf(lim)),
			program: "exercises/exercise-deadline/bg", max: 8},
		{name: "tar.gz clone", kind: KindTar, entry: "clone.tar.gz", data: tgzOf(t, cloneOf(lim, "ru")), program: "my/ru/exercise-deadline", max: 3},
		{name: "project past the limits: its only package main", kind: KindZip, entry: "p.zip", data: zipOf(t, project), program: "project/cmd/app", max: 1},
		{name: "two programs past the limits", kind: KindZip, entry: "two.zip", data: zipOf(t, twoMains), code: ZipBomb, limit: BigBytes},
		{name: "zip in zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"inner.zip": zipOf(t, files{"main.go": mainGo}), "notes.txt": "hi"}),
			program: "inner"},
		{name: "tar.gz in zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"code/code.tar.gz": tgzOf(t, files{"src/main.go": mainGo})}),
			program: "code/code/src"},
		{name: "7z in zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"code.7z": string(sevenZip(t, files{"main.go": mainGo}))}),
			program: "code"},
		// A zipped clone zipped again (by the student, or by the LMS) is read as the zipped clone: its own
		// bytes count apart from what it unpacks to (ReadLimits.Archives), and of it the exercise's
		// folder alone is unpacked.
		{name: "zipped clone in a zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))}),
			program: "clone/my/ru/exercise-deadline", max: 4},
		{name: "zipped clone in a stored zip", kind: KindZip, entry: "outer.zip", data: storedZip(t, files{"hw/clone.zip": storedZip(t, cloneOf(lim, "ru"))}),
			program: "hw/clone/my/ru/exercise-deadline", max: 4},
		{name: "tar.gz of the clone in a zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"clone.tar.gz": tgzOf(t, cloneOf(lim, "ru"))}),
			program: "clone/my/ru/exercise-deadline", max: 4},
		{name: "zipped clone in a tar.gz", kind: KindTar, entry: "outer.tar.gz", data: tgzOf(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))}),
			program: "clone/my/ru/exercise-deadline", max: 4},
		{name: "zipped clone in a zip in a zip", kind: KindZip, entry: "a.zip", data: zipOf(t, files{"b.zip": zipOf(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))})}),
			program: "b/clone/my/ru/exercise-deadline", max: 5},
		{name: "a clone folder in a folder in the zip", kind: KindZip, entry: "outer.zip", data: storedZip(t, prefixed("Лаба 3/workbook/", cloneOf(lim, "ru"))),
			program: "Лаба 3/workbook/my/ru/exercise-deadline", max: 3},
		{name: "zipped clone in a zip in a Moodle folder", kind: KindDir, entry: "Иванов Иван_100001_assignsubmission_file_",
			folder: files{"hw.zip": zipOf(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))})}, program: "hw/clone/my/ru/exercise-deadline", max: 5},
		{name: "archives inside past their own budget", kind: KindZip, entry: "outer.zip", archives: 64 << 10,
			data: zipOf(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))}), code: ZipBomb, limit: BigBytes},
		{name: "a clone inside past its budget once the outer archives are counted", kind: KindZip, entry: "a.zip", archives: 3 << 20 / 2,
			data: storedZip(t, files{"b.zip": storedZip(t, files{"clone.zip": storedZip(t, cloneOf(lim, "ru")), "pad.zip": strings.Repeat("p", 1<<20)})}), code: ZipBomb, limit: BigBytes},
		{name: "zipped clone in a folder", kind: KindDir, entry: "Иванов Иван_100001_assignsubmission_file_",
			folder: files{"clone.zip": storedZip(t, cloneOf(lim, "ru"))}, program: "clone/my/ru/exercise-deadline", max: 4},
		{name: "three archives deep", kind: KindZip, entry: "a.zip", data: chain(3), program: "level2/level3/prog"},
		{name: "four archives deep", kind: KindZip, entry: "a.zip", data: chain(4), code: ZipNested},
		{name: "a bomb inside a zip", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"bomb.zip": bomb}), code: ZipBomb, limit: BigBytes},
		{name: "a bomb inside a tar.gz inside a zip", kind: KindZip, entry: "outer.zip",
			data: zipOf(t, files{"x.tar.gz": tgzOf(t, files{"bomb.zip": bomb})}), code: ZipBomb, limit: BigBytes},
		{name: "files of every level counted together", kind: KindZip, entry: "outer.zip", data: zipOf(t, nestedFiles(30)), code: ZipBomb, limit: BigFiles},
		{name: "an unread format inside", kind: KindZip, entry: "outer.zip", data: zipOf(t, files{"prog.rar": "Rar!"}), code: ArchiveFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, tt.entry)
			if tt.folder != nil {
				writeFiles(t, src, tt.folder)
			} else {
				writeFiles(t, dir, files{tt.entry: tt.data})
			}
			read := lim
			read.Archives = tt.archives
			g := &grader{job: &Job{Exercise: "exercise-deadline", Read: read}}
			root := filepath.Join(t.TempDir(), "root")
			os.MkdirAll(root, 0o755)
			_, _, err := g.unpack(Submission{Name: "s", Path: src, Kind: tt.kind}, root)
			var ae *ArchiveError
			if tt.code != "" {
				if !errors.As(err, &ae) || ae.Code != tt.code || ae.Limit != tt.limit {
					t.Fatalf("got %v (%+v), want %s %s", err, ae, tt.code, tt.limit)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, ok := findProgram(root, nil, nil)
			if !ok || got != tt.program {
				t.Errorf("program %q (%t), want %q", got, ok, tt.program)
			}
			if n := countFiles(root); tt.max > 0 && n > tt.max {
				t.Errorf("%d files unpacked, want at most %d: what is passed over is never written", n, tt.max)
			}
		})
	}
}

// prefixed is fs with each name under prefix.
func prefixed(prefix string, fs files) files {
	out := files{}
	for n, d := range fs {
		out[prefix+n] = d
	}
	return out
}

// nestedFiles is a zip's files: n of its own and a zip of n more, with a program in the inner one.
func nestedFiles(n int) files {
	outer, inner := files{}, files{"main.go": mainGo}
	for i := range n {
		outer[fmt.Sprintf("doc%d.txt", i)] = "x"
		inner[fmt.Sprintf("doc%d.txt", i)] = "x"
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range inner {
		w, _ := zw.Create(name)
		io.WriteString(w, data)
	}
	zw.Close()
	outer["inner.zip"] = buf.String()
	return outer
}

func countFiles(root string) int {
	n := 0
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestCloneArchiveLarge: a zipped clone larger than a student's archive may be (maxZipArchive) is
// graded from the exercise's folder all the same; a tar of that size, which must be read through,
// is not.
func TestCloneArchiveLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large archive")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "clone.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	small := files{"my/ru/exercise-deadline/main.go": mainGo, "README.md": "#\n"}
	for name, data := range small {
		w, _ := zw.Create(name)
		io.WriteString(w, data)
	}
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: ".git/objects/pack/pack-1.pack", Method: zip.Store})
	if _, err := io.CopyN(w, zeros{}, maxZipArchive+1<<20); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	root := t.TempDir()
	if _, err := unzipLim(p, root, DefaultReadLimits, "exercise-deadline"); err != nil {
		t.Fatal(err)
	}
	if got, ok := findProgram(root, nil, nil); !ok || got != "my/ru/exercise-deadline" {
		t.Errorf("program %q, want my/ru/exercise-deadline", got)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestFoundNamed: a submission without a program is described in the student's feedback, in each
// language, by what it holds.
func TestFoundNamed(t *testing.T) {
	sub := files{"report.pdf": "%PDF", "notes.txt": "n"}
	for i := range 12 {
		sub[fmt.Sprintf("photos/p%02d.jpg", i)] = "j"
	}
	one := files{"work/report.pdf": "%PDF", "work/lib/a.go": otherGo}
	tests := []struct {
		name, kind string
		data       string
		folder     files
		lang       string
		want       []string
	}{
		{"zip, en", KindZip, zipOf(t, sub), nil, "en", []string{"a folder photos/ with 12 files", "notes.txt and report.pdf", "There is no .go file"}},
		{"zip, ru", KindZip, zipOf(t, sub), nil, "ru", []string{"папка photos/ с 12 файлами", "notes.txt и report.pdf", "Ни одного .go-файла"}},
		{"zip, bg", KindZip, zipOf(t, sub), nil, "bg", []string{"папка photos/ с 12 файла", "notes.txt и report.pdf", "нито един .go файл"}},
		{"folder, en", KindDir, "", sub, "en", []string{"a folder photos/ with 12 files", "report.pdf"}},
		{"one folder entered, no main", KindZip, zipOf(t, one), nil, "en", []string{"(in the folder work/)", "a folder lib/ with 1 file", "none of them is in package main"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "s")
			if tt.folder != nil {
				writeFiles(t, src, tt.folder)
			} else {
				writeFiles(t, dir, files{"s": tt.data})
			}
			g := newGrader(&Job{Exercise: "exercise-deadline", Lang: "bg"})
			g.work = t.TempDir()
			it, err := g.prepare(Submission{Name: "s", Path: src, Kind: tt.kind}, 0, "")
			if err != nil {
				t.Fatal(err)
			}
			if it.st.Found == nil {
				t.Fatalf("nothing found: %+v", it.st.Result)
			}
			var w bytes.Buffer
			foundNote(&w, i18n.New(tt.lang), it.st)
			for _, want := range tt.want {
				if !strings.Contains(w.String(), want) {
					t.Errorf("the feedback %q does not say %q", w.String(), want)
				}
			}
		})
	}
}

// TestPickFolders: what of an archive is unpacked, from its names alone.
func TestPickFolders(t *testing.T) {
	lim := ReadLimits{Files: 3, Bytes: 100, Depth: 32}
	e := func(rels ...string) []listed {
		var out []listed
		for _, r := range rels {
			out = append(out, listed{rel: r, file: !strings.HasSuffix(r, "/"), size: 1})
		}
		return out
	}
	mains := func(dirs ...string) func(string) bool {
		return func(d string) bool { return slices.Contains(dirs, d) }
	}
	tests := []struct {
		name    string
		entries []listed
		isMain  func(string) bool
		want    []string
	}{
		{"a program and its notes: all", e("main.go", "notes.txt"), mains("."), nil},
		{"the exercise's folder alone: all", e("exercise-deadline/main.go", "exercise-deadline/a.txt"), mains(), nil},
		{"the exercise's folder and other Go", e("exercise-deadline/main.go", "other/main.go"), mains(), []string{"exercise-deadline"}},
		{"a learner's before the course's", e("exercises/exercise-deadline/ru/main.go", "my/ru/exercise-deadline/main.go", "x.go"), mains(),
			[]string{"my/ru/exercise-deadline"}},
		{"the course's when no learner's", e("exercises/exercise-deadline/ru/main.go", "solutions/exercise-deadline/ru/main.go", "x.go"), mains(),
			[]string{"exercises/exercise-deadline", "solutions/exercise-deadline"}},
		{"a name that only starts like it", e("exercise-deadline-chain/main.go", "a", "b", "c"), mains(), nil},
		{"past the limits, one main", e("app/main.go", "lib/l.go", "a", "b"), mains("app"), []string{"app"}},
		{"past the limits, the main at the top", e("main.go", "lib/l.go", "a", "b"), mains("."), nil},
		{"past the limits, two mains", e("app/main.go", "cli/main.go", "a", "b"), mains("app", "cli"), nil},
		{"vendor and testdata are no program", e("vendor/x/main.go", "testdata/main.go", "app/main.go", "a"), mains("vendor/x", "testdata", "app"),
			[]string{"app"}},
		{"junk is not counted", e(".git/a", ".git/b", "node_modules/c", "__MACOSX/d", "main.go"), mains("."), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pickFolders(tt.entries, "exercise-deadline", lim, tt.isMain)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	many := make([]listed, 0, 2000)
	for i := range 1000 {
		many = append(many, listed{rel: fmt.Sprintf("d%04d/exercise-deadline/main.go", i), file: true}, listed{rel: fmt.Sprintf("o%d/x.go", i), file: true})
	}
	if got := pickFolders(many, "exercise-deadline", lim, mains()); len(got) != maxPicked || got[0] != "d0000/exercise-deadline" {
		t.Errorf("a thousand folders of the exercise: %d picked, first %q; want %d, the first by name", len(got), got[0], maxPicked)
	}
}
