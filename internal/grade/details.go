package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
	"github.com/workbook-course/workbook/internal/web/static"
)

// DetailsDir is the folder beside report.html that holds each student's details, one script per
// student (details/st-N.js, N the student's row in results.json), which the page loads when they
// are opened.
const DetailsDir = "details"

// DetailFile is the name of the details of the student in row i, relative to the report folder.
func DetailFile(i int) string { return fmt.Sprintf("%s/st-%d.js", DetailsDir, i) }

// Details writes the details of every student into dir/details, in the language uiLang: each a
// script that hands the page its HTML (reportDetail(N, "…")), which works where the page is opened
// from a file as from a server; and, when a student's details hold a scenario case's chart, the
// files that draw it (ChartFiles). The folder is written whole beside the old one and then takes its
// place, so a page never meets the details of another grading.
func Details(dir string, rep *Report, uiLang string) error {
	pr := i18n.New(uiLang)
	t, err := template.New("detail").Funcs(htmlFuncs(pr, rep, uiLang)).Parse(detailPage)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, "."+DetailsDir+".tmp-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	notes := rowNotes(pr, rep)
	var page, js bytes.Buffer
	for i, st := range rep.Students {
		page.Reset()
		js.Reset()
		if err := renderDetail(t, pr, &page, i, st, notes[st.Name]); err != nil {
			// The student's alone: their details say so, the class's report is written.
			page.Reset()
			fmt.Fprintf(&page, "<p class=\"detail-error\">%s</p>\n", template.HTMLEscapeString(pr.T("grade_html_details_error", "Err", err.Error())))
		}
		// html/template escapes markup, not control characters: report.EscapeBytes writes those out
		// as text; the JSON string then holds no quote, line break or </script> of the student's.
		text, err := json.Marshal(string(report.EscapeBytes(page.Bytes())))
		if err != nil {
			return err
		}
		fmt.Fprintf(&js, "reportDetail(%d,%s);\n", i, text)
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(DetailFile(i))), js.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if hasFigure(rep) {
		if err := writeChartFiles(tmp); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return swapDir(tmp, filepath.Join(dir, DetailsDir))
}

// renderDetail renders the details of st, the student in row i, with t into page: an error of the
// template, or a panic on what the student's program printed, is returned as an error.
func renderDetail(t *template.Template, pr *i18n.Printer, page *bytes.Buffer, i int, st Student, notes []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	hints, failures := detailFailures(pr, st.Result)
	data := map[string]any{"I": i, "St": st, "Notes": notes, "Hints": hints, "Failures": failures,
		"Passed": passedScenarios(st.Result)}
	return executeDetail(t, page, data)
}

// executeDetail executes a student's details template: a variable, so that a test can make one
// student's details fail.
var executeDetail = func(t *template.Template, w *bytes.Buffer, data map[string]any) error { return t.Execute(w, data) }

// ChartFiles are the files beside the details that draw a scenario case's chart in report.html:
// the course's own charts.js and Chart.js, with its licence, as `workbook serve` serves them
// (package static). The page loads the scripts, in this order, the first time a student's details
// hold a chart.
var ChartFiles = append(slices.Clone(static.ChartFiles), "chart.LICENSE.txt")

// chartFilesJS is the scripts of ChartFiles as a JavaScript list's items.
func chartFilesJS() string {
	var q []string
	for _, f := range static.ChartFiles {
		q = append(q, "'"+f+"'")
	}
	return strings.Join(q, ",")
}

// hasFigure reports whether a student's details hold a chart: a scenario case with its run, passed
// or not.
func hasFigure(rep *Report) bool {
	for _, st := range rep.Students {
		if st.Result == nil {
			continue
		}
		for _, c := range st.Result.Cases {
			if c.Scenario != nil && len(c.Metrics) > 0 {
				return true
			}
		}
	}
	return false
}

// passedScenarios are a student's passed scenario cases, in the order of the cases: their details
// show each one's figures against the limits and its chart, as a failed one's.
func passedScenarios(res *checker.Result) (out []detailFailure) {
	if res == nil {
		return nil
	}
	for j, c := range res.Cases {
		if c.Status == checker.Pass && len(c.Metrics) > 0 {
			out = append(out, detailFailure{J: j, C: c})
		}
	}
	return out
}

// writeChartFiles writes ChartFiles into dir.
func writeChartFiles(dir string) error {
	for _, f := range ChartFiles {
		data, err := static.FS.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// swapDir puts the folder tmp in the place of dst: the old one is moved aside, then removed.
func swapDir(tmp, dst string) error {
	old := tmp + ".old"
	if err := os.Rename(dst, old); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return os.RemoveAll(old)
}

// detailFailure is a failure in a student's details: a failed case, and when others failed the same
// way (report.Groups), those others, named under it.
type detailFailure struct {
	J    int // the case's index, which its anchor (st-I-c-J) names
	C    checker.CaseResult
	Same []sameCase
}

// sameCase is a case named under the example of its kind, with its own anchor.
type sameCase struct {
	J                 int
	Name, Title, Args string
}

// detailFailures are the hints of a student's result (report.Hints, in the instructor's words)
// and its failures in the order of the cases: a group of failures of one kind once, at its example,
// a case that was not run on its own.
func detailFailures(pr *i18n.Printer, res *checker.Result) (hints []string, out []detailFailure) {
	if res == nil {
		return nil, nil
	}
	groups := report.Groups(res)
	for _, g := range report.Hints(groups) {
		hints = append(hints, report.HintText(pr, res, g)+".")
	}
	example := map[int]report.Group{}
	grouped := map[int]bool{}
	for _, g := range groups {
		example[g.Example] = g
		for _, j := range g.Cases {
			grouped[j] = true
		}
	}
	for j, c := range res.Cases {
		g, isExample := example[j]
		switch {
		case c.Status == checker.Pass, grouped[j] && !isExample:
			continue
		}
		f := detailFailure{J: j, C: c}
		for _, k := range g.Cases {
			if k != j {
				f.Same = append(f.Same, sameCase{J: k, Name: res.Cases[k].Name, Title: res.Cases[k].Title, Args: strings.Join(res.Cases[k].Args, " ")})
			}
		}
		out = append(out, f)
	}
	return hints, out
}
