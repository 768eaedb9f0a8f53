package lesson_test

import (
	"context"
	"io/fs"
	"os"
	"path"
	"testing"

	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/verify"
)

// TestLessons verifies every lesson of the repository, both languages: every program builds and
// runs, every output and quiz holds, and the two languages agree. It reads the files on disk, not
// the embedded copy, so an author sees a change at once. Each distinct program is built once (most
// of them together, see lesson.Runner).
//
// It verifies them as `workbook verify` does (verify.Lessons): the problems of a lesson folder
// are kept in verify's cache, keyed by the folder's files and by the module's source
// (verify.SourceHash) among the rest, so a second run, or a fresh clone of the same commit on the
// same machine, takes them from there; a change to a lesson, or to any Go file of the module, checks
// that folder again, and WORKBOOK_NOCACHE=1 checks everything. What comes from the cache is reported
// exactly as a fresh check reported it. (A test in package lesson could not import verify, which
// imports lesson; this one is in lesson_test.)
func TestLessons(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every lesson program")
	}
	t.Parallel() // builds and runs programs of its own
	fsys := os.DirFS("../..")
	topics, err := lesson.Topics(fsys, "lessons")
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) == 0 {
		t.Fatal("no lessons found")
	}
	var files []lesson.File
	for _, topic := range topics {
		dir := path.Join("lessons", topic)
		f, errs, err := lesson.Topic(fsys, dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Error(e)
		}
		files = append(files, f...)
	}
	code, err := verify.SourceHash("../..")
	if err != nil {
		t.Fatal(err)
	}
	errs, cached, err := verify.Lessons(context.Background(), files, verify.OpenCacheFor(false, code))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lesson files checked, %d of them taken from the cache", len(files), cached)
	exercises, err := fs.Glob(fsys, "exercises/*/exercise.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range exercises {
		exercises[i] = path.Base(path.Dir(x))
	}
	errs = append(errs, lesson.CheckRefs(files, exercises, topics)...)
	for _, e := range errs {
		t.Error(e)
	}
}

// TestRightAnswersSpread: over the whole course, in each language, the right answers of choice and
// predict quizzes are spread over the positions in which the terminal and the browser show them, so
// that always taking the same position scores no more than 40 %: a quiz tests knowledge, not
// position.
func TestRightAnswersSpread(t *testing.T) {
	fsys := os.DirFS("../..")
	topics, err := lesson.Topics(fsys, "lessons")
	if err != nil {
		t.Fatal(err)
	}
	byLang := map[string]map[int]int{}
	totals := map[string]int{}
	for _, topic := range topics {
		dir := path.Join("lessons", topic)
		files, _, err := lesson.Topic(fsys, dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			f, err := lesson.Parse(file.Name, file.Data)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range f.Quizzes {
				right := q.Right()
				if right < 0 {
					continue
				}
				if byLang[f.Lang] == nil {
					byLang[f.Lang] = map[int]int{}
				}
				byLang[f.Lang][right]++
				totals[f.Lang]++
			}
		}
	}
	if len(totals) == 0 {
		t.Fatal("no choice or predict quiz found")
	}
	for lang, positions := range byLang {
		for pos, n := range positions {
			if 100*n > 40*totals[lang] {
				t.Errorf("%s: the right answer is option %d in %d of %d choice and predict quizzes (at most 40 %%)", lang, pos+1, n, totals[lang])
			}
		}
	}
}
