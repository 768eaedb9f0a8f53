package grade

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/checker"

	"golang.org/x/text/unicode/norm"
)

// ClassError is a class export that cannot be graded as it is given: Code names why (a message
// grade_err_class_CODE), Detail what was found. Nothing is graded and nothing written: an export
// read wrongly would otherwise be a report of zeros, written over the report of the run before.
type ClassError struct {
	Code, Path, Detail string
}

func (e *ClassError) Error() string {
	return fmt.Sprintf("%s: class export: %s %s", e.Path, e.Code, e.Detail)
}

// Class error codes.
const (
	ClassEmpty   = "empty"   // nothing at all
	ClassUnknown = "unknown" // no folder, archive or .go file of anyone's (Detail: the files that are there)
	ClassProgram = "program" // one program (go.mod at the top) given as the class
	ClassNested  = "nested"  // the class's export inside one archive of the export (Detail: its name)
	ClassNoGo    = "no_go"   // no submission looked into holds a Go program (Detail: how many were)
)

// checkPrograms refuses a class in which no submission holds a Go program: the export of another
// assignment, GitHub Classroom's folders of repositories never pushed to, a folder of reports.
// Graded, it would be a report of zeros written over the report before. The submissions are
// unpacked in turn until one holds Go (the first, in a class that has any), nothing is built.
// Job.Force grades it all the same; Job.Only never checks.
func checkPrograms(job *Job, subs []Submission) error {
	if job.Force || job.Only != "" || len(subs) == 0 {
		return nil
	}
	g, done, err := sampleGrader(job)
	if err != nil {
		return err
	}
	defer done()
	for i, s := range subs {
		it, err := g.prepare(s, i, "")
		if err != nil {
			return err
		}
		if it.dir != "" || it.st.Result == nil || it.st.Result.Verdict != checker.NoProgram {
			return nil
		}
		os.RemoveAll(filepath.Join(g.work, strconv.Itoa(i))) // its copy: a class of thousands is looked into one by one
	}
	return &ClassError{Code: ClassNoGo, Detail: strconv.Itoa(len(subs))}
}

// sampleGrader is a grader of job for a look into the class before it is graded, in a scratch
// folder of its own that done removes.
func sampleGrader(job *Job) (g *grader, done func(), err error) {
	work, err := checker.TempDir("sample")
	if err != nil {
		return nil, nil, err
	}
	g = newGrader(job)
	g.work = work
	return g, func() { os.RemoveAll(work) }, nil
}

// checkClass refuses an export whose listing cannot be a class: nothing in it, one student's
// program instead of the folder of students, or the export zipped again (one archive that holds
// the students' entries), each of which would grade as a class of zeros or of one.
func checkClass(given, dir string, subs []Submission, skipped []string) error {
	if fileExists(filepath.Join(dir, "go.mod")) {
		return &ClassError{Code: ClassProgram, Path: given}
	}
	if len(subs) == 0 && len(skipped) == 0 {
		return &ClassError{Code: ClassEmpty, Path: given}
	}
	if len(subs) == 0 {
		return &ClassError{Code: ClassUnknown, Path: given, Detail: strings.Join(skipped, ", ")}
	}
	if len(subs) == 1 && subs[0].Kind == KindZip && subs[0].Layout == "" && zipHoldsClass(subs[0].Path) {
		return &ClassError{Code: ClassNested, Path: given, Detail: filepath.Base(subs[0].Path)}
	}
	return nil
}

// zipHoldsClass reports whether the zip at p is a class's export rather than one student's work:
// its top level names a student the way an LMS does, or holds two or more folders or archives that
// each could be a student's.
func zipHoldsClass(p string) bool {
	f, info, err := openRegular(p)
	if err != nil {
		return false
	}
	defer f.Close()
	zr, err := zip.NewReader(f, info.Size())
	if err != nil {
		return false
	}
	tops := map[string]bool{} // top-level name → could be a student's entry
	for _, zf := range zr.File {
		name := strings.ReplaceAll(entryName(zf), `\`, "/")
		top, rest, isDir := strings.Cut(strings.TrimPrefix(name, "./"), "/")
		if top == "" || junkName(top) {
			continue
		}
		isDir = isDir && (rest != "" || strings.HasSuffix(name, "/"))
		if len(readings(norm.NFC.String(top), isDir)) > 0 {
			return true
		}
		tops[top] = tops[top] || isDir || archiveKind(strings.ToLower(top)) != ""
	}
	n := 0
	for _, entry := range tops {
		if entry {
			n++
		}
	}
	// A student's own zip is one folder, or files of one program; an export is a folder each.
	return n >= 2 && !zipIsProgram(zr)
}

// zipIsProgram reports whether a zip holds go.mod at its top, or in its only folder: a program.
func zipIsProgram(zr *zip.Reader) bool {
	for _, zf := range zr.File {
		name := strings.TrimPrefix(strings.ReplaceAll(entryName(zf), `\`, "/"), "./")
		if name == "go.mod" {
			return true
		}
	}
	return false
}
