package web

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
	"github.com/workbook-course/workbook/internal/report"
)

// runReply is the answer to a snippet run.
type runReply struct {
	Status   string        `json:"status"` // pass, build_error, timeout, crash, output_limit, memory_limit, exit
	Stdout   string        `json:"stdout"`
	Stderr   string        `json:"stderr,omitempty"`
	ExitCode int           `json:"exit_code"`
	Millis   int64         `json:"duration_ms"`
	BuildLog string        `json:"build_log,omitempty"`
	Want     *string       `json:"want,omitempty"` // the verified output of the program at this point
	Match    bool          `json:"match"`
	Diff     *checker.Diff `json:"diff,omitempty"`
	Message  string        `json:"message"`         // one line saying what happened
	Notes    []string      `json:"notes,omitempty"` // invisible differences, named; what a virtual-time verdict means
	// A virtual-time run that deadlocked, left goroutines blocked or waited outside the bubble: the
	// checker's reason and the goroutine it names, worded in the learner's language by apiRun.
	reason  string
	blocked *checker.Blocked
}

// apiRun runs a lesson program with the learner's edits: the program the block belongs to, as
// assembled at the first output block shown for it after the block (or in its final form when
// none follows), with the edited text in place of the blocks' own. It is built and run by the
// checker, under the same limits and sandbox as every check.
func (s *Server) apiRun(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	lp, err := s.lessonPage(req.Topic, req.Lang)
	if errors.Is(err, errNotFound) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_lesson", "Name", req.Topic)}
	}
	if err != nil {
		return nil, err
	}
	l := lp.l
	if _, ok := lp.snips[req.Block]; !ok {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_block", "N", req.Block)}
	}
	edits := map[int]string{}
	for k, v := range req.Edits {
		i, err := strconv.Atoi(k)
		if err != nil {
			continue
		}
		if _, ok := lp.snips[i]; ok {
			edits[i] = strings.ReplaceAll(v, "\r\n", "\n")
		}
	}
	upto, want := runPoint(l, req.Block)
	src, err := lesson.Assemble(l, l.Blocks[req.Block].Program, upto, edits, snippetFile)
	if err != nil {
		return &runReply{Status: string(checker.BuildError), BuildLog: assemblyLog(err), Want: want, Message: p.T("web_run_build_error")}, nil
	}
	out, err := s.runProgram(ctx, src)
	if err != nil {
		return nil, err
	}
	reply := *out
	reply.Want = want
	switch lines := report.VirtualLines(p, checker.CaseResult{Message: reply.reason, Blocked: reply.blocked}); {
	case reply.Status == string(checker.BuildError):
		reply.Message = p.T("web_run_build_error")
	case len(lines) > 0:
		// Said as the terminal says it: what happened, which goroutine waits where in the
		// learner's code, what that usually means; the stack dump is what these words replace.
		reply.Message, reply.Notes = lines[0], lines[1:]
	case reply.Status != string(checker.Pass):
		id := "web_run_status_" + reply.Status
		if i18n.Has(p.Lang(), id+"_"+reply.reason) {
			id += "_" + reply.reason // a timeout says whether it spun or slept
		}
		reply.Message = p.T(id, "Code", reply.ExitCode)
	case reply.ExitCode != 0:
		reply.Status = "exit"
		reply.Message = p.T("web_run_exit", "Code", reply.ExitCode)
	case want == nil:
		reply.Message = p.T("web_run_done")
	default:
		reply.Diff = checker.Compare(*want, reply.Stdout)
		reply.Match = reply.Diff == nil
		if reply.Match {
			reply.Message = p.T("web_run_match")
		} else {
			reply.Message = p.T("web_run_differs", "Line", reply.Diff.Line)
			for _, n := range reply.Diff.Notes {
				reply.Notes = append(reply.Notes, noteText(p, n, reply.Diff))
			}
		}
	}
	// What the program printed reaches the page with its control characters written out, as in
	// every report (the comparison above was made on the bytes themselves).
	reply.Stdout, reply.Stderr, reply.BuildLog = report.Escape(reply.Stdout), report.Escape(reply.Stderr), report.Escape(reply.BuildLog)
	if d := reply.Diff; d != nil {
		shown := *d
		shown.Want, shown.Got = report.Escape(d.Want), report.Escape(d.Got)
		reply.Diff = &shown
	}
	return &reply, nil
}

// snippetFile is the name an edited block has in compiler messages; its lines count from 1.
const snippetFile = "snippet.go"

// assemblyLog words the problems of a program that could not be assembled (an edit that is not Go)
// as the compiler would: "snippet.go:3: column 5: expected operand".
func assemblyLog(err error) string {
	var list lesson.Errors
	if !errors.As(err, &list) {
		return err.Error()
	}
	lines := make([]string, 0, len(list))
	for _, e := range list {
		if msg, ok := e.Args["Err"].(string); ok && e.Code == lesson.CodeGoSyntax {
			lines = append(lines, fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg))
		} else {
			lines = append(lines, e.Error())
		}
	}
	return strings.Join(lines, "\n")
}

// noteText names an invisible difference, in the words `workbook check` uses.
func noteText(p *i18n.Printer, note string, d *checker.Diff) string {
	if note == checker.NoteLatinLookalike || note == checker.NoteCyrillicInWord {
		cols := checker.LookalikeColumns(d.Want, d.Got)
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = strconv.Itoa(c)
		}
		return p.N("note_"+note, len(cols), "Cols", strings.Join(parts, ", "))
	}
	return p.T("note_" + note)
}

// runPoint returns the block index up to which the program of block run is assembled, and the
// verified output there (nil when the lesson shows none for it after the block).
func runPoint(l *lesson.Lesson, run int) (int, *string) {
	prog := l.Blocks[run].Program
	last := run
	for i := run + 1; i < len(l.Blocks); i++ {
		b := l.Blocks[i]
		switch {
		case b.Kind == lesson.OutputBlock && b.Program == prog && b.Quiz == nil:
			want := b.Text
			return i, &want
		case b.Kind == lesson.GoBlock && b.Program == prog:
			last = i
		}
	}
	return last, nil
}

// runProgram builds and runs one program source (imports not yet fixed), once: the same source
// run again gets the same answer from a small cache.
func (s *Server) runProgram(ctx context.Context, src string) (*runReply, error) {
	key := hashOf(src)
	if r := s.runs.get(key); r != nil {
		return r, nil
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	dir, err := checker.TempDir("snippet")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "main.go")
	fixed, ferr := lesson.FixImports(file, src)
	if ferr != nil {
		// Leave the imports as they are: the compiler says what is wrong, in its own words.
		fixed = []byte(src)
	}
	if err := os.WriteFile(file, fixed, 0o644); err != nil {
		return nil, err
	}
	prog, err := checker.Build(ctx, dir, lesson.VirtualLimits(src, s.cfg.Limits))
	var bf *checker.BuildFailure
	if errors.As(err, &bf) {
		r := &runReply{Status: string(checker.BuildError), BuildLog: cleanLog(bf.Log)}
		s.runs.put(key, r)
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	defer prog.Close()
	out := prog.Run(ctx, "", nil, "")
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &runReply{
		Status: string(out.Status), Stdout: out.Stdout, Stderr: out.OwnStderr(),
		ExitCode: out.ExitCode, Millis: out.Duration.Milliseconds(), reason: out.Reason, blocked: out.Blocked,
	}
	if out.Status == checker.Pass || out.Status == checker.BuildError {
		s.runs.put(key, r) // a timeout may go better on a quieter machine: not kept
	}
	return r, nil
}

// cleanLog drops the compiler's "# learner" header lines.
func cleanLog(log string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// runCache keeps the answers of the latest runs, by source.
type runCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	items map[string]*list.Element
}

type cached struct {
	key   string
	reply runReply
	at    time.Time
}

func newRunCache(max int) *runCache {
	return &runCache{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (c *runCache) get(key string) *runReply {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	r := e.Value.(*cached).reply
	return &r
}

func (c *runCache) put(key string, r *runReply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&cached{key: key, reply: *r, at: time.Now()})
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*cached).key)
	}
}
