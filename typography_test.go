package workbook_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
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

// TestMessageSpaces reads every Russian and Bulgarian message of internal/i18n/locales (each plural
// form too) for the spaces a native typesetter would not leave breakable: a plain space before an
// em dash, and a plain space between a number (digits, or a placeholder that stands for one) and
// its unit. Both take a non-breaking space (U+00A0), so that a line never starts with the dash or
// the unit. A unit is written in Cyrillic letters (МиБ, not MiB).
func TestMessageSpaces(t *testing.T) {
	files, err := filepath.Glob("internal/i18n/locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".ru.toml") && !strings.HasSuffix(f, ".bg.toml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var msgs map[string]any
		if err := toml.Unmarshal(data, &msgs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for id, text := range messageTexts(msgs) {
			n++
			for _, bad := range spaceFaults(text) {
				t.Errorf("%s: %s: %s (a non-breaking space, U+00A0, belongs there): %s", f, id, bad, text)
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d Russian and Bulgarian messages found", n)
	}
	// The check itself, on what it must find and what it must leave alone.
	for _, tt := range []struct {
		text string
		want int
	}{
		{"Отчёт — в {{.Dir}}", 1},
		{"Отчёт\u00a0— в {{.Dir}}", 0},
		{"~{{.Minutes}} мин.", 1},
		{"файл больше 8 МиБ", 1},
		{"за {{.Seconds}} с: клиенты", 1},
		{"limit {{.Limit}} байт", 1},
		{"50 %", 1},
		{"2^63 ns", 2},
		{"файл от 8\u00a0MiB", 1},
		{"папка {{.Dir}} с программами", 0},
		{"{{.Count}} минуты", 0},
		{"8\u00a0МиБ, {{.Seconds}}\u00a0с", 0},
	} {
		if got := spaceFaults(tt.text); len(got) != tt.want {
			t.Errorf("spaceFaults(%q) = %q, want %d", tt.text, got, tt.want)
		}
	}
}

// messageTexts is every text of a locale file by its id: a plural message's forms as "id.form".
func messageTexts(msgs map[string]any) map[string]string {
	out := map[string]string{}
	for id, v := range msgs {
		switch v := v.(type) {
		case string:
			out[id] = v
		case map[string]any:
			for form, text := range v {
				if s, ok := text.(string); ok {
					out[id+"."+form] = s
				}
			}
		}
	}
	return out
}

var (
	// unitAfter is a number, digits or a placeholder, a plain space, and a unit: of time, of size, a
	// percent. "с" (seconds) is also the preposition "with": after a placeholder it counts only when
	// the placeholder's name says it holds a time (see secondsPlaceholder).
	unitAfter = regexp.MustCompile(`(\d|\{\{[^}]*\}\}) (мс|мкс|нс|с|мин|ч|Б|КБ|МБ|ГБ|КиБ|МиБ|ГиБ|байт|байта|байтов|%|ns|ms|KiB|MiB|GiB|KB|MB|GB)(?:$|[^\p{L}])`)
	// latinUnit is a number with a unit written in Latin letters, which a Russian or Bulgarian
	// text writes in Cyrillic ones (нс, мс, КиБ, МиБ, ГиБ).
	latinUnit = regexp.MustCompile(`(\d|\}\})[ \x{a0}](ns|ms|KiB|MiB|GiB|KB|MB|GB)(?:$|[^\p{L}])`)
	// secondsPlaceholder is a placeholder that holds a time, read by its name.
	secondsPlaceholder = regexp.MustCompile(`^\{\{\s*\.(\w*(Sec|Limit|Idle|Time|Wait|Dur)\w*)`)
)

// spaceFaults lists the plain spaces of text that want to be non-breaking.
func spaceFaults(text string) []string {
	var out []string
	if strings.Contains(text, " —") {
		out = append(out, "a plain space before an em dash")
	}
	for _, m := range unitAfter.FindAllStringSubmatch(text, -1) {
		if m[2] == "с" && strings.HasPrefix(m[1], "{{") && !secondsPlaceholder.MatchString(m[1]) {
			continue
		}
		out = append(out, "a plain space in "+strings.TrimRight(m[0], ".,;:) "))
	}
	for _, m := range latinUnit.FindAllStringSubmatch(text, -1) {
		out = append(out, "a unit in Latin letters: "+m[2])
	}
	sort.Strings(out)
	return out
}
