// Package checker is the one engine that judges a learner's Go program: it builds the program once,
// in a scratch copy and offline, runs every case of an exercise against it under limits, and returns a
// structured Result. The CLI (check, grade, verify), the lesson engine and the web server all call it.
//
//	cases, _ := checker.LoadCases(fsys, "exercises/exercise-deadline/cases")
//	res, err := checker.Check(ctx, "path/to/learner/folder", cases, checker.Options{Lang: "bg"})
//	// err != nil: the check could not be made (no Go toolchain, unreadable folder).
//	// res.Verdict: pass, fail, build_error, timeout, crash, output_limit, memory_limit or no_program.
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
// may print, and the sandbox described below.
//
// A build that fails is a verdict, never an error: BuildFailure.Reason (copied into Result.Message)
// names the known causes a learner can fix: go_version (go.mod asks for a Go that is not installed;
// nothing is downloaded), module (a requirement outside the standard library; the build is offline),
// cgo (import "C"; CGO_ENABLED=0), build_time, and for no_program no_go_files or not_main.
//
// # Isolation
//
// Learner code is untrusted. What a run gets depends on the system, and Result.Isolation (JSON
// "isolation") says which protections applied and which are missing, so that nobody believes in a
// protection the system could not give; `workbook check` prints a line only when one is missing.
// The protections are: time (wall-time limit, default 2 s), output (default 1 MiB; the program is
// stopped at the cap), env (scrubbed environment), process_tree (everything the program started
// dies with it, even after setsid), network (no network at all), filesystem (reads and writes only in
// the work folder), private_tmp, memory, cpu and processes (limits per run).
//
// On Linux a run goes through a small sandbox init (internal/sandboxinit, built once, offline, from
// its embedded source into workbook/sandbox-init-HASH beside the Go build cache or in the user's
// cache folder; it is a program of its own because the package initialisation of a large binary
// would cost a tenth of a second on every run). The checker starts it in new PID, network, mount,
// IPC and UTS namespaces, inside a new user namespace: as an ordinary user the namespace's root is
// the user, and as root it is nobody (65534), so that a learner's program never runs as root. The
// init mounts a private tmpfs on /tmp (HOME and TMPDIR point into it), sets resource limits
// (RLIMIT_CPU from Limits.CPUTime, default twice the wall time; RLIMIT_DATA from Limits.Memory,
// default 512 MiB, which a Go program respects and which, unlike the address space it reserves at
// start, grows only with what it uses; RLIMIT_AS 2 GiB above that as a backstop; RLIMIT_NPROC from
// Limits.Processes, default 128 processes and threads, counted per user namespace and so per run;
// RLIMIT_FSIZE 64 MiB; no core files), drops supplementary groups and every capability, sets
// no_new_privs, and applies Landlock: the program may read, write and run only its work folder and
// /tmp, read its own executable, the time-zone data and a few devices; from ABI 4 on it may not use
// TCP, and from ABI 6 on it may not signal or reach through abstract sockets any process outside.
// Then it execs the program, which becomes the first process of its PID namespace: when it exits or
// is killed, the kernel kills every process it started. The work folder and the executable are
// handed over as open descriptors, so no folder on their path needs to be open to the sandbox's user.
// A failure to set up is written on a status pipe and reported as a crash with message "sandbox".
//
// Where PID namespaces are available, runs share such an init (a session, see session_linux.go):
// started as above but without a program to exec, it stays the first process of its namespaces and
// runs a program once per request, the program and the work folder coming with the request. For
// each run a fresh thread of the init takes a session keyring and an IPC namespace of its own, drops
// the capabilities, sets no_new_privs and takes a Landlock domain of its own with that run's program
// and work folder, forks and execs the program from there, and ends; after the program the init
// kills every process left in the namespace, empties /tmp and takes the keys the run added out of the
// user's keyrings, so no run sees what another left behind, and the runs of a session may be of
// different programs: the sessions of one set of limits are shared by every program in the process
// (a class graded one student after another starts one init per worker, not one per student). Where
// the init cannot give runs IPC namespaces (namespaces without a user namespace, as root), each
// program has sessions of its own, and the keyrings of nobody, whom the programs run as, are emptied
// when a session starts and after every run. A session serves one run at a time; a run stopped at its
// time or output limit kills its session with it, and the next run starts a new one. An idle session
// ends after ten seconds, when its program is closed if it serves one program only, and when the
// checker's process dies. Each session is bound to one CPU, the one with the fewest sessions, and its
// programs with it: programs that run at the same time do not take each other's CPU, and a program's
// Go runtime sees one CPU.

// The checker finds the strongest sandbox the system allows once per process, by starting the init
// in probe mode: namespaces with a user namespace; as root, namespaces without one (the program
// becomes nobody before exec); then no namespaces but Landlock and resource limits (as an ordinary
// user without user namespaces the process limit is left out, since RLIMIT_NPROC would count every
// process of the user); then the basic level, a direct exec in a process group. In a session a run
// costs a few tenths of a millisecond more than a plain exec; one init per run, as on the levels
// without PID namespaces, costs about fifteen more (BENCHMARKS.md).
//
// On macOS, Windows and other systems a run gets the portable baseline: a scrubbed environment, a
// scratch work folder, the wall-time limit and the output cap. On Unix the program's process group
// is killed as a whole, which misses a child that called setsid; on Windows only the program itself
// is killed. There is no network, file-system, memory, CPU or process limit there, and Isolation
// lists them as missing.
//
// A run that hits a limit gets a status and a message (CaseResult.Message, RunOutput.Reason):
// timeout with cpu_limit, memory_limit, crash with process_limit; a program that exits non-zero
// because it was refused the network or a file gets the message network or file_access. The hostile
// programs in testdata/hostile (an endless loop, a CPU burner, endless output, a memory bomb, a fork
// bomb, an orphan, a setsid escape, a dial out, writes and reads outside the work folder, cgo,
// another toolchain, an external module, a panic, a Cyrillic compile error, an empty folder, no
// package main, invalid UTF-8) are run by TestHostile at every level the system can set up, and as
// nobody when the tests run as root; it asserts each verdict and that nothing was reached, written
// or left running.
//
// # JSON
//
// A Result marshals to JSON with these stable field names:
//
//	exercise   string   the exercise's name
//	lang       string   the transcript language (bg or ru)
//	dir        string   the folder that was checked
//	verdict    string   pass | fail | build_error | timeout | crash | output_limit | memory_limit |
//	                    no_program
//	passed     int      cases passed
//	total      int      cases run
//	message    string   optional: a known cause of a failed build (go_version, module, cgo,
//	                    build_time, no_go_files, not_main)
//	build_log  string   the compiler's messages (build_error) or the reason (no_program)
//	build_ms   number   how long go build took, in milliseconds
//	cases      array    one object per case:
//	  name        string   the case file's name without .txtar
//	  title       string   the case's title in the user's language
//	  visible     bool     shown in the statement
//	  status      string   pass | fail | timeout | crash | output_limit | memory_limit
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
//	                       exit_nonzero, exit_code, cpu_limit, memory_limit, process_limit,
//	                       network, file_access, sandbox, or testscript's own words)
//	isolation  object   the protections of the runs: level (namespaces, landlock, rlimits or
//	                    basic), applied and missing (lists of codes; see Isolation)
package checker
