package checker

import "time"

// Verdict is the overall outcome of a check, or the status of one case.
type Verdict string

// The verdicts. A Result's Verdict is one of them; a case's Status is one of Pass, Fail, Timeout,
// Crash, OutputLimit, MemoryLimit, NotRun.
const (
	Pass        Verdict = "pass"         // every case passed
	Fail        Verdict = "fail"         // a case printed something else or exited with another code
	BuildError  Verdict = "build_error"  // the program does not compile
	Timeout     Verdict = "timeout"      // a run took longer than its time limit
	Crash       Verdict = "crash"        // a run panicked, was killed, or exited non-zero unexpectedly
	OutputLimit Verdict = "output_limit" // a run printed more than the output cap
	MemoryLimit Verdict = "memory_limit" // a run used more memory than its limit
	NoProgram   Verdict = "no_program"   // the folder holds no Go package main
	// NotRun is the status of a case not run to its end because the program's earlier cases that
	// did not finish used up its budget (Limits.Budget; message budget, Result.Hung); never a
	// Result's Verdict.
	NotRun Verdict = "not_run"
)

// Result is what a check returns: the verdict, every case, and the build log.
type Result struct {
	Exercise string   `json:"exercise,omitempty"`
	Lang     string   `json:"lang"`
	Dir      string   `json:"dir,omitempty"`
	Verdict  Verdict  `json:"verdict"`
	Passed   int      `json:"passed"`
	Total    int      `json:"total"`
	Message  string   `json:"message,omitempty"`
	BuildLog string   `json:"build_log,omitempty"`
	Skipped  []string `json:"skipped,omitempty"` // what of the folder took no part in the build, "path: why"
	// Hung names the first case that ran out of its time limit when later cases were not run to
	// their end for the budget (status not_run); RunLimit is the budget, in milliseconds.
	Hung     string `json:"hung,omitempty"`
	RunLimit Millis `json:"run_limit_ms,omitempty"`
	// Seed is the seed the drawn cases (CaseResult.Drawn) were drawn with: the same seed draws the
	// same cases again (`workbook check NAME --seed N`). 0 when no case was drawn.
	Seed      uint64       `json:"seed,omitempty"`
	BuildTime Millis       `json:"build_ms"`
	Cases     []CaseResult `json:"cases"`
	Isolation *Isolation   `json:"isolation,omitempty"`
	// Advice is what internal/vet says of the program's code, beside the verdict: it never
	// changes the verdict. A caller that vets the program fills it in; the checker does not.
	Advice []Advice `json:"advice,omitempty"`
}

// CaseResult is one case of a check.
type CaseResult struct {
	Name     string   `json:"name"`
	Title    string   `json:"title,omitempty"`
	Visible  bool     `json:"visible"`
	Drawn    bool     `json:"drawn,omitempty"` // drawn afresh for this check: its arguments are kept in a redacted report
	Status   Verdict  `json:"status"`
	Args     []string `json:"args"`
	Want     string   `json:"want,omitempty"`
	Got      string   `json:"got"`
	Stderr   string   `json:"stderr,omitempty"`
	ExitCode int      `json:"exit_code"`
	WantExit *int     `json:"want_exit,omitempty"`
	Duration Millis   `json:"duration_ms"`
	Diff     *Diff    `json:"diff,omitempty"`
	Message  string   `json:"message,omitempty"`
	// Charged says that the case cost the program's time budget (Limits.Budget): a run of it was
	// stopped at a time limit, or slept longer than a run past the budget may.
	Charged bool   `json:"charged,omitempty"`
	Pattern string `json:"pattern,omitempty"` // the stdout or stderr pattern that failed (Msg* codes)
	// Blocked is the goroutine a virtual-time run left blocked (Message ReasonDeadlock or ReasonLeak):
	// a place in the learner's own code, kept in a redacted report.
	Blocked *Blocked `json:"blocked,omitempty"`
	// Metrics are a scenario run's figures, each against its limit (the metrics command), and
	// Scenario the run's series for a chart; kept in a redacted report: they are the learner's own.
	Metrics  []Metric     `json:"metrics,omitempty"`
	Scenario *ScenarioRun `json:"scenario,omitempty"`
}

// Diff locates the first difference between the expected and the actual output.
type Diff struct {
	Line  int      `json:"line"`  // 1-based line number of the first differing line
	Want  string   `json:"want"`  // that line as expected ("" past the end)
	Got   string   `json:"got"`   // that line as printed ("" past the end)
	Notes []string `json:"notes"` // invisible differences, as codes (see Note constants)
}

// Codes for the invisible differences a Diff names.
const (
	NoteTrailingSpace  = "trailing_space"   // the line differs only in spaces at its end
	NoteTab            = "tab"              // a tab where spaces were expected, or the reverse
	NoteMissingNewline = "missing_newline"  // the output does not end with a newline
	NoteExtraNewline   = "extra_newline"    // the output ends with an empty line too many
	NoteLatinLookalike = "latin_lookalike"  // a Latin letter that looks Cyrillic stands among Cyrillic ones
	NoteCyrillicInWord = "cyrillic_in_word" // a Cyrillic letter stands where a Latin one was expected
	NoteMissingLines   = "missing_lines"    // the output stops before the expected text ends
	NoteExtraLines     = "extra_lines"      // the output goes on after the expected text ends
	NoteInvisible      = "invisible_char"   // a zero-width or non-breaking character
)

// Redacted returns a copy in which hidden cases carry no expected output and no diff, so that a
// learner sees that a hidden case failed and which kind it is, but not what it expects.
func (r *Result) Redacted() *Result {
	c := *r
	c.Cases = make([]CaseResult, len(r.Cases))
	for i, cr := range r.Cases {
		if !cr.Visible {
			cr.Want = ""
			cr.Diff = nil
			cr.Got = ""
			if !cr.Drawn {
				// A drawn case's arguments were drawn for this check alone and give nothing away;
				// they tell the learner how to run it again.
				cr.Args = nil
			}
			cr.Stderr = ""
			cr.WantExit = nil
			cr.Message = ""
			cr.Pattern = ""
		}
		c.Cases[i] = cr
	}
	return &c
}

// Millis is a duration that marshals to JSON as milliseconds.
type Millis time.Duration

// MarshalJSON writes the duration in milliseconds, with microsecond precision.
func (m Millis) MarshalJSON() ([]byte, error) {
	ms := float64(time.Duration(m).Microseconds()) / 1000
	return []byte(formatFloat(ms)), nil
}

// UnmarshalJSON reads milliseconds.
func (m *Millis) UnmarshalJSON(b []byte) error {
	f, err := parseFloat(string(b))
	if err != nil {
		return err
	}
	*m = Millis(time.Duration(f * float64(time.Millisecond)))
	return nil
}
