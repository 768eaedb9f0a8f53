package workbook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// notBulgarian are letters and quotes that belong to Russian typography and never to Bulgarian: the
// letters ы, э, ё and the «ёлочки» (Bulgarian quotes are „…“).
const notBulgarian = "ыэёЫЭЁ«»"

// TestBulgarianTypography keeps Russian letters and quotes out of everything a Bulgarian learner
// reads: lessons, statements, hints, starters and solutions, messages, case titles and transcripts.
func TestBulgarianTypography(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"lessons/*/bg.md", "exercises/*/bg.md", "exercises/*/hints.bg.md",
		"exercises/*/bg/*.go", "solutions/*/bg/*.go", "internal/i18n/locales/*.bg.toml",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no Bulgarian files found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkBulgarian(t, f, 1, string(data))
	}
	cases, err := filepath.Glob("exercises/*/cases/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cases {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(ar.Comment), "\n") {
			if strings.HasPrefix(line, "# bg:") {
				checkBulgarian(t, f, i+1, line)
			}
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".bg") {
				checkBulgarian(t, f+" ("+file.Name+")", 1, string(file.Data))
			}
		}
	}
}

func checkBulgarian(t *testing.T, name string, first int, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if strings.ContainsAny(line, notBulgarian) {
			t.Errorf("%s:%d: Russian letters or quotes in Bulgarian text: %s", name, first+i, line)
		}
	}
}
