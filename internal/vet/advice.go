package vet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/i18n"
)

// Advice is a finding with its words in the reader's language: what is wrong, why it matters in
// production, what to do instead. It is the checker's type, so that a check's Result carries it.
type Advice = checker.Advice

// Explain puts the findings into words in ui's language.
func Explain(findings []Finding, ui *i18n.Printer) []Advice {
	advice := make([]Advice, 0, len(findings))
	for _, f := range findings {
		advice = append(advice, Advice{Rule: f.Rule, File: f.File, Line: f.Line, Col: f.Col, Message: ui.T(f.MessageID())})
	}
	return advice
}

// WriteText writes each piece of advice as "file:line:col: message", the file joined to dir and
// shown as shown(path) gives it (relative to the reader's working directory).
func WriteText(w io.Writer, advice []Advice, dir string, shown func(string) string) {
	for _, a := range advice {
		fmt.Fprintf(w, "%s:%d:%d: %s\n", shown(filepath.Join(dir, filepath.FromSlash(a.File))), a.Line, a.Col, a.Message)
	}
}

// WriteJSON writes the advice as a JSON array (never null).
func WriteJSON(w io.Writer, advice []Advice) error {
	if advice == nil {
		advice = []Advice{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(advice)
}

// adviseTime bounds what advice beside a verdict may cost: a program vet cannot read in that time
// gets no advice, and the verdict is not held up.
const adviseTime = 20 * time.Second

// Advise is the advice on the program in dir for a report beside its verdict (check, watch,
// grade): nil when there is none, and nil when the program cannot be vetted (it does not
// compile, imports what vet cannot read, or takes too long), since the verdict says all that.
func Advise(ctx context.Context, dir string, ui *i18n.Printer) []Advice {
	ctx, cancel := context.WithTimeout(ctx, adviseTime)
	defer cancel()
	type result struct {
		f   []Finding
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := Dir(ctx, dir)
		done <- result{f, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || len(r.f) == 0 {
			return nil
		}
		return Explain(r.f, ui)
	case <-ctx.Done():
		return nil
	}
}

// Report is the command workbook vet: it vets the program in dir and writes the advice for a
// reader (or as JSON), then a line that counts it. The error is a *cli.ExitError: code 1 when
// there is advice, 2 when the program cannot be vetted (with the reason in ui's language).
func Report(ctx context.Context, w io.Writer, dir string, asJSON bool, ui *i18n.Printer, shown func(string) string) error {
	findings, err := Dir(ctx, dir)
	var te *TypeError
	var ie *ImportError
	switch {
	case errors.As(err, &te):
		return &cli.ExitError{Code: 2, Msg: ui.T("err_vet_compile", "Err", te.Msgs[0])}
	case errors.As(err, &ie):
		return &cli.ExitError{Code: 2, Msg: ui.T("err_vet_import", "Path", ie.Path)}
	case err != nil:
		return &cli.ExitError{Code: 2, Msg: ui.T("err_vet_tool", "Err", err.Error())}
	}
	advice := Explain(findings, ui)
	if asJSON {
		err = WriteJSON(w, advice)
	} else {
		WriteText(w, advice, dir, shown)
		if len(findings) == 0 {
			fmt.Fprintln(w, ui.T("vet_none", "Dir", shown(dir)))
		} else {
			fmt.Fprintln(w, ui.N("vet_found", len(findings), "Dir", shown(dir)))
		}
	}
	if err == nil && len(findings) > 0 {
		return &cli.ExitError{Code: 1}
	}
	return err
}
