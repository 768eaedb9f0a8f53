package grade

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/browsertest"
)

// browserClass is a graded class of a hundred: every status, hangs and crashes among them.
func browserClass() *Report {
	cases := []CaseInfo{{Name: "01-lesson", Visible: true, Weight: 1}, {Name: "02-hidden", Weight: 1}, {Name: "03-hidden", Weight: 1}}
	rep := &Report{Exercise: "exercise-deadline", Titles: map[string]string{"ru": "Повторы с крайним сроком"}, Cases: cases}
	statuses := []checker.Verdict{checker.Pass, checker.Fail, checker.Timeout, checker.Crash}
	for i := range 100 {
		res := &checker.Result{Exercise: "exercise-deadline", Lang: "ru", Verdict: checker.Pass, Total: 3}
		for j, c := range cases {
			s := statuses[(i+j*i)%len(statuses)]
			if i%3 == 0 {
				s = checker.Pass
			}
			cr := checker.CaseResult{Name: c.Name, Status: s, Visible: c.Visible, Args: []string{"-deadline", fmt.Sprint(i)}}
			if s == checker.Fail {
				cr.Want, cr.Got = "попытка 1: успех\n", "попытка 1: ошибка\n"
				cr.Diff = &checker.Diff{Line: 1, Want: "попытка 1: успех", Got: "попытка 1: ошибка"}
			}
			if s != checker.Pass && res.Verdict == checker.Pass {
				res.Verdict = s
			}
			if s == checker.Pass {
				res.Passed++
			}
			res.Cases = append(res.Cases, cr)
		}
		st := Student{Name: fmt.Sprintf("Студент %03d", i), Lang: "ru", Result: res,
			Source: []SourceFile{{Name: "main.go", Text: fmt.Sprintf("package main\n\nfunc main() { println(%d) }\n", i)}}}
		rep.Students = append(rep.Students, st)
	}
	rep.Finalize()
	return rep
}

// TestReportInBrowser opens report.html of a class of a hundred in Chromium: the table sorts by a
// click on a column and filters by a word and by a status, and a grid cell of a hang leads to that
// student's failure, opened. Screenshots go to $WORKBOOK_SCREENSHOTS, else the test's folder.
func TestReportInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	out := t.TempDir()
	rep := browserClass()
	if err := Write(out, rep, "ru"); err != nil {
		t.Fatal(err)
	}
	do, eval, shot, shots := reportBrowser(t, exe, "grade-report-", 2*time.Minute)
	visible := `String(Array.from(document.querySelectorAll('#class tbody tr:not(.pad)')).filter(r => !r.hidden).length)`
	firstName := `Array.from(document.querySelectorAll('#class tbody tr:not(.pad)')).filter(r => !r.hidden)[0].cells[0].querySelector('a').textContent`
	do(chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, HTMLFile))), chromedp.WaitVisible(chromedp.CSS("#class")))
	if rows := eval(visible); rows != "100" {
		t.Errorf("the table shows %s rows, want 100", rows)
	}
	shot("class")
	// Sort by score: lowest first, then highest first.
	do(chromedp.Click(chromedp.CSS("#class thead th:nth-child(3)")))
	first := eval(firstName)
	do(chromedp.Click(chromedp.CSS("#class thead th:nth-child(3)")))
	last := eval(firstName)
	shot("sorted")
	lo, hi := byName(rep, first), byName(rep, last)
	if lo.Score > hi.Score || lo.Score != minScore(rep) || hi.Score != 100 {
		t.Errorf("sorted by score: first %s (%v), then %s (%v)", first, lo.Score, last, hi.Score)
	}
	// Filter by a word, then by a status.
	eval(`(function(){var q=document.getElementById('filter');q.value='Студент 00';q.dispatchEvent(new Event('input'));return ''})()`)
	if shown := eval(visible); shown != "10" {
		t.Errorf("the filter «Студент 00» shows %s rows, want 10", shown)
	}
	shot("filtered")
	eval(`(function(){var q=document.getElementById('filter');q.value='';q.dispatchEvent(new Event('input'));
		var s=document.getElementById('statusfilter');s.value='fail';s.dispatchEvent(new Event('change'));return ''})()`)
	if got, want := eval(visible), fmt.Sprint(countStatus(rep, StatusFail)); got != want {
		t.Errorf("the status filter shows %s rows, want %s", got, want)
	}
	// The grid of a class this size is drawn whole: a row a student.
	if got := eval(`(function(){document.querySelector('.gridwrap').scrollIntoView();return String(document.querySelectorAll('#grid tbody tr:not(.pad)').length)})()`); got != "100" {
		t.Errorf("the grid has %s rows, want 100", got)
	}
	shot("grid")
	// A hang's cell in the grid leads to the student's failure, loaded from details/ beside the page
	// and shown in the panel.
	hang := eval(`(function(){var td=document.querySelector('#grid td.t');td.click();return location.hash})()`)
	do(chromedp.WaitVisible(chromedp.CSS("#detail .fail")))
	opened := eval(`(function(){var e=document.getElementById(location.hash.slice(1));return String(!!e&&document.getElementById('detail').contains(e))})()`)
	shot("hang")
	if hang == "" || opened != "true" {
		t.Errorf("the hang's cell (%q) did not open the student's failure in the panel", hang)
	}
	// Each student's source is coloured by the lessons' highlighter: the keyword, the built-in
	// called and the number each in a span of its class, in a colour of its own.
	eval(`(function(){location.hash='st-7';return ''})()`)
	do(chromedp.WaitVisible(chromedp.CSS("#detail #st-7")))
	src := `(function(){var p=document.querySelector('#detail pre.src');
		var q=function(c){var e=p.querySelector('span.'+c);return e?e.textContent+'='+getComputedStyle(e).color:'none'};
		return [q('kn'),q('nb'),q('mi'),getComputedStyle(p).color].join('|')})()`
	got := strings.Split(eval(src), "|")
	shot("source")
	want := []string{"package", "println", "7"}
	for i, w := range want {
		text, colour, _ := strings.Cut(got[i], "=")
		if text != w || colour == got[3] {
			t.Errorf("the source's token %q: got %q (colour %s), want a span of its own colour (the text's is %s)", w, text, colour, got[3])
		}
	}
	// The student opened is marked in the table; each row's feedback link leads to the student's file.
	eval(`(function(){var s=document.getElementById('statusfilter');s.value='';s.dispatchEvent(new Event('change'));return ''})()`)
	if got := eval(`Array.from(document.querySelectorAll('#class tbody tr.open')).map(r => r.cells[0].querySelector('a').getAttribute('href')).join(' ')`); got != "#st-7" {
		t.Errorf("the rows marked open: %q, want #st-7", got)
	}
	links := strings.Fields(eval(`Array.from(document.querySelectorAll('#class tbody tr:not(.pad) a.muted')).map(a => a.href).join(' ')`))
	if len(links) != len(rep.Students) {
		t.Errorf("%d feedback links, want %d", len(links), len(rep.Students))
	}
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.FromSlash(u.Path)); err != nil {
			t.Errorf("a feedback link leads nowhere: %s (%v)", l, err)
			break
		}
	}
	t.Logf("screenshots in %s", shots)
}

func minScore(rep *Report) float64 {
	m := 100.0
	for _, st := range rep.Students {
		m = min(m, st.Score)
	}
	return m
}

func countStatus(rep *Report, status string) int {
	n := 0
	for _, st := range rep.Students {
		if st.Status == status {
			n++
		}
	}
	return n
}

// reportBrowser starts Chromium (exe) for a report test, bounded by limit (a stuck browser only:
// nothing is judged by how long it took), and gives the test three steps: do runs actions, eval
// evaluates JavaScript to a string, shot saves a screenshot as prefix+name+".png" in shots
// ($WORKBOOK_SCREENSHOTS, else the test's folder). Each step ends the test on an error.
func reportBrowser(t *testing.T, exe, prefix string, limit time.Duration) (do func(...chromedp.Action[chromedp.Void]), eval func(string) string, shot func(string), shots string) {
	t.Helper()
	shots = os.Getenv("WORKBOOK_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	do, eval, tabShot := browsertest.Tab(t, exe, limit, shots)
	return do, eval, func(name string) { t.Helper(); tabShot(prefix + name) }, shots
}
