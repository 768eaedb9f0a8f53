package i18n

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
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

// TestOneLanguageABundle checks that a printer parses only its own language's files, and that a
// regional or unknown language finds its base language or English.
func TestOneLanguageABundle(t *testing.T) {
	for _, lang := range UILangs {
		b, err := bundles[lang]()
		if err != nil {
			t.Fatal(err)
		}
		if tags := b.LanguageTags(); len(tags) != 1 || tags[0].String() != lang {
			t.Errorf("the %s bundle holds %v, want only %s", lang, tags, lang)
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
