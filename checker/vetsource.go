package checker

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// SourceFile is one Go file of a learner's program as ReadSource read it: its path relative to the
// program's folder (slashes) and its bytes.
type SourceFile struct {
	Name string
	Data []byte
}

// ReadSource reads the Go files of the program in dir the way a build takes them (snapshot: regular
// files only, opened without following links, sizes and count limited, hidden folders, testdata
// and _test.go files left out), for tools that read a learner's source without building it, such
// as internal/vet. skipped names what was left out, as snapshot does; an error means dir holds more
// than a program's folder can or could not be read.
func ReadSource(dir string) (files []SourceFile, skipped []string, err error) {
	tmp, err := os.MkdirTemp("", "workbook-src-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "src")
	if skipped, err = snapshot(dir, dst); err != nil {
		return nil, skipped, err
	}
	err = filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, path)
		files = append(files, SourceFile{Name: filepath.ToSlash(rel), Data: data})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, skipped, err
}

// FlakySource is the source of the course's flaky service (package FlakyImport), which a
// virtual-time program may import: tools that type-check a learner's program read it from here.
func FlakySource() []byte { return flakySource }

// ScenarioSources are the source files of the harness of scenario exercises (package
// ScenarioImport), in name order.
func ScenarioSources() []SourceFile { return slices.Clone(scenarioFiles) }

// ToolEnv is the whole environment the checker gives a go command it runs under scratch (a folder
// of the caller's, which it may fill): the installed toolchain only, offline, no user settings.
func ToolEnv(goBin, scratch string) []string { return buildEnv(goBin, scratch) }

// Advice is one piece of advice on a program's code beside its verdict (internal/vet): the rule,
// the place in the program's folder (file relative to it, slashes) and the words in the reader's
// language.
type Advice struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}
