package checker

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestBatchBesideLoadError grades honest programs in one BuildMany beside a program that imports a
// path that looks like the standard library but that the go command cannot load ("database", a
// folder of GOROOT without Go files; "fmt/", "fmt/../os"; "syscall/js", whose files are all for
// another system). The go command then fails before building anything, and its build-fail event
// names the imported path, not the importer: no learner is blamed, and every honest program would
// be built alone, one go command each, for one classmate's import.
func TestBatchBesideLoadError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a class of programs")
	}
	defer func(old bool) { testNoCache = old }(testNoCache)
	testNoCache = true
	for _, imp := range []string{"database", "fmt/", "fmt/../os", "syscall/js"} {
		t.Run(imp, func(t *testing.T) {
			var srcs []string
			for k := 0; k < 3; k++ {
				srcs = append(srcs, writeProgram(t, honestProgram(100+k)))
			}
			srcs = append(srcs, writeProgram(t, map[string]string{"main.go": fmt.Sprintf("package main\n\nimport _ %q\n\nfunc main() {}\n", imp)}))
			progs, errs := BuildMany(context.Background(), srcs, Limits{BuildTime: 20 * time.Second})
			defer closeAll(progs)
			for k := 0; k < 3; k++ {
				if errs[k] != nil {
					t.Fatalf("honest program %d: %v", k, errs[k])
				}
				if !progs[k].batched {
					t.Errorf("honest program %d was built alone beside an import of %q", k, imp)
				}
			}
			if errs[3] == nil {
				t.Errorf("the import of %q built", imp)
			}
		})
	}
}
