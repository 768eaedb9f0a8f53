package vet

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"runtime"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/lostcancel"

	"github.com/workbook-course/workbook/checker"
)

// Finding is one mistake found: its rule (the analyzer's category, such as "body_close") and where.
type Finding struct {
	Rule string `json:"rule"`
	File string `json:"file"` // relative to the program's folder, slashes
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// Pos is file:line:col.
func (f Finding) Pos() string { return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col) }

// MessageID is the i18n message that explains the finding: what is wrong, why it matters, what
// to do instead.
func (f Finding) MessageID() string { return "vet_" + f.Rule }

// Analyzers are the analyzers vet runs: the course's own and the standard passes that fit.
var Analyzers = []*analysis.Analyzer{
	SleepRetry, RetryCanceled, Backoff, RetryAfter, Idempotency, BodyClose, TimerStop, AfterLoop,
	DefaultClient, BackgroundCtx, BusyWait, BreakerCount, GoroutineLeak,
	lostcancel.Analyzer, httpresponse.Analyzer,
}

// Rules are the rules a finding may name, in the order of Analyzers (for tables and reports).
var Rules = []string{
	"sleep_retry", "retry_canceled", "backoff_jitter", "backoff_overflow", "retry_after",
	"idempotency", "body_close", "timer_stop", "ticker_stop", "after_loop", "default_client",
	"client_timeout", "background_ctx", "busy_wait", "breaker_cancel", "breaker_4xx",
	"goroutine_leak", "lostcancel", "httpresponse",
}

// Dir vets the program in dir: read with the checker's snapshot, type-checked, analysed. A
// program that does not compile is a *TypeError; one that imports what vet cannot read, an
// ErrImport.
func Dir(ctx context.Context, dir string) ([]Finding, error) {
	files, _, err := checker.ReadSource(dir)
	if err != nil {
		return nil, err
	}
	return Files(ctx, files)
}

// Files vets the program made of files.
func Files(ctx context.Context, files []checker.SourceFile) ([]Finding, error) {
	pkg, err := Load(ctx, files)
	if err != nil {
		return nil, err
	}
	return Run(pkg, Analyzers)
}

// Run runs the analyzers (and those they require) over pkg and returns their findings, sorted by
// place, one per rule and line.
func Run(pkg *Package, analyzers []*analysis.Analyzer) (findings []Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("vet: an analyzer failed: %v", r)
		}
	}()
	results := map[*analysis.Analyzer]any{}
	facts := map[factKey]analysis.Fact{}
	seen := map[Finding]bool{}
	var exec func(a *analysis.Analyzer, report bool) error
	done := map[*analysis.Analyzer]bool{}
	exec = func(a *analysis.Analyzer, report bool) error {
		if done[a] {
			return nil
		}
		done[a] = true
		resultOf := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			if err := exec(req, false); err != nil {
				return err
			}
			resultOf[req] = results[req]
		}
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       pkg.Fset,
			Files:      pkg.Files,
			Pkg:        pkg.Types,
			TypesInfo:  pkg.Info,
			TypesSizes: types.SizesFor("gc", runtime.GOARCH),
			ResultOf:   resultOf,
			ReadFile:   func(string) ([]byte, error) { return nil, os.ErrPermission },
			Report: func(d analysis.Diagnostic) {
				if !report {
					return
				}
				rule := d.Category
				if rule == "" {
					rule = a.Name
				}
				p := pkg.Fset.Position(d.Pos)
				f := Finding{Rule: rule, File: p.Filename, Line: p.Line, Col: p.Column}
				if !seen[f] && !isCourseFile(p) {
					seen[f] = true
					findings = append(findings, f)
				}
			},
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				return copyFact(facts[factKey{obj, reflect.TypeOf(fact)}], fact)
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				facts[factKey{obj, reflect.TypeOf(fact)}] = fact
			},
			ImportPackageFact: func(p *types.Package, fact analysis.Fact) bool {
				return copyFact(facts[factKey{p, reflect.TypeOf(fact)}], fact)
			},
			ExportPackageFact: func(fact analysis.Fact) {
				facts[factKey{pkg.Types, reflect.TypeOf(fact)}] = fact
			},
			AllObjectFacts:  func() []analysis.ObjectFact { return nil },
			AllPackageFacts: func() []analysis.PackageFact { return nil },
		}
		res, err := a.Run(pass)
		if err != nil {
			return fmt.Errorf("vet: %s: %w", a.Name, err)
		}
		results[a] = res
		return nil
	}
	for _, a := range analyzers {
		if err := exec(a, true); err != nil {
			return nil, err
		}
	}
	sort.Slice(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
	return findings, nil
}

// isCourseFile is whether p is in the course's own packages rather than the learner's code.
func isCourseFile(p token.Position) bool { return p.Filename == "" || p.Filename[0] == '$' }

type factKey struct {
	obj any
	t   reflect.Type
}

// copyFact copies the stored fact src into dst (a pointer of the same type); false if none.
func copyFact(src, dst analysis.Fact) bool {
	if src == nil {
		return false
	}
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem())
	return true
}
