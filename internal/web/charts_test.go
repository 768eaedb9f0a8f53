package web

import (
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/lesson"
)

// TestLessonCharts renders every chart the lessons print, in both languages: each must be read
// and laid out (a figure, the data, a canvas and a table), and the lessons must hold the charts
// the course promises.
func TestLessonCharts(t *testing.T) {
	s := &Server{cfg: Config{Course: course.New(workbook.Content())}, lessons: map[string]*lessonPage{}}
	want := map[string][]string{
		"retry-storm":         {"storm", "dots"},
		"slow-neighbour":      {"breaker"},
		"retry-amplification": {"depth", "failover"},
		"overload":            {"queue"},
	}
	for _, lang := range []string{"ru", "bg"} {
		for topic, kinds := range want {
			lp, err := s.lessonPage(topic, lang)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, b := range lp.l.Blocks {
				if b.Kind != lesson.OutputBlock {
					continue
				}
				kind := chartKind(b.Text)
				if kind == "" {
					if strings.HasPrefix(b.Text, `{"chart":`) {
						t.Errorf("%s/%s: block %d looks like a chart but is not one", lang, topic, i)
					}
					continue
				}
				got = append(got, kind)
				var w strings.Builder
				if err := writeChart(&w, i, b.Text, s.ui(lang)); err != nil {
					t.Errorf("%s/%s: %v", lang, topic, err)
					continue
				}
				for _, part := range []string{`<figure class="chart chart-` + kind, `class="chart-data"`, "<canvas", "<table>", "</figure>"} {
					if !strings.Contains(w.String(), part) {
						t.Errorf("%s/%s: the %s chart has no %s", lang, topic, kind, part)
					}
				}
				if !strings.Contains(string(lp.html), `id="chart-`) {
					t.Errorf("%s/%s: the page shows no chart", lang, topic)
				}
			}
			if strings.Join(got, " ") != strings.Join(kinds, " ") {
				t.Errorf("%s/%s: charts %q, want %q", lang, topic, got, kinds)
			}
		}
	}
}

func TestChartKind(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{`{"chart":"storm","ticks":1}` + "\n", "storm"},
		{`{"chart":"nope"}`, ""},
		{`{"chart":"storm"`, ""},
		{"такт 0: ошибка → CLOSED\n", ""},
		{`{"chart":"dots"}` + "\n" + `{"chart":"dots"}`, ""},
	} {
		if got := chartKind(tt.text); got != tt.want {
			t.Errorf("chartKind(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
