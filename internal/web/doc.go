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
// browsers open: a port is not a user's own. What holds for them:
//
//   - Without the token, they get what the binary holds anyway: the shell of a page (its frame and
//     the words its script shows) and the static files. Nothing of the learner's (programs, drafts,
//     progress, hints taken, quiz answers, the workspace's folder) and nothing that runs code or
//     writes: every such request is a POST with the token in a header, and refused without it.
//   - The token is given to the learner alone: printed to the learner's terminal, in the fragment of
//     the address (#token=…), which a browser never sends to a server, so it is in no request line,
//     no log and no Referer (every answer also says Referrer-Policy: no-referrer); with --open, in a
//     file only the learner may read (0600, in a 0700 folder of the workspace or of the user's cache
//     folder; OpenFile, OpenDir), which the opener and the browser are given by name, and which is
//     removed when serve stops. No process gets the token in its arguments, which every user may
//     read in /proc: a one-time address in them could be used first by whoever reads it first.
//   - The page takes the token from the fragment, drops it from the address and the history, and
//     keeps it in its origin's localStorage. An origin is scheme, host and port, so a page of another
//     port (another user's server, or a site on it) cannot read it; there is no cookie, which the
//     browser would send to every port of the host. The links of the pages, the chart addresses
//     that terminal lessons print among them, carry no token: a browser that opened the running server's
//     address once opens them; any other is told where the address is.
//   - Root can do everything: read the learner's files, the file --open writes, the browser's
//     profile, the server's memory.
//
// Out of scope: a user who can read the learner's files or browser profile (then the token is
// theirs, and the programs too); the learner's screen and terminal; a server that another user
// starts on the same port once the learner's has stopped: the browser takes it for the same
// origin, so a page of theirs there can read what this browser keeps for the origin (a token that
// no longer opens anything, drafts written outside a workspace) and can pretend to be the course.
// A browser confined to the user's visible folders (a snap package) cannot open the file --open
// writes outside a workspace, or in a workspace outside them; the printed address works there.
package web
