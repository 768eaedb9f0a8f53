package grade

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFlagsOptions(t *testing.T) {
	good := func() Flags {
		return Flags{Out: "report", Jobs: 2, Timeout: time.Second, MaxFiles: 1, MaxBytes: 1, MaxDepth: 1, MoodleLang: "en", Similarity: DefaultCopyThreshold}
	}
	pos := []string{"exercise-deadline", "subs"}
	for _, tc := range []struct {
		name   string
		change func(*Flags)
		pos    []string
		wantID string // "" for options
	}{
		{"good", func(*Flags) {}, pos, ""},
		{"one argument", func(*Flags) {}, pos[:1], "grade_err_args"},
		{"no --out", func(f *Flags) { f.Out = "" }, pos, "grade_err_no_out"},
		{"no jobs", func(f *Flags) { f.Jobs = 0 }, pos, "grade_err_jobs"},
		{"no time", func(f *Flags) { f.Timeout = 0 }, pos, "grade_err_timeout"},
		{"no files", func(f *Flags) { f.MaxFiles = 0 }, pos, "grade_err_limits"},
		{"class language", func(f *Flags) { f.ClassLang = "en" }, pos, "grade_err_class_lang"},
		{"shard", func(f *Flags) { f.Shard = "3/2" }, pos, "grade_err_shard"},
		{"late penalty", func(f *Flags) { f.LatePenalty = "lots" }, pos, "grade_err_late_penalty"},
		{"due", func(f *Flags) { f.Due = "tomorrow" }, pos, "grade_err_due"},
		{"no similarity", func(f *Flags) { f.Similarity = 0 }, pos, "grade_err_similarity"},
		{"similarity above 1", func(f *Flags) { f.Similarity = 1.5 }, pos, "grade_err_similarity"},
		{"similarity 1", func(f *Flags) { f.Similarity = 1 }, pos, ""},
		{"per day without a due date", func(f *Flags) { f.LatePenalty = "10/day" }, pos, "grade_err_per_day_no_due"},
		{"per day with a due date", func(f *Flags) { f.LatePenalty = "10/day"; f.Due = "2026-01-15" }, pos, ""},
	} {
		f := good()
		tc.change(&f)
		o, m, ok := f.Options(tc.pos)
		if got := m.ID; got != tc.wantID || ok != (tc.wantID == "") {
			t.Errorf("%s: Options = message %q, ok %v; want %q", tc.name, got, ok, tc.wantID)
		}
		if ok && (o.Jobs != f.Jobs || o.RunTime != f.Timeout || o.Read.Files != f.MaxFiles || o.MoodleLang != f.MoodleLang) {
			t.Errorf("%s: Options = %+v, not what the flags say", tc.name, o)
		}
	}
}

func TestCheckPlaces(t *testing.T) {
	dir := t.TempDir()
	subs := filepath.Join(dir, "subs")
	zip := filepath.Join(dir, "class.ZIP")
	file := filepath.Join(dir, "notes.txt")
	os.Mkdir(subs, 0o755)
	for _, f := range []string{zip, file} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		subs, out, wantID string
	}{
		{subs, filepath.Join(dir, "report"), ""},
		{zip, filepath.Join(dir, "report"), ""},
		{file, filepath.Join(dir, "report"), "grade_err_no_submissions"},
		{filepath.Join(dir, "missing"), filepath.Join(dir, "report"), "grade_err_no_submissions"},
		{subs, filepath.Join(subs, "report"), "grade_err_out_inside"},
		{subs, subs, "grade_err_out_inside"},
	} {
		m, ok := CheckPlaces(tc.subs, tc.out)
		if m.ID != tc.wantID || ok != (tc.wantID == "") {
			t.Errorf("CheckPlaces(%s, %s) = %q, %v; want %q", tc.subs, tc.out, m.ID, ok, tc.wantID)
		}
	}
}
