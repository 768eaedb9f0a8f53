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
// built by checker.Build and run by Program.Run under the checker's limits and sandbox; a check is
// checker.Check with the exercise's cases, shown as `workbook check` prints it (internal/report).
// Quiz answers are judged on the server against the parsed lesson, as `workbook quiz` judges them.
// Progress is read from and written to the same state file (internal/progress) as the command
// line uses. A lesson's charts are drawn from the JSON its programs print into verified hidden
// output blocks, with the vendored Chart.js (see charts.go): no number in them is computed on
// the page.
//
// The API is a handful of JSON POSTs: /api/run, /api/quiz, /api/save, /api/check and /api/hint.
// Each must carry the session cookie (or the token in X-Workbook-Token), name the server itself in
// Host (against DNS rebinding) and, when the browser says where it comes from, come from the
// server's own origin. The token is handed only in the address the command prints (…?token=…);
// opening it sets the cookie, which every page but the static files needs, and no page carries
// the token. See guard.go.
package web
