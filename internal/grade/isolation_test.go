package grade

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestIsolationNote: the class's note names the protections the machine that graded lacked, in the
// report's language; where file-system isolation is among them it also says what that means for a
// class (a program may change the instructor's files and its classmates' programs) and where to
// grade instead. Nothing is said where nothing is missing.
func TestIsolationNote(t *testing.T) {
	for _, tc := range []struct {
		lang    string
		missing []string
		want    []string // parts of the note, in order; none for no note
	}{
		{"en", nil, nil},
		{"en", []string{checker.ProtectNetwork}, []string{"isolation from the network"}},
		{"en", []string{checker.ProtectFiles, checker.ProtectNetwork}, []string{"file-system isolation", "change your files", "Landlock"}},
		{"ru", []string{checker.ProtectFiles}, []string{"изоляции файловой системы", "изменить ваши файлы", "Landlock"}},
		{"bg", []string{checker.ProtectFiles}, []string{"файловата система", "да променя твоите файлове", "Landlock"}},
		{"bg", []string{checker.ProtectNetwork}, []string{"мрежата"}},
	} {
		res := &checker.Result{Isolation: &checker.Isolation{Level: "rlimits", Missing: tc.missing}}
		rep := &Report{Students: []Student{{Name: "anna", Result: res}}}
		note := IsolationNote(i18n.New(tc.lang), rep)
		if len(tc.want) == 0 && note != "" {
			t.Errorf("%s %v: note %q, want none", tc.lang, tc.missing, note)
		}
		rest := note
		for _, w := range tc.want {
			_, after, ok := strings.Cut(rest, w)
			if !ok {
				t.Errorf("%s %v: note %q lacks %q (in its order)", tc.lang, tc.missing, note, w)
				break
			}
			rest = after
		}
		if hasFS := strings.Contains(note, "Landlock"); hasFS != (len(tc.missing) > 0 && tc.missing[0] == checker.ProtectFiles) {
			t.Errorf("%s %v: what a missing file-system isolation means is said: %v", tc.lang, tc.missing, hasFS)
		}
	}
}
