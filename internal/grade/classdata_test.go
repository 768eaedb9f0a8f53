package grade

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

// classDataRE is report.html's data block.
var classDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="classdata">(.*?)</script>`)

// pageClassData is the data report.html (page) draws its class table and grid from.
func pageClassData(t testing.TB, page []byte) classData {
	t.Helper()
	m := classDataRE.FindAllSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("report.html has %d data blocks, want 1", len(m))
	}
	var d classData
	if err := json.Unmarshal(m[0][1], &d); err != nil {
		t.Fatalf("report.html's data block: %v", err)
	}
	return d
}

// classText is every word the class table shows of d: the names, the labels of the keys the rows
// use, the notes.
func classText(d classData) string {
	var b strings.Builder
	for _, r := range d.Rows {
		b.WriteString(strings.Join([]string{r.Name, r.ID, d.Status[r.Status], d.Verdict[r.Verdict], d.Mark[r.Verdict], d.LangFrom[r.LangFrom], r.Late}, " ") + " ")
		for _, k := range strings.Fields(r.Rules) {
			b.WriteString(d.Rule[k] + " ")
		}
		for _, n := range r.Notes {
			b.WriteString(d.Notes[n] + " ")
		}
	}
	return b.String() + d.Feedback
}

// TestClassData: report.html carries each student's row as data, in the class's order, with the
// words of its keys in the instructor's language; a note many share is written once; the grid's
// cells are a letter each, and a cell whose failure is another case of the student's says which;
// and nothing a student wrote can end the data block or reach the page as a control character.
func TestClassData(t *testing.T) {
	res := func(statuses ...checker.Verdict) *checker.Result {
		r := &checker.Result{Exercise: "exercise-deadline", Lang: "ru"}
		for i, s := range statuses {
			r.Cases = append(r.Cases, checker.CaseResult{Name: []string{"01", "02", "03"}[i], Status: s})
		}
		r.Summarize()
		return r
	}
	// b ran the cases in another order: its failure of "03" is its case 0.
	shuffled := res(checker.Timeout, checker.Pass, checker.Pass)
	shuffled.Cases[0].Name, shuffled.Cases[2].Name = "03", "01"
	rep := &Report{Exercise: "exercise-deadline", Cases: []CaseInfo{{Name: "01", Weight: 1}, {Name: "02", Weight: 1}, {Name: "03", Weight: 1}},
		Students: []Student{
			{Name: "a</script><b>\x1b[31m", ID: "1001", Lang: "ru", LangFrom: LangFromOutput, Result: res(checker.Pass, checker.Crash, checker.Fail), Late: true, Penalty: 10},
			{Name: "b", ID: "b", Lang: "bg", Result: shuffled, Late: true},
			{Name: "c", Lang: "ru", Result: res(checker.Pass, checker.Pass)},
		}}
	rep.Finalize()
	rep.ByHeart = []string{"b", "c"}
	var page bytes.Buffer
	if err := HTML(&page, rep, "en"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page.String(), "</script>"); n != 2 {
		t.Errorf("report.html has %d </script>, want 2 (the data block's and the script's)", n)
	}
	d := pageClassData(t, page.Bytes())
	got := func(i int) classRow { return d.Rows[i] }
	if len(d.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(d.Rows))
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"a's name, escaped", got(0).Name, `a</script><b>\x1b[31m`},
		{"a's id", got(0).ID, "1001"},
		{"b's id, the same as the name", got(1).ID, ""},
		{"a's feedback file", got(0).File, rep.Feedback[rep.Students[0].Name]},
		{"b's feedback file, its name", got(1).File, ""},
		{"a's score", got(0).ScoreText, scoreIn(rep.Students[0].Score, "en")},
		{"a's passed", []int{got(0).Passed, got(0).Total}, []int{1, 3}},
		{"a's verdict", got(0).Verdict, "crash"},
		{"a's verdict in words", d.Verdict["crash"], "The program crashed."},
		{"a's language known", d.LangFrom[got(0).LangFrom], "by its output"},
		{"a late with a penalty", got(0).Late, "late −10"},
		{"b late", got(1).Late, "late"},
		{"c on time", got(2).Late, ""},
		{"a's cells", got(0).Cells, "pcf"},
		{"b's cells", got(1).Cells, "ppt"},
		{"b's timeout is its case 0", got(1).Cases, []int{2, 0}},
		{"c's cells, one not run", got(2).Cells, "ppn"},
		{"the marks", []string{d.Cell["p"], d.Cell["t"], d.Cell["n"]}, []string{"✓", "∞", "·"}},
		{"the status words", d.Status[StatusFail], "fail"},
	}
	for _, tt := range tests {
		g, _ := json.Marshal(tt.got)
		w, _ := json.Marshal(tt.want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: got %s, want %s", tt.name, g, w)
		}
	}
	if !strings.HasPrefix(d.Mark["crash"], "↯ ") {
		t.Errorf("a crash's badge is %q", d.Mark["crash"])
	}
	// One copy of a note two students share.
	if len(got(1).Notes) != 1 || !slices.Equal(got(1).Notes, got(2).Notes) || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "by heart") {
		t.Errorf("the note of b and c: rows' %v, %v; notes %q", got(1).Notes, got(2).Notes, d.Notes)
	}
}
