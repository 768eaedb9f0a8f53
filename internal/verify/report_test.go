package verify

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestReportJSON: a report with no problems still lists them, as an empty list, and says ok.
func TestReportJSON(t *testing.T) {
	for _, tc := range []struct {
		r      *Report
		ok     bool
		probes int
	}{
		{&Report{Targets: NewTargets(), Scores: []MutationScore{}}, true, 0},
		{&Report{Targets: NewTargets(), Problems: []ReportLine{{File: "lessons/x/bg.md", Code: "c", Message: "m"}}}, false, 1},
	} {
		var buf bytes.Buffer
		if err := tc.r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var got struct {
			OK       bool              `json:"ok"`
			Problems []json.RawMessage `json:"problems"`
		}
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.OK != tc.ok || got.Problems == nil || len(got.Problems) != tc.probes {
			t.Errorf("WriteJSON = %s; want ok %v and %d problems", &buf, tc.ok, tc.probes)
		}
	}
}

// TestLessonProblem: a run's verdict is worded in the author's language; an unknown code keeps the
// engine's own message.
func TestLessonProblem(t *testing.T) {
	le := &lesson.Error{File: "lessons/x/bg.md", Line: 3, Code: lesson.CodeRun, Args: map[string]any{"Verdict": "exit", "Exit": 3, "Name": "demo"}}
	p := LessonProblem(i18n.New("en"), le)
	if p.File != le.File || p.Line != 3 || p.Code != string(lesson.CodeRun) || p.Message == "" || p.Message == "lesson_"+string(lesson.CodeRun) || !strings.Contains(p.Message, "3") {
		t.Errorf("LessonProblem = %+v", p)
	}
}
