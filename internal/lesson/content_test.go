package lesson

import (
	"context"
	"io/fs"
	"os"
	"path"
	"testing"
)

// TestLessons verifies every lesson of the repository, both languages: every program builds and
// runs, every output and quiz holds, and the two languages agree. It reads the files on disk, not
// the embedded copy, so an author sees a change at once. Each distinct program is built once (most
// of them together, see runBatch).
func TestLessons(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every lesson program")
	}
	t.Parallel() // builds and runs programs of its own
	fsys := os.DirFS("../..")
	topics, err := Topics(fsys, "lessons")
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) == 0 {
		t.Fatal("no lessons found")
	}
	var files []File
	for _, topic := range topics {
		dir := path.Join("lessons", topic)
		f, errs, err := Topic(fsys, dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Error(e)
		}
		files = append(files, f...)
	}
	errs, err := Verify(context.Background(), &Runner{}, files)
	if err != nil {
		t.Fatal(err)
	}
	exercises, err := fs.Glob(fsys, "exercises/*/exercise.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range exercises {
		exercises[i] = path.Base(path.Dir(x))
	}
	errs = append(errs, CheckRefs(files, exercises, topics)...)
	for _, e := range errs {
		t.Error(e)
	}
}
