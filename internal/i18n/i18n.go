// Package i18n gives the tool's messages in English, Russian and Bulgarian, with plural forms from
// CLDR (through github.com/nicksnyder/go-i18n).
//
//	p := i18n.New("ru") // the language chosen by internal/workspace (--lang, WORKBOOK_LANG, the locale)
//	fmt.Println(p.N("cases_passed", 3, "Total", 9)) // "Пройдено 3 теста из 9." in Russian
//
// Messages live in locales/<part>.<lang>.toml (core.en.toml, core.ru.toml, core.bg.toml, and a file set
// per command that needs its own, such as verify.ru.toml), one key per message ID; a plural message has the CLDR
// categories its language uses (Russian: one, few, many, other; Bulgarian and English: one, other).
// Templates see the named values passed to T or N, and N's count as .Count.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2"
	"golang.org/x/text/language"
)

//go:embed locales/*.toml
var locales embed.FS

// UILangs are the languages of messages; ContentLangs those of lessons, statements and transcripts.
var (
	UILangs      = []string{"en", "ru", "bg"}
	ContentLangs = []string{"bg", "ru"}
)

// bundles holds, for each language of UILangs, the bundle of its own message files, parsed at its
// first use: a command parses the one language it speaks, not all of them. TestEveryMessageInEveryLanguage
// guarantees that each language has every message, so no bundle needs English to fall back on.
var bundles = func() map[string]func() (*goi18n.Bundle, error) {
	m := map[string]func() (*goi18n.Bundle, error){}
	for _, lang := range UILangs {
		m[lang] = sync.OnceValues(func() (*goi18n.Bundle, error) { return loadLang(lang) })
	}
	return m
}()

// loadLang parses lang's message files (locales/*.<lang>.toml) into a bundle of their own.
func loadLang(lang string) (*goi18n.Bundle, error) {
	b := goi18n.NewBundle(language.Make(lang))
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, err := fs.Glob(locales, "locales/*."+lang+".toml")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(locales, f); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return b, nil
}

// load returns the bundle for lang: its base language's ("ru" for "ru-RU") if that is one of UILangs,
// English's otherwise.
func load(lang string) (*goi18n.Bundle, error) {
	base, _ := language.Make(lang).Base()
	get, ok := bundles[base.String()]
	if !ok {
		get = bundles["en"]
	}
	return get()
}

// Printer formats messages in one language.
type Printer struct {
	lang string
	loc  *goi18n.Localizer
}

// New returns a Printer for lang ("en", "ru" or "bg"; anything else is English).
func New(lang string) *Printer {
	b, err := load(lang)
	if err != nil {
		panic("i18n: the embedded message files are broken: " + err.Error())
	}
	return &Printer{lang: lang, loc: goi18n.NewLocalizer(b, lang)}
}

// Lang returns the printer's language.
func (p *Printer) Lang() string { return p.lang }

// T returns message id with the named values kv ("Name", value, …).
func (p *Printer) T(id string, kv ...any) string { return p.localize(id, nil, kv) }

// N returns the plural message id for count, with the named values kv.
func (p *Printer) N(id string, count int, kv ...any) string { return p.localize(id, count, kv) }

func (p *Printer) localize(id string, count any, kv []any) string {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[fmt.Sprint(kv[i])] = kv[i+1]
	}
	if count != nil {
		data["Count"] = count
	}
	s, err := p.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && s == "" {
		return id
	}
	return s
}

// Has reports whether message id exists in lang itself (without falling back to English).
func Has(lang, id string) bool {
	b, err := load(lang)
	if err != nil {
		return false
	}
	tag := language.Make(lang)
	for _, t := range b.LanguageTags() {
		if t == tag {
			loc := goi18n.NewLocalizer(b, lang)
			for _, count := range []any{nil, 1} {
				_, got, err := loc.LocalizeWithTag(&goi18n.LocalizeConfig{MessageID: id, PluralCount: count})
				if err == nil && got == tag {
					return true
				}
			}
			return false
		}
	}
	return false
}
