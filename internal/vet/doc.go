// Package vet reads a learner's program and names the resilience mistakes in its source: a retry
// loop deaf to its context, exponential backoff without jitter, a response body never closed, a
// timer never stopped, a client without a timeout, a busy wait, a breaker that counts the caller's
// own cancellations… Each finding is a Finding with its rule, file and line; its words (what is
// wrong, why it matters in production, what to do instead) come from internal/i18n (vet.*.toml,
// keys vet_<rule>) in the learner's language.
//
//	findings, err := vet.Dir(ctx, "ws/ru/exercise-retry")
//	for _, f := range findings {
//		fmt.Println(f.Pos(), ui.T(f.MessageID()))
//	}
//
// The rules are golang.org/x/tools/go/analysis analyzers (Analyzers lists them, with the standard
// passes lostcancel and httpresponse); Run drives them over one type-checked package without the
// go command's vet driver, so nothing of the learner's folder is handed to a tool.
//
// Safety: the learner's code is untrusted and nothing of it runs. Dir reads the folder with the
// checker's snapshot (checker.ReadSource: regular files only, the build's limits on count and
// size), parses and type-checks the package in this process with go/types, and reads the types of
// the standard library from export data that one `go list -export` of the imported standard
// packages gives (run in an empty scratch folder with the checker's offline environment; the
// learner's folder is never the go command's). The course's flaky service is type-checked from
// the source the checker embeds. A program importing anything else is not vetted (ErrImport).
//
// Precision: advice that cries wolf is advice nobody reads. Every rule fires only where its
// mistake is certain from the source; the tests run every rule over a corpus of seeded mistakes
// (testdata/corpus, `// want "rule"` comments) and over every reference solution and lesson
// program of the course, which must give no finding at all.
package vet
