package workbook_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// workbookCommand is a command line of the tool as a statement or a starter shows it.
var workbookCommand = regexp.MustCompile("(?m)(^|`|: )workbook (check|run|hint|lesson|next|watch) ")

// TestStatementsSayTheCloneForm: wherever an exercise's statement, starter or hints show a
// `workbook …` command, they also say how to run it in a clone of the repository, where no
// workbook is installed (`go run ./cmd/workbook …`), so that no command the course suggests fails
// where a learner reads it (issue 36).
func TestStatementsSayTheCloneForm(t *testing.T) {
	var files []string
	for _, pattern := range []string{"exercises/*/ru.md", "exercises/*/bg.md", "exercises/*/hints.*.md",
		"exercises/*/ru/*.go", "exercises/*/bg/*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no statements found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if workbookCommand.Match(data) && !strings.Contains(string(data), "go run ./cmd/workbook") {
			t.Errorf("%s shows a workbook command but not how to run it in a clone (go run ./cmd/workbook …)", f)
		}
	}
}
