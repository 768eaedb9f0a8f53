package grade

import (
	"bytes"
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// deadlineWinnower fingerprints with exercise-deadline's starters, hints and reference solutions
// left out, as grading does.
func deadlineWinnower(t *testing.T) (*winnower, string) {
	t.Helper()
	job := deadlineJob(t)
	ex, err := course.New(workbook.Content()).Exercise("exercise-deadline")
	if err != nil {
		t.Fatal(err)
	}
	var hints []Source
	for _, l := range course.Langs {
		h, err := ex.Hints(l)
		if err != nil {
			t.Fatal(err)
		}
		hints = append(hints, HintCode(strings.Join(h, "\n\n"), l)...)
	}
	if len(hints) == 0 {
		t.Fatal("no code in the hints")
	}
	// The programs of fromHints were written from an earlier hint of the exercise, the loop below;
	// it stays among what is left out, as a course's hints of any version would be.
	hints = append(hints, HintCode("```go\n"+earlierHint+"```\n", "bg")...)
	starter := string(courseFile(t, "exercises/exercise-deadline/bg/main.go"))
	return newWinnower(job.Starters, hints, job.Solutions), starter
}

// earlierHint is the third hint exercise-deadline had when the loop was the whole exercise.
const earlierHint = `tick := 0
for attempt := 1; ; attempt++ {
	answer := answerAt(answers, attempt)
	fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
	if !retryable(answer) {
		return answer
	}
	wait := 1 << (attempt - 1)
	if tick+wait > deadline {
		// напечатай реда „спирам: …“ и върни answer
	}
	tick += wait
}
`

// withBody is the starter with withDeadline's body (and functions after it) replaced.
func withBody(t *testing.T, starter, body string) Source {
	t.Helper()
	i := strings.Index(starter, "func withDeadline(")
	if i < 0 {
		t.Fatal("the starter has no withDeadline")
	}
	return Source{Files: map[string][]byte{"main.go": []byte(starter[:i] + body)}}
}

// Seven programs written from the hints, each in a way of its own: the hint's loop is in most of them.
var fromHints = []string{`func withDeadline(answers []string, deadline int) string {
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
		if !retryable(answer) {
			return answer
		}
		wait := 1 << (attempt - 1)
		if tick+wait > deadline {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, tick+wait, deadline)
			return answer
		}
		tick += wait
	}
}
`, `func withDeadline(answers []string, deadline int) string {
	tick, attempt := 0, 0
	for {
		attempt++
		a := answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, a)
		if !retryable(a) {
			return a
		}
		wait := 1
		for i := 1; i < attempt; i++ {
			wait *= 2
		}
		next := tick + wait
		if next > deadline {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, next, deadline)
			return a
		}
		tick = next
	}
}
`, `func withDeadline(answers []string, deadline int) string {
	return step(answers, deadline, 0, 1)
}

func step(answers []string, deadline, tick, attempt int) string {
	answer := answerAt(answers, attempt)
	fmt.Println(fmt.Sprintf("тик %d, опит %d: %s", tick, attempt, answer))
	if !retryable(answer) {
		return answer
	}
	if next := tick + 1<<(attempt-1); next <= deadline {
		return step(answers, deadline, next, attempt+1)
	} else {
		fmt.Println(fmt.Sprintf("спирам: опит %d би бил на тик %d, след срока %d", attempt+1, next, deadline))
	}
	return answer
}
`, `func withDeadline(answers []string, deadline int) string {
	ticks := []int{0}
	for t := 0; ; {
		t += 1 << (len(ticks) - 1)
		ticks = append(ticks, t)
		if t > deadline {
			break
		}
	}
	last := ""
	for i, tick := range ticks {
		if tick > deadline {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", i+1, tick, deadline)
			break
		}
		last = answerAt(answers, i+1)
		fmt.Printf("тик %d, опит %d: %s\n", tick, i+1, last)
		if !retryable(last) {
			break
		}
	}
	return last
}
`, `func withDeadline(answers []string, deadline int) string {
	var answer string
	for attempt, wait, tick := 1, 1, 0; ; attempt, wait = attempt+1, wait*2 {
		answer = answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
		if !retryable(answer) || tick+wait > deadline {
			if retryable(answer) {
				fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, tick+wait, deadline)
			}
			break
		}
		tick += wait
	}
	return answer
}
`, `func withDeadline(answers []string, deadline int) string {
	var out strings.Builder
	defer func() { fmt.Print(out.String()) }()
	tick := 0
	for attempt := 1; ; attempt++ {
		answer := answerAt(answers, attempt)
		fmt.Fprintf(&out, "тик %d, опит %d: %s\n", tick, attempt, answer)
		if !retryable(answer) {
			return answer
		}
		wait := 1 << (attempt - 1)
		if tick+wait > deadline {
			fmt.Fprintf(&out, "спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, tick+wait, deadline)
			return answer
		}
		tick += wait
	}
}
`, `func withDeadline(answers []string, deadline int) string {
	tick := 0
	attempt := 1
	answer := answerAt(answers, attempt)
	fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
	for retryable(answer) {
		wait := 1 << (attempt - 1)
		if tick+wait > deadline {
			fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", attempt+1, tick+wait, deadline)
			break
		}
		tick += wait
		attempt++
		answer = answerAt(answers, attempt)
		fmt.Printf("тик %d, опит %d: %s\n", tick, attempt, answer)
	}
	return answer
}
`}

// own is a student's program of their own, beyond the hints: a report of the attempts after the run.
const ownBody = `func withDeadline(answers []string, deadline int) string {
	log := attempts(answers, deadline)
	for _, a := range log {
		fmt.Printf("тик %d, опит %d: %s\n", a.tick, a.n, a.answer)
	}
	last := log[len(log)-1]
	if stop := last.tick + pause(last.n); retryable(last.answer) && stop > deadline {
		fmt.Printf("спирам: опит %d би бил на тик %d, след срока %d\n", last.n+1, stop, deadline)
	}
	return last.answer
}

type try struct {
	n, tick int
	answer  string
}

func pause(n int) int {
	p := 1
	for k := 1; k < n; k++ {
		p += p
	}
	return p
}

func attempts(answers []string, deadline int) []try {
	var log []try
	at := 0
	for n := 1; ; n++ {
		log = append(log, try{n: n, tick: at, answer: answerAt(answers, n)})
		if !retryable(log[n-1].answer) || at+pause(n) > deadline {
			return log
		}
		at += pause(n)
	}
}
`

func TestWinnowCopies(t *testing.T) {
	w, starter := deadlineWinnower(t)
	var students []Student
	add := func(name string, src Source) {
		students = append(students, Student{Name: name, Winnow: w.of(src)})
	}
	for i, body := range fromHints {
		add("hints"+string(rune('1'+i)), withBody(t, starter, body))
	}
	add("own", withBody(t, starter, ownBody))
	// Dead lines inserted all through it.
	dead := strings.NewReplacer(
		"\tlast := log[len(log)-1]\n", "\t_ = deadline\n\tlast := log[len(log)-1]\n\tvar unused int\n\t_ = unused\n",
		"\tp := 1\n", "\tp := 1\n\tx := 0\n\t_ = x\n",
		"\tat := 0\n", "\tat := 0\n\tif false {\n\t\tfmt.Println()\n\t}\n",
	).Replace(ownBody)
	add("dead", withBody(t, starter, dead))
	// Its functions in another order, its names changed.
	i, j := strings.Index(ownBody, "type try"), strings.Index(ownBody, "func pause")
	reordered := strings.NewReplacer("log", "history", "pause", "delay", "try", "record").Replace(ownBody[j:] + "\n" + ownBody[i:j] + ownBody[:i])
	add("reordered", withBody(t, starter, reordered))
	// Translated into Russian, as a Russian student would hand it in.
	ru := strings.NewReplacer("тик", "такт", "опит", "попытка", "спирам", "стоп", "би бил на", "пришлась бы на", "след срока", "позже срока").Replace(ownBody)
	add("translated", withBody(t, starter, ru))
	// The reference solution, handed in.
	add("reference", Source{Files: map[string][]byte{"main.go": courseFile(t, "solutions/exercise-deadline/ru/main.go")}})

	groups, pairs := WinnowCopies(students)
	if len(groups) != 2 {
		t.Fatalf("got %d groups %+v, want 2 (the reference, and own with its copies)", len(groups), groups)
	}
	want := "dead own reordered translated"
	if got := strings.Join(groups[0].Students, " "); got != want || groups[0].Solution != "" {
		t.Errorf("group 1: got %q (solution %q), want %q", got, groups[0].Solution, want)
	}
	if got := strings.Join(groups[1].Students, " "); got != "reference" || groups[1].Solution != "bg/ru" {
		t.Errorf("group 2: got %q (solution %q), want reference (bg/ru)", got, groups[1].Solution)
	}
	sim := map[string]float64{}
	for _, p := range pairs {
		if strings.HasPrefix(p.A, "hints") || strings.HasPrefix(p.B, "hints") {
			t.Errorf("two programs written from the hints are paired: %+v", p)
		}
		sim[p.A+" "+p.B] = p.Similarity
	}
	for _, pair := range []string{"dead own", "own reordered", "own translated"} {
		if sim[pair] < 0.8 {
			t.Errorf("%s: similarity %v, want at least 0.8", pair, sim[pair])
		}
	}
	// The side-by-side view marks what they share, and not the starter's code.
	a, b := students[7].Winnow, students[8].Winnow // own, dead
	left, right := sideBySide(a, b)
	shared := func(lines []SideLine, text string) (bool, bool) {
		for _, l := range lines {
			if strings.Contains(l.Text, text) {
				return true, l.Shared
			}
		}
		return false, false
	}
	for _, c := range []struct {
		lines  []SideLine
		text   string
		marked bool
	}{
		{left, "p += p", true},
		{right, "p += p", true},
		{left, "fs.SetOutput(os.Stderr)", false},
	} {
		found, marked := shared(c.lines, c.text)
		if !found || marked != c.marked {
			t.Errorf("%q: found %v, marked %v; want marked %v", c.text, found, marked, c.marked)
		}
	}
}

func TestWinnowReportHTML(t *testing.T) {
	w, starter := deadlineWinnower(t)
	own := withBody(t, starter, ownBody)
	dead := withBody(t, starter, strings.Replace(ownBody, "\tp := 1\n", "\tp := 1\n\tx := 0\n\t_ = x\n", 1))
	rep := &Report{Exercise: "exercise-deadline"}
	for name, src := range map[string]Source{"anna": own, "boris": dead, "hints": withBody(t, starter, fromHints[0])} {
		rep.Students = append(rep.Students, Student{Name: name, Status: StatusPass, Winnow: w.of(src), Result: &checker.Result{Verdict: checker.Pass}})
	}
	rep.Finalize()
	if len(rep.Pairs) != 1 || rep.Pairs[0].A != "anna" || rep.Pairs[0].B != "boris" {
		t.Fatalf("pairs: got %+v, want anna and boris", rep.Pairs)
	}
	var buf bytes.Buffer
	if err := HTML(&buf, rep, "en"); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{"<h3>Pairs side by side</h3>", "<strong>anna — boris</strong>", "\tp &#43;= p</mark>", "fingerprints shared"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}
