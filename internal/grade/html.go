package grade

import (
	"fmt"
	"html/template"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/gencase"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/report"
)

// HTML writes report.html, in the language uiLang: one page (its script in the page, nothing loaded
// from elsewhere) with the class table (one line per student, sorted by a click on a column,
// filtered by a word, a status or the advice on the code), the pass rate of each case and drawn
// case, a student × case grid with sticky headers and names whose cells lead to each failure, the
// wrong transcripts several students share and the suspected copies. The class table and the grid
// are drawn by the page's script from its data block (classData), only the rows in view for a class
// of more than virtualAll; each student's source, failures and advice are not in the page: Details
// writes them beside it, and the page loads a student's when they are opened. So a class of
// thousands makes a page of a megabyte or two that opens as quickly as a small one.
func HTML(w io.Writer, rep *Report, uiLang string) error {
	pr := i18n.New(uiLang)
	g := gridOf(rep)
	class, err := classJSON(classDataOf(pr, rep, uiLang, g))
	if err != nil {
		return err
	}
	script := strings.NewReplacer("CHARTFILES", chartFilesJS(), "VIRTUALALL", strconv.Itoa(virtualAll)).Replace(reportScript)
	data := map[string]any{
		"Pairs":     htmlPairs(rep),
		"Isolation": isolationNote(pr, rep),
		"Lang":      uiLang,
		"Rep":       rep,
		"Title":     titleIn(rep, uiLang),
		"Notes":     rowNotes(pr, rep),
		"Groups":    rep.Copies,
		"Drawn":     drawnRows(rep),
		"Grid":      g,
		"Data":      class,
		"Script":    template.JS(script),
		"Rules":     classRules(rep),
		"Legend":    []checker.Verdict{checker.Pass, checker.Fail, checker.Timeout, checker.Crash, checker.OutputLimit, checker.MemoryLimit, checker.NotRun},
		"CodeCSS":   template.CSS(render.CSS()),
	}
	t, err := template.New("report").Funcs(htmlFuncs(pr, rep, uiLang)).Parse(htmlPage)
	if err != nil {
		return err
	}
	return t.Execute(w, data)
}

// virtualAll is the largest class whose table and grid the page draws whole: the browser's own
// search then finds every name, and the layout of a few hundred rows is quick. A larger class has
// only the rows in view drawn.
const virtualAll = 500

// rowNotes are the notes of each student's row: copy groups, by heart, and studentNotes.
func rowNotes(pr *i18n.Printer, rep *Report) map[string][]string {
	notes := map[string][]string{}
	for i, g := range rep.Copies {
		for _, s := range g.Students {
			notes[s] = append(notes[s], pr.T("grade_html_note_copy", "N", i+1))
		}
	}
	for _, s := range rep.ByHeart {
		notes[s] = append(notes[s], pr.T("grade_html_note_by_heart"))
	}
	for _, st := range rep.Students {
		notes[st.Name] = append(notes[st.Name], studentNotes(pr, st, !rep.Due.IsZero())...)
	}
	return notes
}

// IsolationNote is what the sandbox could not give on the machine that graded, said once for the
// whole class in pr's language ("" when nothing is missing): the page's footer, and grade's summary
// on the terminal, as check says it for one program.
func IsolationNote(pr *i18n.Printer, rep *Report) string { return isolationNote(pr, rep) }

func isolationNote(pr *i18n.Printer, rep *Report) string {
	for _, st := range rep.Students {
		if iso := st.Result.Isolation; iso != nil {
			if len(iso.Missing) == 0 {
				return ""
			}
			names := make([]string, len(iso.Missing))
			for i, p := range iso.Missing {
				names[i] = pr.T("protection_" + p)
			}
			note := pr.T("grade_html_isolation", "List", strings.Join(names, ", "))
			if slices.Contains(iso.Missing, checker.ProtectFiles) {
				// What that means for a class, and where it holds.
				note += " " + pr.T("grade_isolation_files")
			}
			return note
		}
	}
	return ""
}

// gridColumn is a column of the student × case grid: a case of the grading or a drawn one.
type gridColumn struct{ Name, Title string }

// gridRow is a student's row of the grid: one cell per column, in the order of the columns.
type gridRow struct {
	Student string
	Index   int
	Cells   []gridCell
}

// gridCell is a student's result in a case: its status ("" when the case was not run) and its index
// among the student's results (the anchor of the difference).
type gridCell struct {
	Status checker.Verdict
	Case   int
}

// grid is the student × case grid.
type grid struct {
	Columns []gridColumn
	Rows    []gridRow
}

// gridOf makes the grid: the cases of the grading, then the drawn ones (the same for the class).
func gridOf(rep *Report) grid {
	var g grid
	col := map[string]int{}
	for _, c := range rep.Cases {
		col[c.Name] = len(g.Columns)
		g.Columns = append(g.Columns, gridColumn{Name: c.Name})
	}
	for _, d := range drawnRows(rep) {
		col[d.Name] = len(g.Columns)
		g.Columns = append(g.Columns, gridColumn{Name: d.Name, Title: d.Args})
	}
	for i, st := range rep.Students {
		row := gridRow{Student: st.Name, Index: i, Cells: make([]gridCell, len(g.Columns))}
		for j, c := range st.Result.Cases {
			if k, ok := col[c.Name]; ok {
				row.Cells[k] = gridCell{Status: c.Status, Case: j}
			}
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// htmlFuncs are the template's functions, in the language uiLang.
func htmlFuncs(pr *i18n.Printer, rep *Report, uiLang string) template.FuncMap {
	return template.FuncMap{
		"T":       func(id string, kv ...any) string { return pr.T(id, kv...) },
		"N":       func(id string, n int, kv ...any) string { return pr.N(id, n, kv...) },
		"status":  func(s string) string { return pr.T("grade_status_" + s) },
		"verdict": func(v checker.Verdict) string { return verdictText(pr, v) },
		"cell":    func(s checker.Verdict) string { return cellMark[s] },
		"cellText": func(s checker.Verdict) string {
			if s == "" || s == checker.NotRun {
				return pr.T("grade_html_not_run")
			}
			return pr.T("status_" + string(s))
		},
		// caseText is a failed case's headline and, for a known cause, its words (a timeout that
		// spun or slept, a limit of the sandbox), never the bare code.
		"caseText": func(c checker.CaseResult) string {
			if c.Status == checker.NotRun {
				return pr.T("grade_html_not_run")
			}
			text := report.CaseStatus(pr, c)
			if msg, ok := report.MessageText(pr, c.Message); ok {
				text += " " + msg
			}
			return text
		},
		// scenario is a scenario case's figures against their limits and its chart (report.ScenarioLines).
		"scenario": func(c checker.CaseResult) string { return strings.Join(report.ScenarioLines(pr, c), "\n") },
		// figure is the chart of student i's scenario case j, drawn by charts.js (ChartFiles).
		"figure": func(c checker.CaseResult, i, j int) template.HTML {
			var b strings.Builder
			report.ScenarioFigure(&b, pr, c, fmt.Sprintf("st-%d-fig-%d", i, j), false)
			return template.HTML(b.String())
		},
		"href":      func(name string) string { return FeedbackDir + "/" + (&url.URL{Path: name}).EscapedPath() },
		"feedback":  func(student string) string { return rep.Feedback[student] },
		"pct":       pct,
		"width":     width,
		"score":     func(f float64) string { return scoreIn(f, uiLang) },
		"caseTitle": func(c CaseInfo) string { return c.Title(uiLang) },
		"caseByName": func(name string) CaseInfo {
			for _, c := range rep.Cases {
				if c.Name == name {
					return c
				}
			}
			// A drawn case is no case of the exercise's: its title is the drawn cases' own.
			if n, ok := gencase.DrawnNumber(name); ok {
				return CaseInfo{Name: name, Titles: gencase.Titles(n)}
			}
			return CaseInfo{Name: name}
		},
		// caseLabel is a case of a student's result by its name and title (in the student's
		// language, as the result has it).
		"caseLabel": func(name, title string) string {
			if title == "" || title == name {
				return name
			}
			return name + ": " + title
		},
		"visible":      func(s string) string { return checker.Visible(s) },
		"buildLog":     func(r *checker.Result) string { return report.BuildLogText(pr, r) },
		"join":         func(list []string) string { return strings.Join(list, ", ") },
		"inc":          func(i int) int { return i + 1 },
		"status_class": func(s string) string { return "st-" + s },
		"mark":         func(v checker.Verdict) string { return verdictBadge(pr, v) },
		"args":         func(a []string) string { return strings.Join(a, " ") },
		"failed":       func(c checker.CaseResult) bool { return c.Status != checker.Pass },
		"statuses": func() []string {
			return []string{StatusPass, StatusFail, StatusUnchanged, StatusError, StatusTool, StatusMissing}
		},
		"code":  sourceHTML,
		"rules": func(st Student) string { return strings.Join(adviceRules(st), " ") },
		"rule":  func(r string) string { return ruleLabel(pr, r) },
		"labels": func(st Student) string {
			var out []string
			for _, r := range adviceRules(st) {
				out = append(out, ruleLabel(pr, r))
			}
			return strings.Join(out, ", ")
		},
		"adviceText": func(a checker.Advice) string { return adviceText(pr, a) },
		"gridClass":  func(s checker.Verdict) string { return gridClass[s] },
		"names":      func(list []string) string { return namesShown(pr, list) },
	}
}

// sourceHTML is a student's file for the source view: Go coloured by the lessons' highlighter
// (render.CodeHTML, go/scanner's tokens, the text escaped), any other file plain.
func sourceHTML(f SourceFile) template.HTML {
	lang := ""
	if strings.HasSuffix(strings.ToLower(f.Name), ".go") {
		lang = "go"
	}
	return render.CodeHTML(lang, f.Text)
}

// gridClass is the class of a grid cell by its status: short, since a class of thousands has a
// hundred thousand cells.
var gridClass = map[checker.Verdict]string{checker.Pass: "p", checker.Fail: "f", checker.Timeout: "t", checker.Crash: "c",
	checker.OutputLimit: "o", checker.MemoryLimit: "x", checker.NotRun: "n", "": "n"}

// maxNamesShown bounds the names a list of the page shows (a shared wrong transcript, a copy group):
// the rest are counted.
const maxNamesShown = 40

// namesShown is list joined, at most maxNamesShown names and then how many more.
func namesShown(pr *i18n.Printer, list []string) string {
	if len(list) <= maxNamesShown {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:maxNamesShown], ", ") + " " + pr.T("page_more", "N", len(list)-maxNamesShown)
}

// verdictText is a verdict in the instructor's words.
func verdictText(pr *i18n.Printer, v checker.Verdict) string {
	switch v {
	case BadArchive, TooBig, NotGraded, Unchanged, NoSubmission:
		return pr.T("grade_verdict_" + string(v))
	}
	return pr.T("status_" + string(v))
}

// Marks of the case statuses in the grid (symbols every common font has) and the badges of the
// verdicts that are no wrong answer: a hang, a crash, a flood, memory.
var cellMark = map[checker.Verdict]string{checker.Pass: "✓", checker.Fail: "✗", checker.Timeout: "∞", checker.Crash: "↯",
	checker.OutputLimit: "≋", checker.MemoryLimit: "▣", checker.NotRun: "·", "": "·"}

// verdictBadge is the badge of a verdict that is no wrong answer ("" for the others).
func verdictBadge(pr *i18n.Printer, v checker.Verdict) string {
	switch v {
	case checker.Timeout, checker.Crash, checker.OutputLimit, checker.MemoryLimit:
		return cellMark[v] + " " + pr.T("grade_html_mark_"+string(v))
	}
	return ""
}

func pct(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%d%%", (a*100+b/2)/b)
}

func width(a, b int) template.CSS {
	if b == 0 {
		return "width:0"
	}
	return template.CSS(fmt.Sprintf("width:%d%%", (a*100+b/2)/b))
}

// scoreIn writes a score with at most two decimals, a decimal comma in Russian and Bulgarian.
func scoreIn(f float64, lang string) string {
	return i18n.Score(lang, f)
}

// studentNotes are the notes of a student's row: an identity in conflict, how the submission time is
// known (or that it is not), a program taken out of an online text, a limit hit and its flag.
func studentNotes(pr *i18n.Printer, st Student, due bool) []string {
	var out []string
	if st.Conflict != "" {
		out = append(out, pr.T("grade_html_conflict_"+st.Conflict))
	}
	if st.Anonymous {
		out = append(out, pr.T("grade_html_anonymous"))
	}
	if due && st.Result != nil && st.Result.Verdict != NoSubmission {
		if st.TimeFrom == "" {
			out = append(out, pr.T("grade_html_time_unknown"))
		} else {
			out = append(out, pr.T("grade_html_time_"+st.TimeFrom))
		}
	}
	if st.FeedbackError != "" {
		out = append(out, pr.T("grade_html_feedback_error", "Err", st.FeedbackError))
	}
	if st.FromText {
		out = append(out, pr.T("grade_html_from_text"))
	}
	if len(st.Recoded) > 0 {
		out = append(out, pr.T("grade_html_recoded", "Files", strings.Join(st.Recoded, ", ")))
	}
	if len(st.Superseded) > 0 {
		out = append(out, pr.T("grade_html_superseded", "Files", strings.Join(st.Superseded, ", ")))
	}
	if st.Result != nil && (st.Result.Verdict == TooBig || st.Result.Verdict == BadArchive) {
		code := st.Result.Message
		if st.Result.Verdict == BadArchive {
			code = limitCode(st.Result.BuildLog)
		}
		if f := LimitFlag(code); f != "" {
			out = append(out, pr.T("grade_html_limit", "Flag", f))
		}
	}
	return out
}

// limitCode is the limit a refused archive hit, from the flag its BuildLog names.
func limitCode(log string) string {
	for code, flag := range limitFlags {
		if strings.HasSuffix(log, "("+flag+")") {
			return code
		}
	}
	return ""
}

// drawnRow is a drawn case in the pass-rate table: the same for the whole class (DrawSeed).
type drawnRow struct {
	Name, Args  string
	Passed, Ran int
}

// drawnRows counts, for each drawn case, the students who ran it and passed it.
func drawnRows(rep *Report) []drawnRow {
	var rows []drawnRow
	fixed := len(rep.Cases)
	for _, st := range rep.Students {
		if st.Drawn == nil || st.Result == nil {
			continue
		}
		for i, args := range st.Drawn.Args {
			k := fixed + i
			if k >= len(st.Result.Cases) {
				break
			}
			c := st.Result.Cases[k]
			for len(rows) <= i {
				rows = append(rows, drawnRow{Name: c.Name, Args: strings.Join(args, " ")})
			}
			rows[i].Ran++
			if c.Status == checker.Pass {
				rows[i].Passed++
			}
		}
	}
	return rows
}

// titleIn is the exercise's title in lang, else in bg or ru, else its name.
func titleIn(rep *Report, lang string) string {
	for _, l := range []string{lang, "bg", "ru"} {
		if t := rep.Titles[l]; t != "" {
			return t
		}
	}
	return rep.Exercise
}
