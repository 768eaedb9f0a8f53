package workspace

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/workbook-course/workbook/internal/paths"
)

// Invocation is how the learner runs workbook, the executable exe, from the folder wd, for the
// commands the tool suggests to work when pasted there: "workbook" when it is installed; when it
// runs through `go run` in a clone, `go run ./cmd/workbook` at the clone's root and
// `go -C REL run ./cmd/workbook` below it (a plain `go run ../../cmd/workbook` fails in an exercise
// folder, which is a module of its own: "outside main module").
//
// A learner who stands outside the clone (in a workspace `workbook init DIR` made elsewhere) runs
// the clone's workbook with `go -C CLONE run ./cmd/workbook`, CLONE the clone's absolute path:
// cwd, the folder the go command started the tool in, tells which clone (InvocationFrom).
func Invocation(exe, wd string) string {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = wd
	}
	return InvocationFrom(exe, wd, cwd)
}

// InvocationFrom is Invocation for a tool started in the folder cwd.
func InvocationFrom(exe, wd, cwd string) string {
	if !viaGoRun(exe) {
		return "workbook"
	}
	if root := CloneRoot(wd); root != "" {
		return goRunFrom(wd, root)
	}
	if root := CloneRoot(cwd); root != "" {
		return "go -C " + shellWord(root) + " run ./cmd/workbook"
	}
	return "workbook"
}

// shellWord is path as one word of a shell command line: quoted when it holds anything but
// letters, digits and / . _ - (a space in a home folder's name, say).
func shellWord(path string) string {
	p := filepath.ToSlash(path)
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-:") == "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// InvocationHere is Invocation for the running executable and the folder the learner stands in
// (Here). "workbook" when either cannot be known.
func InvocationHere() string {
	exe, err := os.Executable()
	if err != nil {
		return "workbook"
	}
	wd, err := Here()
	if err != nil {
		return "workbook"
	}
	return Invocation(exe, wd)
}

// Here is the folder the learner stands in: the working folder, or, when `go -C DIR run
// ./cmd/workbook` started the tool in the clone (DIR: ../../.. from an exercise's folder, or the
// clone's path from a workspace `workbook init` made elsewhere), the folder the shell was in, which
// the go command leaves in PWD: a folder below the working folder, or one inside a workspace of its
// own (never a folder PWD names for some other reason). The commands the tool suggests are pasted
// there, the exercise whose folder it is is the one meant, and the paths it shows are read from
// there.
func Here() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	pwd := os.Getenv("PWD")
	if !filepath.IsAbs(pwd) || pwd == wd {
		return wd, nil
	}
	if info, err := os.Stat(pwd); err != nil || !info.IsDir() {
		return wd, nil
	}
	if paths.Under(wd, pwd) {
		return pwd, nil
	}
	if ws := Find(pwd); ws != nil && ws.Clone == "" && ws.Exists() && CloneRoot(wd) != "" {
		return pwd, nil
	}
	return wd, nil
}

// suggested caches, per list of commands, the pattern of a suggested command (see Runnable).
var suggested sync.Map

// bareQuoted is the invocation alone, in quotes: «workbook», 'workbook', `workbook`.
var bareQuoted = regexp.MustCompile("([«„“\"'`])workbook([»“\"'`])")

// Runnable rewrites the commands msg suggests into inv, the invocation that works where the learner
// stands: "workbook hint X" (the word workbook at the start of a command, followed by one of
// commands, so that prose such as "the workbook course" is left alone, in a message as in
// Markdown's `code`) and the invocation alone in quotes ('workbook'). msg is unchanged when inv is
// plain "workbook". Runnable is idempotent.
func Runnable(inv string, commands []string, msg string) string {
	if inv == "workbook" {
		return msg
	}
	key := strings.Join(commands, "|")
	re, ok := suggested.Load(key)
	if !ok {
		re, _ = suggested.LoadOrStore(key, regexp.MustCompile("(^|[\\s«„“\"'(`])workbook( (?:"+key+")\\b)"))
	}
	msg = re.(*regexp.Regexp).ReplaceAllString(msg, "${1}"+inv+"${2}")
	return bareQuoted.ReplaceAllString(msg, "${1}"+inv+"${2}")
}

// viaGoRun reports whether exe is a binary `go run` built: before Go 1.24 it lives in a go-build
// folder of the temporary folder, and it still does on a first run; from Go 1.24 on, `go run` keeps
// the executables it links in the build cache, as GOCACHE/XX/<the action's hash>-d/NAME, where XX is
// the hash's first two hex digits, and later runs start the cached one.
func viaGoRun(exe string) bool {
	slashed := filepath.ToSlash(exe)
	if strings.Contains(slashed, "/go-build") && paths.Under(os.TempDir(), exe) {
		return true
	}
	action := filepath.Base(filepath.Dir(exe))
	shard := filepath.Base(filepath.Dir(filepath.Dir(exe)))
	hash, ok := strings.CutSuffix(action, "-d")
	return ok && len(shard) == 2 && isHex(shard) && len(hash) >= 32 && isHex(hash) && strings.HasPrefix(hash, shard)
}

func isHex(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdef") == ""
}

// goRunFrom is the `go run` command that runs the clone's workbook from the folder wd in it.
func goRunFrom(wd, root string) string {
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == "." {
		return "go run ./cmd/workbook"
	}
	return "go -C " + filepath.ToSlash(rel) + " run ./cmd/workbook"
}
