package progress

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func TestStatus(t *testing.T) {
	tests := []struct {
		name     string
		verdicts []string
		want     Status
		ever     bool
	}{
		{"never checked", nil, NotStarted, false},
		{"failed once", []string{"fail"}, Failing, false},
		{"build error", []string{"build_error"}, Failing, false},
		{"passed", []string{"fail", "pass"}, Passed, true},
		{"broken after passing", []string{"pass", "timeout"}, Failing, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := New("bg", t0)
			for i, v := range tt.verdicts {
				st.Record("ex", v, t0.Add(time.Duration(i)*time.Minute))
			}
			e := st.Lookup("ex")
			if got := e.Status(); got != tt.want {
				t.Errorf("Status() = %q, want %q", got, tt.want)
			}
			if got := e.EverPassed(); got != tt.ever {
				t.Errorf("EverPassed() = %v, want %v", got, tt.ever)
			}
		})
	}
}

func TestPassedAtIsFirstPass(t *testing.T) {
	st := New("ru", t0)
	st.Record("ex", "pass", t0.Add(time.Minute))
	st.Record("ex", "fail", t0.Add(2*time.Minute))
	st.Record("ex", "pass", t0.Add(3*time.Minute))
	if got, want := st.Lookup("ex").PassedAt, t0.Add(time.Minute); !got.Equal(want) {
		t.Errorf("PassedAt = %v, want %v", got, want)
	}
	if got := st.Lookup("ex").Checks; got != 3 {
		t.Errorf("Checks = %d, want 3", got)
	}
}

func TestRecordQuiz(t *testing.T) {
	st := New("bg", t0)
	st.RecordQuiz("slow-neighbour", 4, 7, t0)
	st.RecordQuiz("slow-neighbour", 3, 7, t0.Add(time.Hour))
	got := *st.Quizzes["slow-neighbour"]
	want := Quiz{Total: 7, Last: 3, Best: 4, Attempts: 2, LastAt: t0.Add(time.Hour)}
	if got != want {
		t.Errorf("quiz = %+v, want %+v", got, want)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	st := New("bg", t0)
	st.Record("exercise-deadline", "fail", t0)
	st.Exercise("exercise-deadline").Hints = 2
	st.RecordQuiz("slow-neighbour", 5, 7, t0)
	st.OpenLesson("slow-neighbour", t0)
	if err := Save(path, st); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lang != "bg" || !got.Started.Equal(t0) || got.Lookup("exercise-deadline").Hints != 2 ||
		got.Quizzes["slow-neighbour"].Best != 5 || got.HintsUsed() != 2 {
		t.Errorf("round trip lost data: %+v", got)
	}
	if leftovers(t, filepath.Dir(path)) != nil {
		t.Errorf("Save left temporary files: %v", leftovers(t, filepath.Dir(path)))
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), FileName))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: err = %v, want fs.ErrNotExist", err)
	}
}

// A file that is not a state is reported and moved aside, never silently reset or overwritten.
func TestLoadCorrupt(t *testing.T) {
	tests := []struct {
		name, data, reason string
	}{
		{"empty", "", "empty"},
		{"half written", `{"version": 1, "started": "2025-03-01T10:00:00Z", "exer`, "unexpected EOF"},
		{"not json", "hello\n", "invalid character"},
		{"no version", `{"started": "2025-03-01T10:00:00Z"}`, "no valid version"},
		{"newer version", `{"version": 99, "started": "2025-03-01T10:00:00Z"}`, "newer version"},
		{"no start", `{"version": 1}`, "no start time"},
		{"wrong type", `{"version": 1, "started": "2025-03-01T10:00:00Z", "exercises": {"x": 3}}`, "cannot unmarshal"},
		{"null record", `{"version": 1, "started": "2025-03-01T10:00:00Z", "exercises": {"x": null}}`, "no record"},
		{"trailing data", `{"version": 1, "started": "2025-03-01T10:00:00Z"} {}`, "after the state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := Load(path)
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("Load() = %v, %v; want a *CorruptError", st, err)
			}
			if !strings.Contains(ce.Err.Error(), tt.reason) {
				t.Errorf("reason %q does not mention %q", ce.Err, tt.reason)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the corrupt file is still at %s", path)
			}
			kept, err := os.ReadFile(ce.Backup)
			if err != nil {
				t.Fatalf("the corrupt file was not kept: %v", err)
			}
			if string(kept) != tt.data {
				t.Errorf("backup holds %q, want the original %q", kept, tt.data)
			}
			if !strings.HasPrefix(filepath.Base(ce.Backup), FileName+".corrupt-") {
				t.Errorf("backup name %s", ce.Backup)
			}
		})
	}
}

// A crash between writing the temporary file and renaming it leaves the old state readable.
func TestCrashDuringSave(t *testing.T) {
	tests := []struct {
		name  string
		crash func(t *testing.T, path string)
	}{
		{"rename fails", func(t *testing.T, path string) {
			rename = func(string, string) error { return errors.New("power cut") }
			defer func() { rename = os.Rename }()
			st := New("bg", t0)
			st.Record("ex", "pass", t0)
			if err := Save(path, st); err == nil {
				t.Fatal("Save succeeded with a failing rename")
			}
		}},
		{"process dies after the temporary file", func(t *testing.T, path string) {
			// What a killed process leaves behind: a half-written temporary file next to the state.
			if err := os.WriteFile(path+".tmp-123456", []byte(`{"version": 1, "sta`), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"process dies holding the lock", func(t *testing.T, path string) {
			if err := os.WriteFile(path+".lock", []byte("4242\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour)
			os.Chtimes(path+".lock", old, old)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			before := New("bg", t0)
			before.Record("ex", "fail", t0)
			if err := Save(path, before); err != nil {
				t.Fatal(err)
			}
			tt.crash(t, path)
			got, err := Load(path)
			if err != nil {
				t.Fatalf("after the crash: %v", err)
			}
			if s := got.Lookup("ex").Status(); s != Failing {
				t.Errorf("after the crash the status is %q, want the old %q", s, Failing)
			}
			// The next update works and leaves no lock behind.
			st, err := Update(path, func() *State { return New("bg", t0) }, func(s *State) error {
				s.Record("ex", "pass", t0.Add(time.Minute))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if st.Lookup("ex").Checks != 2 {
				t.Errorf("Update lost the old checks: %+v", st.Lookup("ex"))
			}
			if _, err := os.Stat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Update left its lock behind")
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	fresh := func() *State { return New("ru", t0) }
	addHint := func(s *State) error { s.Exercise("ex").Hints++; return nil }
	tests := []struct {
		name      string
		before    string // file content before; "-" for no file
		wantHints int
		corrupt   bool
	}{
		{"no file yet", "-", 1, false},
		{"existing file", `{"version": 1, "started": "2025-03-01T10:00:00Z", "exercises": {"ex": {"hints": 2}}}`, 3, false},
		{"corrupt file", `{"version": 1, "started": "2025-03-01T1`, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if tt.before != "-" {
				if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := Update(path, fresh, addHint)
			var ce *CorruptError
			if tt.corrupt != errors.As(err, &ce) {
				t.Fatalf("Update() err = %v, want corrupt=%v", err, tt.corrupt)
			}
			if !tt.corrupt && err != nil {
				t.Fatal(err)
			}
			if st == nil {
				t.Fatal("Update returned no state")
			}
			saved, lerr := Load(path)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if got := saved.Lookup("ex").Hints; got != tt.wantHints {
				t.Errorf("hints = %d, want %d", got, tt.wantHints)
			}
			if tt.corrupt {
				if data, _ := os.ReadFile(ce.Backup); string(data) != tt.before {
					t.Errorf("the corrupt file was not kept as it was")
				}
			}
		})
	}
}

// A change that fails saves nothing.
func TestUpdateChangeFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	_, err := Update(path, func() *State { return New("bg", t0) }, func(*State) error { return errors.New("no") })
	if err == nil {
		t.Fatal("want the change's error")
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed change wrote the file")
	}
}

// Two processes updating at once do not lose each other's changes (simulated with goroutines).
func TestUpdateConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	const n = 20
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := Update(path, func() *State { return New("bg", t0) }, func(s *State) error {
				s.Exercise("ex").Hints++
				return nil
			})
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Lookup("ex").Hints; got != n {
		t.Errorf("hints = %d after %d concurrent updates", got, n)
	}
}

func TestLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path+".lock", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := lockWait
	lockWait = 50 * time.Millisecond
	defer func() { lockWait = old }()
	_, err := Update(path, func() *State { return New("bg", t0) }, func(*State) error { return nil })
	if !errors.Is(err, ErrLocked) {
		t.Errorf("err = %v, want ErrLocked", err)
	}
}

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != FileName {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestSwitchLang keeps each content language's verdicts apart: switching and back brings the first
// language's progress back, and a check recorded in the other language touches only its own.
func TestSwitchLang(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	st := New("bg", now)
	st.Record("ex", "pass", now)
	st.SwitchLang("ru")
	if got := st.Lookup("ex").Status(); got != NotStarted {
		t.Errorf("in ru, status = %s, want %s", got, NotStarted)
	}
	st.Record("ex", "fail", now)
	st.RecordIn("bg", "ex2", "pass", now)
	if got := st.LookupIn("bg", "ex").Status(); got != Passed {
		t.Errorf("bg status seen from ru = %s, want %s", got, Passed)
	}
	st.SwitchLang("bg")
	for _, tt := range []struct {
		lang, name string
		want       Status
	}{{"bg", "ex", Passed}, {"bg", "ex2", Passed}, {"ru", "ex", Failing}, {"ru", "ex2", NotStarted}} {
		if got := st.LookupIn(tt.lang, tt.name).Status(); got != tt.want {
			t.Errorf("%s %s = %s, want %s", tt.lang, tt.name, got, tt.want)
		}
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := Save(path, st); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.LookupIn("ru", "ex").Status(); got != Failing {
		t.Errorf("after Save and Load, ru ex = %s, want %s", got, Failing)
	}
}

func TestRecordCheck(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name     string
		before   string // the verdict recorded before, "" for none
		verdict  string
		starter  bool
		wantKept bool
		want     Status
	}{
		{"a pass", "", "pass", false, false, Passed},
		{"a failure", "", "fail", false, false, Failing},
		{"the starter after a pass keeps it", "pass", "fail", true, true, Passed},
		{"the learner's own failure after a pass", "pass", "fail", false, false, Failing},
		{"the starter before any pass", "fail", "fail", true, false, Failing},
	} {
		st := New("bg", now)
		if tc.before != "" {
			st.RecordIn("bg", "ex", tc.before, now)
		}
		kept := st.RecordCheck("bg", "ex", tc.verdict, tc.starter, now)
		if got := st.LookupIn("bg", "ex").Status(); kept != tc.wantKept || got != tc.want {
			t.Errorf("%s: kept %v, status %s; want %v, %s", tc.name, kept, got, tc.wantKept, tc.want)
		}
	}
}
