package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/workbook-course/workbook/internal/lesson"
)

// firstVirtualBlock returns the first go block of a lesson that runs in virtual time and that a
// learner can edit and run.
func firstVirtualBlock(t *testing.T, s *Server, topic, lang string) int {
	t.Helper()
	lp, err := s.lessonPage(topic, lang)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range lp.l.Blocks {
		if _, ok := lp.snips[i]; ok && b.Kind == lesson.GoBlock && b.Quiz == nil && !b.Hidden && b.Virtual {
			return i
		}
	}
	t.Fatalf("%s/%s: no virtual-time block", topic, lang)
	return -1
}

// TestRunVirtualVerdict: a lesson snippet in virtual time that leaves a goroutine blocked or
// deadlocks is named in the page's language as the terminal names it (what happened, which goroutine
// waits where in the snippet, what that usually means), not shown as a crash with a stack dump.
func TestRunVirtualVerdict(t *testing.T) {
	s, _ := newTestServer(t, false)
	leak := "func main() {\n\tc := make(chan int)\n\tgo func() { c <- 1 }()\n\tfmt.Println(\"ушёл\")\n}\n"
	deadlock := "func main() {\n\tvar wg sync.WaitGroup\n\twg.Add(1)\n\twg.Wait()\n}\n"
	for _, tc := range []struct {
		lang, code, stdout   string
		message, place, hint string
	}{
		{"ru", leak, "ушёл\n", "После выхода из main остались заблокированные горутины.",
			"Горутина 1", "результат никто не читает"},
		{"bg", leak, "ушёл\n", "", "main.main.func1 (snippet.go:3)", ""},
		{"ru", deadlock, "", "Взаимная блокировка", "«sync.WaitGroup.Wait» в main.main (snippet.go:4)", ""},
	} {
		block := firstVirtualBlock(t, s, "real-go", tc.lang)
		w := post(s, "/api/run", map[string]any{"lang": tc.lang, "topic": "real-go", "block": block,
			"edits": map[string]string{strconv.Itoa(block): tc.code}})
		r := decode[runReply](t, w)
		if w.Code != 200 || r.Status != "crash" || r.Stdout != tc.stdout {
			t.Errorf("%s: %d %+v", tc.lang, w.Code, r)
			continue
		}
		all := r.Message + "\n" + strings.Join(r.Notes, "\n")
		t.Logf("%s: %s", tc.lang, all)
		if tc.message != "" && !strings.HasPrefix(r.Message, tc.message) {
			t.Errorf("%s: message %q, want %q", tc.lang, r.Message, tc.message)
		}
		for _, want := range []string{tc.place, tc.hint} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: %q does not say %q", tc.lang, all, want)
			}
		}
		if strings.Contains(all+r.Stderr, "goroutine ") || strings.Contains(r.Stderr, "panic: deadlock") {
			t.Errorf("%s: the stack dump is shown: %q", tc.lang, r.Stderr)
		}
		if r.Message == s.ui(tc.lang).T("web_run_status_crash") {
			t.Errorf("%s: said only as a crash", tc.lang)
		}
	}
}
