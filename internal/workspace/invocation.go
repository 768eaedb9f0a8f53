package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/workbook-course/workbook/internal/paths"
)

// Invocation is how the learner runs workbook, the executable exe, from the folder wd, for the
// commands the tool suggests to work when pasted there: "workbook" when it is installed; when it
// runs through `go run` in a clone, `go run ./cmd/workbook` at the clone's root and
// `go -C REL run ./cmd/workbook` below it (a plain `go run ../../cmd/workbook` fails in an exercise
// folder, which is a module of its own: "outside main module").
func Invocation(exe, wd string) string {
	if !viaGoRun(exe) {
		return "workbook"
	}
	if root := CloneRoot(wd); root != "" {
		return goRunFrom(wd, root)
	}
	return "workbook"
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
