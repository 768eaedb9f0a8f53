// Package web serves the course in the browser, for `workbook serve`: an index of lessons and
// exercises with the learner's progress, lessons whose programs can be edited and run on the page
// and whose quizzes are answered there, and exercises with an editor, a Check button and hints.
//
//	srv, err := web.New(web.Config{Course: course.New(workbook.Content()), Lang: "ru", Addr: "127.0.0.1:8080"})
//	http.Serve(listener, srv) // every page: /ru/, /ru/lessons/slow-neighbour, /bg/exercises/exercise-retry
//
// Everything is embedded: templates, styles, scripts; no page loads anything from the internet.
// Code runs through the same engine as the command line: a snippet's program is assembled by
// lesson.Assemble with the learner's edits in place, its imports fixed by lesson.FixImports, then
// built by checker.Build and run by Program.Run under the checker's limits and sandbox. The
// learner's use cases (a check recorded and what comes next, hints, lessons opened, quiz scores,
// the starter put back and a kept version restored) go through the same learn.Session as the
// command line's, so a check's report, what is kept and the next step are the terminal's, word for
// word, and progress lives in the same state file.
// Quiz answers are judged on the server against the parsed lesson, as `workbook quiz` judges them.
// A lesson's charts are drawn from the JSON its programs print into verified hidden output blocks,
// with the vendored Chart.js (see charts.go): no number in them is computed on the page. A check's
// scenario cases come with their charts (report.ScenarioFigures, in the check's reply), which the
// same charts.js draws from the series the run measured. The page's files are package static's.
//
// The API is a handful of JSON POSTs: /api/page (a page's content), /api/run, /api/quiz,
// /api/save, /api/check, /api/hint, /api/reset, /api/restore and /api/open. Each must carry the
// session token in the X-Workbook-Token header, name the server itself in Host (against DNS
// rebinding) and, when the browser says where it comes from, come from the server's own origin, its
// port included. A page's address (a GET, which cannot carry a header) answers with the page's
// shell, which holds nothing of the learner's; the page's script asks /api/page for the content
// (shell.go). See guard.go.
//
// # Other users of the machine
//
// A server on 127.0.0.1 can be reached by every user of the machine, and by every page their
// browsers open: a port is not a user's own, and neither is the origin (scheme, host and port)
// that a browser trusts, once the learner's server has let go of it. What holds for them:
//
//   - Without the token, they get what the binary holds anyway: the shell of a page (its frame and
//     the words its script shows) and the static files. Nothing of the learner's (programs, drafts,
//     progress, hints taken, quiz answers, the workspace's folder) and nothing that runs code or
//     writes: every such request is a POST with the token in a header, and refused without it. A
//     page of another origin cannot send it: a JSON body and the header make the browser ask first
//     (the server never says yes), and a form or text/plain POST, an Origin of another port or
//     null, and a Host that names another server (DNS rebinding) are refused before the token is
//     looked at. There is no WebSocket and no event stream; a GET changes nothing.
//   - The token is given to the learner alone: printed to the learner's terminal, in the fragment of
//     the address (#token=…), which a browser never sends to a server, so it is in no request line,
//     no log and no Referer (every answer also says Referrer-Policy: no-referrer); with --open, in a
//     file only the learner may read (0600, in a 0700 folder of the workspace or of the user's cache
//     folder, whatever the umask; OpenFile, OpenDir), which the opener and the browser are given by
//     name, and which is removed when serve stops. No process gets the token in its arguments or its
//     environment; the arguments every user may read in /proc (the environment only the learner and
//     root). The token is not one-time: it is good until serve stops, for the learner's other tabs.
//   - The address names the address listened on (127.0.0.1, never localhost, which Chromium takes to
//     ::1 first, where another user may listen on the same port and, being of the same origin, read
//     the fragment), and before it is given, serve checks that a connection to it arrives at its own
//     listener (Claim): where the system lets another user listen on a more specific address of the
//     port (macOS and Windows do, beside a server on every interface), serve stops instead.
//   - By default serve listens on a port the system chooses, a new one at every start (DefaultAddr),
//     so the origin of a session is one no page has been at before. On a port that was free before
//     (a fixed port), another user may have served the learner's browser a page there (an address of
//     the course kept from an earlier session), and that page may have left a service worker, which
//     answers the origin's later pages itself and reads the token of the learner's next session on
//     that port from its address: --addr with a fixed port is the learner's choice of that risk.
//     Terminal lessons name a chart by the command that opens it (serve --open PAGE), not by an
//     address that another server could answer.
//   - The page takes the token from the fragment, drops it from the address and the history, and
//     keeps it in its origin's localStorage. An origin is scheme, host and port, so a page of another
//     port (another user's server, or a site on it) cannot read it; there is no cookie, which the
//     browser would send to every port of the host. The links of the pages carry no token: a tab of
//     the same browser and session opens them.
//   - Root can do everything: read the learner's files, the file --open writes, the browser's
//     profile, the server's memory.
//
// Per system: on Linux a port held on an address (or on every interface) cannot be taken by another
// user while it is held; the Claim check guards the same on macOS and Windows, where another user may
// bind a more specific address beside a server on every interface, at start only (a server on every
// interface is warned about anyway). /proc shows every user the arguments of every process on
// Linux (unless mounted with hidepid); ps shows them on macOS; on Windows reading another user's
// command line needs rights over their process that a plain user lacks. There, file modes say
// nothing (OpenDir trusts no folder by them), so the file of --open goes to the user's own
// temporary folder (%TEMP%, in the user's profile), whose access list keeps it the user's. The
// service worker attack is the browser's, on every system.
//
// Out of scope: a user who can read the learner's files or browser profile (then the token is
// theirs, and the programs too); the learner's screen and terminal; a browser of the learner's that
// another user's page reached on a port the system gives serve later (a page would have to have been
// at that very port); a page served on the origin after the learner's server stopped, which can
// read what the browser keeps for it (a token that no longer opens anything, drafts written outside
// a workspace) and pretend to be the course. A browser confined to the user's visible folders (a
// snap package) cannot open the file --open writes outside a workspace, or in a workspace outside
// them; the printed address works there.
package web
