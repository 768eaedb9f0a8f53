package workspace

import (
	"errors"
	"testing"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name                 string
		lang, messages       string
		env                  map[string]string
		system               string // the OS's language outside the environment
		stored               Settings
		wantContent, wantCFr string
		wantMsg, wantMFr     string
		wantErr              string // the source of a LangError
	}{
		{name: "nothing: no locale names a language, the tool's words in English until one is chosen", wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromDefault},
		{name: "no locale variable, the system's language Russian (Windows)", system: "ru-RU", wantContent: "ru", wantCFr: FromLocale, wantMsg: "ru", wantMFr: FromLocale},
		{name: "no locale variable, the system's language German", system: "de-DE", wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromLocale},
		{name: "no locale variable, the system's language C", system: "C", wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromDefault},
		{name: "LANG decides over the system's language", system: "bg-BG", env: map[string]string{"LANG": "ru_RU.UTF-8"}, wantContent: "ru", wantCFr: FromLocale, wantMsg: "ru", wantMFr: FromLocale},
		{name: "no locale in a workspace whose Bulgarian nobody chose", stored: Settings{Content: "bg", Assumed: true}, wantContent: "bg", wantCFr: FromWorkspace, wantMsg: "en", wantMFr: FromDefault},
		{name: "C locale in a workspace whose Bulgarian nobody chose", env: map[string]string{"LANG": "C.UTF-8"}, stored: Settings{Content: "bg", Assumed: true}, wantContent: "bg", wantCFr: FromWorkspace, wantMsg: "en", wantMFr: FromLocale},
		{name: "no locale in a workspace of Russian", stored: Settings{Content: "ru"}, wantContent: "ru", wantCFr: FromWorkspace, wantMsg: "ru", wantMFr: FromContent},
		{name: "C locale names nothing: the tool's words in English", env: map[string]string{"LANG": "C.UTF-8"}, wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromLocale},
		{name: "POSIX in LC_ALL decides over LANG", env: map[string]string{"LC_ALL": "POSIX", "LANG": "ru_RU.UTF-8"}, wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromLocale},
		{name: "C locale in a workspace of Russian", env: map[string]string{"LANG": "C.UTF-8"}, stored: Settings{Content: "ru"}, wantContent: "ru", wantCFr: FromWorkspace, wantMsg: "ru", wantMFr: FromContent},
		{name: "flag sets both", lang: "ru", wantContent: "ru", wantCFr: FromFlag, wantMsg: "ru", wantMFr: FromFlag},
		{name: "flag en sets messages only", lang: "en", env: map[string]string{"LANG": "ru_RU.UTF-8"}, wantContent: "ru", wantCFr: FromLocale, wantMsg: "en", wantMFr: FromFlag},
		{name: "messages flag alone", lang: "ru", messages: "en", wantContent: "ru", wantCFr: FromFlag, wantMsg: "en", wantMFr: FromMessages},
		{name: "env", env: map[string]string{"WORKBOOK_LANG": "ru"}, wantContent: "ru", wantCFr: FromEnv, wantMsg: "ru", wantMFr: FromEnv},
		{name: "messages env", env: map[string]string{"WORKBOOK_LANG": "ru", "WORKBOOK_MESSAGES": "en"}, wantContent: "ru", wantCFr: FromEnv, wantMsg: "en", wantMFr: FromEnvMsg},
		{name: "workspace beats locale", env: map[string]string{"LANG": "en_US.UTF-8"}, stored: Settings{Content: "ru", Messages: "ru"}, wantContent: "ru", wantCFr: FromWorkspace, wantMsg: "ru", wantMFr: FromWorkspace},
		{name: "workspace without messages follows the locale", env: map[string]string{"LANG": "en_US.UTF-8"}, stored: Settings{Content: "ru"}, wantContent: "ru", wantCFr: FromWorkspace, wantMsg: "en", wantMFr: FromLocale},
		{name: "flag beats workspace", lang: "bg", stored: Settings{Content: "ru", Messages: "ru"}, wantContent: "bg", wantCFr: FromFlag, wantMsg: "bg", wantMFr: FromFlag},
		{name: "russian locale", env: map[string]string{"LC_ALL": "ru_RU.UTF-8", "LANG": "bg_BG"}, wantContent: "ru", wantCFr: FromLocale, wantMsg: "ru", wantMFr: FromLocale},
		{name: "other locale: English messages, default content", env: map[string]string{"LANG": "de_DE.UTF-8"}, wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromLocale},
		{name: "unknown flag", lang: "fr", wantContent: "bg", wantCFr: FromDefault, wantMsg: "en", wantMFr: FromDefault, wantErr: FromFlag},
		{name: "unknown messages env", env: map[string]string{"WORKBOOK_MESSAGES": "klingon", "WORKBOOK_LANG": "ru"}, wantContent: "ru", wantCFr: FromEnv, wantMsg: "ru", wantMFr: FromEnv, wantErr: FromEnvMsg},
	}
	defer func(f func() string) { systemLocale = f }(systemLocale)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			systemLocale = func() string { return tt.system }
			got, err := Decide(Sources{Lang: tt.lang, Messages: tt.messages, Getenv: func(k string) string { return tt.env[k] }, Stored: tt.stored})
			want := Choice{Content: tt.wantContent, ContentFrom: tt.wantCFr, Messages: tt.wantMsg, MessagesFrom: tt.wantMFr}
			if got != want {
				t.Errorf("Decide = %+v, want %+v", got, want)
			}
			var le *LangError
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != "" && (!errors.As(err, &le) || le.Source != tt.wantErr):
				t.Errorf("err = %v, want a LangError from %s", err, tt.wantErr)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"ru_RU.UTF-8": "ru", "bg-BG": "bg", " RU ": "ru", "C": "c", "en@latin": "en"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestContentAnswer(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"1\n", "ru"}, {" Русский \n", "ru"}, {"RU", "ru"}, {"р", "ru"},
		{"2\n", "bg"}, {"Български", "bg"}, {"бг", "bg"},
		{"3", ""}, {"", ""}, {"english", ""},
	} {
		if got := ContentAnswer(tc.line); got != tc.want {
			t.Errorf("ContentAnswer(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestChoiceNewSettings(t *testing.T) {
	for _, tc := range []struct {
		c    Choice
		want Settings
	}{
		{Choice{ContentFrom: FromDefault, Messages: "bg", MessagesFrom: FromContent}, Settings{Content: "bg", Assumed: true}},
		{Choice{ContentFrom: FromFlag, Messages: "ru", MessagesFrom: FromFlag}, Settings{Content: "bg", Messages: "ru"}},
		{Choice{ContentFrom: FromLocale, Messages: "en", MessagesFrom: FromLocale}, Settings{Content: "bg"}},
		{Choice{ContentFrom: FromEnv, Messages: "en", MessagesFrom: FromEnvMsg}, Settings{Content: "bg", Messages: "en"}},
	} {
		if got := tc.c.NewSettings("bg"); got != tc.want {
			t.Errorf("%+v.NewSettings = %+v, want %+v", tc.c, got, tc.want)
		}
	}
}

func TestSourceKey(t *testing.T) {
	for from, want := range map[string]string{FromFlag: "flag", FromMessages: "flag", FromEnv: "env", FromEnvMsg: "env",
		FromWorkspace: "workspace", FromLocale: "locale", FromContent: "content", FromDefault: "default"} {
		if got := SourceKey(from); got != want {
			t.Errorf("SourceKey(%q) = %q, want %q", from, got, want)
		}
	}
	if !(Choice{ContentFrom: FromEnv}).ContentNamed() || (Choice{ContentFrom: FromLocale}).ContentNamed() {
		t.Error("ContentNamed: WORKBOOK_LANG names the content language, a locale does not")
	}
}

func TestFollowsContent(t *testing.T) {
	for _, tt := range []struct {
		from string
		want bool
	}{
		{FromContent, true}, {FromDefault, true}, {FromLocale, false}, {FromFlag, false},
		{FromMessages, false}, {FromEnv, false}, {FromEnvMsg, false}, {FromWorkspace, false},
	} {
		if got := (Choice{MessagesFrom: tt.from}).FollowsContent(); got != tt.want {
			t.Errorf("FollowsContent of messages from %q = %v, want %v", tt.from, got, tt.want)
		}
	}
}
