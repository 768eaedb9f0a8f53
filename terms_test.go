package workbook_test

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// termsFile is the course's one table of terms: lessons/README.md ("Terms") describes it.
const termsFile = "lessons/terms.toml"

// term is one row of the table: an idea, its one spelling per language and the spellings that are
// wrong for it.
type term struct {
	En    string   `toml:"en"`
	Ru    string   `toml:"ru"`
	Bg    string   `toml:"bg"`
	Note  string   `toml:"note"`
	NotRu []string `toml:"not_ru"`
	NotBg []string `toml:"not_bg"`
}

// wrongSpelling is a compiled wrong spelling of one term in one language.
type wrongSpelling struct {
	text string // as the table writes it
	stem string // its first word, lower case, without the *: a text without it cannot match
	term *term
	re   *regexp.Regexp
}

// spellingPattern turns a wrong spelling of the table into a regular expression: its words whole
// (a letter, digit, '_' or '-' on either side is part of the word), case folded, a trailing * for
// any ending, white space of any kind (line breaks too) between the words of a phrase.
func spellingPattern(s string) (*regexp.Regexp, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return nil, fmt.Errorf("empty spelling")
	}
	parts := make([]string, len(words))
	for i, w := range words {
		stem, star := strings.CutSuffix(w, "*")
		if stem == "" || strings.Contains(stem, "*") {
			return nil, fmt.Errorf("%q: a * may only end a word", s)
		}
		parts[i] = regexp.QuoteMeta(stem)
		if star {
			parts[i] += `[\p{L}\p{N}_]*`
		}
	}
	const edge = `[^\p{L}\p{N}_-]`
	return regexp.Compile(`(?i)(?:^|` + edge + `)(` + strings.Join(parts, `\s+`) + `)(?:$|` + edge + `)`)
}

// loadTerms reads the table and compiles its wrong spellings by language ("ru", "bg").
func loadTerms(t *testing.T) ([]term, map[string][]wrongSpelling) {
	t.Helper()
	data, err := os.ReadFile(termsFile)
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Term []term `toml:"term"`
	}
	dec := toml.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&table); err != nil {
		t.Fatalf("%s: %v", termsFile, err)
	}
	wrong := map[string][]wrongSpelling{}
	for i := range table.Term {
		tm := &table.Term[i]
		if tm.En == "" || tm.Ru == "" || tm.Bg == "" {
			t.Errorf("%s: term %d (%q) needs en, ru and bg", termsFile, i+1, tm.En)
		}
		for lang, list := range map[string][]string{"ru": tm.NotRu, "bg": tm.NotBg} {
			right := tm.Ru
			if lang == "bg" {
				right = tm.Bg
			}
			for _, s := range list {
				re, err := spellingPattern(s)
				if err != nil {
					t.Errorf("%s: term %q: %v", termsFile, tm.En, err)
					continue
				}
				if re.MatchString(right) {
					t.Errorf("%s: term %q: the wrong spelling %q matches the right one %q", termsFile, tm.En, s, right)
				}
				stem := strings.ToLower(strings.TrimSuffix(strings.Fields(s)[0], "*"))
				wrong[lang] = append(wrong[lang], wrongSpelling{text: s, stem: stem, term: tm, re: re})
			}
		}
	}
	return table.Term, wrong
}

// TestSpellingPattern pins what a wrong spelling of the table finds and what it leaves alone.
func TestSpellingPattern(t *testing.T) {
	tests := []struct {
		spelling, text string
		want           string // the text found, "" for none
	}{
		{"вика", "услугата вика склада", "вика"},
		{"вика", "услугата извика склада", ""},
		{"вика", "Вика склада", "Вика"},
		{"вика", "викане", ""},
		{"викащ*", "Викащият чака", "Викащият"},
		{"тайм-аут*", "ждём тайм-аута.", "тайм-аута"},
		{"тайм-аут*", "таймаут попытки", ""},
		{"жетон*", "запас ЖЕТОНОВ", "ЖЕТОНОВ"},
		{"жетон*", "«жетоны»", "жетоны"},
		{"ведр*", "в ведре 500", "ведре"},
		{"ведр*", "выведрить", ""},
		{"автоматическ* выключател*", "это автоматический\nвыключатель", "автоматический\nвыключатель"},
		{"автоматическ* выключател*", "автоматический режим", ""},
		{"семе", "семето", ""},
		{"семе", "`-seed` (семе)", "семе"},
		{"прод", "продукт", ""},
		{"прод", "в прод", "прод"},
		{"спусък*", "Спусъкът е", "Спусъкът"},
		{"тайм-аут*", "x-тайм-аут", ""},
	}
	for _, tt := range tests {
		t.Run(tt.spelling+"/"+tt.text, func(t *testing.T) {
			re, err := spellingPattern(tt.spelling)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if m := re.FindStringSubmatch(tt.text); m != nil {
				got = m[1]
			}
			if got != tt.want {
				t.Errorf("found %q, want %q", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "  ", "ж*тон", "*"} {
		if _, err := spellingPattern(bad); err == nil {
			t.Errorf("spellingPattern(%q): no error", bad)
		}
	}
}

// TestTermTexts pins where the texts of a case and of Go source come from, and their lines.
func TestTermTexts(t *testing.T) {
	type got struct {
		lang string
		line int
		text string
	}
	var texts []got
	add := func(_, lang string, line int, text string) { texts = append(texts, got{lang, line, text}) }
	txtarTexts("x.txtar", []byte(`# ru: заголовок
# bg: заглавие
# lang: bg
run
-- want.ru --
строка
-- main.go --
package main

// коментар
var s = "низ"
-- want.bg --
ред
`), add)
	want := []got{
		{"ru", 1, "заголовок"},
		{"bg", 2, "заглавие"},
		{"ru", 6, "строка\n"},
		{"bg", 10, "// коментар"},
		{"bg", 11, `"низ"`},
		{"bg", 13, "ред\n"},
	}
	if fmt.Sprint(texts) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", texts, want)
	}
}

// termText is a piece of course text in one language, with the line its first character stands on.
type termText struct {
	file, lang string
	line       int
	text       string
}

// TestTerms finds, in everything a learner reads, a spelling the table of terms calls wrong: the
// lessons, the exercise statements and hints, the string literals and comments of starters,
// solutions and kept wrong programs, the case titles and expected outputs, and the i18n messages.
func TestTerms(t *testing.T) {
	_, wrong := loadTerms(t)
	texts, err := courseTexts(".")
	if err != nil {
		t.Fatal(err)
	}
	// Every kind of text is read: a change of layout that hid one would make the test pass on nothing.
	for _, kind := range []string{"lessons/", "/hints.", "exercises/*/ru.md", "/cases/", "/testdata/wrong/",
		"solutions/", "internal/i18n/locales/"} {
		found := false
		for _, tx := range texts {
			if m, _ := path.Match(kind, tx.file); m || strings.Contains(tx.file, kind) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no text read from %s", kind)
		}
	}
	for _, tx := range texts {
		lower := strings.ToLower(tx.text)
		for _, w := range wrong[tx.lang] {
			if !strings.Contains(lower, w.stem) {
				continue // the regular expression is far slower than this look
			}
			for _, m := range w.re.FindAllStringSubmatchIndex(tx.text, -1) {
				line := tx.line + strings.Count(tx.text[:m[2]], "\n")
				right := w.term.Ru
				if tx.lang == "bg" {
					right = w.term.Bg
				}
				t.Errorf("%s:%d: %q is a wrong spelling of %q (%s): write %q", tx.file, line,
					tx.text[m[2]:m[3]], w.term.En, termsFile, right)
			}
		}
	}
}

// langOf gives the language a file name ends in: "x.ru.toml", "ru.md", "want.bg", "hints.ru.md".
func langOf(name string) string {
	for _, part := range strings.Split(path.Base(name), ".") {
		if part == "ru" || part == "bg" {
			return part
		}
	}
	return ""
}

// courseTexts collects the texts TestTerms reads, from the repository at root.
func courseTexts(root string) ([]termText, error) {
	fsys := os.DirFS(root)
	var out []termText
	add := func(file, lang string, line int, text string) {
		if lang != "" && text != "" {
			out = append(out, termText{file: file, lang: lang, line: line, text: text})
		}
	}
	whole := []string{"lessons/*/*.md", "exercises/*/*.md", "internal/i18n/locales/*.toml"}
	for _, pattern := range whole {
		files, err := fs.Glob(fsys, pattern)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, err
			}
			add(f, langOf(f), 1, string(data))
		}
	}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		top := strings.SplitN(p, "/", 2)[0]
		if d.IsDir() {
			if p != "." && top != "exercises" && top != "solutions" {
				return fs.SkipDir
			}
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".go"):
			// A program's language is the folder it is in: exercises/NAME/ru/main.go.
			lang := ""
			for _, dir := range strings.Split(path.Dir(p), "/") {
				if dir == "ru" || dir == "bg" {
					lang = dir
				}
			}
			goTexts(p, lang, 1, data, add)
		case strings.HasSuffix(p, ".txtar"):
			txtarTexts(p, data, add)
		}
		return nil
	})
	return out, err
}

// goTexts passes on the string literals and comments of Go source, each with its line.
func goTexts(file, lang string, first int, src []byte, add func(file, lang string, line int, text string)) {
	if lang == "" {
		return
	}
	fset := token.NewFileSet()
	f := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if tok == token.STRING || tok == token.CHAR || tok == token.COMMENT {
			add(file, lang, first-1+fset.Position(pos).Line, lit)
		}
	}
}

// txtarTexts passes on what a case or a kept wrong program shows in a language: the comment lines
// "# ru: …", the files "want.ru", and the Go files of a program whose comment says "# lang: ru".
func txtarTexts(file string, data []byte, add func(file, lang string, line int, text string)) {
	var (
		section   string // file name of the current section, "" in the comment
		start     int    // line of the section's first line
		body      strings.Builder
		fileLang  string // from "# lang: xx"
		lineNo    int
		isHeader  = regexp.MustCompile(`^-- (\S+) --$`)
		isComment = regexp.MustCompile(`^# (ru|bg|lang): ?(.*)$`)
	)
	flush := func() {
		switch {
		case section == "":
		case strings.HasSuffix(section, ".go"):
			goTexts(file, fileLang, start, []byte(body.String()), add)
		default:
			add(file, langOf(section), start, body.String())
		}
		body.Reset()
	}
	for l := range strings.Lines(string(data)) {
		lineNo++
		l = strings.TrimSuffix(l, "\n")
		if m := isHeader.FindStringSubmatch(l); m != nil {
			flush()
			section, start = m[1], lineNo+1
			continue
		}
		if section == "" {
			if m := isComment.FindStringSubmatch(l); m != nil {
				if m[1] == "lang" {
					fileLang = strings.TrimSpace(m[2])
				} else {
					add(file, m[1], lineNo, m[2])
				}
			}
			continue
		}
		body.WriteString(l)
		body.WriteByte('\n')
	}
	flush()
}
