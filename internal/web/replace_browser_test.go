package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/progress"
	"github.com/workbook-course/workbook/internal/workspace"
)

// TestBrowserResetRestore presses the exercise page's Reset and Restore buttons in a workspace, as
// `workbook reset` and `workbook restore` do: each asks first, in the terminal's words; a "no"
// changes nothing; a "yes" to Reset keeps what the editor holds as a version and puts the starter
// back, in the file and in the editor; Restore brings that version back.
func TestBrowserResetRestore(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("-short: the browser test starts Chromium")
	}
	t.Parallel() // a tab of its own in the shared browser, with a server of its own
	c := course.New(workbook.Content())
	ws := &workspace.Workspace{Root: t.TempDir()}
	if _, _, err := ws.Create(c, workspace.Settings{Content: "ru"}, "go 1.26"); err != nil {
		t.Fatal(err)
	}
	b := newBrowserEnvAt(t, &Place{Root: ws.Root, StatePath: ws.StatePath(), Lang: "ru", Dir: ws.ExerciseDir,
		Fresh:     func() *progress.State { return progress.New("ru", time.Now()) },
		Pristine:  func(ex *course.Exercise, lang string) bool { return ws.Pristine(c, ex, lang) },
		Workspace: ws})
	ex, err := c.Exercise("exercise-timeout")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws.ExerciseDir(ex, "ru"), learnerFile)
	read := func() string {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	starter := read()
	starterJS, _ := json.Marshal(starter)
	dir, _ := filepath.Rel(ws.Root, ws.ExerciseDir(ex, "ru"))
	ui := i18n.New("ru")

	b.do(chromedp.Navigate(b.base+"/ru/exercises/"+ex.Name), chromedp.WaitVisible(chromedp.CSS(".exercise-editor .reset-starter")))
	if hidden := b.eval(`String(document.querySelector('.exercise-editor .restore').hidden)`); hidden != "true" {
		t.Errorf("with no version kept, the Restore button is shown (hidden = %s)", hidden)
	}
	mine := starter + "// моя попытка\n"
	b.setCode(".exercise-editor", mine)
	// The learner's answers to the questions the page asks, which it keeps.
	answer := func(yes bool) {
		t.Helper()
		b.eval(`(function(){ window.asked = window.asked || []; window.confirm = function (q) { window.asked.push(q); return ` +
			map[bool]string{true: "true", false: "false"}[yes] + `; }; return ''; })()`)
	}
	asked := func() string { t.Helper(); return b.eval(`window.asked.join('\n')`) }

	answer(false)
	b.do(chromedp.Click(chromedp.CSS(".exercise-editor .reset-starter")))
	if want := ui.T("reset_confirm", "Dir", filepath.ToSlash(dir), "Name", ex.Name); asked() != want {
		t.Errorf("Reset asks %q, want %q", asked(), want)
	}
	if got := read(); got != starter {
		t.Errorf("after a no, the file changed:\n%s", got)
	}

	answer(true)
	b.do(chromedp.Click(chromedp.CSS(".exercise-editor .reset-starter")),
		chromedp.WaitVisible(chromedp.CSS(".exercise-editor .restore"), chromedp.RetryInterval(slowly)))
	if got := read(); got != starter {
		t.Errorf("after Reset, the file holds:\n%s", got)
	}
	if got := b.eval(`document.querySelector('.exercise-editor textarea').value`); got != starter {
		t.Errorf("after Reset, the editor holds:\n%s", got)
	}
	list, err := ws.Versions(ex, "ru")
	if err != nil || len(list) != 1 {
		t.Fatalf("after Reset, versions %v (%v), want one", list, err)
	}
	kept, err := os.ReadFile(filepath.Join(list[0].Dir, learnerFile))
	if err != nil || string(kept) != mine {
		t.Errorf("the version kept holds %q (%v), want what the editor held", kept, err)
	}
	status := b.text(".exercise-editor .save-status")
	if !strings.Contains(status, "сохранена как версия 1") || !strings.Contains(status, "workbook restore "+ex.Name+" 1") {
		t.Errorf("after Reset, the page says %q", status)
	}
	if label := b.text(".exercise-editor .restore"); label != ui.T("web_restore", "N", 1) {
		t.Errorf("the Restore button says %q", label)
	}

	b.do(chromedp.Click(chromedp.CSS(".exercise-editor .restore")),
		void(chromedp.Poll[bool](`document.querySelector('.exercise-editor textarea').value !== `+string(starterJS),
			chromedp.WithPollingInterval(slowly))))
	if want := ui.T("restore_confirm", "Dir", filepath.ToSlash(dir), "Name", ex.Name, "N", 1); !strings.HasSuffix(asked(), want) {
		t.Errorf("Restore asks %q, want %q", asked(), want)
	}
	if got := read(); got != mine {
		t.Errorf("after Restore, the file holds:\n%s", got)
	}
	if got, want := b.text(".exercise-editor .save-status"), ui.T("restore_done", "Dir", filepath.ToSlash(dir), "N", 1, "Name", ex.Name); got != want {
		t.Errorf("after Restore, the page says %q, want %q", got, want)
	}
}
