package workspace

import (
	"fmt"
	"strings"
)

// The sources a language can come from, as Choice names them.
const (
	FromFlag      = "--lang"
	FromMessages  = "--messages"
	FromEnv       = "WORKBOOK_LANG"
	FromEnvMsg    = "WORKBOOK_MESSAGES"
	FromWorkspace = "workspace"
	FromLocale    = "locale"
	FromContent   = "content"
	FromDefault   = ""
)

// Sources are what the language settings are decided from.
type Sources struct {
	Lang     string              // --lang: both settings (en sets messages only)
	Messages string              // --messages: the message language alone ("auto" names none)
	Getenv   func(string) string // WORKBOOK_LANG, WORKBOOK_MESSAGES, LC_ALL, LC_MESSAGES, LANG
	Stored   Settings            // the workspace's, if any
}

// Choice is the decided language settings, each with where it came from.
type Choice struct {
	Content, ContentFrom   string // ContentFrom is FromDefault when nothing named a content language
	Messages, MessagesFrom string
}

// ContentNamed reports whether the user named the content language for this run (a flag or
// WORKBOOK_LANG), as opposed to the workspace, the locale or the default.
func (c Choice) ContentNamed() bool { return c.ContentFrom == FromFlag || c.ContentFrom == FromEnv }

// NewSettings are the language settings a new workspace keeps of c, in the content language
// content: assumed when nothing named one; the message language when something named it.
func (c Choice) NewSettings(content string) Settings {
	s := Settings{Content: content, Assumed: c.ContentFrom == FromDefault}
	switch c.MessagesFrom {
	case FromFlag, FromMessages, FromEnv, FromEnvMsg, FromWorkspace:
		s.Messages = c.Messages // FromDefault is not kept: nothing named it
	}
	return s
}

// SourceKey names a language source in message IDs: flag, env, workspace, locale, content or
// default.
func SourceKey(from string) string {
	switch from {
	case FromFlag, FromMessages:
		return "flag"
	case FromEnv, FromEnvMsg:
		return "env"
	case FromWorkspace, FromLocale, FromContent:
		return from
	}
	return "default"
}

// LangError says which setting named a language the tool does not speak.
type LangError struct {
	Source string // "--lang", "--messages" or the environment variable's name
	Value  string
}

func (e *LangError) Error() string { return fmt.Sprintf("%s=%q: unknown language", e.Source, e.Value) }

// Decide decides both language settings.
//
// The content language (bg or ru) comes from --lang, then WORKBOOK_LANG, then the workspace, then a
// Russian or Bulgarian locale; when none names one it is Bulgarian with ContentFrom FromDefault, so
// that the caller can ask the learner (or say how to choose). The message language (en, ru or bg)
// comes from --messages, --lang, WORKBOOK_MESSAGES, WORKBOOK_LANG, the workspace, the locale (a
// locale of another language gives English; C and POSIX name none), and last the content language.
// A flag or variable naming an unknown language is an error; the choice made so far still holds.
func Decide(s Sources) (Choice, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var c Choice
	var firstErr error
	bad := func(src, v string) {
		if firstErr == nil {
			firstErr = &LangError{Source: src, Value: v}
		}
	}
	for _, src := range []struct{ name, value string }{{FromFlag, s.Lang}, {FromEnv, getenv("WORKBOOK_LANG")}} {
		if src.value == "" {
			continue
		}
		l := Normalize(src.value)
		if !IsMessageLang(l) {
			bad(src.name, src.value)
			continue
		}
		if c.Content == "" && IsContentLang(l) {
			c.Content, c.ContentFrom = l, src.name
		}
	}
	if c.Content == "" && IsContentLang(s.Stored.Content) {
		c.Content, c.ContentFrom = s.Stored.Content, FromWorkspace
	}
	locale := localeLang(getenv)
	if c.Content == "" && IsContentLang(locale) {
		c.Content, c.ContentFrom = locale, FromLocale
	}
	if c.Content == "" {
		c.Content, c.ContentFrom = "bg", FromDefault
	}

	for _, src := range []struct{ name, value string }{
		{FromMessages, s.Messages}, {FromFlag, s.Lang},
		{FromEnvMsg, getenv("WORKBOOK_MESSAGES")}, {FromEnv, getenv("WORKBOOK_LANG")},
	} {
		if src.value == "" || src.name == FromMessages && Normalize(src.value) == "auto" {
			continue
		}
		if l := Normalize(src.value); IsMessageLang(l) {
			c.Messages, c.MessagesFrom = l, src.name
			break
		}
		bad(src.name, src.value)
	}
	// Nobody named or chose the content language: the default, or a workspace's that was the
	// default when it was made (and still is: naming one replaces it).
	assumed := c.ContentFrom == FromDefault || c.ContentFrom == FromWorkspace && s.Stored.Assumed
	switch {
	case c.Messages != "":
	case IsMessageLang(s.Stored.Messages):
		c.Messages, c.MessagesFrom = s.Stored.Messages, FromWorkspace
	case locale != "":
		c.Messages, c.MessagesFrom = locale, FromLocale
	case assumed && localeIsC(getenv):
		// A server's C.UTF-8 names no language, and nothing else did: the tool's words in English,
		// which every reader of a server's log can be expected to read, not a guess at Bulgarian.
		c.Messages, c.MessagesFrom = "en", FromLocale
	case assumed:
		// No locale at all (a container's empty environment, a service's) and nothing else names a
		// language: English too, but only until a content language is chosen (FollowsContent).
		c.Messages, c.MessagesFrom = "en", FromDefault
	default:
		c.Messages, c.MessagesFrom = c.Content, FromContent
	}
	return c, firstErr
}

// localeLang is the language the locale names: ru, bg or en ("en" too for any other language), or
// "" for no locale, C or POSIX. The first of LC_ALL, LC_MESSAGES and LANG that is set decides; when
// none is (Windows, a container's empty environment), the system's own language setting where the
// OS keeps one outside the environment (systemLocale: Windows' display language).
func localeLang(getenv func(string) string) string {
	v := localeVar(getenv)
	if v == "" {
		v = systemLocale()
	}
	switch l := Normalize(v); l {
	case "ru", "bg", "en":
		return l
	case "", "c", "posix":
		return ""
	default:
		return "en"
	}
}

// localeIsC reports whether the locale variable that decides (see localeLang) is C or POSIX
// (C.UTF-8 too): a locale set on purpose to name no language.
func localeIsC(getenv func(string) string) bool {
	switch Normalize(localeVar(getenv)) {
	case "c", "posix":
		return true
	}
	return false
}

// FollowsContent reports whether the message language is only the content language's echo or the
// default of an environment that names none: nothing named it, so a content language chosen later
// (the learner's answer, an old workspace's) becomes the message language too.
func (c Choice) FollowsContent() bool {
	return c.MessagesFrom == FromContent || c.MessagesFrom == FromDefault
}

// localeVar is the value of the first of LC_ALL, LC_MESSAGES and LANG that is set.
func localeVar(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// systemLocale is the language the OS is set to outside the environment, "" where it keeps none
// there or it cannot be read. Tests replace it.
var systemLocale = osLocale

// Normalize turns "ru_RU.UTF-8", "bg-BG" or "RU" into "ru".
func Normalize(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexAny(v, "_-.@"); i >= 0 {
		v = v[:i]
	}
	return v
}

// IsContentLang reports whether l is a content language: bg or ru.
func IsContentLang(l string) bool { return l == "bg" || l == "ru" }

// IsMessageLang reports whether l is a message language: en, bg or ru.
func IsMessageLang(l string) bool { return l == "en" || IsContentLang(l) }

// ContentAnswer is the content language a learner's answer to "which language?" names: "ru" for
// 1, ru or Russian written in Russian, "bg" for 2, bg or Bulgarian written in Bulgarian, any case
// and spaces aside; "" for anything else.
func ContentAnswer(line string) string {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "1", "ru", "рус", "русский", "р":
		return "ru"
	case "2", "bg", "бг", "български", "б":
		return "bg"
	}
	return ""
}
