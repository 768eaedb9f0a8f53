package main

import (
	"context"
	"github.com/workbook-course/workbook/internal/vet"
)

// runVet names the resilience mistakes in the code of the learner's program (vet.Report).
func runVet(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags()
	dir, asJSON := fs.String("dir", "", e.ui.T("flag_dir")), fs.Bool("json", false, e.ui.T("flag_json"))
	pos, err := e.parse(fs, args)
	src := *dir
	if err == nil && (src == "" || len(pos) > 0) {
		_, _, src, err = e.checkTarget(*dir, pos)
	}
	if err != nil {
		return err
	}
	return vet.Report(ctx, e.stdout, src, *asJSON, e.ui, e.rel)
}
