package grade

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// compiled is the files the go command compiles of the program in dir, read as the checker reads
// it (checker.ReadSource: its snapshot) and listed with the checker's environment (go list -deps),
// slash paths relative to dir, sorted; and the snapshot's Go files. ok is false when the go command
// cannot list the program (a package it imports is not there).
func compiled(t *testing.T, dir string) (built, snapshot []string, ok bool) {
	t.Helper()
	src, _, err := checker.ReadSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	work := filepath.Join(scratch, "work")
	for _, d := range []string{"home", "tmp", "work"} {
		os.MkdirAll(filepath.Join(scratch, d), 0o755)
	}
	for _, f := range src {
		snapshot = append(snapshot, f.Name)
		writeFiles(t, work, files{f.Name: string(f.Data)})
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		gomod = []byte("module " + defaultModule + "\n\ngo 1.22\n")
	}
	writeFiles(t, work, files{"go.mod": string(gomod)})
	goBin, err := checker.GoTool()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", `{{if not .Standard}}{{.Dir}}|{{join .GoFiles ","}}{{end}}`, ".")
	cmd.Dir, cmd.Env = work, checker.ToolEnv(goBin, scratch)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, snapshot, false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkgDir, names, _ := strings.Cut(line, "|")
		rel, _ := filepath.Rel(work, pkgDir)
		for _, n := range strings.Split(names, ",") {
			built = append(built, filepath.ToSlash(filepath.Join(rel, n)))
		}
	}
	slices.Sort(built)
	return built, snapshot, true
}

// TestProgramSourceIsWhatBuilds: the files programSource reads (the report's source view, the
// prints, the copies) are exactly those the build compiles, whatever a submission puts beside them:
// files the build skips (constraints, _test.go, _ and . names, cgo without cgo, testdata, vendor,
// a go.work, a folder a link points to) and packages it adds (the module's, internal/, a folder
// with a go.mod of its own, which the snapshot does not copy).
func TestProgramSourceIsWhatBuilds(t *testing.T) {
	const junk = "\nfunc checksum(values []int) int {\n\ttotal := 0\n\tfor _, v := range values {\n\t\ttotal = total*31 + v\n\t}\n\treturn total\n}\n"
	mainGo := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n"
	impl := func(imp string) string {
		return "package main\n\nimport \"" + imp + "\"\n\nfunc main() { impl.Main() }\n"
	}
	const implGo = "package impl\n\nimport \"fmt\"\n\nfunc Main() { fmt.Println(\"hi\") }\n"
	tests := []struct {
		name  string
		files files
		link  [2]string // a symbolic link to make: its name, and where it points
		want  []string
	}{
		{"build constraints", files{"main.go": mainGo,
			"ignored.go":     "//go:build ignore\n\npackage main\n" + junk,
			"old.go":         "// +build ignore\n\npackage main\n" + junk,
			"win.go":         "//go:build windows\n\npackage main\n" + junk,
			"x_windows.go":   "package main\n" + junk,
			"x_plan9_arm.go": "package main\n" + junk,
			"cgo_on.go":      "//go:build cgo\n\npackage main\n" + junk,
		}, [2]string{}, []string{"main.go"}},
		{"names the go command skips", files{"main.go": mainGo,
			"main_test.go": "package main\n" + junk,
			"_draft.go":    "package main\n" + junk,
			".hidden.go":   "package main\n" + junk,
		}, [2]string{}, []string{"main.go"}},
		{"cgo without cgo", files{"main.go": mainGo,
			"c.go": "package main\n\n// int twice(int x) { return 2 * x; }\nimport \"C\"\n" + junk,
		}, [2]string{}, []string{"main.go"}},
		{"folders the snapshot skips", files{"main.go": mainGo,
			"testdata/x.go":        "package main\n" + junk,
			"vendor/v/v.go":        "package v\n" + junk,
			".git/x.go":            "package main\n" + junk,
			"node_modules/n/n.go":  "package n\n" + junk,
			"go.work":              "go 1.22\n\nuse ./other\n",
			"other/go.mod":         "module other\n\ngo 1.22\n",
			"other/other.go":       "package other\n" + junk,
			"unused/unused.go":     "package unused\n" + junk,
			"embedded/code.go.txt": "package embedded\n" + junk,
		}, [2]string{}, []string{"main.go"}},
		{"a package of the module", files{"go.mod": "module example.com/hw\n\ngo 1.22\n", "main.go": impl("example.com/hw/impl"),
			"impl/impl.go": implGo, "impl/skip_windows.go": "package impl\n" + junk, "impl/impl_test.go": "package impl\n" + junk,
		}, [2]string{}, []string{"impl/impl.go", "main.go"}},
		{"an internal package", files{"main.go": strings.Replace(impl("learner/internal/impl"), "impl.Main", "impl.Main", 1),
			"internal/impl/impl.go": implGo,
		}, [2]string{}, []string{"internal/impl/impl.go", "main.go"}},
		{"a nested module the snapshot joins to the program's", files{"main.go": impl("learner/impl"),
			"impl/go.mod": "module learner/impl\n\ngo 1.22\n", "impl/impl.go": implGo,
		}, [2]string{}, []string{"impl/impl.go", "main.go"}},
		{"an embedded Go file is data", files{"main.go": "package main\n\nimport (\n\t_ \"embed\"\n\t\"fmt\"\n)\n\n//go:embed data/code.go\nvar code string\n\nfunc main() { fmt.Print(code) }\n",
			"data/code.go": "package data\n" + junk,
		}, [2]string{}, []string{"main.go"}},
		{"a linked folder", files{"main.go": impl("learner/impl"), "outside/impl.go": implGo},
			[2]string{"impl", "outside"}, nil},
		{"a linked file", files{"main.go": impl("learner/impl"), "outside/impl.go": implGo, "impl/keep.go": "package impl\n"},
			[2]string{"impl/impl.go", "../outside/impl.go"}, []string{"impl/keep.go", "main.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			if tt.link[0] != "" {
				if err := os.Symlink(tt.link[1], filepath.Join(dir, tt.link[0])); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for n := range programSource(dir).Files {
				got = append(got, n)
			}
			slices.Sort(got)
			built, snapshot, ok := compiled(t, dir)
			for _, n := range got {
				if !slices.Contains(snapshot, n) {
					t.Errorf("%s is read, and the build never saw it", n)
				}
			}
			if tt.want == nil {
				if ok {
					t.Fatalf("the go command lists %q; the case wants a program it cannot list", built)
				}
				return
			}
			if !ok {
				t.Fatal("the go command cannot list the program")
			}
			if !slices.Equal(built, tt.want) {
				t.Fatalf("the build compiles %q, the case says %q", built, tt.want)
			}
			if !slices.Equal(got, built) {
				t.Errorf("programSource reads %q, the build compiles %q", got, built)
			}
		})
	}
}
