package verify

import (
	"context"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// buildMany builds the programs of verifyMany (their copies in dirs), those of virtual-time
// exercises apart from the others: a program runs in virtual time when its exercise does.
func buildMany(ctx context.Context, list []*course.Exercise, progs []*program, dirs []string, lim checker.Limits) ([]*checker.Program, []error) {
	virtual := map[string]bool{}
	for _, e := range list {
		if e.Virtual() {
			virtual[e.Name] = true
		}
	}
	var plain, vt []int
	for i, p := range progs {
		if virtual[p.exercise] {
			vt = append(vt, i)
		} else {
			plain = append(plain, i)
		}
	}
	built := make([]*checker.Program, len(dirs))
	errs := make([]error, len(dirs))
	// The course's own programs (starters, solutions, kept wrong programs): never failed by a build
	// limit meant for a learner's compile-time bomb.
	lim.Trusted = true
	for _, group := range []struct {
		which []int
		lim   checker.Limits
	}{{plain, lim}, {vt, withVirtual(lim)}} {
		if len(group.which) == 0 {
			continue
		}
		ds := make([]string, len(group.which))
		for k, i := range group.which {
			ds[k] = dirs[i]
		}
		b, e := checker.BuildMany(ctx, ds, group.lim)
		for k, i := range group.which {
			built[i], errs[i] = b[k], e[k]
		}
	}
	return built, errs
}

func withVirtual(lim checker.Limits) checker.Limits {
	lim.Virtual = true
	return lim
}
