package workspace

import (
	"os"

	"github.com/workbook-course/workbook/internal/course"
)

// Entry is what entering a workspace found and did (Workspace.Enter), for the caller to tell.
type Entry struct {
	Lang string // the content language to work in; "" when the workspace tells none
	Own  string // the workspace's own content language ("" when it tells none)

	Migrated   []string // exercises carried over from the layout before language folders
	MigrateErr error    // carrying the old layout over failed
	AddErr     error    // giving the carried-over workspace the starters it lacked failed

	At        bool  // Lang is that of the language folder wd stands in
	Switched  bool  // the workspace's language, assumed, became the one asked for
	SwitchErr error // making it so failed
	Kept      bool  // the workspace keeps Own, though another language was named

	DirMissing bool // the folder of Lang's programs is missing
}

// Enter makes the workspace's content language the one to work in, since its programs are in it.
// A workspace of the layout before language folders is carried over first, losing nothing (Migrate,
// then AddLang). Standing (wd, "" when unknown) in the folder of the other language's programs
// works in that language, unless the user named one. A language asked for and named (a flag, the
// environment) that is not the workspace's becomes the workspace's when nobody chose its own
// (Switch); otherwise the workspace keeps its own, and Kept says so.
func (w *Workspace) Enter(c *course.Course, wd, asked string, named bool, goLine string) Entry {
	s := w.Settings()
	lang := s.Content
	if lang == "" {
		lang = w.GuessLang(c)
	}
	var en Entry
	if en.Migrated, en.MigrateErr = w.Migrate(c, lang); en.MigrateErr == nil && len(en.Migrated) > 0 {
		if lang == "" {
			lang = w.GuessLang(c)
		}
		if lang != "" {
			// The exercises the old layout lacked get their starters, as a new workspace has.
			_, _, en.AddErr = w.AddLang(c, lang, goLine)
		}
	}
	en.Own = lang
	if lang == "" {
		return en
	}
	if wd != "" && !named {
		if at := w.LangAt(wd); at != "" {
			en.Lang, en.At = at, true
			return en
		}
	}
	if lang != asked && named && s.Assumed {
		// Nobody chose the workspace's language: the one named now becomes it. Nothing is replaced:
		// the programs in the other language stay in their own folder.
		if _, en.SwitchErr = w.Switch(c, asked, goLine); en.SwitchErr == nil {
			en.Lang, en.Switched = asked, true
			return en
		}
	}
	en.Lang, en.Kept = lang, lang != asked && named
	if fi, err := os.Stat(w.LangDir(lang)); err != nil || !fi.IsDir() {
		en.DirMissing = true
	}
	return en
}
