package grade

import (
	"reflect"
	"testing"

	"github.com/workbook-course/workbook/checker"
)

const starterSrc = `package main

import "fmt"

func main() {
	fmt.Println(double(21))
}

// double is the student's to write.
func double(n int) int {
	return 0
}
`

const ownSrc = `package main

import "fmt"

func main() {
	fmt.Println(double(21))
}

// double doubles by adding in a loop, the long way.
func double(n int) int {
	total := 0
	for i := 0; i < 2; i++ {
		total += n
	}
	if total < 0 {
		fmt.Println("negative")
	}
	return total
}
`

// The same program: reformatted, comments gone, identifiers renamed, functions reordered.
const disguisedSrc = `package main
import "fmt"
func twice(x int) int { acc := 0; for k := 0; k < 2; k++ { acc += x }
	if acc < 0 { fmt.Println("negative") }
	return acc }
func main() { fmt.Println(twice(21)) }
`

// A different program: the loop adds three times.
const otherSrc = `package main

import "fmt"

func main() {
	fmt.Println(double(21))
}

func double(n int) int {
	total := 0
	for i := 0; i < 3; i++ {
		total += n
	}
	if total < 0 {
		fmt.Println("negative")
	}
	return total
}
`

func src(text string) Source { return Source{Files: map[string][]byte{"main.go": []byte(text)}} }

func TestFingerprint(t *testing.T) {
	starter := map[string]bool{}
	for _, f := range DeclForms(src(starterSrc)) {
		starter[f] = true
	}
	own := Fingerprint(src(ownSrc), starter)
	if own.Hash == "" || own.Tokens < minCopyTokens {
		t.Fatalf("own code: %+v", own)
	}
	if got := Fingerprint(src(disguisedSrc), starter); got.Hash != own.Hash {
		t.Errorf("reformatted, renamed and reordered: %s, want %s", got.Hash, own.Hash)
	}
	if got := Fingerprint(src(otherSrc), starter); got.Hash == own.Hash {
		t.Errorf("a different program has the same print")
	}
	if got := Fingerprint(src(starterSrc), starter); got.Hash != "" {
		t.Errorf("the untouched starter has a print of its own: %+v", got)
	}
	// A library call is not an identifier to rename: fmt.Print is not fmt.Println.
	a := Fingerprint(src(`package main
import "fmt"
func main() { fmt.Print("x") }`), nil)
	b := Fingerprint(src(`package main
import "fmt"
func main() { fmt.Println("x") }`), nil)
	if a.Hash == b.Hash {
		t.Errorf("fmt.Print and fmt.Println give the same print")
	}
	// A copy translated into the other language (words and the punctuation around them) keeps its
	// print; printing other numbers or with other verbs does not.
	tr := func(msg, usage string) Print {
		return Fingerprint(src(`package main
import ("fmt"; "os")
func main() {
	if len(os.Args) < 2 { fmt.Fprintln(os.Stderr, "`+usage+`"); os.Exit(2) }
	for i := 0; i < 3; i++ { fmt.Printf("`+msg+`", i, 100*i) }
}`), nil)
	}
	bg := tr(`опит %d: чакане %d мс\n`, "употреба: опити СРОК")
	for _, c := range []struct {
		msg, usage string
		same       bool
	}{
		{`попытка %d — ожидание %d мс\n`, "использование: попытки СРОК", true},
		{`attempt %d, waiting %d ms\n`, "usage: tries DEADLINE", true},
		{`опит %d: чакане %d мс (от 10)\n`, "употреба: опити СРОК", false},
		{`опит %d: чакане %v мс\n`, "употреба: опити СРОК", false},
	} {
		if got := tr(c.msg, c.usage); (got.Hash == bg.Hash) != c.same {
			t.Errorf("%q: same print %v, want %v", c.msg, got.Hash == bg.Hash, c.same)
		}
	}
	// A file that does not parse still gets a print.
	if got := Fingerprint(src("package main\nfunc main() {"), nil); got.Hash == "" {
		t.Errorf("a broken file has no print")
	}
}

func TestCopies(t *testing.T) {
	p := func(h string, n int) Print { return Print{Hash: h, Tokens: n} }
	students := []Student{
		{Name: "a", Fingerprint: p("h1", 50)},
		{Name: "b", Fingerprint: p("h2", 50)},
		{Name: "c", Fingerprint: p("h1", 50)},
		{Name: "d", Fingerprint: p("h3", 50)},
		{Name: "e", Fingerprint: p("h4", 5)}, // too small to tell
		{Name: "f", Fingerprint: p("h4", 5)},
		{Name: "g", Fingerprint: Print{}}, // the starter untouched
		{Name: "h", Fingerprint: Print{}},
	}
	got := Copies(students, map[string]string{"bg": "h3"})
	want := []CopyGroup{
		{Students: []string{"a", "c"}, Tokens: 50, Hash: "h1"},
		{Students: []string{"d"}, Solution: "bg", Tokens: 50, Hash: "h3"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestByHeart(t *testing.T) {
	c := func(visible bool, st checker.Verdict, want, got string) checker.CaseResult {
		return checker.CaseResult{Visible: visible, Status: st, Want: want, Got: got}
	}
	pass, fail := checker.Pass, checker.Fail
	tests := []struct {
		name  string
		cases []checker.CaseResult
		want  bool
	}{
		{"all pass", []checker.CaseResult{c(true, pass, "a", "a"), c(false, pass, "b", "b"), c(false, pass, "c", "c")}, false},
		{"fails hidden mostly", []checker.CaseResult{c(true, pass, "a", "a"), c(false, fail, "b", "x"), c(false, fail, "c", "y"), c(false, pass, "d", "d")}, true},
		{"fails one hidden of three", []checker.CaseResult{c(true, pass, "a", "a"), c(false, fail, "b", "x"), c(false, pass, "c", "c"), c(false, pass, "d", "d")}, false},
		{"echoes a visible answer", []checker.CaseResult{c(true, pass, "a", "a"), c(false, fail, "b", "a"), c(false, pass, "c", "c"), c(false, pass, "d", "d")}, true},
		{"fails a visible case", []checker.CaseResult{c(true, fail, "a", "x"), c(false, fail, "b", "y")}, false},
		{"no hidden cases", []checker.CaseResult{c(true, pass, "a", "a")}, false},
	}
	for _, tt := range tests {
		if got := ByHeart(&checker.Result{Cases: tt.cases}); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDetectLang(t *testing.T) {
	tests := []struct{ text, want string }{
		{`fmt.Println("такт 0, попытка 1: ошибка")`, "ru"},
		{`fmt.Println("тик 0, опит 1: грешка") // опитът`, "bg"},
		{`fmt.Println("attempt 1")`, ""},
	}
	for _, tt := range tests {
		if got := DetectLang(src(tt.text)); got != tt.want {
			t.Errorf("DetectLang(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
