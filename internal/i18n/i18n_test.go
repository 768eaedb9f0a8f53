package i18n

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2"
	"golang.org/x/text/language"
)

// TestEveryMessageInEveryLanguage makes sure no message falls back to English in Russian or
// Bulgarian, and that plural messages have the CLDR categories each language needs.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	need := map[string][]string{"en": {"one", "other"}, "bg": {"one", "other"}, "ru": {"one", "few", "many", "other"}}
	files, err := fs.Glob(locales, "locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	byLang := map[string]map[string]any{}
	for _, f := range files {
		parts := strings.Split(strings.TrimSuffix(f, ".toml"), ".")
		lang := parts[len(parts)-1]
		data, err := fs.ReadFile(locales, f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if byLang[lang] == nil {
			byLang[lang] = map[string]any{}
		}
		for k, v := range m {
			if _, dup := byLang[lang][k]; dup {
				t.Errorf("%s: message %q is defined twice", f, k)
			}
			byLang[lang][k] = v
		}
	}
	for id, v := range byLang["en"] {
		for _, lang := range []string{"ru", "bg"} {
			w, ok := byLang[lang][id]
			if !ok {
				t.Errorf("message %q has no %s text", id, lang)
				continue
			}
			if _, plural := v.(map[string]any); plural {
				forms, ok := w.(map[string]any)
				if !ok {
					t.Errorf("message %q is plural in English but not in %s", id, lang)
					continue
				}
				for _, cat := range need[lang] {
					if _, ok := forms[cat]; !ok {
						t.Errorf("message %q in %s lacks the plural form %q", id, lang, cat)
					}
				}
			}
		}
	}
	for _, lang := range []string{"ru", "bg"} {
		for id := range byLang[lang] {
			if _, ok := byLang["en"][id]; !ok {
				t.Errorf("message %q exists in %s but not in English", id, lang)
			}
		}
	}
}

func TestPlurals(t *testing.T) {
	tests := []struct {
		lang  string
		count int
		want  string
	}{
		{"ru", 1, "Пройден 1 тест из 9."},
		{"ru", 3, "Пройдено 3 теста из 9."},
		{"ru", 5, "Пройдено 5 тестов из 9."},
		{"ru", 21, "Пройден 21 тест из 30."},
		{"bg", 1, "Мина 1 тест от 9."},
		{"bg", 5, "Минаха 5 теста от 9."},
		{"en", 1, "1 case of 9 passed."},
		{"en", 0, "0 cases of 9 passed."},
	}
	for _, tt := range tests {
		total := 9
		if tt.count > 9 {
			total = 30
		}
		if got := New(tt.lang).N("cases_passed", tt.count, "Total", total); got != tt.want {
			t.Errorf("%s %d: got %q, want %q", tt.lang, tt.count, got, tt.want)
		}
	}
}

func TestHas(t *testing.T) {
	tests := []struct {
		lang, id string
		want     bool
	}{
		{"bg", "status_pass", true},
		{"ru", "cases_passed", true},
		{"en", "cases_passed", true},
		{"ru", "no_such_message", false},
		{"fr", "status_pass", false},
	}
	for _, tt := range tests {
		if got := Has(tt.lang, tt.id); got != tt.want {
			t.Errorf("Has(%q, %q) = %v, want %v", tt.lang, tt.id, got, tt.want)
		}
	}
}

// TestCatalogs checks that a printer parses only its own language's files, the parts a message
// needs and no more, and that a regional or unknown language finds its base language or English.
func TestCatalogs(t *testing.T) {
	c := &catalog{lang: "ru"}
	p := &Printer{lang: "ru", cat: c}
	c.init()
	p.loc = goi18n.NewLocalizer(c.bundle, "ru")
	all := len(c.todo)
	files, _ := fs.Glob(locales, "locales/*.ru.toml")
	if all != len(files) || !strings.HasSuffix(c.todo[0], "/core.ru.toml") {
		t.Fatalf("the Russian files, in the order they are parsed: %v", c.todo)
	}
	if got := p.T("status_pass"); got == "status_pass" || len(c.todo) != all-1 {
		t.Errorf("a message of core gave %q and left %d of %d files unparsed, want only core parsed", got, len(c.todo), all)
	}
	if got := p.T("list_other"); got == "list_other" || len(c.todo) != all-3 {
		t.Errorf("a message of learner gave %q and left %d of %d files unparsed, want core, workspace and learner parsed", got, len(c.todo), all)
	}
	if got := p.T("no_such_message"); got != "no_such_message" || len(c.todo) != 0 {
		t.Errorf("a message that does not exist gave %q and left %d files unparsed, want its id and every file parsed", got, len(c.todo))
	}
	if tags := c.bundle.LanguageTags(); len(tags) != 1 || tags[0] != language.Russian {
		t.Errorf("the Russian catalog holds %v, want only ru", tags)
	}
	// Every file of every language loads into go-i18n (a file that does not would panic when a
	// message sends the catalog to it).
	for _, lang := range UILangs {
		c := &catalog{lang: lang}
		c.init()
		if got := (&Printer{lang: lang, cat: c, loc: goi18n.NewLocalizer(c.bundle, lang)}).T("no_such_message"); got != "no_such_message" || len(c.todo) != 0 {
			t.Errorf("%s: a message that does not exist gave %q and left %v unparsed", lang, got, c.todo)
		}
	}

	tests := []struct{ lang, like string }{
		{"ru-RU", "ru"},
		{"bg-BG", "bg"},
		{"en-GB", "en"},
		{"fr", "en"},
		{"", "en"},
		{"not a language", "en"},
	}
	for _, tt := range tests {
		got, want := New(tt.lang).N("cases_passed", 3, "Total", 9), New(tt.like).N("cases_passed", 3, "Total", 9)
		if got != want {
			t.Errorf("New(%q) says %q, want %q as in %s", tt.lang, got, want, tt.like)
		}
	}
}

// TestCatalogConcurrent asks a fresh catalog for messages of every part from many goroutines at
// once, as serve does (run it with -race).
func TestCatalogConcurrent(t *testing.T) {
	want := map[string]string{}
	for _, id := range []string{"status_pass", "list_other", "cases_passed", "err_unknown_lesson", "grade_usage", "serve_usage", "web_chart_seconds"} {
		want[id] = New("bg").T(id)
	}
	c := &catalog{lang: "bg"}
	c.init()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &Printer{lang: "bg", cat: c, loc: goi18n.NewLocalizer(c.bundle, "bg")}
			for id, w := range want {
				if got := p.T(id); got != w {
					t.Errorf("goroutine %d: %s = %q, want %q", i, id, got, w)
				}
			}
		}()
	}
	wg.Wait()
}
