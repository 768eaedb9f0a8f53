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
// A case is a testscript (.txtar) file. Besides testscript's own commands, a case has:
//
//	run [ARGS...]   run the learner's program in the case's work folder; it must exit 0
//	! run [ARGS...] the program must exit non-zero
//	expect NAME     the last run's stdout equals file NAME.<lang>, or NAME when there is none
//	status N        the last run exited with code N
//	metrics         the last run's figures are each within its limit (a scenario exercise: see
//	                metrics.go and package checker/scenario)
//
// A case of those lines and testscript's stdout and stderr (with one pattern, no -count=) alone, with
// no condition and no $VARIABLE, runs straight from memory, without testscript (see parseDirect):
// every case of the course does, and costs 1.1× its bare runs. Any other case runs through
// testscript.RunT with a small custom T, each in a work folder of its own; both ways give the same
// result (TestDirectMatchesTestscript, TestBatchMatchesAlone).
//
// Comment lines "# bg: …", "# ru: …", "# en: …" at the top give the case's title in each language.
// Cases in a visible/ folder are shown to the learner; those in hidden/ are not, and a learner's
// report (Result.Redacted) names only their title. Transcripts are compared byte for byte after one
// normalisation: CRLF becomes LF.
//
// # Building and running
//
// Build reads the learner's folder safely into a scratch copy (see snapshot): only regular files,
// each opened without following a link and without waiting on a FIFO or a device, checked again
// once open, and size-limited while read (8 MiB a file, 20 MiB and 500 files in all). Only .go files
// and go.mod take part in a build; everything else (.s, .c, .h, .syso, links, FIFOs, devices) is
// left out and named in Program.Skipped and Result.Skipped ("path: why"). A go.mod may name its
// module and a go version (and a toolchain no newer than the installed Go), nothing else: require,
// replace, exclude, retract, tool, godebug and ignore lines are refused before anything is built
// (Reason go_mod), so a go.mod cannot point the build at a folder of the machine, such as the
// course's own module. Build adds a go.mod when there is none and runs go build with a scrubbed
// environment: GOTOOLCHAIN=local, GOPROXY=off, GOFLAGS=-mod=mod, GOWORK=off, GOENV=off,
// CGO_ENABLED=0, its own HOME, GOPATH and XDG_CONFIG_HOME, and the user's warm GOCACHE. On Linux the
// go command itself runs in the sandbox below, as the checker's own user: new namespaces (no
// network), no capabilities, Landlock rules that let it read only GOROOT, the build cache and the
// scratch folder and write only the last two, 1 GiB of memory per process, and no file over 64
// MiB (which bounds the executable and every entry a build adds to the cache). A build is judged
// like a run: by the CPU time of the go command's whole process tree (the go command, every
// compiler and linker it starts), read from /proc every 100 ms while it runs and from the go
// command's rusage when it ends, against Limits.BuildTime (30 s by default: an exercise compiles
// in about a second); past it the build is stopped, build_error with message build_time, so a
// compile-time bomb costs its author its limit of CPU time whatever the machine's load. A busy
// machine, which only keeps the build waiting for a CPU, costs it nothing. The wall clock is a
// backstop (Limits.BuildWall, twenty times BuildTime, at least ten minutes): a build stopped there had used less than its
// CPU time, so the machine was at fault, and it is an error of the tool, never a verdict. Where the
// CPU time of a process tree cannot be read (macOS, Windows), a wall clock of three times BuildTime
// stands in for it. Before a program is built, the packages of the standard library it imports
// (and, in virtual time, the harness's and the flaky service's) are compiled as the course's own
// code (warmStd: a program of blank imports, under no limit but an hour), so that a first check on
// a machine with an empty build cache, which compiles them for a minute or more, never charges that
// to the program; which packages are known to be compiled is remembered for a day per toolchain and
// build cache (CacheDir("warm")), and a front end can say why a first check is slow (WithProgress).
// Should a build still run out of its limit because the cache lost them since (go clean -cache),
// they are compiled again and the program is built once more. The course's own code (the reference
// solutions drawn cases need, lesson programs, verify's builds and mutants: Limits.Trusted) is
// never held to a limit meant for compile-time bombs, and is built once per content hash (the
// cache of executables, and the reference solutions' own cache). Compiler messages are
// given with paths relative to the learner's folder; a path in GOROOT reads $GOROOT/…, and any other
// path of the machine <outside>. Every executable is checked before it is used or cached (checkExe),
// by what it is, not by its syntax: the writable memory its segments ask for at start (ELF's
// writable PT_LOAD segments, Mach-O's writable segments, PE's writable sections: data and bss) must
// fit in half a run's memory, so var ballast = [...]byte{700 << 20: 0}, one element in the source
// and nothing in the file, is a build error (static_data), not a crash of every run.
//
// # One student, one process
//
// BuildMany (grade, verify) builds many learners' programs with one go command: those that need
// only the standard library are copied side by side into one scratch module, one package each, and
// `go build -json -ldflags=-s -w -o DIR/ ./p000 ./p001 …` shares the go command's start, the compile
// cache and the scheduling of parallel links among them, and links each package into an executable
// of its own. No two learners' programs ever share an executable, a process or a cached artefact: a
// program that reads its own executable or memory finds only its own code (TestClassBesideAttacks).
// A failure is blamed on a package from the go command's structured events (build-output and
// build-fail, each with its ImportPath), never from the compiler's text, which a program controls
// (its messages may name the other packages); a blamed program is built again alone, for the exact
// messages Build gives it. The batch is stopped once its go command has used half of BuildTime of
// CPU time per CPU without a new executable in its output folder; every program it did not produce
// is then built alone, as many at once as there are CPUs, each with the other half of its limit, so
// a compile-time bomb (28 struct types of two of the one before, compared with ==) costs its author
// alone and the class waits about one build limit for it, not one per program, while a busy
// machine, on which the executables keep coming, only slowly, never stops a batch (a batch that
// makes no progress for half the wall-clock backstop is stopped too, and its programs are built
// alone under their whole limits).
//
// An executable is kept in the cache of executables (execache.go) only under the key of its own
// program's sources, only after checkExe, and only when the program is closed with no run of it
// having failed for a reason outside the program (a sandbox that could not be set up, a run the
// checker had to stop itself): a fault of the machine is never cached as the program's.
//
// A build that fails is a verdict, never an error: BuildFailure.Reason (copied into Result.Message)
// names the known causes a learner can fix: go_version (go.mod asks for a Go that is not installed;
// nothing is downloaded), go_mod (a directive other than module and go), module (an import outside
// the standard library; the build is offline), cgo (import "C"; CGO_ENABLED=0), build_time,
// build_memory and build_size (the build's limits: a huge initialised array, most often), and for
// no_program no_go_files or not_main.
//
// # Cases and what a run can reach
//
// Nothing a case compares against is held where a program could read it, at any level of the
// sandbox: the files an `expect NAME` line compares with (NAME, NAME.<lang>) are taken out of the
// case before testscript unpacks it (or read from memory by a case that runs without testscript)
// and kept in memory only. The program never runs in testscript's work folder: each run starts in a fresh,
// empty folder of its own, into which only the case's input files are copied (the files of the case
// that a run argument names, as ARG or as -flag=ARG), and which is removed after the run. Where the
// sandbox init copies that folder into the run's private /tmp (the namespace levels), the program
// works in the copy and never sees the folder itself, and a run without input files is handed one
// folder of the program's that stays empty. Files the program writes are not kept. (An instructor's case that compares
// with testscript's own cmp keeps that file on disk, out of reach only where Landlock applies.)
// The checker's memory, which holds them, and its executable, which embeds the course's cases, are
// out of reach too: no program may read another process's memory by a system call (the seccomp
// filter), and the checker makes itself not dumpable before its first run (guardMemory), so that
// where no Landlock rule keeps /proc from a program that runs as the checker's user (the rlimits
// and basic levels) the kernel still refuses it the checker's /proc/PID/mem, exe, maps and environ.
// Nor may a run reach another run beside it there (another student's, or the reference solution's
// making a drawn case's expected output): at the rlimits level of an ordinary user, where the runs
// share the checker's user and nothing else keeps them apart, each program's executable is
// unreadable (0111) while it runs, so that the kernel makes the process not dumpable at its exec and
// keeps its /proc/PID/mem, fd and environ from the others (a program had rewritten the memory of a
// run beside it); the same makes its /proc/PID/fd and syscall unreadable to the checker, which then
// names a blocked run's wait blocked rather than slept or waited. At the basic level nothing keeps
// runs apart. What those levels cannot keep from such a program is the user's files (Isolation
// lists filesystem as missing): the course's cases in a clone, or an instructor's folder of cases,
// are files it may read, and where it runs as the checker's own user (an ordinary user; as root
// each run is a user of its own) it may also write them: the user's own files, and in a grading the
// scratch copies and executables of the classmates graded beside it. grade's summary and
// report.html say so, and where to grade instead (Landlock, user namespaces, the container image);
// macOS and Windows are the same (below).
//
// # Time
//
// A run's time limit (Limits.RunTime, `--timeout`, 2 s by default) counts the program's own CPU
// time, which does not depend on what else the machine is doing: a run past it is stopped, status
// timeout, message cpu_limit. On Linux the CPU time is read while the program runs, from the
// kernel's per-process CPU clock (clock_gettime of MAKE_PROCESS_CPUCLOCK); in a session (below) the
// sandbox init reads it, and past the first 50 ms also adds up the schedstat of every thread of
// every process of the run, so the CPU time of the children it waits for counts too. A program that
// sleeps or waits (time.Sleep for ever, a channel nobody sends on, a lock never released, a child
// that never ends) is judged on a scale of its own: a run is stopped once it has spent
// Limits.IdleTime (half of RunTime, at least 250 ms: 1 s by default) with no thread on a CPU or
// waiting for one (schedstat's run-queue time), so a program that a busy machine keeps waiting for a
// CPU is never stopped for it. Before it is killed, the system calls its threads are blocked in are
// read (/proc/PID/task/TID/syscall, by the watcher or the sandbox init; see package waits) and name
// what it did: message slept when they carry a timeout (time.Sleep, a ticker, time.After: the Go
// runtime's poller waits for the next timer), waited when they carry none (a channel nobody sends
// on, a lock, a read that never returns), blocked (either) where they cannot be read. The
// classification is of the whole program, from outside: a goroutine that waits on a channel while
// another sleeps for an hour is a sleeper, as its threads would wake by themselves. That idle time is added up between readings,
// every 50 ms (a quarter of the idle limit when that is shorter, at least every 10 ms): a stretch
// counts only if no thread of the run was runnable (state R) or in an uninterruptible wait (state D:
// a page fault or a disk read, which a loaded or thrashing machine makes long) at either end and the
// program had not yet exited, because a thread's wait for a CPU enters its schedstat only once it
// gets one (on a machine whose autogroups share the CPU, hundreds of milliseconds later). A thread
// asleep writing to the run's own stdout or stderr pipe, or reading its stdin while the checker
// still feeds it, waits for the checker, which a busy machine makes slow to drain or feed it, and
// is not idle either; the pipes are known by their inodes (the sandbox init's, and the checker's
// own where it starts the program itself), so a pipe the program made or opened again through
// /proc/self/fd (even onto descriptor 1) is no excuse (waits.OnStdio). The course's programs run in virtual time (see Virtual time), so a real sleep is rare, and a short one
// (a few hundred milliseconds in all) is allowed. Limits.WallTime (ten times RunTime) stops a run
// whose threads cannot be read; a run whose threads can be read is stopped once it has spent four
// times WallTime of its own wall-clock time (stretches counted as for the idle time, but with a
// thread in a disk wait counted too: only running and waiting for a CPU are not the program's own),
// and by the wall clock alone at two minutes (or four times WallTime, if longer): a machine so busy
// that an honest program needing 20 ms of CPU waits seconds for it changes no verdict. The program
// cannot make itself wait on the machine's account: the seccomp filter refuses it a lower priority
// or scheduling class (setpriority, sched_setscheduler and their kin).
// RLIMIT_CPU (Limits.CPUTime) stops each process as a last resort. On macOS and Windows a running
// program's CPU time cannot be read: a run is stopped by the wall clock at three times RunTime (or
// WallTime, if sooner) and judged afterwards by the CPU time the system reports (ProcessState's user
// and system time): cpu_limit past RunTime, blocked when it used less than a tenth of the time it
// ran. A run that ends by itself after more CPU time than RunTime is a timeout everywhere, so the
// verdict does not depend on how soon a watcher noticed. TestVerdictsUnderLoad checks that four CPU
// burners change no status. Reports name what happened in the user's language: a program that used
// up its CPU time (an endless loop?), or one that slept or waited.
//
// Every case gets its verdict: a case that runs out of its time never cancels the others. What a
// program's runs that do not finish, or sleep, may cost is bounded instead (see budget): a case is
// charged RunTime for each of its runs that was stopped at a time limit (its CPU or its idle limit),
// and, on Linux, the sleep of each run that ended by itself after idling longer than the short
// limit's idle time (RunOutput.Idle, from the same schedstat). A case whose earlier cases (in their
// order) were charged Limits.Budget (twice RunTime) gets a short limit (a twentieth of RunTime, 100
// to 250 ms of CPU time, as much idle time, ten times that of wall clock): it keeps its real result
// if it finishes within it, and is not_run, message budget, if not (a run that went past the short
// limit's CPU time is made once more first: on a busy machine, above all in a VM whose host preempts
// it, a CPU clock is stretched by time that was not the program's, and a program that prints one
// line was once charged 110 ms); Result.Hung names the first case
// that timed out (or else the first that slept) and Result.RunLimit is the budget. Once a case has
// been charged, a case that starts while earlier ones could still spend the rest of the budget waits
// for them before it takes its limit, so no more runs wait out the full limit than the budget holds
// (or than run at once). A run that computes and ends by itself costs the budget nothing, however
// slow, so a slow program is never cut short, and a busy machine, which keeps a program waiting for
// a CPU, charges nothing either. An endless loop in every case costs about two CPU limits and a
// fraction of a second per case; a sleeper or a waiter in every case costs two idle limits (1 s, the
// two at once on two cores) and about a tenth of a second per case after them (exercise-deadline's
// 34 cases: about 3 s, BENCHMARKS.md); a program that hangs in some cases keeps the points of the
// others. Which cases are cut depends on the program's own CPU and idle time, not on the machine's
// load or on which runs went first.
//
// Each run gets a scrubbed environment, the time limits above, a cap on the bytes it may print, and
// the sandbox described below.
//
// # Isolation
//
// Learner code is untrusted. What a run gets depends on the system, and Result.Isolation (JSON
// "isolation") says which protections applied and which are missing, so that nobody believes in a
// protection the system could not give; `workbook check` prints a line only when one is missing.
// The protections are: time (the time limits above: CPU time on Linux, the wall clock standing in
// for it elsewhere), output (default 1 MiB; the program is
// stopped at the cap), env (scrubbed environment), process_tree (everything the program started
// dies with it, even after setsid), network (no network at all), filesystem (reads and writes only in
// the work folder), private_tmp, memory and cpu (limits per process), processes (a limit per run),
// run_memory (the memory of all the run's processes together), run_disk (all the files the run
// writes together), syscalls (the seccomp filter below) and no_child_processes (the same filter
// makes a run one process: see One run, one process).
//
// On Linux a run goes through a small sandbox init (internal/sandboxinit, built once, offline, from
// its embedded source into workbook/sandbox-init-HASH beside the Go build cache or in the user's
// cache folder; it is a program of its own because the package initialisation of a large binary
// would cost a tenth of a second on every run). The checker starts it in new PID, network, mount,
// IPC and UTS namespaces, inside a new user namespace: as an ordinary user the namespace's root is
// the user, and as root it is nobody (65534), so that a learner's program never runs as root. The
// init mounts a private tmpfs on /tmp (HOME and TMPDIR point into it), sets resource limits
// (RLIMIT_CPU from Limits.CPUTime, default twice RunTime; RLIMIT_DATA from Limits.Memory,
// default 512 MiB, which a Go program respects and which, unlike the address space it reserves at
// start, grows only with what it uses; RLIMIT_AS 2 GiB above that as a backstop; RLIMIT_NPROC from
// Limits.Processes, default 128 processes and threads, counted per user namespace and so per run;
// RLIMIT_FSIZE 64 MiB; RLIMIT_NOFILE 64, which also bounds the pipes and sockets whose buffers the
// kernel holds for it; RLIMIT_STACK 8 MiB, soft and hard, since the pages of a stack count against
// it and never against RLIMIT_DATA; RLIMIT_CORE 1, not 0, which the filter keeps the program from
// changing: 0 stops a core file but not a core_pattern that pipes to a helper, as Ubuntu's apport
// and systemd-coredump do, which the kernel would start as root outside the sandbox at each crash
// that dumps core, and 1 stops both), drops supplementary groups and every capability, sets
// no_new_privs, and applies Landlock: the program may read and write only its work folder and /tmp,
// run only its own executable (nothing it wrote), read the time-zone data and a few devices; from
// ABI 4 on it may not use
// TCP, and from ABI 6 on it may not signal or reach through abstract sockets any process outside.
// With namespaces the init also mounts a /proc of the namespace's own (where the kernel allows it),
// and the program works in a copy of its folder inside the private /tmp: the folder, /tmp and HOME
// share one 64 MiB tmpfs of at most 4096 files and folders, mounted noexec, so the files a run
// writes (and the kernel memory of their inodes) are bounded together, not file by file. In a
// session (below) a watchdog in the init adds up, every 5 ms, the resident anonymous memory of every
// process of the run and their shared memory less what the tmpfs's files hold (those are bounded by
// its size, and a program that maps its own file is not charged twice), and kills them all past
// Limits.Memory (Status memory_limit): eight children of 200 MiB each, or 800 MiB of shared
// anonymous memory where the filter is missing, are stopped although RLIMIT_DATA sees none of it.
// Where the filter holds, the run is one process (see One run, one process), and the watchdog reads
// that process's status alone instead of listing /proc. A
// seccomp filter, after no_new_privs, refuses what a program has no use for and what would let it
// out of its limits: sched_setaffinity (a run stays on the CPU it was bound to), unshare, setns and
// clone with a CLONE_NEW* flag (no nested user namespaces; clone3 answers ENOSYS), mounts, io_uring,
// bpf, perf_event_open, userfaultfd, ptrace and process_vm_*, keyrings, module loading, sync and
// syncfs (which write back every program's dirty pages, not the run's); and every
// kind of memory that no resident size shows, that the kernel holds for the program, or that
// RLIMIT_DATA does not count: shared mappings (mmap with MAP_SHARED, anonymous or of a file), stacks
// (mmap with MAP_GROWSDOWN, and mremap, which grew the process's own stack in place by 1 GiB that
// neither RLIMIT_DATA nor RLIMIT_STACK counted), pages lent to a pipe (vmsplice, by which 28 pipes
// held 896 MiB of huge pages the program had unmapped), memfd_create, memfd_secret, shmget,
// msgget, semget, mq_open, timer_create, sockets of any family but AF_UNIX (a run has no network),
// larger socket buffers (SO_SNDBUF, SO_RCVBUF and their FORCE forms) and larger pipes
// (F_SETPIPE_SZ), which leaves the default buffers of at most 64 pipes and sockets (and as many in
// flight, which the kernel bounds by the same limit): a few tens of MiB at most. Where a run has no PID
// namespace of its own (the landlock and rlimits levels), the filter also lets it signal only itself:
// kill, tgkill and rt_(tg)sigqueueinfo aimed at another process, tkill, pidfd_send_signal, and
// making another process the owner of a file that signals it (F_SETOWN, FIOSETOWN, SIOCSPGRP) answer
// EPERM, since Landlock keeps signals in only from ABI 6 (Linux 6.12) and kill(-1, SIGKILL) would
// otherwise end every process of the checker's user. 32-bit and x32
// system calls are refused as a whole. The filter exists for amd64 and arm64; elsewhere syscalls
// and no_child_processes are missing.
//
// # One run, one process
//
// An exercise program never needs a child process, and a process it started is one its limits do
// not see: a helper in a session of its own that starts short-lived burners burnt 9.5 s of CPU in
// a run judged by its own 2 s clock. So the filter makes a run threads only: clone with
// CLONE_THREAD (how the Go runtime starts its threads) is allowed, but fork, vfork, clone without
// it (how os/exec starts a child) and every execve and execveat after the program's own kill the
// program with SIGSYS at once, reported as a crash with message process. The program's own execve
// is told apart by a random secret in an argument execve does not read, known only to the process
// that installed the filter; the filter cannot be read back (ptrace is refused), and a wrong guess
// is fatal. (Go's os.FindProcess probes clone without an exit signal: that one answers EPERM, and
// FindProcess goes on without a pidfd.) So the program's own CPU clock and memory are the whole
// run's, on every Linux with the filter, with or without a cgroup: RLIMIT_CPU and the init's reading
// of the program's CPU clock bound its time, RLIMIT_DATA its private memory, the filter refuses
// shared memory, and the watchdog and the cgroup, where there are, only add a second bound. The
// filter is installed by the process that execs the program (the init itself), or in a session by
// the run's thread of the init, on itself, which then forks by a clone that carries the same secret
// in the argument clone does not read (the one fork the filter allows); the child makes nothing but
// system calls (a Go program cannot run code of its own between fork and exec) and execs the
// program, and the CPU time it used before the exec is left out of the program's. That clone
// shares the init's memory until the exec and the run's thread waits for it (CLONE_VM and
// CLONE_VFORK, as Go's own os/exec forks, in assembly for amd64 and arm64 so that the child cannot
// change where the parent returns to): a fork that copied the init's page tables, and made every
// page the init wrote afterwards fault, cost a third of the init's CPU time per run. Where
// the filter is missing (another architecture, a kernel that refuses it, the basic level), a run may
// start processes: RLIMIT_NPROC, the watchdog over every process of the namespace, the killing of the
// whole namespace and, where there is one, the cgroup bound them instead, and Landlock and the noexec
// tmpfs still keep a run from running a file it wrote (TestRunWithoutFilter).
//
// Then the init execs the program, which becomes the first process of its PID namespace: when it
// exits or is killed, the kernel kills every process it started. The work folder and the executable are
// handed over as open descriptors, so no folder on their path needs to be open to the sandbox's user.
// A failure to set up is written on a status pipe and reported as a crash with message "sandbox".
//
// Where PID namespaces are available, runs share such an init (a session, see session_linux.go):
// started as above but without a program to exec, it stays the first process of its namespaces and
// runs a program once per request, the program and the work folder coming with the request. For
// each run a fresh thread of the init takes a session keyring and an IPC namespace of its own, drops
// the capabilities, sets no_new_privs and takes a Landlock domain of its own with that run's program
// and work folder, forks and execs the program from there (with the filter, above), and ends;
// after the program the init
// kills every process left in the namespace, empties /tmp and takes the keys the run added out of the
// user's keyrings, so no run sees what another left behind, and the runs of a session may be of
// different programs, one at a time: the sessions of one set of limits are shared by every program in
// the process (a class graded one student after another starts one init per worker, not one per
// student), and a run is always a process of its own program alone. A request carries the run's CPU,
// idle and wall-clock limits; the init stops the run at them itself (see Time) and answers with the
// limit it was stopped at and the CPU time the program used (wait4's rusage). Where
// the init cannot give runs IPC namespaces (namespaces without a user namespace, as root), each
// program has sessions of its own, and the keyrings of nobody, whom the programs run as, are emptied
// when a session starts and after every run. A session serves one run at a time; a run the init
// stopped at its time limits leaves the session as any run does, and one stopped at its output cap
// kills its session with it, the next run starting a new one. An idle session
// ends after ten seconds, when its program is closed if it serves one program only, and when the
// checker's process dies. Each session is bound to one CPU, the one with the fewest sessions, and its
// programs with it: programs that run at the same time do not take each other's CPU, and a program's
// Go runtime sees one CPU.

// The checker finds the strongest sandbox the system allows once per process, by starting the init
// in probe mode: namespaces with a user namespace; as root, namespaces without one (the program
// becomes nobody before exec); then no namespaces but Landlock and resource limits (as an ordinary
// user without user namespaces RLIMIT_NPROC is left out, since it would count every process of the
// user: there, where the seccomp filter makes a run one process and no cgroup bounds its tasks, the
// checker's watcher reads the program's number of threads as often as its CPU time and stops the
// run past Limits.Processes (crash, process_limit), over it at most by the threads the program
// starts between two readings (10 ms apart at most), where a program parked 6,000 threads, each a
// kernel stack and task no memory limit counts; without the filter the process limit is missing
// there); then the basic level, a direct exec in a process group. In a session a run
// costs a few tenths of a millisecond more than a plain exec; one init per run, as on the levels
// without PID namespaces, costs about fifteen more (BENCHMARKS.md).
//
// Where the system delegates a cgroup v2 subtree to the checker, every tree of sandboxed processes
// (one run's init and all it starts, or a session's init and its runs) is started inside a cgroup of
// its own by clone3 with CLONE_INTO_CGROUP, at every level: the memory of all its processes together
// is bounded (memory.max at the run's memory limit plus the tmpfs of its files, no swap,
// memory.oom.group), and so are its tasks (pids.max), and when the run ends cgroup.kill ends whatever
// is left, a child that called setsid included, at the levels without a PID namespace too; a run
// the kernel stopped at the limit gets memory_limit. The checker uses the cgroup it was started in
// when cgroup.controllers there offers memory and pids, the folder is the user's to write, and the
// checker is alone in it: it moves itself into a leaf of its own and enables both controllers for
// the cgroups it makes beside it. A service with Delegate=yes, or `systemd-run --user --scope -p
// Delegate=yes workbook grade …`, gives that. Where the checker's cgroup is of no use (a terminal's
// scope shared with the shell, a session's scope that is root's), and systemd manages a system with
// cgroup v2 alone, the checker asks systemd itself, once per process and only when a run needs the
// sandbox, as systemd-run does: StartTransientUnit of a scope workbook-PID-RANDOM.scope holding its
// own process, with Delegate=yes and CollectMode=inactive-or-failed, then the wait for the job's
// JobRemoved. An ordinary user asks the user's manager (its private socket
// $XDG_RUNTIME_DIR/systemd/private, else the session bus), root the system's (/run/systemd/private,
// else the system bus); a private socket must be root's or the user's own. Once systemd has moved
// the checker into the scope it is alone there, and the path above follows; Isolation.CgroupFrom
// then says the cgroup came from systemd (systemd_user or systemd_system). The request has five
// seconds: a manager or bus that does not answer, refuses, or fails the job leaves the checker
// without cgroups, and the reason joins CgroupStatus'. WORKBOOK_SYSTEMD_SCOPE=0 turns the request
// off. Otherwise (cgroup v1 or a hybrid system whose memory controller is v1's, as on the machine
// this was written on; no systemd; a read-only cgroupfs) it says why (CgroupStatus) and the watchdog
// and the tmpfs of the namespace levels are the run-wide limits, RLIMIT_NPROC (per user namespace)
// bounds processes, and at the landlock and rlimits levels nothing bounds a run's memory as a
// whole. Isolation.Cgroup names the folder when cgroups are used. TestCgroupsInVM runs the cgroup
// tests and the hostile corpus in a virtual machine whose kernel delegates cgroup v2, in four
// scenarios (a delegated service, a user's delegated scope, a scope shared with another process,
// and a session's scope beside a real `systemd --user` that the checker asks for its scope). The go
// build is not put in a cgroup; its processes keep their per-process limits (RLIMIT_CPU at twice
// BuildTime as a last resort), and its CPU time is read from /proc (see Building and running).
//
// On macOS, Windows and other systems a run gets the portable baseline: a scrubbed environment, a
// scratch work folder (fresh for each run, with only the case's input files), the time limits
// (the wall clock standing in for the CPU time, see Time) and the output cap; the expected files are never on disk there either, a go.mod is held to its
// module and go lines, and only .go files are read, as everywhere. What is missing there: the file
// system is open to the program (it can read the course's content in a clone, or the user's files),
// there is no network isolation, no memory, CPU, process or disk limit, no seccomp filter, and the
// build is not sandboxed. On Unix the program's process group
// is killed as a whole, which misses a child that called setsid; on Windows only the program itself
// is killed. There is no network, file-system, memory, CPU or process limit there, and Isolation
// lists them as missing.
//
// A run that hits a limit gets a status and a message (CaseResult.Message, RunOutput.Reason):
// timeout with cpu_limit, memory_limit, crash with process_limit, crash with process (it tried to
// start a process or exec a program, where a run is one process); a program that exits non-zero
// because it was refused the network or a file gets the message network or file_access. The hostile
// programs in testdata/hostile (an endless loop, a CPU burner, endless output, a memory bomb, a fork
// bomb, an orphan, a setsid escape, a dial out, writes and reads outside the work folder, cgo,
// another toolchain, an external module, a panic, a Cyrillic compile error, an empty folder, no
// package main, invalid UTF-8, a hunt for the expected files that also writes its own, stat probes by
// guessed names, a go.mod replacing the course's module, an import of it, an assembly file that
// includes a file of the machine, a FIFO and links to /dev/zero and outside as .go files, a 256 MiB
// initialised array, ballast of 700 MiB of zeros, a compile-time bomb, a 1 GiB constant expression,
// a sleeper, a deadlock, eight children holding memory together, a disk filler, forbidden system
// calls, a /proc listing; and for one process a run: a double-fork orphan that starts short-lived
// burners, vfork and a clone without CLONE_THREAD by raw system calls, an executable written at run
// time in the work folder, /tmp or HOME and run with syscall.Exec, os.StartProcess, os/exec, through
// /proc/self/fd/N or by execveat, the program exec'ing itself, 800 MiB of shared anonymous memory, a
// file of /dev/shm, /tmp or the work folder mapped shared, socket pairs and pipes filled and sent in
// flight until no more can be opened, and signals aimed at the checker and every process of its user;
// and memory no limit counted: 1 GiB of stack by MAP_GROWSDOWN, by growing the process's stack
// under a raised RLIMIT_STACK and by mremap of it, 896 MiB of huge pages lent to pipes by vmsplice,
// 6,000 threads parked in blocking reads; an RLIMIT_CORE lowered to 0 for a core helper, sync and
// syncfs, folders locked against the checker's removal, and a run that rewrites another's memory
// through /proc, run beside it) are run by TestHostile at every level the system can set up, and as
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
//	message    string   optional: a known cause of a failed build (go_version, go_mod, module, cgo,
//	                    build_time, build_memory, build_size, static_data, no_go_files, not_main)
//	build_log  string   the compiler's messages (build_error) or the reason (no_program)
//	build_ms   number   how long go build took, in milliseconds
//	skipped    array    what of the folder took no part in the build, "path: why" (why: symlink,
//	                    not_regular, not_go)
//	hung       string   the first case that timed out, when later cases were not run to their end
//	                    for the budget (status not_run, message budget)
//	run_limit_ms number the program's time budget (Limits.Budget), with hung
//	seed       number   the seed the drawn cases were drawn with (`workbook check NAME --seed N`
//	                    draws them again), when a case was drawn
//	cases      array    one object per case:
//	  name        string   the case file's name without .txtar
//	  title       string   the case's title in the user's language
//	  visible     bool     shown in the statement
//	  drawn       bool     drawn afresh for this check (its args are kept in a learner's report)
//	  status      string   pass | fail | timeout | crash | output_limit | memory_limit | not_run
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
//	                       exit_nonzero, exit_code, cpu_limit, slept, waited, blocked, budget,
//	                       memory_limit, process_limit, process,
//	                       network, file_access, sandbox; stdout_match, stdout_no_match,
//	                       stderr_match, stderr_no_match for a failed stdout or stderr line; or, for
//	                       a case only testscript runs, its words, naming the case and line)
//	  pattern     string   the failed stdout or stderr line's regular expression
//	  metrics     array    a scenario case's figures (the metrics command): name (peak_load,
//	                       requests_per_client, all_served_s, clients_stuck, recovered_s,
//	                       lost_end_pct; in a call chain deep_per_request, served_again_s), value,
//	                       reached (false: never reached within the horizon), limit, ok (value ≤ limit)
//	  scenario    object   the scenario run: name, seed, clients, rate, cost, down, tick_ms, load,
//	                       served and reference (numbers a tick), first_over (the first tick past a
//	                       limit, -1 for none), stopped (the tick after which a storm was stopped
//	                       for the requests sent, -1 for none)
//	isolation  object   the protections of the runs: level (namespaces, landlock, rlimits or
//	                    basic), applied and missing (lists of codes; see Isolation), and cgroup,
//	                    the cgroup v2 folder the runs' cgroups are made in, when there is one,
//	                    cgroup_from, systemd_user or systemd_system when the checker asked systemd
//	                    for that folder's scope (omitted when it was started in it), and
//	                    time_by, what the time limit is judged by: cpu (Linux) or wall (elsewhere)
package checker
