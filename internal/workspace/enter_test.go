package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestEnter: which content language entering a workspace gives, and what it says it did.
func TestEnter(t *testing.T) {
	c := testCourse()
	for _, tc := range []struct {
		name    string
		s       Settings
		wd      string // below the root, "" for the root
		asked   string
		named   bool
		want    Entry
		removed string // a language folder removed before entering
	}{
		{name: "its own language", s: Settings{Content: "bg"}, asked: "bg", want: Entry{Lang: "bg", Own: "bg"}},
		{name: "the default asked", s: Settings{Content: "ru"}, asked: "bg", want: Entry{Lang: "ru", Own: "ru"}},
		{name: "another named, kept", s: Settings{Content: "ru"}, asked: "bg", named: true, want: Entry{Lang: "ru", Own: "ru", Kept: true}},
		{name: "another named, assumed", s: Settings{Content: "bg", Assumed: true}, asked: "ru", named: true, want: Entry{Lang: "ru", Own: "bg", Switched: true}},
		{name: "standing in the other folder", s: Settings{Content: "bg"}, wd: "ru/ex-a", asked: "bg", want: Entry{Lang: "ru", Own: "bg", At: true}},
		{name: "standing there, another named", s: Settings{Content: "bg"}, wd: "ru", asked: "bg", named: true, want: Entry{Lang: "bg", Own: "bg"}},
		{name: "its folder gone", s: Settings{Content: "bg"}, asked: "bg", removed: "bg", want: Entry{Lang: "bg", Own: "bg", DirMissing: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Workspace{Root: filepath.Join(t.TempDir(), "ws")}
			if _, _, err := w.Create(c, tc.s, "1.26"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.AddLang(c, "ru", "1.26"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.AddLang(c, "bg", "1.26"); err != nil {
				t.Fatal(err)
			}
			if tc.removed != "" {
				os.RemoveAll(w.LangDir(tc.removed))
			}
			wd := filepath.Join(w.Root, filepath.FromSlash(tc.wd))
			got := w.Enter(c, wd, tc.asked, tc.named, "1.26")
			if got.MigrateErr != nil || got.AddErr != nil || got.SwitchErr != nil || len(got.Migrated) > 0 {
				t.Fatalf("Enter = %+v, want nothing carried over and no error", got)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Enter = %+v, want %+v", got, tc.want)
			}
		})
	}
}
