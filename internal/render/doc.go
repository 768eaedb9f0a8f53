// Package render shows lessons, statements and hints: as HTML for the browser and as text for the
// terminal, both from goldmark's syntax tree (lesson.Markdown), with Go code coloured from
// go/scanner's tokens.
//
//	html, err := render.HTML(statement, true)              // a statement or a hint, for a page
//	lines := render.CodeLinesHTML("go", code, "", nil)     // highlighted code, line by line
//	text := render.Terminal{Width: 80, Color: true}.Render(render.ReaderMarkdown(l, topic, ui, nil))
//
// Both renderers classify Go tokens the same way (Lines): with chroma's short class names, which
// the browser's stylesheet (CSS) and the editor's own highlighter in app.js use as well. The
// terminal renderer wraps prose once, at its width, at spaces only, and never wraps code: lesson
// code lines are at most MaxCodeWidth columns, so that at 80 columns every one stands whole and can
// be copied; a wider block is printed as it is, with a note that says where to see it whole.
// ReaderMarkdown and QuizMarkdown turn a parsed lesson into the Markdown a reader sees in the
// terminal: no front matter, no hidden blocks, each quiz a numbered question without its answer.
package render
