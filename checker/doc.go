// Package checker is the one engine that judges a learner's Go program: it builds the program once,
// in a scratch copy and offline, runs every case of an exercise against it under limits, and returns a
// structured Result. The CLI (check, grade, verify), the lesson engine and the web server all call it.
//
//	cases, _ := checker.LoadCases(fsys, "exercises/exercise-deadline/cases")
//	res, err := checker.Check(ctx, "path/to/learner/folder", cases, checker.Options{Lang: "bg"})
//	// err != nil: the check could not be made (no Go toolchain, unreadable folder).
//	// res.Verdict: pass, fail, build_error, timeout, crash, output_limit or no_program.
//
// # Cases
//
// A case is a testscript (.txtar) file run by testscript.RunT with a small custom T. Besides
// testscript's own commands, a case has:
//
//	run [ARGS...]   run the learner's program in the case's work folder; it must exit 0
//	! run [ARGS...] the program must exit non-zero
//	expect NAME     the last run's stdout equals file NAME.<lang>, or NAME when there is none
//	status N        the last run exited with code N
//
// Comment lines "# bg: …", "# ru: …", "# en: …" at the top give the case's title in each language.
// Cases in a visible/ folder are shown to the learner; those in hidden/ are not, and a learner's
// report (Result.Redacted) names only their title. Transcripts are compared byte for byte after one
// normalisation: CRLF becomes LF.
//
// # Building and running
//
// Build copies the learner's folder (no hidden files, no symbolic links, size-limited), adds a go.mod
// when there is none, and runs go build with a scrubbed environment: GOTOOLCHAIN=local, GOPROXY=off,
// GOFLAGS=-mod=mod, GOWORK=off, GOENV=off, CGO_ENABLED=0, its own HOME, GOPATH and
// XDG_CONFIG_HOME, and the user's warm GOCACHE. Compiler messages are given with paths relative to the
// learner's folder. Each run gets a scrubbed environment, a wall-time limit, a cap on the bytes it
// may print, and on Unix a process group of its own that is killed as a whole when the run ends.
//
// # JSON
//
// A Result marshals to JSON with these stable field names:
//
//	exercise   string   the exercise's name
//	lang       string   the transcript language (bg or ru)
//	dir        string   the folder that was checked
//	verdict    string   pass | fail | build_error | timeout | crash | output_limit | no_program
//	passed     int      cases passed
//	total      int      cases run
//	message    string   optional: why the check could not judge the program
//	build_log  string   the compiler's messages (build_error) or the reason (no_program)
//	build_ms   number   how long go build took, in milliseconds
//	cases      array    one object per case:
//	  name        string   the case file's name without .txtar
//	  title       string   the case's title in the user's language
//	  visible     bool     shown in the statement
//	  status      string   pass | fail | timeout | crash | output_limit
//	  args        array    the arguments of the last run
//	  want        string   the expected stdout (omitted for hidden cases in a learner's report)
//	  got         string   what the program printed
//	  stderr      string   what it printed on stderr
//	  exit_code   int      its exit code (-1 when it was killed)
//	  want_exit   int      the exit code the case expects, when it checks one
//	  duration_ms number   wall time of the runs
//	  diff        object   the first difference: line, want, got, notes (codes such as
//	                       trailing_space, tab, missing_newline, extra_newline, latin_lookalike,
//	                       cyrillic_in_word, missing_lines, extra_lines, invisible_char)
//	  message     string   why the case failed when it is not a difference in stdout (exit_zero,
//	                       exit_nonzero, exit_code, or testscript's own words)
package checker
