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

// viaGoRun reports whether exe is a binary `go run` built: it lives in a go-build folder of the
// temporary folder.
func viaGoRun(exe string) bool {
	return strings.Contains(filepath.ToSlash(exe), "/go-build") && paths.Under(os.TempDir(), exe)
}

// goRunFrom is the `go run` command that runs the clone's workbook from the folder wd in it.
func goRunFrom(wd, root string) string {
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == "." {
		return "go run ./cmd/workbook"
	}
	return "go -C " + filepath.ToSlash(rel) + " run ./cmd/workbook"
}
