package checker

import (
	"reflect"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		line      int
		notes     []string
	}{
		{"equal", "a\nb\n", "a\nb\n", 0, nil},
		{"crlf is normalised", "a\nb\n", "a\r\nb\r\n", 0, nil},
		{"different line", "a\nb\n", "a\nc\n", 2, []string{}},
		{"trailing space", "тик 0\n", "тик 0 \n", 1, []string{NoteTrailingSpace}},
		{"tab", "a  b\n", "a\tb\n", 1, []string{NoteTab}},
		{"missing final newline", "a\nb\n", "a\nb", 2, []string{NoteMissingNewline}},
		{"extra final newline", "a\n", "a\n\n", 2, []string{NoteExtraNewline}},
		{"output stops early", "a\nb\nc\n", "a\n", 2, []string{NoteMissingLines}},
		{"output goes on", "a\n", "a\nb\nc\n", 2, []string{NoteExtraLines}},
		{"latin o among cyrillic", "опит 1\n", "oпит 1\n", 1, []string{NoteLatinLookalike}},
		{"cyrillic in a latin word", "timeout\n", "timeоut\n", 1, []string{NoteCyrillicInWord}},
		{"non-breaking space", "тик 0\n", "тик\u00a00\n", 1, []string{NoteInvisible}},
		{"latin o and a trailing space, both named", "опит 1\n", "oпит 1 \n", 1, []string{NoteTrailingSpace, NoteLatinLookalike}},
		{"a trailing tab and a cyrillic o", "timeout\n", "timeоut\t\n", 1, []string{NoteTrailingSpace, NoteCyrillicInWord}},
		{"a missing trailing space", "тик 0 \n", "тик 0\n", 1, []string{NoteTrailingSpace}},
		// A note is said only when undoing what it names makes the lines equal.
		{"another line that also ends in a space", "такт 0, попытка 1: timeout\n", "результат: \n", 1, []string{}},
		{"other words and a trailing tab", "тик 0\n", "тик 1\t\n", 1, []string{}},
		{"a tab and another word", "a  b\n", "a\tc\n", 1, []string{}},
		{"a latin o and another digit", "опит 1\n", "oпит 2\n", 1, []string{}},
		{"a non-breaking space and another word", "тик 0\n", "так\u00a00\n", 1, []string{}},
		{"a latin o, a trailing space and a different length", "опит 1\n", "oпит 10 \n", 1, []string{}},
		{"a zero-width space alone", "тик 0\n", "тик\u200b 0\n", 1, []string{NoteInvisible}},
		{"a tab for one space", "a b\n", "a\tb\n", 1, []string{NoteTab}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compare(tt.want, tt.got)
			if tt.line == 0 {
				if d != nil {
					t.Fatalf("Compare = %+v, want equal", d)
				}
				return
			}
			if d == nil {
				t.Fatal("Compare = nil, want a difference")
			}
			if d.Line != tt.line || !reflect.DeepEqual(d.Notes, tt.notes) {
				t.Errorf("Compare = line %d notes %v, want line %d notes %v", d.Line, d.Notes, tt.line, tt.notes)
			}
		})
	}
}

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a b", "a b"},
		{"a  ", "a··"},
		{"a\tb", "a→b"},
		{"a\u00a0b", "a⟨U+A0⟩b"},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseCase(t *testing.T) {
	tests := []struct {
		name    string
		script  string
		titles  map[string]string
		wantErr bool
	}{
		{"titles", "# bg: срок\n# ru: срок ру\n# en: deadline\nrun -deadline 1\nexpect want\n-- want --\nx\n",
			map[string]string{"bg": "срок", "ru": "срок ру", "en": "deadline"}, false},
		{"negated run", "# en: bad\n! run -x\nstatus 2\n", map[string]string{"en": "bad"}, false},
		{"no run", "# en: nothing\nexpect want\n-- want --\n", nil, true},
		{"other comments are not titles", "# a comment: not a title\nrun\n", map[string]string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("x/"+tt.name+".txtar", []byte(tt.script))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(c.Titles, tt.titles) {
				t.Errorf("titles = %v, want %v", c.Titles, tt.titles)
			}
		})
	}
}

func TestMarkOtherLanguage(t *testing.T) {
	ru := "такт 0, попытка 1: timeout\nрезультат: ok\n"
	bg := "тик 0, опит 1: timeout\nрезултат: ok\n"
	tests := []struct {
		name, want, got, other string
		marked                 bool
	}{
		{"the whole output in the other language", ru, bg, bg, true},
		{"its first differing line in the other language", ru, "тик 0, опит 1: timeout\nрезултат: 400\n", bg, true},
		{"wrong in its own language", ru, "такт 0, попытка 1: 503\n", bg, false},
		{"no other language known", ru, bg, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compare(tt.want, tt.got)
			got := MarkOtherLanguage(d, tt.got, tt.other)
			if got != tt.marked {
				t.Fatalf("MarkOtherLanguage = %v, want %v", got, tt.marked)
			}
			if tt.marked && !reflect.DeepEqual(d.Notes, []string{NoteOtherLanguage}) {
				t.Errorf("notes = %v, want only %s", d.Notes, NoteOtherLanguage)
			}
		})
	}
}
