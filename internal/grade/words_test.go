package grade

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/workbook-course/workbook/checker"
)

// latinAllowed are the Latin words a Russian or Bulgarian text of the tool may hold: names of
// things that have no other (the language, the LMSs, the streams, the formats).
var latinAllowed = map[string]bool{
	"Go": true, "JavaScript": true, "LMS": true, "Moodle": true, "Canvas": true, "GitHub": true, "Classroom": true,
	"stdout": true, "stderr": true, "package": true, "main": true, "zip": true, "tar": true, "gz": true,
	"rar": true, "html": true, "csv": true, "json": true, "go": true, "UTF": true, "RFC": true, "ID": true,
	"workbook": true, "synctest": true, "seed": false,
	"println": true, "log": true, // Go's own functions, named in a hint
}

// latinWords lists the Latin-only words of text that are not in latinAllowed, once code, names,
// file names, flags and paths are taken out.
func latinWords(text string, names []string) []string {
	for _, n := range names {
		text = strings.ReplaceAll(text, n, " ")
	}
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '\u00a0' || r == '(' || r == ')' || r == ',' || r == ';' || r == ':' || r == '«' || r == '»' || r == '„' || r == '“' || r == '"' || r == '!' || r == '?'
	}) {
		tok = strings.TrimRight(tok, ".")
		// File names, paths, flags, the exercise's name, numbers with units: not words.
		if strings.ContainsAny(tok, "./_=\\") || strings.HasPrefix(tok, "-") || strings.Contains(tok, "-") {
			continue
		}
		for _, w := range latinWord.FindAllString(tok, -1) {
			if !latinAllowed[w] && len(w) > 1 {
				out = append(out, w)
			}
		}
	}
	return out
}

var latinWord = regexp.MustCompile(`\b[A-Za-z]{2,}\b`)

// markdownProse is a feedback file without its code: fenced blocks and code spans.
func markdownProse(md string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(codeSpan.ReplaceAllString(line, " ") + "\n")
		}
	}
	return b.String()
}

var codeSpan = regexp.MustCompile("`+[^`]*`+")

// htmlProse is the text of a page outside <code>, <pre>, <script> and <style>.
func htmlProse(t *testing.T, page []byte) string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "code", "pre", "script", "style", "title":
				return
			}
			for _, a := range n.Attr {
				if a.Key == "title" || a.Key == "aria-label" || a.Key == "placeholder" {
					b.WriteString(" " + a.Val + " ")
				}
			}
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data + " ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}

// TestNoEnglishInRussianOrBulgarian grades a mixed class in every way a submission can end (a pass in
// each language, a wrong program, one that does not build, hangs, crashes, has no Go, is the
// starter, is a refused archive, is past a limit, was typed as online text, a conflict, a student
// who handed in nothing) and reads every feedback file and the report, in Russian and in Bulgarian,
// for Latin-only words outside code and names.
func TestNoEnglishInRussianOrBulgarian(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	t.Parallel()
	if got := latinWords(markdownProse("Ваш timeout (в `code here`) — Go, exercise-deadline, main.go"), nil); strings.Join(got, " ") != "timeout" {
		t.Fatalf("latinWords finds %q, want timeout alone", got)
	}
	dir := t.TempDir()
	solBG := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	solRU := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	starter := string(courseFile(t, "exercises/exercise-deadline/bg/main.go"))
	// The solution gone wrong the ways a hint explains: its transcript on stderr, os.Exit(1) at the
	// end, a Latin "о" in "попытка".
	onStderr := strings.ReplaceAll(solRU, "fmt.Printf(", "fmt.Fprintf(os.Stderr, ")
	exit1 := strings.Replace(solRU, "withDeadline(answers, *deadline))\n", "withDeadline(answers, *deadline))\n\tos.Exit(1)\n", 1)
	latin := strings.ReplaceAll(solRU, "попытка %d", "пoпытка %d")
	if onStderr == solRU || exit1 == solRU || latin == solRU {
		t.Fatal("the solution is no longer what the wrong programs are made from")
	}
	m := func(name, id string) string { return name + "_" + id + "_assignsubmission_file_" }
	writeFiles(t, dir, files{
		m("Иванов Иван", "1") + "/main.go":                                     solRU,
		m("Колев Петър", "2") + "/main.go":                                     solBG,
		m("Петров Пётр", "3") + "/main.go":                                     "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"попытка 1: ошибка\") }\n",
		m("Стоянов Иво", "4") + "/main.go":                                     "package main\n\nfunc main() { x := 1 }\n",
		m("Денев Дан", "5") + "/main.go":                                       "package main\n\nfunc main() { for {} }\n",
		m("Крумов Крум", "6") + "/main.go":                                     "package main\n\nfunc main() { var m map[string]int; m[\"a\"] = 1 }\n",
		m("Ана Георгиева", "7") + "/work.pdf":                                  "%PDF",
		m("Сидоров Сидор", "8") + "/main.go":                                   starter,
		m("Вера Веселова", "9") + "/hw.rar":                                    "Rar!",
		m("Тонев Тони", "10") + "/a.go":                                        "package main\n",
		m("Тонев Тони", "10") + "/b.go":                                        "package main\n",
		m("Тонев Тони", "10") + "/c.go":                                        "package main\n",
		m("Тонев Тони", "10") + "/d.go":                                        "package main\n\nfunc main() {}\n",
		m("Лазаров Лазар", "14") + "/main.go":                                  onStderr,
		m("Митев Митко", "15") + "/main.go":                                    exit1,
		m("Нейков Нейко", "16") + "/main.go":                                   latin,
		"Мила Илиева_11_assignsubmission_onlinetext_onlinetext.html":           "<pre>" + html.EscapeString(solBG) + "</pre>",
		"Eve_12_assignsubmission_file_ Smith_1_assignsubmission_file_/main.go": solBG,
	})
	sheet := "Identifier,Full name,Grade,Maximum Grade,Last modified (grade),Feedback comments\n"
	for i, n := range []string{"Иванов Иван", "Колев Петър", "Петров Пётр", "Стоянов Иво", "Денев Дан", "Крумов Крум", "Ана Георгиева",
		"Сидоров Сидор", "Вера Веселова", "Тонев Тони", "Мила Илиева", "Eve Adams", "Тодоров Тодор", "Лазаров Лазар", "Митев Митко", "Нейков Нейко"} {
		sheet += fmt.Sprintf("Participant %d,%s,,100,-,\n", i+1, n)
	}
	roster := filepath.Join(t.TempDir(), "worksheet.csv")
	os.WriteFile(roster, []byte(sheet), 0o644)
	ro, err := ReadRoster(roster, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	job := deadlineJob(t)
	job.Roster, job.Read = ro, ReadLimits{Files: 3}
	// The spinner's timeout reads the same at any limit: the attack class's run limits, which only
	// decide how long it burns (deadlineJob's 5 s a run made it burn 15 CPU-seconds); the build limit
	// stays the default, as this class may be the first one built with a fresh cache.
	job.Limits = checker.Limits{RunTime: attackLimits.RunTime, WallTime: attackLimits.WallTime}
	out := filepath.Join(t.TempDir(), "report")
	rep, _, err := Run(context.Background(), job, dir, out)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]bool{}
	var names []string
	for _, st := range rep.Students {
		verdicts[string(st.Result.Verdict)] = true
		names = append(names, st.Name, st.Display, st.Entry)
	}
	for _, v := range []string{"pass", "fail", "build_error", "timeout", "crash", "no_program", "unchanged", "bad_archive", "too_big", "no_submission"} {
		if !verdicts[v] {
			t.Errorf("the class has no verdict %s: %v", v, verdicts)
		}
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	names = append(names, rep.Exercise)
	for _, ui := range []string{"ru", "bg"} {
		if err := Write(out, rep, ui); err != nil {
			t.Fatal(err)
		}
		page, _ := os.ReadFile(filepath.Join(out, HTMLFile))
		// The class table's rows are data the page's script draws (classData): their words too.
		prose := htmlProse(t, page) + " " + classText(pageClassData(t, page))
		if !strings.Contains(prose, "Тодоров Тодор") || !strings.Contains(prose, "Eve") {
			t.Fatalf("the report's text lacks the class:\n%s", prose)
		}
		if w := latinWords(prose, names); len(w) > 0 {
			t.Errorf("report.html in %s has Latin words: %q", ui, w)
		}
		for i, st := range rep.Students {
			if w := latinWords(htmlProse(t, []byte(detailHTML(t, out, i))), names); len(w) > 0 {
				t.Errorf("the details of %s (%s) in %s have Latin words: %q", st.Name, st.Result.Verdict, ui, w)
			}
		}
	}
	// The hint that explains a student's failures leads the feedback.
	for name, hint := range map[string]string{"Лазаров Лазар": "напечатан в stderr", "Митев Митко": "завершилась с кодом 1", "Нейков Нейко": "латинская буква"} {
		data, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback[name]))
		if err != nil {
			t.Fatal(err)
		}
		if i, j := strings.Index(string(data), hint), strings.Index(string(data), "\n## "); i < 0 || i > j {
			t.Errorf("the feedback of %s does not open with %q:\n%s", name, hint, data)
		}
	}
	for _, st := range rep.Students {
		data, err := os.ReadFile(filepath.Join(out, FeedbackDir, rep.Feedback[st.Name]))
		if err != nil {
			t.Fatal(err)
		}
		if w := latinWords(markdownProse(string(data)), names); len(w) > 0 {
			t.Errorf("the feedback of %s (%s, %s) has Latin words %q:\n%s", st.Name, st.Lang, st.Result.Verdict, w, data)
		}
	}
}
