package web

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/render"
)

// lessonPage is a lesson parsed and rendered once: content is embedded and never changes while the
// server runs.
type lessonPage struct {
	topic string
	lang  string
	l     *lesson.Lesson
	html  template.HTML
	snips map[int]int // block index -> number of the snippet on the page (from 1)
}

// topics returns the lesson topics in course order (front matter order, then name).
func (s *Server) topics() ([]*lessonPage, error) {
	names, err := lesson.Topics(s.cfg.Course.FS(), "lessons")
	if err != nil {
		return nil, err
	}
	return names2pages(s, names)
}

func names2pages(s *Server, names []string) ([]*lessonPage, error) {
	var list []*lessonPage
	for _, n := range names {
		lp, err := s.lessonPage(n, s.cfg.Lang)
		if err != nil {
			return nil, err
		}
		list = append(list, lp)
	}
	for i := 1; i < len(list); i++ { // insertion sort by order: a handful of lessons
		for j := i; j > 0 && list[j].l.Meta.Order < list[j-1].l.Meta.Order; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	return list, nil
}

// lessonPage returns the lesson on topic in lang (or in the other language when it has no file in
// lang), parsed and rendered. An unknown topic is errNotFound.
func (s *Server) lessonPage(topic, lang string) (*lessonPage, error) {
	if topic == "" || strings.ContainsAny(topic, `/\.`) {
		return nil, errNotFound
	}
	key := lang + "/" + topic
	s.mu.Lock()
	lp := s.lessons[key]
	s.mu.Unlock()
	if lp != nil {
		return lp, nil
	}
	var data []byte
	var name string
	var err error
	for _, l := range []string{lang, otherLang(lang)} {
		name = path.Join("lessons", topic, l+".md")
		data, err = fs.ReadFile(s.cfg.Course.FS(), name)
		if err == nil {
			break
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	// A lesson with problems is shown as far as it could be read: `workbook verify` and the tests
	// are where authors hear about them.
	l, _ := lesson.Parse(name, data)
	if l == nil || l.Doc == nil {
		return nil, fmt.Errorf("%s cannot be read as a lesson", name)
	}
	lp = &lessonPage{topic: topic, lang: lang, l: l}
	lp.html, err = renderLesson(lp, s.ui(lang))
	if err != nil {
		return nil, err
	}
	lp.html = s.runnableCode(lp.html)
	s.mu.Lock()
	s.lessons[key] = lp
	s.mu.Unlock()
	return lp, nil
}

// commandCode is a command of workbook the lesson's prose suggests, in inline code.
var commandCode = regexp.MustCompile(`<code>(workbook(?: [^<]*)?)</code>`)

// runnableCode rewrites the commands a rendered lesson suggests in its inline code (`workbook check
// exercise-deadline`) as they run where the learner works (Config.Rewrite), as the terminal's
// lesson says them.
func (s *Server) runnableCode(h template.HTML) template.HTML {
	if s.cfg.Rewrite == nil {
		return h
	}
	return template.HTML(commandCode.ReplaceAllStringFunc(string(h), func(m string) string {
		inner := commandCode.FindStringSubmatch(m)[1]
		return "<code>" + s.cfg.Rewrite(inner) + "</code>"
	}))
}

// renderLesson renders a lesson for the browser: headings with anchors, code highlighted, every
// visible program block an editor with Run and Reset, output blocks as the verified output, hidden
// blocks left out, and each quiz a form whose answers stay on the server.
func renderLesson(lp *lessonPage, p *i18n.Printer) (template.HTML, error) {
	l := lp.l
	lr := &lessonRenderer{
		lp: lp, p: p, src: l.Source,
		blockOf:   map[*ast.FencedCodeBlock]int{},
		quizOpen:  map[ast.Node]int{},
		quizClose: map[ast.Node]int{},
		option:    map[ast.Node]int{},
		choiceNo:  map[int]int{},
	}
	lp.snips = map[int]int{}
	for i, b := range l.Blocks {
		if b.Node != nil {
			lr.blockOf[b.Node] = i
		}
		if b.Kind == lesson.GoBlock && b.Quiz == nil && !b.Hidden {
			lp.snips[i] = len(lp.snips) + 1
		}
	}
	for qi, q := range l.Quizzes {
		if q.Open != nil {
			lr.quizOpen[q.Open] = qi
		}
		if q.Close != nil {
			lr.quizClose[q.Close] = qi
		}
		k := 0
		for i, b := range l.Blocks {
			if b.Quiz == q && b.Kind == lesson.ChoiceBlock {
				lr.choiceNo[i] = k
				k++
			}
		}
		if q.Kind == lesson.Choice && q.Open != nil {
			k := 0
			for n := q.Open.NextSibling(); n != nil && n != q.Close; n = n.NextSibling() {
				if n.Kind() != ast.KindList {
					continue
				}
				for item := n.FirstChild(); item != nil; item = item.NextSibling() {
					lr.option[item] = k
					k++
				}
			}
		}
	}
	md := lesson.Markdown()
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(lr, 100)))
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, l.Source, l.Doc); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

type lessonRenderer struct {
	lp        *lessonPage
	p         *i18n.Printer
	src       []byte
	blockOf   map[*ast.FencedCodeBlock]int
	quizOpen  map[ast.Node]int
	quizClose map[ast.Node]int
	option    map[ast.Node]int // list item of a choice quiz -> its answer number
	choiceNo  map[int]int      // choice block index -> its answer number
	quiz      *lesson.Quiz     // the quiz being rendered
}

func (r *lessonRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.fenced)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindHeading, render.HeadingHTML)
	reg.Register(ast.KindListItem, r.listItem)
	reg.Register(east.KindTaskCheckBox, r.checkbox)
}

func (r *lessonRenderer) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if qi, ok := r.quizOpen[node]; ok {
		q := r.lp.l.Quizzes[qi]
		r.quiz = q
		fmt.Fprintf(w, `<form class="quiz" data-quiz="%d" data-kind="%s" autocomplete="off">`+"\n", qi, q.Kind)
		fmt.Fprintf(w, `<div class="quiz-label">%s</div>`+"\n",
			html.EscapeString(r.p.T("web_quiz_label", "N", qi+1, "Total", len(r.lp.l.Quizzes), "Kind", r.p.T("web_quiz_kind_"+string(q.Kind)))))
		return ast.WalkSkipChildren, nil
	}
	if _, ok := r.quizClose[node]; ok {
		r.quiz = nil
		fmt.Fprintf(w, `<div class="quiz-fix" hidden></div>`+"\n")
		fmt.Fprintf(w, `<div class="quiz-explain" hidden></div>`+"\n")
		fmt.Fprintf(w, `<div class="quiz-bar"><button type="submit" class="button">%s</button> <span class="quiz-feedback" role="status" aria-live="polite"></span></div>`+"\n",
			html.EscapeString(r.p.T("web_quiz_check")))
		w.WriteString("</form>\n")
		return ast.WalkSkipChildren, nil
	}
	// Other raw HTML (comments to authors) is not shown.
	return ast.WalkSkipChildren, nil
}

func (r *lessonRenderer) listItem(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	_, option := r.option[n]
	if entering {
		if option {
			w.WriteString(`<li class="option"><label>`)
		} else {
			w.WriteString("<li>")
		}
		if fc := n.FirstChild(); fc != nil {
			if _, ok := fc.(*ast.TextBlock); !ok {
				w.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	}
	if option {
		w.WriteString("</label>")
	}
	w.WriteString("</li>\n")
	return ast.WalkContinue, nil
}

// checkbox writes a task list box: a radio button in a choice quiz (never showing which answer is
// right), a disabled checkbox elsewhere.
func (r *lessonRenderer) checkbox(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	for p := node.Parent(); p != nil; p = p.Parent() {
		if k, ok := r.option[p]; ok {
			fmt.Fprintf(w, `<input type="radio" name="answer" value="%d"> `, k)
			return ast.WalkContinue, nil
		}
	}
	if node.(*east.TaskCheckBox).IsChecked {
		w.WriteString(`<input checked="" disabled="" type="checkbox"> `)
	} else {
		w.WriteString(`<input disabled="" type="checkbox"> `)
	}
	return ast.WalkContinue, nil
}

func (r *lessonRenderer) fenced(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	i, ok := r.blockOf[n]
	if !ok {
		writeCode(w, string(n.Language(src)), codeText(n, src))
		return ast.WalkSkipChildren, nil
	}
	l := r.lp.l
	b := l.Blocks[i]
	if b.Kind == lesson.OutputBlock && b.Quiz == nil && chartKind(b.Text) != "" { // see charts.go
		// A chart whose data cannot be laid out is left out, as the hidden block it is; the
		// tests render every chart of the course.
		_ = writeChart(w, i, b.Text, r.p)
		return ast.WalkSkipChildren, nil
	}
	if b.Hidden || b.Kind == lesson.FixBlock {
		return ast.WalkSkipChildren, nil
	}
	switch b.Kind {
	case lesson.GoBlock:
		switch {
		case b.Quiz == nil:
			r.snippet(w, i, b)
		case b.Quiz.Kind == lesson.Bug:
			r.bugCode(w, b)
		case b.Quiz.Kind == lesson.Fill:
			r.fillCode(w, b)
		default:
			writeCode(w, "go", b.Text)
		}
	case lesson.ChoiceBlock:
		fmt.Fprintf(w, `<label class="option choice-block"><input type="radio" name="answer" value="%d"><pre class="output-text">%s</pre></label>`+"\n",
			r.choiceNo[i], html.EscapeString(strings.TrimSuffix(b.Text, "\n")))
	case lesson.OutputBlock:
		fmt.Fprintf(w, `<div class="output"><div class="output-label">%s</div><pre class="output-text">%s</pre></div>`+"\n",
			html.EscapeString(r.p.T("web_output_label")), html.EscapeString(strings.TrimSuffix(b.Text, "\n")))
	}
	return ast.WalkSkipChildren, nil
}

// snippet writes an editable, runnable program block.
func (r *lessonRenderer) snippet(w util.BufWriter, i int, b *lesson.Block) {
	lp := r.lp
	text := strings.TrimSuffix(b.Text, "\n")
	key := fmt.Sprintf("%s/%s/%d/%s", lp.topic, lp.lang, i, hashOf(b.Text))
	fmt.Fprintf(w, `<div class="snippet" data-block="%d" data-key="%s">`+"\n", i, html.EscapeString(key))
	fmt.Fprintf(w, `<div class="snippet-bar"><span class="snippet-name" title="%s">%s</span><span class="snippet-edited" hidden>%s</span><span class="spacer"></span>`,
		html.EscapeString(r.p.T("web_program_title")), html.EscapeString(b.Program), html.EscapeString(r.p.T("web_edited")))
	fmt.Fprintf(w, `<button type="button" class="button reset" disabled>%s</button><button type="button" class="button run" title="Ctrl+Enter">▶ %s</button></div>`+"\n",
		html.EscapeString(r.p.T("web_reset")), html.EscapeString(r.p.T("web_run")))
	writeEditor(w, text, r.p.T("web_editor_label", "Name", b.Program))
	w.WriteString(`<div class="result" hidden></div>` + "\n</div>\n")
}

// writeEditor writes the code editor: highlighted code under a transparent text area, with line
// numbers. Without JavaScript only the highlighted code shows.
func writeEditor(w io.Writer, text, label string) {
	n := strings.Count(text, "\n") + 1
	var nums strings.Builder
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&nums, "%d\n", k)
	}
	fmt.Fprintf(w, `<div class="editor"><pre class="gutter" aria-hidden="true">%s</pre><div class="code-area"><pre class="chroma code" aria-hidden="true">%s`+"\n\n"+`</pre>`,
		nums.String(), highlight("go", text))
	fmt.Fprintf(w, `<textarea class="input" spellcheck="false" autocapitalize="off" autocomplete="off" autocorrect="off" wrap="off" aria-label="%s">%s</textarea></div></div>`+"\n",
		html.EscapeString(label), html.EscapeString(text+"\n"))
}

// bugCode writes the code of a find-the-bug quiz, each line a choice.
func (r *lessonRenderer) bugCode(w util.BufWriter, b *lesson.Block) {
	w.WriteString(`<div class="bug-code chroma">`)
	for k, line := range highlightLines("go", b.Text, "", nil) {
		fmt.Fprintf(w, `<label class="bug-line"><input type="radio" name="answer" value="%d"><span class="ln">%d</span><code>%s</code></label>`, k+1, k+1, line)
	}
	w.WriteString("</div>\n")
}

// fillCode writes the code of a fill-in quiz with a text field in the blank.
func (r *lessonRenderer) fillCode(w util.BufWriter, b *lesson.Block) {
	label := html.EscapeString(r.p.T("web_blank_label"))
	field := func() string {
		return `<input type="text" class="blank" name="answer" size="8" spellcheck="false" autocapitalize="off" aria-label="` + label + `">`
	}
	w.WriteString(`<pre class="code chroma fill-code">`)
	lines := highlightLines("go", b.Text, "___", field)
	for k, line := range lines {
		if k > 0 {
			w.WriteByte('\n')
		}
		w.WriteString(string(line))
	}
	w.WriteString("</pre>\n")
}

// writeCode writes a read-only highlighted block.
func writeCode(w util.BufWriter, lang, text string) { render.WriteCodeHTML(w, lang, text) }

func codeText(n ast.Node, src []byte) string { return render.CodeText(n, src) }
