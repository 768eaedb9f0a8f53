package grade

import (
	"strings"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

func TestLangGuesser(t *testing.T) {
	job := deadlineJob(t)
	l := newLangGuesser(job.Starters, job.Solutions, job.Cases)
	solBG := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	solRU := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	// A Bulgarian program without the letters only Bulgarian uses is still Bulgarian by its words.
	noHard := strings.NewReplacer("ъ", "а", "Ъ", "А", "ѝ", "и").Replace(solBG)
	prog := func(text string) Source { return Source{Files: map[string][]byte{"main.go": []byte(text)}} }
	for _, tt := range []struct {
		name, text, want string
	}{
		{"bg", solBG, "bg"},
		{"ru", solRU, "ru"},
		{"bg without ъ and ѝ", noHard, "bg"},
		{"no words", "package main\n\nfunc main() {}\n", ""},
	} {
		if got := l.fromProgram(prog(tt.text)); got != tt.want {
			t.Errorf("fromProgram(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		name, got, want string
	}{
		{"ru transcript", "такт 0, попытка 1: timeout\nрезультат: timeout\n", "ru"},
		{"bg transcript", "тик 0, опит 1: timeout\nрезултат: timeout\n", "bg"},
		{"nothing", "", ""},
		{"numbers only", "0 1 2\n", ""},
	} {
		if got := l.fromOutput([]checker.CaseResult{{Got: tt.got}}); got != tt.want {
			t.Errorf("fromOutput(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
