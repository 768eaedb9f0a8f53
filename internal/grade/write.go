package grade

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// The files a report folder holds.
const (
	GradesFile   = "grades.csv"
	ResultsFile  = "results.json"
	HTMLFile     = "report.html"
	FeedbackDir  = "feedback"
	maxTestOuput = 500 // characters of a case's output in a test entry, as Exercism's runners cut it
)

// reportOrder is the order in which Written names a report's entries: what an instructor opens
// first, then what goes back to students and to the LMS.
var reportOrder = []string{GradesFile, ResultsFile, HTMLFile, DetailsDir, FeedbackDir, MoodleFile, MoodleFeedbackFile, CanvasFile, CanvasFeedbackFile}

// Written names the entries of the report in dir as they are there (a folder with a slash after
// it): the files written for the LMS only when the class came in its layout, details/ and feedback/
// only when they were made, so that what the instructor is told is what the folder holds.
func Written(dir string) []string {
	var out []string
	for _, name := range reportOrder {
		fi, err := os.Stat(filepath.Join(dir, name))
		switch {
		case err != nil:
		case fi.IsDir():
			out = append(out, name+"/")
		default:
			out = append(out, name)
		}
	}
	return out
}

// writeReport writes the report's files into dir, a new folder (see Write): grades.csv,
// results.json, report.html and the students' details beside it in details/ (their words in
// uiLang), feedback/<student>.md (in each student's language) and the LMS's files.
func writeReport(dir string, rep *Report, uiLang string) error {
	if err := os.MkdirAll(filepath.Join(dir, FeedbackDir), 0o755); err != nil {
		return err
	}
	// A feedback file that cannot be made is its student's alone: said in that student's row of
	// every file below, never the end of the class's report.
	for i := range rep.Students {
		st := &rep.Students[i]
		st.FeedbackError = ""
		data, err := renderFeedback(rep, *st)
		if err == nil {
			err = writeAtomic(filepath.Join(dir, FeedbackDir, rep.Feedback[st.Name]), data)
		}
		if err != nil {
			st.FeedbackError = err.Error()
		}
	}
	data, err := ResultsJSON(rep)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, ResultsFile), data); err != nil {
		return err
	}
	// The students' details first: the page that loads them is in place only when they are.
	if err := Details(dir, rep, uiLang); err != nil {
		return err
	}
	var html bytes.Buffer
	if err := HTML(&html, rep, uiLang); err != nil {
		return err
	}
	// html/template escapes markup, not control characters: those a name or an output brought in
	// are written out as text (see report.Escape).
	if err := writeAtomic(filepath.Join(dir, HTMLFile), report.EscapeBytes(html.Bytes())); err != nil {
		return err
	}
	// The files an LMS imports as they are (export.go), for the layouts that have one.
	if err := writeExports(dir, rep); err != nil {
		return err
	}
	// grades.csv last: it is what an instructor imports, so its presence means the rest is there.
	return writeAtomic(filepath.Join(dir, GradesFile), GradesCSV(rep, uiLang))
}

// FeedbackErrors is how many students' feedback files Write could not make (Student.FeedbackError).
func (r *Report) FeedbackErrors() int {
	n := 0
	for _, st := range r.Students {
		if st.FeedbackError != "" {
			n++
		}
	}
	return n
}

// renderFeedback is a student's feedback file; a failure to render it (a panic of a renderer on
// what the student's program printed) is an error of that student's.
func renderFeedback(rep *Report, st Student) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("feedback not rendered: %v", r)
		}
	}()
	var buf bytes.Buffer
	Feedback(&buf, rep, st)
	return report.EscapeBytes(buf.Bytes()), nil
}

// GradesCSV renders grades.csv for a spreadsheet in the language lang: UTF-8 with a byte-order mark
// (without one, Excel reads Cyrillic in the locale's code page), a header line, one row per student;
// in Russian and Bulgarian the decimal separator is a comma and the cells are separated by
// semicolons, as a spreadsheet in those locales expects (see csvStyle). Every cell goes through
// report.CSVCell: no control character reaches the file, and no cell starts like a formula.
func GradesCSV(rep *Report, lang string) []byte {
	copyOf := map[string]string{}
	for _, g := range rep.Copies {
		for _, s := range g.Students {
			var others []string
			for _, o := range g.Students {
				if o != s {
					others = append(others, o)
				}
			}
			if g.Solution != "" {
				others = append(others, "solution:"+g.Solution)
			}
			copyOf[s] = strings.Join(others, "; ")
		}
	}
	byHeart := map[string]bool{}
	for _, s := range rep.ByHeart {
		byHeart[s] = true
	}
	var buf bytes.Buffer
	buf.WriteString(utf8BOM)
	w := csv.NewWriter(&buf)
	comma, decimal := csvStyle(lang)
	w.Comma = comma
	write := func(cells []string) {
		for i, c := range cells {
			cells[i] = report.CSVCell(c)
		}
		w.Write(cells)
	}
	pr := i18n.New(lang)
	// The stable codes first (status, verdict) for formulas and scripts, and beside them the status
	// in the instructor's words, and what is known of the identity and the time.
	write([]string{"student", "status", "passed", "total", "score", "verdict", "lang", "visible_passed", "visible_total", "hidden_passed", "hidden_total", "same_as", "by_heart", "id", "late",
		"status_text", "submitted", "conflict", "time_source", "feedback_error"})
	for _, st := range rep.Students {
		vp, vt, hp, ht := visibility(st.Result)
		write([]string{
			st.Name, st.Status, strconv.Itoa(st.Passed), strconv.Itoa(st.Total),
			decimalIn(st.Score, decimal), string(st.Result.Verdict), st.Lang,
			strconv.Itoa(vp), strconv.Itoa(vt), strconv.Itoa(hp), strconv.Itoa(ht),
			copyOf[st.Name], strconv.FormatBool(byHeart[st.Name]), st.ID, strconv.FormatBool(st.Late),
			pr.T("grade_status_" + st.Status), submittedCell(st), st.Conflict, timeSource(st), st.FeedbackError,
		})
	}
	w.Flush()
	return buf.Bytes()
}

func visibility(r *checker.Result) (vp, vt, hp, ht int) {
	for _, c := range r.Cases {
		if c.Visible {
			vt++
			if c.Status == checker.Pass {
				vp++
			}
		} else {
			ht++
			if c.Status == checker.Pass {
				hp++
			}
		}
	}
	return
}

// Test is one case of a student in results.json, in the shape of an Exercism test-runner test (name,
// status pass|fail|error, message, output, test_code), with the case's own fields besides.
type Test struct {
	Name     string `json:"name"`
	Status   string `json:"status"`
	Message  string `json:"message,omitempty"`
	Output   string `json:"output,omitempty"`
	TestCode string `json:"test_code"`
	// Verdict is the case's own status (pass, fail, timeout, crash, output_limit).
	Verdict checker.Verdict `json:"verdict"`
	checker.CaseResult
}

// studentJSON is a student in results.json: Exercism's results.json (version, status, message, tests)
// with the student's record and full Result besides.
type studentJSON struct {
	Version int    `json:"version"`
	Message string `json:"message,omitempty"`
	Tests   []Test `json:"tests"`
	Student
}

type reportJSON struct {
	*Report
	Students []studentJSON `json:"students"`
}

// ResultsJSON renders results.json.
func ResultsJSON(rep *Report) ([]byte, error) {
	out := reportJSON{Report: rep, Students: make([]studentJSON, len(rep.Students))}
	for i, st := range rep.Students {
		out.Students[i] = studentJSON{Version: 3, Message: studentMessage(st), Tests: tests(st.Result), Student: st}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return report.EscapeJSON(buf.Bytes()), nil
}

// studentMessage is Exercism's top-level message: why the program could not be run at all.
func studentMessage(st Student) string {
	r := st.Result
	switch r.Verdict {
	case checker.BuildError, checker.NoProgram, TooBig:
		return strings.TrimSpace(string(r.Verdict) + ": " + r.BuildLog)
	case BadArchive:
		return string(r.Verdict) + ": " + r.Message + ": " + r.BuildLog
	case NotGraded:
		return string(r.Verdict) + ": " + r.Message
	case Unchanged:
		return string(r.Verdict) + ": the exercise's starter as it was handed out"
	}
	return ""
}

func tests(r *checker.Result) []Test {
	list := make([]Test, 0, len(r.Cases))
	for _, c := range r.Cases {
		t := Test{Name: c.Name, TestCode: strings.TrimSpace("run " + strings.Join(c.Args, " ")), Verdict: c.Status, CaseResult: c}
		switch c.Status {
		case checker.Pass:
			t.Status = "pass"
		case checker.Fail:
			t.Status = "fail"
		default:
			t.Status = "error"
		}
		t.Message = testMessage(c)
		t.Output = clip(c.Got, maxTestOuput)
		list = append(list, t)
	}
	return list
}

// testMessage says in one English line why a case did not pass.
func testMessage(c checker.CaseResult) string {
	switch c.Status {
	case checker.Pass:
		return ""
	case checker.Timeout:
		return "the program did not finish in time"
	case checker.OutputLimit:
		return "the program printed more than the output cap"
	case checker.MemoryLimit:
		return "the program used more memory than its limit"
	case checker.Crash:
		if c.Message == "exit_nonzero" {
			return fmt.Sprintf("the program exited with code %d", c.ExitCode)
		}
		return "the program crashed"
	}
	switch c.Message {
	case "exit_nonzero":
		return fmt.Sprintf("the program exited with code %d; this case expects 0", c.ExitCode)
	case "exit_zero":
		return "the program exited 0; this case expects an error exit"
	case "exit_code":
		if c.WantExit != nil {
			return fmt.Sprintf("exit code %d, want %d", c.ExitCode, *c.WantExit)
		}
	case checker.MsgStdoutMatch, checker.MsgStdoutNoMatch, checker.MsgStderrMatch, checker.MsgStderrNoMatch:
		return streamMessage(c.Message, c.Pattern)
	}
	if d := c.Diff; d != nil {
		msg := fmt.Sprintf("line %d: want %q, got %q", d.Line, d.Want, d.Got)
		if len(d.Notes) > 0 {
			msg += " (" + strings.Join(d.Notes, ", ") + ")"
		}
		return msg
	}
	return c.Message
}

// streamMessage says in English why a stdout or stderr line of a case failed: msg is one of
// checker.MsgStdoutMatch and the others, pattern the line's pattern ("." is anything at all).
func streamMessage(msg, pattern string) string {
	stream, _, _ := strings.Cut(msg, "_")
	switch {
	case pattern == "." && msg == checker.MsgStdoutMatch:
		return "the program printed on stdout; this case expects stdout to stay empty"
	case pattern == "." && msg == checker.MsgStderrMatch:
		return "the program wrote to stderr; this case expects stderr to stay empty"
	case pattern == "." && msg == checker.MsgStdoutNoMatch:
		return "the program printed nothing on stdout; this case expects output there"
	case pattern == "." && msg == checker.MsgStderrNoMatch:
		return "the program wrote nothing to stderr; this case expects an error message there"
	case strings.HasSuffix(msg, "_no_match"):
		return fmt.Sprintf("nothing on %s matches %#q", stream, pattern)
	}
	return fmt.Sprintf("%s matches %#q, which this case does not allow", stream, pattern)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// Feedback writes what a student gets back, in the student's language: which cases failed, and for
// the visible ones where the output first differs; hidden cases show their title only. When nothing
// told the student's language (no program was read, the roster says none) and nothing of theirs ran,
// it is written in each of the course's languages, the instructor's first: a Bulgarian student
// whose archive would not open in a class graded in Russian still reads why.
func Feedback(w *bytes.Buffer, rep *Report, st Student) {
	feedbackIn(w, rep, st)
	if st.LangFrom != LangFromFallback || st.Result == nil {
		return
	}
	switch st.Result.Verdict {
	case BadArchive, TooBig, NotGraded, NoSubmission, checker.NoProgram:
	default:
		return // what ran was judged against one language's outputs: it is told in that one
	}
	var others []string
	for lang := range rep.Titles {
		if lang != st.Lang && i18n.Has(lang, "grade_fb_heading") {
			others = append(others, lang)
		}
	}
	slices.Sort(others)
	for _, lang := range others {
		w.WriteString("\n---\n\n")
		st.Lang = lang
		feedbackIn(w, rep, st)
	}
}

// feedbackIn is Feedback in the student's language alone.
func feedbackIn(w *bytes.Buffer, rep *Report, st Student) {
	pr := i18n.New(st.Lang)
	title := rep.Titles[st.Lang]
	if title == "" {
		title = rep.Exercise
	}
	res := st.Result
	switch res.Verdict {
	case BadArchive, TooBig, NotGraded, Unchanged, NoSubmission:
		fmt.Fprintf(w, "# %s\n\n", report.MarkdownEscape(pr.T("grade_fb_heading", "Title", title, "Name", rep.Exercise, "Student", st.Name)))
		switch res.Verdict {
		case BadArchive:
			w.WriteString(report.MarkdownEscape(archiveRefusal(pr, res)) + "\n")
		case TooBig:
			w.WriteString(report.MarkdownEscape(limitMessage(pr, "grade_fb_too_big", res.Message, res.BuildLog)) + "\n")
		case Unchanged:
			w.WriteString(pr.T("grade_fb_unchanged") + "\n")
		case NoSubmission:
			w.WriteString(report.MarkdownEscape(pr.T("grade_fb_no_submission")) + "\n")
		default:
			w.WriteString(pr.T("grade_fb_not_graded") + "\n")
		}
		w.WriteString("\n" + pr.N("cases_passed", 0, "Total", res.Total) + "\n")
		supersededNote(w, pr, st.Superseded)
		skippedNote(w, pr, st.Skipped)
		lostNote(w, pr, st.Lost)
		return
	}
	// The score and the hints (the cause that explains the most failed cases first) come first,
	// under the count of cases passed; the failures follow, those of one kind said once.
	var md, top bytes.Buffer
	report.Markdown(&md, res, pr, report.Options{Title: pr.T("grade_fb_heading", "Title", title, "Name", rep.Exercise, "Student", st.Name), Group: true})
	scoreNote(&top, pr, rep, st)
	hintsNote(&top, pr, res)
	foundNote(&top, pr, st)
	w.Write(withTop(md.Bytes(), top.Bytes()))
	drawnNote(w, pr, rep, st)
	if !rep.Due.IsZero() && st.TimeFrom == TimeFromCommit {
		fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T("grade_fb_time_commit")))
	}
	if st.FromText {
		fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T("grade_fb_from_text")))
	}
	if len(st.Recoded) > 0 {
		fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T("grade_fb_recoded", "Files", strings.Join(st.Recoded, ", "))))
	}
	supersededNote(w, pr, st.Superseded)
	skippedNote(w, pr, st.Skipped)
	lostNote(w, pr, st.Lost)
	adviceNote(w, pr, st)
}

// supersededNote names, in the feedback, the older versions of the student's files that Canvas kept
// and that were set aside for the newest, so that a student who meant an older one knows.
func supersededNote(w *bytes.Buffer, pr *i18n.Printer, files []string) {
	if len(files) > 0 {
		fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(pr.T("grade_fb_superseded", "Files", strings.Join(files, ", "))))
	}
}

// drawnNote lists, in the feedback, every case drawn for the grading with its arguments and whether
// it passed, so that the student can run each one again.
func drawnNote(w *bytes.Buffer, pr *i18n.Printer, rep *Report, st Student) {
	if st.Drawn == nil || len(st.Drawn.Args) == 0 {
		return
	}
	fixed := len(rep.Cases)
	fmt.Fprintf(w, "\n%s\n\n", report.MarkdownEscape(pr.T("grade_fb_drawn", "Seed", st.Drawn.Seed)))
	for i, args := range st.Drawn.Args {
		mark := "✗"
		if k := fixed + i; k < len(st.Result.Cases) && st.Result.Cases[k].Status == checker.Pass {
			mark = "✓"
		}
		fmt.Fprintf(w, "- %s %s\n", mark, report.CodeSpan(strings.Join(args, " ")))
	}
}

// archiveRefusal says why an archive was refused (a BadArchive verdict), in the printer's language.
// A bomb that hit one of the class's limits says which, with the limit in the language's words; one
// that did not (the archive itself too large, an old record) says only what the student should do.
func archiveRefusal(pr *i18n.Printer, res *checker.Result) string {
	if res.Message != ZipBomb {
		return pr.T("grade_fb_"+res.Message, "Entry", res.BuildLog)
	}
	if code := bigCode(res.BuildLog); code != "" {
		return limitMessage(pr, "grade_fb_zip_bomb", code, res.BuildLog)
	}
	return pr.T("grade_fb_zip_bomb")
}

// bigCode is the Big code of the limit a log written by tooBigError names ("" when it names none).
func bigCode(log string) string {
	m := limitWords.FindStringSubmatch(log)
	if m == nil {
		return ""
	}
	return map[string]string{"files": BigFiles, "bytes in all": BigBytes, "entries": BigEntries, "folders deep": BigDepth}[m[1]]
}

var limitWords = regexp.MustCompile(`more than \d+ (files|bytes in all|entries|folders deep) \(`)

// limitMessage is the message prefix_CODE for a submission past the limit of a Big code, its log
// ("ENTRY: more than N …") giving the entry and the limit: bytes as a size ("20 МиБ"), counts with
// the language's plural forms and grouping ("10 000 файлов"). Without such a message, or without
// a code (an old record), it is the message prefix itself with the log as it was written.
func limitMessage(pr *i18n.Printer, prefix, code, log string) string {
	id := prefix + "_" + code
	if code == "" || !i18n.Has("en", id) { // English has every message: the others fall back to it
		return pr.T(prefix, "Entry", log)
	}
	if code == BigFile {
		return pr.T(id, "Path", tooBigPath(log))
	}
	n, err := strconv.ParseInt(tooBigLimit(log), 10, 64)
	if err != nil {
		return pr.T(prefix, "Entry", log)
	}
	entry, _, _ := strings.Cut(log, ": more than ")
	if code == BigBytes {
		return pr.T(id, "Entry", entry, "Limit", pr.Size(n))
	}
	return pr.N(id, int(min(n, 1<<30)), "Entry", entry, "Limit", pr.Int(n))
}

// tooBigLimit is the limit named in the BuildLog of a TooBig verdict ("more than 500 files …").
func tooBigLimit(log string) string {
	if m := limitNumber.FindStringSubmatch(log); m != nil {
		return m[1]
	}
	return ""
}

var limitNumber = regexp.MustCompile(`more than (\d+)`)

// skippedNote names, in the feedback, the entries of the submission that were left out because they
// are not regular files, so that a student whose main.go is a link learns why it was not graded.
func skippedNote(w *bytes.Buffer, pr *i18n.Printer, skipped []SkippedEntry) {
	entriesNote(w, pr, "grade_fb_skipped", "grade_skip_", skipped)
}

// lostNote names, in the feedback, the student's entries of the class's archive that could not be
// unpacked, and why (Student.Lost).
func lostNote(w *bytes.Buffer, pr *i18n.Printer, lost []SkippedEntry) {
	entriesNote(w, pr, "grade_fb_lost", "grade_lost_", lost)
}

// entriesNote is a note of the feedback that lists entries: the headline (the message head, in the
// plural of their count), then each entry with why, the message kindPrefix+Kind.
func entriesNote(w *bytes.Buffer, pr *i18n.Printer, head, kindPrefix string, entries []SkippedEntry) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n\n", report.MarkdownEscape(pr.N(head, len(entries))))
	for _, e := range entries {
		fmt.Fprintf(w, "- %s (%s)\n", report.CodeSpan(e.Path), report.MarkdownEscape(pr.T(kindPrefix+e.Kind)))
	}
}

// submittedCell is the submission time as grades.csv shows it: RFC 3339, or empty when unknown.
func submittedCell(st Student) string {
	if st.Submitted.IsZero() || st.TimeFrom == "" {
		return ""
	}
	return st.Submitted.Format(time.RFC3339)
}
