package checker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitOneExe holds every rule of fitOneExe: what may join one executable, and what builds alone.
func TestFitOneExe(t *testing.T) {
	const head = "package main\n\nimport (\n\t\"errors\"\n\t\"flag\"\n\t\"fmt\"\n\t\"os\"\n\t\"time\"\n)\n\nvar _, _, _, _ = errors.New, flag.Int, fmt.Println, os.Exit\nvar _ = time.Second\n\n"
	const main = "\nfunc main() { fmt.Println(\"hi\") }\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"plain", map[string]string{"main.go": head + main}, ""},
		{"inert vars", map[string]string{"main.go": head + `
type level int
type config struct{ n int; names []string }
type table map[string]int
const limit = 3
var (
	seed      = 7
	names     = [...]string{"now", "fixed"}
	errCycle  = errors.New("a cycle")
	start     = -limit * 2
	half      = seed / 2
	wait      = 5 * time.Second
	cfg       = &config{n: 1, names: []string{"a"}}
	lvl       = level(2)
	byName    = table{"a": 1, "b": 2}
	words     = map[string][]int{"a": {1, 2}}
	grid      = [4][4]int{}
	handler   = func() { fmt.Println(seed) }
	same      = limit == 3
	text      = string(rune(65)) + "b"
	raw       = []byte("abc")
	n         = len(names)
	fn        = fmt.Sprintf
	method    = level.String
)
func (l level) String() string { return "l" }
` + main}, ""},
		{"two files", map[string]string{"main.go": head + main, "more.go": "package main\n\nfunc helper() int { return 1 }\n"}, ""},
		{"test file ignored", map[string]string{"main.go": head + main, "main_test.go": "package main_test\n\nfunc init() {}\n"}, ""},
		{"build tag", map[string]string{"main.go": "//go:build linux || !linux\n\n" + head + main}, ""},
		{"same go version", map[string]string{"go.mod": "module hw\n\ngo " + GoVersion() + "\n", "main.go": head + main}, ""},

		{"init", map[string]string{"main.go": head + "func init() { fmt.Println(\"boo\") }\n" + main}, "init"},
		{"init in another file", map[string]string{"main.go": head + main, "z.go": "package main\n\nfunc init() {}\n"}, "init"},
		{"var calls a function", map[string]string{"main.go": head + "var x = setup()\nfunc setup() int { fmt.Println(\"boo\"); return 1 }\n" + main}, "package_var"},
		{"var calls a std function", map[string]string{"main.go": head + "var now = time.Now()\n" + main}, "package_var"},
		{"var prints", map[string]string{"main.go": head + "var _, _ = fmt.Println(\"boo\")\n" + main}, "package_var"},
		{"func literal called", map[string]string{"main.go": head + "var x = func() int { fmt.Println(\"boo\"); return 1 }()\n" + main}, "package_var"},
		{"flag at package level", map[string]string{"main.go": head + "var n = flag.Int(\"n\", 1, \"how many\")\n" + main}, "package_var"},
		{"errors.New of a variable", map[string]string{"main.go": head + "var s = \"x\"\nvar e = errors.New(s)\n" + main}, "package_var"},
		{"index", map[string]string{"main.go": head + "var a = []int{1}\nvar b = a[3]\n" + main}, "package_var"},
		{"division by a variable", map[string]string{"main.go": head + "var zero = 0\nvar x = 1 / zero\n" + main}, "package_var"},
		{"shift by a variable", map[string]string{"main.go": head + "var s = -1\nvar x = 1 << s\n" + main}, "package_var"},
		{"comparison of interfaces", map[string]string{"main.go": head + "var a, b any = []int{}, []int{}\nvar c = a == b\n" + main}, "package_var"},
		{"map key from a variable", map[string]string{"main.go": head + "var k any = []int{}\nvar m = map[any]int{k: 1}\n" + main}, "package_var"},
		{"type assertion", map[string]string{"main.go": head + "var a any = 1\nvar s = a.(string)\n" + main}, "package_var"},
		{"dereference", map[string]string{"main.go": head + "var p *int\nvar x = *p\n" + main}, "package_var"},
		{"field of a nil pointer", map[string]string{"main.go": head + "type t struct{ n int }\nvar p *t\nvar x = p.n\n" + main}, "package_var"},
		{"receive", map[string]string{"main.go": head + "var c chan int\nvar x = <-c\n" + main}, "package_var"},
		{"make", map[string]string{"main.go": head + "var b = make([]byte, 1<<40)\n" + main}, "package_var"},
		{"shadowed conversion", map[string]string{"main.go": head + "func int(x float64) float64 { fmt.Println(\"boo\"); return x }\nvar x = int(2)\n" + main}, "package_var"},
		{"shadowed len", map[string]string{"main.go": head + "func len(s string) int { fmt.Println(\"boo\"); return 0 }\nvar x = len(\"a\")\n" + main}, "package_var"},
		{"slice to array", map[string]string{"main.go": head + "type four [4]int\nvar s = []int{1}\nvar a = four(s)\n" + main}, "package_var"},
		{"method value of a variable", map[string]string{"main.go": head + "type t struct{}\nfunc (t) M() {}\nvar v t\nvar m = v.M\n" + main}, "package_var"},

		{"linkname", map[string]string{"main.go": head + "//go:linkname x other.x\nvar x int\n" + main}, "directive"},
		{"noinline", map[string]string{"main.go": head + "//go:noinline\nfunc f() {}\n" + main}, "directive"},
		{"embed", map[string]string{"main.go": head + "//go:embed main.go\nvar src string\n" + main}, "directive"},
		{"line directive", map[string]string{"main.go": head + "//line other.go:1\nfunc f() {}\n" + main}, "directive"},

		{"unsafe", map[string]string{"main.go": "package main\n\nimport \"unsafe\"\n\nvar _ = unsafe.Sizeof(0)\n\nfunc main() {}\n"}, "import"},
		{"reflect", map[string]string{"main.go": "package main\n\nimport \"reflect\"\n\nfunc main() { _ = reflect.TypeOf(0) }\n"}, "import"},
		{"runtime", map[string]string{"main.go": "package main\n\nimport \"runtime\"\n\nfunc main() { runtime.Gosched() }\n"}, "import"},
		{"runtime/debug", map[string]string{"main.go": "package main\n\nimport \"runtime/debug\"\n\nfunc main() { debug.PrintStack() }\n"}, "import"},
		{"cgo", map[string]string{"main.go": "package main\n\nimport \"C\"\n\nfunc main() {}\n"}, "import"},
		{"json", map[string]string{"main.go": "package main\n\nimport \"encoding/json\"\n\nfunc main() { json.Marshal(1) }\n"}, "import"},

		{"%T", map[string]string{"main.go": head + "func main() { fmt.Printf(\"%T\\n\", 1) }\n"}, "verb"},
		{"%-8T", map[string]string{"main.go": head + "func main() { fmt.Printf(\"%-8T|\\n\", 1) }\n"}, "verb"},
		{"%#v", map[string]string{"main.go": head + "func main() { fmt.Printf(\"%#v\\n\", 1) }\n"}, "verb"},
		{"%+v", map[string]string{"main.go": head + "func main() { fmt.Printf(\"%+v\\n\", 1) }\n"}, "verb"},
		{"%[1]T in a raw string", map[string]string{"main.go": head + "func main() { fmt.Printf(`%[1]T`, 1) }\n"}, "verb"},

		{"no main", map[string]string{"main.go": head + "func Main() {}\n"}, "package"},
		{"main with a result", map[string]string{"main.go": head + "func main() int { return 0 }\n"}, "package"},
		{"main as a variable", map[string]string{"main.go": head + "var main = func() {}\n"}, "package"},
		{"another package", map[string]string{"main.go": head + main, "lib.go": "package lib\n"}, "package"},
		{"the package's own name", map[string]string{"main.go": head + "func main() { fmt.Println(\"" + oneExePackage + "\") }\n"}, "package"},
		{"syntax error", map[string]string{"main.go": head + "func main() {\n"}, "syntax"},
		{"huge array", map[string]string{"main.go": head + "var big [1 << 30]byte\n" + main}, "large"},
		{"huge array by a named type", map[string]string{"main.go": head + "type kb [1024]byte\ntype gb [1 << 20]kb\nvar big gb\n" + main}, "large"},
		{"array of a constant length", map[string]string{"main.go": head + "const n = 1 << 30\nvar big [n]byte\n" + main}, "large"},
		{"huge composite", map[string]string{"main.go": head + "type kb [1024]byte\nvar big = &[4096]kb{}\n" + main}, "package_var"},
		{"large source", map[string]string{"main.go": head + main + "// " + strings.Repeat("x", maxOneExeSource) + "\n"}, "large"},
		{"older go version", map[string]string{"go.mod": "module hw\n\ngo 1.22\n", "main.go": head + main}, "go_version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := fitOneExe(writeProgram(t, tt.files))
			if got != tt.want {
				t.Errorf("fitOneExe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTypeVerb(t *testing.T) {
	for s, want := range map[string]bool{
		"%T": true, "%-10T": true, "%[2]T": true, "%#v": true, "%-#v": true, "%+v": true, "%#+v": true, "%+8.3v": true,
		"%v": false, "%#x": false, "%+d": false, "100%": false, "%s %d %q": false, "%%T": true,
	} {
		if got := typeVerb.MatchString(s); got != want {
			t.Errorf("typeVerb.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCleanOneExe: a stack trace of a program in one executable reads as a separate build's.
func TestCleanOneExe(t *testing.T) {
	mod := filepath.Join(os.TempDir(), "workbook-batch-1-2", "mod")
	in := "panic: boom [recovered]\n\tpanic: (" + oneExePackage + ".T) 0xc000012345\n\ngoroutine 1 [running]:\n" +
		"learners/p003.(*T).M(...)\n\t" + filepath.Join(mod, "p003", "main.go") + ":7\n" +
		"learners/p003.main()\n\t" + filepath.Join(mod, "p003", "main.go") + ":12 +0x1d\n" +
		"created by learners/p003.start in goroutine 1\n" +
		"main.main()\n\t" + filepath.Join(mod, dispatchFile) + ":40 +0x85\n"
	want := "panic: boom [recovered]\n\tpanic: (main.T) 0xc000012345\n\ngoroutine 1 [running]:\n" +
		"main.(*T).M(...)\n\tmain.go:7\n" +
		"main.main()\n\tmain.go:12 +0x1d\n" +
		"created by main.start in goroutine 1\n"
	if got := cleanTrace(in); got != want {
		t.Errorf("cleanTrace:\n%s\nwant:\n%s", got, want)
	}
	plain := "goroutine 1 [running]:\nmain.main()\n\tmain.go:3 +0x1d\n"
	if got := cleanOneExe(plain); got != plain {
		t.Errorf("cleanOneExe changed a separate build's trace: %q", got)
	}
}
