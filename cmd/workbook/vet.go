package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/workbook-course/workbook/internal/cli"
	"github.com/workbook-course/workbook/internal/vet"
)

// runVet reads the learner's program (internal/vet) and names the resilience mistakes in its code:
// exit 0 when there are none, 1 when there are, 2 when the program cannot be read.
func runVet(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags()
	dir := fs.String("dir", "", e.ui.T("flag_dir"))
	asJSON := fs.Bool("json", false, e.ui.T("flag_json"))
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	src := *dir
	if src == "" || len(pos) > 0 {
		if _, _, src, err = e.checkTarget(*dir, pos); err != nil {
			return err
		}
	}
	findings, err := vet.Dir(ctx, src)
	var te *vet.TypeError
	var ie *vet.ImportError
	switch {
	case errors.As(err, &te):
		return e.usageErr("err_vet_compile", "Err", te.Msgs[0])
	case errors.As(err, &ie):
		return e.usageErr("err_vet_import", "Path", ie.Path)
	case err != nil:
		return e.usageErr("err_vet_tool", "Err", err.Error())
	}
	if *asJSON {
		type item struct {
			vet.Finding
			Message string `json:"message"`
		}
		items := []item{}
		for _, f := range findings {
			items = append(items, item{f, e.ui.T(f.MessageID())})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(items); err != nil {
			return err
		}
	} else {
		e.printFindings(findings, src)
		if len(findings) == 0 {
			fmt.Fprintln(e.stdout, e.ui.T("vet_none", "Dir", e.rel(src)))
		} else {
			fmt.Fprintln(e.stdout, e.ui.N("vet_found", len(findings), "Dir", e.rel(src)))
		}
	}
	if len(findings) > 0 {
		return &cli.ExitError{Code: 1}
	}
	return nil
}

// printFindings writes each finding as file:line:col: advice, the file relative to the working
// directory.
func (e *env) printFindings(findings []vet.Finding, src string) {
	for _, f := range findings {
		fmt.Fprintf(e.stdout, "%s:%d:%d: %s\n", e.rel(src+"/"+f.File), f.Line, f.Col, e.ui.T(f.MessageID()))
	}
}
