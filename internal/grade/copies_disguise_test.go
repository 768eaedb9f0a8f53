package grade

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// swap replaces each old by its new in src, and fails when an old is not there: a disguise that
// does not apply would prove nothing.
func swap(t *testing.T, src string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("no %q in the program", pairs[i])
		}
		src = strings.ReplaceAll(src, pairs[i], pairs[i+1])
	}
	return src
}

// deadCode is code a copy may carry that never runs: a function, a type with a method, a variable
// and a constant nobody uses.
const deadCode = `
func checksum(values []int) (int, error) {
	total := 0
	for i, v := range values {
		if v < 0 {
			return 0, fmt.Errorf("value %d at %d is negative", v, i)
		}
		total = total*31 + v
	}
	return total % 1000003, nil
}

type ledger struct {
	entries map[string]int
	order   []string
}

func (l *ledger) add(name string, amount int) {
	if _, ok := l.entries[name]; !ok {
		l.order = append(l.order, name)
	}
	l.entries[name] += amount
}

var defaultLedger = ledger{entries: map[string]int{"start": 1}}

const banner = "ledger v2 %d entries %s"
`

type disguise struct {
	name string
	do   func(*testing.T, string) string
}

var (
	incr      = regexp.MustCompile(`\b(\w+)\+\+`)
	returnVar = regexp.MustCompile(`return (\w+)\n`)
)

// anyDisguises are the mechanical rewrites of any program of the exercise that change nothing it
// does; combined, they are applied one after another.
var anyDisguises = []disguise{
	{"dead code appended", func(t *testing.T, s string) string { return s + deadCode }},
	{"fmt.Fprintf(os.Stdout)", func(t *testing.T, s string) string {
		return swap(t, s, "fmt.Printf(", "fmt.Fprintf(os.Stdout, ")
	}},
	{"imports aliased", func(t *testing.T, s string) string {
		return swap(t, s, "\t\"fmt\"\n", "\tout \"fmt\"\n", "fmt.", "out.", "\t\"strconv\"\n", "\tconv \"strconv\"\n", "strconv.", "conv.")
	}},
	{"x += 1", func(t *testing.T, s string) string { return incr.ReplaceAllString(s, "$1 += 1") }},
	{"parentheses", func(t *testing.T, s string) string { return returnVar.ReplaceAllString(s, "return (($1))\n") }},
	{"{} after every statement", func(t *testing.T, s string) string { return pad(t, s, "{}") }},
	{"if false after every statement", func(t *testing.T, s string) string {
		return pad(t, s, `if false { fmt.Println("never") }`)
	}},
	{"declarations reordered", func(t *testing.T, s string) string { return reorder(t, s) }},
}

// refDisguises are rewrites of exercise-deadline's Bulgarian reference solution that change nothing
// it does.
var refDisguises = []disguise{
	{"if and else swapped", func(t *testing.T, s string) string {
		return swap(t, s, "\t\tif next > uint64(deadline) {\n\t\t\tfmt.Printf(\"спирам: опит %d би бил на тик %d, след срока %d\\n\", attempt+1, next, deadline)\n\t\t\treturn answer\n\t\t}\n\t\ttick = next\n",
			"\t\tif !(next > uint64(deadline)) {\n\t\t\ttick = next\n\t\t} else {\n\t\t\tfmt.Printf(\"спирам: опит %d би бил на тик %d, след срока %d\\n\", attempt+1, next, deadline)\n\t\t\treturn answer\n\t\t}\n")
	}},
	{"x = x + 1", func(t *testing.T, s string) string { return swap(t, s, "attempt++", "attempt = attempt + 1") }},
	{"constants named", func(t *testing.T, s string) string {
		return swap(t, s, `"503:"`, `waitPrefix`, `"503@"`, `atPrefix`, `10, 63)`, `base, bits)`,
			"\nfunc answerAt", "\nconst (\n\twaitPrefix = \"503:\"\n\tatPrefix   = \"503@\"\n\tbase       = 10\n\tbits       = 63\n)\n\nfunc answerAt")
	}},
	{"fmt.Print(fmt.Sprintf(…))", func(t *testing.T, s string) string {
		return swap(t, s, "\t\tfmt.Printf(\"тик %d, опит %d: %s\\n\", tick, attempt, answer)\n", "\t\tfmt.Print(fmt.Sprintf(\"тик %d, опит %d: %s\\n\", tick, attempt, answer))\n")
	}},
	{"strings split", func(t *testing.T, s string) string {
		return swap(t, s, `"503:"`, `"503" + ":"`, `"503@"`, `"50" + "3@"`, `"тик %d, опит %d: %s\n"`, `"тик %d, " + "опит %d: %s\n"`)
	}},
	{"dead branches", func(t *testing.T, s string) string {
		return swap(t, s, "\t\ttick = next\n", "\t\tif false {\n\t\t\tfmt.Println(\"debug\", tick)\n\t\t}\n\t\ttick = next\n\t\tfor 2 < 1 {\n\t\t\tfmt.Println(next)\n\t\t}\n",
			"\tif retryable(answer) {", "\tif 1 > 2 {\n\t\tpanic(\"never\")\n\t} else {\n\t\tbackoff += 0 * 7\n\t}\n\tif retryable(answer) {",
			"\treturn 0, false\n", "\treturn 0, false\n\tfmt.Println(\"after the return\")\n")
	}},
	{"if c {} else {…}", func(t *testing.T, s string) string {
		return swap(t, s, "\t\tif !again {\n\t\t\treturn answer\n\t\t}\n", "\t\tif again {\n\t\t} else {\n\t\t\treturn answer\n\t\t}\n",
			"\tif retryable(answer) {\n\t\treturn backoff, true\n\t}\n", "\tif !retryable(answer) {\n\t} else {\n\t\treturn backoff, true\n\t}\n")
	}},
	{"for true", func(t *testing.T, s string) string {
		return swap(t, s, "\tfor attempt := 1; ; ", "\tfor attempt := 1; true; ")
	}},
	{"unused locals", func(t *testing.T, s string) string {
		return swap(t, s, "\tvar tick uint64\n", "\tvar tick uint64\n\tspare := 42\n\t_ = spare\n",
			"\t\tanswer := answerAt(answers, attempt)\n", "\t\tanswer := answerAt(answers, attempt)\n\t\tcopyOf := answer\n\t\tvar again2 = copyOf\n\t\t_ = again2\n")
	}},
	{"var x = v", func(t *testing.T, s string) string {
		return swap(t, s, "\t\tanswer := answerAt(answers, attempt)\n", "\t\tvar answer = answerAt(answers, attempt)\n")
	}},
	{"identifiers renamed", func(t *testing.T, s string) string {
		return rename(s, map[string]string{"answer": "reply", "tick": "clock", "earliest": "whenNext", "backoff": "pause",
			"again": "more", "next": "upcoming", "attempt": "try", "text": "rest"})
	}},
}

// aloneDisguises are rewrites of the Bulgarian reference that cannot be combined with the others.
var aloneDisguises = []disguise{
	{"a dot import", func(t *testing.T, s string) string {
		return swap(t, s, "\t\"fmt\"\n", "\t. \"fmt\"\n", "fmt.", "")
	}},
}

// combined applies every disguise of the list, one after another.
func combined(list []disguise) disguise {
	return disguise{"all of them", func(t *testing.T, s string) string {
		for _, d := range list {
			s = d.do(t, s)
		}
		return s
	}}
}

// TestCopyDisguises: a copy of the reference solution or of a classmate's program put through the
// rewrites that change nothing it does, one at a time and all together, is still a copy: of the
// reference (Winnow.Reference), or of the classmate (the same Print, and a pair in one group).
func TestCopyDisguises(t *testing.T) {
	w, _ := deadlineWinnower(t)
	job := deadlineJob(t)
	starters := map[string]bool{}
	for _, s := range job.Starters {
		for _, f := range DeclForms(s) {
			starters[f] = true
		}
	}
	ref := string(courseFile(t, "solutions/exercise-deadline/bg/main.go"))
	refPrint := Fingerprint(Source{Files: map[string][]byte{"main.go": []byte(ref)}}, starters)
	all := append(append([]disguise{}, refDisguises...), anyDisguises...)
	for _, d := range append(append(all, aloneDisguises...), combined(all)) {
		t.Run("reference/"+d.name, func(t *testing.T) {
			src := Source{Module: defaultModule, Files: map[string][]byte{"main.go": []byte(d.do(t, ref))}}
			if got := w.of(src).Reference; got["bg"] == 0 || got["ru"] == 0 {
				t.Errorf("not a copy of the reference: %v", got)
			}
			{
				if got := Fingerprint(src, starters); got != refPrint {
					t.Errorf("print %+v, want the reference's %+v", got, refPrint)
				}
			}
		})
	}
	t.Run("reference/all of them, moved into a package", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, toImpl(combined(all).do(t, ref)))
		src := programSource(dir)
		if !strings.Contains(string(src.Files["impl/impl.go"]), "func Main() {") {
			t.Fatalf("the program was not moved into impl: %q", slices.Sorted(maps.Keys(src.Files)))
		}
		if got := w.of(src).Reference; got["bg"] == 0 {
			t.Errorf("not a copy of the reference: %v", got)
		}
	})
	for _, mate := range []string{"a", "b", "c", "d"} {
		orig := readTestdata(t, "testdata/independent/"+mate+"/main.go")
		origSrc := Source{Module: defaultModule, Files: map[string][]byte{"main.go": []byte(orig)}}
		for _, d := range append(anyDisguises, combined(anyDisguises)) {
			t.Run(mate+"/"+d.name, func(t *testing.T) {
				src := Source{Module: defaultModule, Files: map[string][]byte{"main.go": []byte(d.do(t, orig))}}
				if got, want := Fingerprint(src, starters), Fingerprint(origSrc, starters); got != want {
					t.Errorf("print %+v, want the original's %+v", got, want)
				}
				groups, _ := WinnowCopies([]Student{{Name: "orig", Winnow: w.of(origSrc)}, {Name: "copy", Winnow: w.of(src)}})
				if len(groups) != 1 || strings.Join(groups[0].Students, ",") != "copy,orig" {
					t.Errorf("groups %+v, want copy and orig together", groups)
				}
			})
		}
	}
}

// TestCopiesIndependent: correct programs written independently (four in styles of their own, in
// both languages, and seven written from the hints) are copies neither of the reference solutions
// nor of each other, however much the normalisation reads alike.
func TestCopiesIndependent(t *testing.T) {
	w, starter := deadlineWinnower(t)
	job := deadlineJob(t)
	starters := map[string]bool{}
	for _, s := range job.Starters {
		for _, f := range DeclForms(s) {
			starters[f] = true
		}
	}
	var students []Student
	for _, name := range []string{"a", "b", "c", "d"} {
		src := Source{Module: defaultModule, Files: map[string][]byte{"main.go": []byte(readTestdata(t, "testdata/independent/"+name+"/main.go"))}}
		students = append(students, Student{Name: name, Winnow: w.of(src), Fingerprint: Fingerprint(src, starters)})
	}
	for i, body := range fromHints {
		src := withBody(t, starter, body)
		students = append(students, Student{Name: "hints" + string(rune('1'+i)), Winnow: w.of(src), Fingerprint: Fingerprint(src, starters)})
	}
	prints := map[string]string{}
	for _, st := range students {
		if len(st.Winnow.Reference) > 0 {
			t.Errorf("%s is taken for a copy of the reference: %v", st.Name, st.Winnow.Reference)
		}
		if other, ok := prints[st.Fingerprint.Hash]; ok {
			t.Errorf("%s and %s have one print", st.Name, other)
		}
		prints[st.Fingerprint.Hash] = st.Name
	}
	groups, pairs := WinnowCopies(students)
	if len(groups) != 0 || len(pairs) != 0 {
		t.Errorf("independent programs grouped %+v, paired %+v", groups, pairs)
	}
}

// TestNormalAnyGo: copy detection reads every Go file of this repository (the course's programs,
// the checker's hostile ones, the tool's own code, test files that do not parse alike) without
// failing, and reads each the same way twice.
func TestNormalAnyGo(t *testing.T) {
	root := "../.."
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n++
		src := Source{Module: "github.com/workbook-course/workbook", Files: map[string][]byte{"main.go": data, "other/x.go": data}}
		for _, live := range []bool{false, true} {
			a, b := winnow(wtokens(src, live)), winnow(wtokens(src, live))
			if !slices.Equal(a, b) {
				t.Errorf("%s: read two ways", p)
			}
			declForms(src, live)
		}
		return nil
	})
	if n < 100 {
		t.Fatalf("only %d Go files read", n)
	}
}

// TestNormalHostile: what a hostile program makes of copy detection's reading of constants and
// declarations stays bounded: constants that double or square each other are not computed past
// a bound, a chain of constants or of calls written backwards is followed once, constants defined
// by each other have no value. Without the bounds these tests do not finish.
func TestNormalHostile(t *testing.T) {
	chain := func(n int, line func(i int) string) string {
		var b strings.Builder
		b.WriteString("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(c0, f0()) }\n\nfunc f" + strconv.Itoa(n) + "() int { return 0 }\n\nconst c" + strconv.Itoa(n) + " = 3\n")
		for i := n - 1; i >= 0; i-- {
			b.WriteString(line(i))
		}
		return b.String()
	}
	next := func(i int) string { return strconv.Itoa(i + 1) }
	tests := []struct{ name, src string }{
		{"strings doubled", chain(80, func(i int) string {
			return "const c" + strconv.Itoa(i) + " = c" + next(i) + ` + c` + next(i) + ` + "ab"` + "\nfunc f" + strconv.Itoa(i) + "() int { return f" + next(i) + "() }\n"
		})},
		{"numbers squared", chain(80, func(i int) string {
			return "const c" + strconv.Itoa(i) + " = c" + next(i) + " * c" + next(i) + "\nfunc f" + strconv.Itoa(i) + "() int { return f" + next(i) + "() }\n"
		})},
		{"fractions squared", chain(80, func(i int) string {
			return "const c" + strconv.Itoa(i) + " = c" + next(i) + " * c" + next(i) + " * 1.1\nfunc f" + strconv.Itoa(i) + "() int { return f" + next(i) + "() }\n"
		})},
		{"long chains backwards", chain(20000, func(i int) string {
			return "const c" + strconv.Itoa(i) + " = c" + next(i) + " + 1\nfunc f" + strconv.Itoa(i) + "() int { return f" + next(i) + "() }\n"
		})},
		{"constants defined by each other", "package main\n\nimport \"fmt\"\n\nconst a = b + 1\nconst b = a + 1\n\nfunc main() { fmt.Println(a, b) }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := Source{Files: map[string][]byte{"main.go": []byte(tt.src)}}
			for _, tok := range wtokens(src, true) {
				if len(tok.text) > 2*maxConstString {
					t.Fatalf("a token of %d bytes", len(tok.text))
				}
			}
			for _, f := range declForms(src, true) {
				if len(f) > 4*len(tt.src)+1024 {
					t.Fatalf("a declaration read as %d bytes", len(f))
				}
			}
		})
	}
}

// TestPlainPrint: the starter as handed out is told by its plain print, which reads every
// declaration: the starter reformatted or padded with what does nothing is the starter still; with
// a function of the student's own beside it, called or not, it is not (the student is graded and
// told what the program did, not that it was never touched).
func TestPlainPrint(t *testing.T) {
	job := deadlineJob(t)
	plain := map[string]bool{}
	for _, s := range job.Starters {
		plain[plainPrint(s).Hash] = true
	}
	starter := string(courseFile(t, "exercises/exercise-deadline/bg/main.go"))
	for _, tt := range []struct {
		name, src string
		starter   bool
	}{
		{"as handed out", starter, true},
		{"padded", pad(t, starter, "{}"), true},
		{"reordered", reorder(t, starter), true},
		{"a helper nobody calls", starter + deadCode, false},
		{"a body", swap(t, starter, "\treturn \"\"\n}", "\treturn answerAt(answers, deadline)\n}"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := Source{Module: defaultModule, Files: map[string][]byte{"main.go": []byte(tt.src)}}
			if got := plain[plainPrint(src).Hash]; got != tt.starter {
				t.Errorf("taken for the starter: %v, want %v", got, tt.starter)
			}
		})
	}
}

// TestReadAlike: statements written in two ways that do the same are read alike (the same
// fingerprints and declarations); written in two ways that do not, they are not.
func TestReadAlike(t *testing.T) {
	prog := func(body string) Source {
		return Source{Files: map[string][]byte{"main.go": []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tx, n, c := 1, 3, len(os.Args) > 1\n\t" +
			body + "\n\tfmt.Fprintln(os.Stderr, x, n, c)\n}\n\nfunc f() { fmt.Println() }\n")}}
	}
	tests := []struct {
		a, b  string
		alike bool
	}{
		{"for i := 0; i < n; i++ {\n\t\tx += i\n\t}", "for i := range n {\n\t\tx += i\n\t}", true},
		{"for i := 0; i < n; i += 1 {\n\t\tx += i\n\t}", "for i := range n {\n\t\tx += i\n\t}", true},
		{"for i := 1; i < n; i++ {\n\t\tx += i\n\t}", "for i := range n {\n\t\tx += i\n\t}", false},
		{"x++", "x += 1", true},
		{"x = x + 1", "x += 1", true},
		{"x = x + 2", "x++", false},
		{"x = n + x", "x += n", false},
		{"var y = x\n\tfmt.Println(y)", "y := x\n\tfmt.Println(y)", true},
		{`fmt.Print(fmt.Sprintf("%d\n", x))`, `fmt.Printf("%d\n", x)`, true},
		{`fmt.Fprintln(os.Stdout, x)`, `fmt.Println(x)`, true},
		{`fmt.Fprintln(os.Stderr, x)`, `fmt.Println(x)`, false},
		{"if c {\n\t} else {\n\t\tf()\n\t}", "if !c {\n\t\tf()\n\t}", true},
		{"if !c {\n\t} else {\n\t\tf()\n\t}", "if c {\n\t\tf()\n\t}", true},
		{"if c {\n\t} else {\n\t\tf()\n\t}", "if c {\n\t\tf()\n\t}", false},
		{"if !c {\n\t\tf()\n\t} else {\n\t\tx = 2\n\t}", "if c {\n\t\tx = 2\n\t} else {\n\t\tf()\n\t}", true},
		{"if x >= n {\n\t\tf()\n\t} else {\n\t\tx = 2\n\t}", "if x < n {\n\t\tx = 2\n\t} else {\n\t\tf()\n\t}", true},
		{"if x > n {\n\t\tf()\n\t} else {\n\t\tx = 2\n\t}", "if x < n {\n\t\tx = 2\n\t} else {\n\t\tf()\n\t}", false},
		{"if !c {\n\t\tf()\n\t} else if x != n {\n\t\tx = 2\n\t}", "if c {\n\t\tf()\n\t} else if x != n {\n\t\tx = 2\n\t}", false},
		{"if c {\n\t\tf()\n\t} else {\n\t}", "if c {\n\t\tf()\n\t}", true},
		{"if c {\n\t\tf()\n\t\treturn\n\t} else {\n\t\tx = 2\n\t}", "if c {\n\t\tf()\n\t\treturn\n\t}\n\tx = 2", true},
		{"if c {\n\t\tf()\n\t} else {\n\t\tx = 2\n\t}", "if c {\n\t\tf()\n\t}\n\tx = 2", false},
		{"for true {\n\t\tf()\n\t}", "for {\n\t\tf()\n\t}", true},
		{"x = 0x10 + 1_000", "x = 1016", true},
		{`fmt.Println("ab" + "cd", 1)`, `fmt.Println("abcd", 1)`, true},
		{"const k = 7\n\tx = k * 2", "x = 14", true},
		{"if 2 > 3 {\n\t\tf()\n\t}\n\tx = 1", "x = 1", true},
		{"x = 1\n\treturn\n\tf()", "x = 1\n\treturn", true},
		{"x += 0\n\tx *= 1\n\tx = 1", "x = 1", true},
		{"x *= 0\n\tx = 1", "x = 1", false},
		{"y := 5\n\t_ = y\n\tx = 1", "x = 1", true},
		{"y := f\n\ty()\n\tx = 1", "x = 1", false},
	}
	text := func(src Source) string {
		var b strings.Builder
		for _, tok := range wtokens(src, true) {
			b.WriteString(tok.text + " ")
		}
		return b.String()
	}
	for _, tt := range tests {
		t.Run(tt.a+" | "+tt.b, func(t *testing.T) {
			a, b := prog(tt.a), prog(tt.b)
			for _, s := range []Source{a, b} {
				if _, err := parser.ParseFile(token.NewFileSet(), "main.go", s.Files["main.go"], 0); err != nil {
					t.Fatal(err)
				}
			}
			ta, tb := text(a), text(b)
			if (ta == tb) != tt.alike {
				t.Errorf("read alike: %v, want %v\n%s\n%s", ta == tb, tt.alike, ta, tb)
			}
			if fa, fb := Fingerprint(a, nil), Fingerprint(b, nil); (fa == fb) != tt.alike {
				t.Errorf("prints alike: %v, want %v", fa == fb, tt.alike)
			}
		})
	}
}
