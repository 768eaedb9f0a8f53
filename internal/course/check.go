package course

import (
	"cmp"
	"context"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/vet"
)

// ToolError is a check that could not be made because the checker failed, not the program.
type ToolError struct{ Err error }

func (e *ToolError) Error() string { return e.Err.Error() }
func (e *ToolError) Unwrap() error { return e.Err }

// Check checks the program in dir against the exercise's cases in o.Lang (CheckCases: its own and a
// few drawn afresh), and notes on each failed case whose output is the transcript of the course's
// other language that it is (MarkOtherLanguage). A check cut short by ctx returns ctx.Err(); one
// the checker could not make, a *ToolError.
func (e *Exercise) Check(ctx context.Context, dir string, o checker.Options) (*checker.Result, error) {
	return e.CheckSeeded(ctx, dir, o, 0)
}

// CheckSeeded is Check with the drawn cases of an earlier check (Result.Seed) drawn again with seed
// and shown in full (CheckCasesSeeded), or, for seed 0, drawn afresh; Result.Seed is the seed
// when a case was drawn.
func (e *Exercise) CheckSeeded(ctx context.Context, dir string, o checker.Options, seed uint64) (*checker.Result, error) {
	reveal := seed != 0
	if !reveal {
		seed = NewSeed()
	}
	cases, err := e.CheckCasesSeeded(ctx, seed, o.Lang, reveal)
	if err != nil {
		return nil, err
	}
	o.Exercise = e.Name
	o.Limits = e.Limits(o.Limits)            // a virtual-time exercise's program runs in virtual time
	advice := make(chan []checker.Advice, 1) // vetted while the program is built and run
	go func() { advice <- vet.Advise(ctx, dir, i18n.New(cmp.Or(o.UILang, o.Lang))) }()
	res, err := checker.Check(ctx, dir, cases, o)
	if ctx.Err() != nil {
		// Whatever the runs cut short look like, nothing of it is the program's verdict.
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, &ToolError{err}
	}
	MarkOtherLanguage(res, cases, o.Lang)
	for _, c := range res.Cases {
		if c.Drawn {
			res.Seed = seed
			break
		}
	}
	res.Advice = <-advice
	return res, nil
}

// MarkOtherLanguage notes, on each failed case whose output is the transcript of the course's other
// language, that it is (checker.MarkOtherLanguage): a Bulgarian program checked in Russian is told
// so, not shown a list of letters that differ.
func MarkOtherLanguage(res *checker.Result, cases []checker.Case, lang string) {
	scripts := map[string][]byte{}
	for _, c := range cases {
		scripts[c.Name] = c.Script
	}
	for i := range res.Cases {
		cs := &res.Cases[i]
		if cs.Diff == nil {
			continue
		}
		for _, other := range Langs {
			if other != lang {
				checker.MarkOtherLanguage(cs.Diff, cs.Got, expectedIn(scripts[cs.Name], other))
			}
		}
	}
}

// expectedIn is the stdout a case script expects in lang: the file its `expect NAME` line names,
// NAME.lang; "" when it has none.
func expectedIn(script []byte, lang string) string {
	if len(script) == 0 {
		return ""
	}
	ar := txtar.Parse(script)
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || f[0] != "expect" {
			continue
		}
		for _, file := range ar.Files {
			if file.Name == f[1]+"."+lang {
				return string(file.Data)
			}
		}
	}
	return ""
}
