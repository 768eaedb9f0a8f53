package grade

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/report"
)

// classData is what report.html's script draws the class table and the student × case grid from:
// one row per student and the words the rows name by key, so that the page carries a class of
// thousands as a megabyte of data and builds only the rows in view (reportScript). Every string in
// it is escaped as the page is (report.Escape): a control character a student put in a name is
// shown written out, never as such.
type classData struct {
	Rows []classRow `json:"rows"`
	// Notes are the notes of the rows (classRow.Notes are indexes into it): one copy of a note
	// many students share.
	Notes []string `json:"notes"`
	// Status, Verdict, Mark, LangFrom and Rule are the words of the keys the rows hold: a status, a
	// verdict, its badge (only for a verdict that is no wrong answer), how the language was known,
	// a rule of the advice.
	Status   map[string]string `json:"status"`
	Verdict  map[string]string `json:"verdict"`
	Mark     map[string]string `json:"mark"`
	LangFrom map[string]string `json:"langFrom"`
	Rule     map[string]string `json:"rule"`
	// Cell is the mark of a grid cell by its class (gridClass to cellMark).
	Cell map[string]string `json:"cell"`
	// Feedback is the words of the link to a student's feedback file.
	Feedback string `json:"feedback"`
}

// classRow is a student's row of the class table and of the grid, written as a JSON array (its
// fields in this order) to keep 5,000 of them small.
type classRow struct {
	Name string
	ID   string // "" when the LMS gave none or it is the name
	// File is the student's file under feedback/, "" when it is Name+".md".
	File      string
	Status    string
	Score     float64
	ScoreText string
	Passed    int
	Total     int
	Verdict   string
	Lang      string
	LangFrom  string
	Rules     string // the rules of the advice on the code, space-separated (the advice filter's keys)
	Late      string // the late note with its penalty, "" when on time
	Notes     []int
	// Cells are the grid's cells, a letter of gridClass per column; Cases the cells whose failure
	// is not the student's case of the same index (column, case, column, case…).
	Cells string
	Cases []int
}

func (r classRow) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{r.Name, r.ID, r.File, r.Status, r.Score, r.ScoreText, r.Passed, r.Total, r.Verdict,
		r.Lang, r.LangFrom, r.Rules, r.Late, nonNil(r.Notes), r.Cells, nonNil(r.Cases)})
}

func (r *classRow) UnmarshalJSON(data []byte) error {
	fields := []any{&r.Name, &r.ID, &r.File, &r.Status, &r.Score, &r.ScoreText, &r.Passed, &r.Total, &r.Verdict,
		&r.Lang, &r.LangFrom, &r.Rules, &r.Late, &r.Notes, &r.Cells, &r.Cases}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if len(raw) != len(fields) {
		return fmt.Errorf("a class row of %d fields, want %d", len(raw), len(fields))
	}
	for i, f := range fields {
		if err := json.Unmarshal(raw[i], f); err != nil {
			return fmt.Errorf("field %d of a class row: %w", i, err)
		}
	}
	return nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// classDataOf is the class's data for report.html in pr's language (uiLang for the scores), g its
// grid.
func classDataOf(pr *i18n.Printer, rep *Report, uiLang string, g grid) classData {
	d := classData{Status: map[string]string{}, Verdict: map[string]string{}, Mark: map[string]string{},
		LangFrom: map[string]string{}, Rule: map[string]string{}, Cell: map[string]string{},
		Feedback: report.Escape(pr.T("grade_html_feedback_file"))}
	for _, s := range []string{StatusPass, StatusFail, StatusError, StatusTool, StatusMissing} {
		d.Status[s] = pr.T("grade_status_" + s)
	}
	for v, class := range gridClass {
		d.Cell[class] = cellMark[v]
	}
	notes := rowNotes(pr, rep)
	noteIndex := map[string]int{}
	for i, st := range rep.Students {
		row := classRow{Name: report.Escape(st.Name), Status: st.Status, Score: st.Score, ScoreText: scoreIn(st.Score, uiLang),
			Passed: st.Passed, Total: st.Total, Lang: report.Escape(st.Lang), LangFrom: st.LangFrom, Rules: strings.Join(adviceRules(st), " ")}
		if st.ID != "" && st.ID != st.Name {
			row.ID = report.Escape(st.ID)
		}
		if f := rep.Feedback[st.Name]; f != st.Name+".md" {
			row.File = report.Escape(f)
		}
		if _, ok := d.Status[st.Status]; !ok {
			d.Status[st.Status] = pr.T("grade_status_" + st.Status)
		}
		if st.Result != nil {
			v := st.Result.Verdict
			row.Verdict = string(v)
			d.Verdict[row.Verdict] = verdictText(pr, v)
			if m := verdictBadge(pr, v); m != "" {
				d.Mark[row.Verdict] = m
			}
		}
		if st.LangFrom != "" {
			d.LangFrom[st.LangFrom] = pr.T("grade_html_lang_" + st.LangFrom)
		}
		for _, r := range adviceRules(st) {
			d.Rule[r] = ruleLabel(pr, r)
		}
		if st.Late {
			row.Late = pr.T("grade_html_late")
			if st.Penalty != 0 {
				row.Late += " −" + scoreIn(st.Penalty, uiLang)
			}
		}
		for _, n := range notes[st.Name] {
			n = report.Escape(n)
			k, ok := noteIndex[n]
			if !ok {
				k = len(d.Notes)
				noteIndex[n] = k
				d.Notes = append(d.Notes, n)
			}
			row.Notes = append(row.Notes, k)
		}
		row.Cells, row.Cases = gridCells(g.Rows[i])
		d.Rows = append(d.Rows, row)
	}
	if d.Notes == nil {
		d.Notes = []string{}
	}
	return d
}

// gridCells is a grid row as classRow holds it: a letter a cell, and the cells whose failure is
// another case of the student's than the column's index.
func gridCells(r gridRow) (string, []int) {
	var b strings.Builder
	var cases []int
	for k, c := range r.Cells {
		b.WriteString(gridClass[c.Status])
		if c.Status != "" && c.Status != checker.Pass && c.Case != k {
			cases = append(cases, k, c.Case)
		}
	}
	return b.String(), cases
}

// classJSON is d as the page's data block holds it: JSON whose <, > and & are \u escapes, so
// that nothing in it can end the block.
func classJSON(d classData) (template.JS, error) {
	data, err := json.Marshal(d)
	if err != nil {
		return "", err
	}
	return template.JS(data), nil
}
