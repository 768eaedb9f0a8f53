package grade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/workbook-course/workbook/internal/report"
)

// JournalFile is the journal's name in a report folder.
const JournalFile = "journal.jsonl"

// journalVersion changes when a record's meaning changes; a journal of another version is not
// resumed.
const journalVersion = 1

// journalHeader is the journal's first line: what grading it belongs to.
type journalHeader struct {
	Journal  int    `json:"journal"`
	Config   string `json:"config"`
	Exercise string `json:"exercise"`
}

// Journal is the append-only record of finished students in a report folder: one JSON line each,
// written and synced as soon as the student is graded, so that a run killed at any moment (Ctrl-C,
// kill -9, power loss) loses at most the student it was writing. A later line for the same student
// replaces an earlier one.
type Journal struct {
	path    string
	f       *os.File
	records map[string]Student
	// Reset is true when an existing journal was set aside because it belonged to another grading
	// (other cases, limits or exercise); Resumed counts the students taken over from it otherwise.
	Reset   bool
	Resumed int
}

// OpenJournal opens (or starts) the journal in dir for the grading identified by config. A record
// torn by a kill in the middle of a write is dropped; a journal of another grading is set aside as
// journal.jsonl.old and a new one begun.
func OpenJournal(dir, config, exercise string) (*Journal, error) {
	j := &Journal{path: filepath.Join(dir, JournalFile), records: map[string]Student{}}
	data, err := os.ReadFile(j.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	good := 0 // bytes of whole, valid lines
	if len(data) > 0 {
		var hdr journalHeader
		first, _, hasNL := bytes.Cut(data, []byte("\n"))
		if !hasNL || json.Unmarshal(first, &hdr) != nil || hdr.Journal != journalVersion || hdr.Config != config || hdr.Exercise != exercise {
			if err := os.Rename(j.path, j.path+".old"); err != nil {
				return nil, err
			}
			j.Reset = true
			data = nil
		} else {
			good = len(first) + 1
			rest := data[good:]
			for len(rest) > 0 {
				line, after, ok := bytes.Cut(rest, []byte("\n"))
				if !ok {
					break // torn at the end: a write that never finished
				}
				var st Student
				if err := json.Unmarshal(line, &st); err != nil || st.Name == "" || st.Result == nil {
					break
				}
				j.records[st.Name] = st
				good += len(line) + 1
				rest = after
			}
		}
	}
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if good < len(data) {
		// Cut off the torn tail so that the next record starts on a line of its own.
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, err
		}
	}
	if good == 0 {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
		line, _ := json.Marshal(journalHeader{Journal: journalVersion, Config: config, Exercise: exercise})
		if _, err := f.WriteAt(append(line, '\n'), 0); err != nil {
			f.Close()
			return nil, err
		}
		good = len(line) + 1
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	j.f = f
	j.Resumed = len(j.records)
	return j, nil
}

// Get returns the record of a student, if the journal has one.
func (j *Journal) Get(name string) (Student, bool) {
	st, ok := j.records[name]
	return st, ok
}

// Append records a finished student: one line, written in one call and synced before it returns.
func (j *Journal) Append(st Student) error {
	line, err := marshalRecord(st)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	j.records[st.Name] = st
	return nil
}

// marshalRecord is a student's journal line: JSON with no raw control character in it (see
// report.EscapeJSON), so that paging through a journal is as safe as reading the report.
func marshalRecord(st Student) ([]byte, error) {
	line, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return report.EscapeJSON(line), nil
}

// Records returns every student in the journal, one record each, sorted by name.
func (j *Journal) Records() []Student {
	list := make([]Student, 0, len(j.records))
	for _, st := range j.records {
		list = append(list, st)
	}
	sort.Slice(list, func(a, b int) bool { return list[a].Name < list[b].Name })
	return list
}

// Compact rewrites the journal with one line per student, atomically (a new file renamed over the
// old one), and keeps it open for appending.
func (j *Journal) Compact(config, exercise string) error {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	line, _ := json.Marshal(journalHeader{Journal: journalVersion, Config: config, Exercise: exercise})
	w.Write(append(line, '\n'))
	for _, st := range j.Records() {
		line, err := marshalRecord(st)
		if err != nil {
			return err
		}
		w.Write(append(line, '\n'))
	}
	w.Flush()
	if err := writeAtomic(j.path, buf.Bytes()); err != nil {
		return err
	}
	j.f.Close()
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	j.f = f
	return nil
}

// Close closes the journal's file.
func (j *Journal) Close() error {
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// writeAtomic writes a file so that a reader (or a run killed half-way) sees either the old content
// or the new, never a part: a temporary file in the same folder, synced, then renamed over the target.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}
