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
//
// A printer parses only its own language's files, and those part by part as its messages are asked
// for: core first (what every command says, with the command summaries `workbook help` lists), then
// workspace, learner and exercise, then the rest. Each language has every message
// (TestEveryMessageInEveryLanguage), so none falls back to English.
package i18n

import (
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
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

// firstParts are the message files a catalog parses first, in this order: what every command and
// the learner's commands (help, list, check) say. The other parts follow in the order of their names.
var firstParts = []string{"core", "workspace", "learner", "exercise"}

// catalog is one language's messages. Its files (locales/*.<lang>.toml) are parsed part by part:
// a message not found yet parses the next part, so a command parses what it says and little more,
// and a message that exists nowhere parses them all. TestEveryMessageInEveryLanguage guarantees that
// each language has every message, so no catalog needs English to fall back on.
type catalog struct {
	lang string
	once sync.Once

	mu     sync.RWMutex // guards the bundle's messages and todo
	bundle *goi18n.Bundle
	todo   []string // the files not parsed yet, in the order they will be
}

// catalogs holds a catalog for each language of UILangs.
var catalogs = func() map[string]*catalog {
	m := map[string]*catalog{}
	for _, lang := range UILangs {
		m[lang] = &catalog{lang: lang}
	}
	return m
}()

// catalogFor returns the catalog for lang: its base language's ("ru" for "ru-RU") if that is one of
// UILangs, English's otherwise.
func catalogFor(lang string) *catalog {
	base, _ := language.Make(lang).Base()
	if c, ok := catalogs[base.String()]; ok {
		return c
	}
	return catalogs["en"]
}

// init makes the catalog's bundle and lists its files, once.
func (c *catalog) init() {
	c.once.Do(func() {
		c.bundle = goi18n.NewBundle(language.Make(c.lang))
		c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
		files, _ := fs.Glob(locales, "locales/*."+c.lang+".toml") // the pattern is well formed
		rank := func(f string) int {
			part := strings.TrimSuffix(path.Base(f), "."+c.lang+".toml")
			if i := slices.Index(firstParts, part); i >= 0 {
				return i
			}
			return len(firstParts)
		}
		slices.SortStableFunc(files, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
		c.todo = files
	})
}

// localize finds the message cfg asks for, parsing further parts until it is found or none is
// left. A part that does not parse is a broken build: it panics.
func (c *catalog) localize(loc *goi18n.Localizer, cfg *goi18n.LocalizeConfig) (string, language.Tag, error) {
	c.init()
	for {
		c.mu.RLock()
		s, tag, err := loc.LocalizeWithTag(cfg)
		more := len(c.todo) > 0
		c.mu.RUnlock()
		var missing *goi18n.MessageNotFoundErr
		if !more || !errors.As(err, &missing) {
			return s, tag, err
		}
		c.mu.Lock()
		if len(c.todo) > 0 {
			f := c.todo[0]
			if _, err := c.bundle.LoadMessageFileFS(locales, f); err != nil {
				c.mu.Unlock()
				panic(fmt.Sprintf("i18n: the embedded message file %s is broken: %v", f, err))
			}
			c.todo = c.todo[1:]
		}
		c.mu.Unlock()
	}
}

// Printer formats messages in one language.
type Printer struct {
	lang    string
	cat     *catalog
	loc     *goi18n.Localizer
	rewrite func(string) string // applied to every message (Rewriting), or nil
}

// New returns a Printer for lang ("en", "ru" or "bg"; anything else is English).
func New(lang string) *Printer {
	c := catalogFor(lang)
	c.init()
	return &Printer{lang: lang, cat: c, loc: goi18n.NewLocalizer(c.bundle, lang)}
}

// Rewriting returns a printer of the same language whose every message goes through f: a front
// end's rewrite of what all its messages share, such as the commands they suggest made runnable
// where the user stands. f must be idempotent.
func (p *Printer) Rewriting(f func(string) string) *Printer {
	q := *p
	q.rewrite = f
	return &q
}

// Rewrite puts s, text of the front end's own such as a command it suggests, through the printer's
// rewrite (Rewriting), as every message is; s unchanged when there is none.
func (p *Printer) Rewrite(s string) string {
	if p.rewrite != nil {
		return p.rewrite(s)
	}
	return s
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
	s, _, err := p.cat.localize(p.loc, &goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && s == "" {
		return id
	}
	if p.rewrite != nil {
		s = p.rewrite(s)
	}
	return s
}

// Has reports whether message id exists in lang itself (without falling back to English).
func Has(lang, id string) bool {
	c := catalogFor(lang)
	if c.lang != language.Make(lang).String() {
		return false // a regional or unknown language has no messages of its own
	}
	p := New(lang)
	for _, count := range []any{nil, 1} {
		if _, _, err := c.localize(p.loc, &goi18n.LocalizeConfig{MessageID: id, PluralCount: count}); err == nil {
			return true
		}
	}
	return false
}
