package checker

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// runStdio is the standard input, output and error of a run the checker starts itself (no
// session): pipes of its own rather than exec's, so that the watcher knows them by their inodes
// (pipeName) and judges a thread blocked on them as the sandbox init does (waits.OnStdio): asleep
// writing to stdout or stderr, or reading stdin while the checker still feeds it, the program waits
// for the checker, which a busy machine makes slow, and is not idle. It keeps exec's behaviour: the
// output goes to a capture with its cap, stdin is written in full and then closed (EOF), and the
// output is read until its end, or for waitDelay after the program has exited (a child that kept
// it open), then cut.
type runStdio struct {
	inR, outW, errW *os.File // the program's ends, closed here once it has started
	inW, outR, errR *os.File // the checker's ends
	stdin           string
	feeding         atomic.Bool // the checker still writes stdin (see feedStdin)
	in, out         []string    // /proc's names of stdin and of stdout and stderr ("pipe:[INODE]")
	copying         sync.WaitGroup
}

// newRunStdio makes the pipes of a run whose program reads stdin and writes to capped, and hands
// the program's ends to cmd.
func newRunStdio(cmd *exec.Cmd, stdin string) (*runStdio, error) {
	s := &runStdio{stdin: stdin}
	var err error
	pipe := func() (r, w *os.File) {
		if err == nil {
			r, w, err = os.Pipe()
		}
		return r, w
	}
	s.inR, s.inW = pipe()
	s.outR, s.outW = pipe()
	s.errR, s.errW = pipe()
	if err != nil {
		s.close()
		return nil, err
	}
	if name := pipeName(s.outW); name != "" {
		s.out = append(s.out, name)
	}
	if name := pipeName(s.errW); name != "" {
		s.out = append(s.out, name)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.inR, s.outW, s.errW
	return s, nil
}

// start closes the program's ends (it has its own now, or was never started) and starts copying its
// output to capped and feeding it stdin.
func (s *runStdio) start(capped *capture) {
	for _, f := range []*os.File{s.inR, s.outW, s.errW} {
		f.Close()
	}
	s.inR, s.outW, s.errW = nil, nil, nil
	s.copying.Add(2)
	go func() { defer s.copying.Done(); copyOutput(capped.writer(&capped.stdout), s.outR) }()
	go func() { defer s.copying.Done(); copyOutput(capped.writer(&capped.stderr), s.errR) }()
	in := pipeName(s.inW)
	if feedStdin(s.inW, s.stdin, &s.feeding) && in != "" {
		s.in = []string{in}
	}
	s.inW = nil
}

// pipes returns the pipes a thread of the run waits for the checker on: stdin while the checker
// still feeds it, and stdout and stderr.
func (s *runStdio) pipes() (in, out []string) {
	if s.feeding.Load() {
		in = s.in
	}
	return in, s.out
}

// finish waits for the output to end once the program has exited: as long as its pipes still hold
// output the checker has not read (a busy machine keeps the checker from reading it) and capped is
// not full, and then for at most delay, as long as something the program started holds the output
// open (what exec's WaitDelay gave). The output is cut at its end only by close, after the run's
// processes have been killed.
func (s *runStdio) finish(capped *capture, delay time.Duration) {
	done := make(chan struct{})
	go func() { s.copying.Wait(); close(done) }()
	const tick = 50 * time.Millisecond
	t := time.NewTicker(tick)
	defer t.Stop()
	for quiet := time.Duration(0); quiet < delay; {
		select {
		case <-done:
			return
		case <-t.C:
		}
		capped.mu.Lock()
		full := capped.full
		capped.mu.Unlock()
		if !full && (pipeHolds(s.outR) || pipeHolds(s.errR)) {
			quiet = 0
		} else {
			quiet += tick
		}
	}
}

// close closes every end still open, which ends the copying and the feed, and waits for them.
func (s *runStdio) close() {
	for _, f := range []*os.File{s.inR, s.outW, s.errW, s.outR, s.errR} {
		if f != nil {
			f.Close()
		}
	}
	s.copying.Wait()
	if s.inW != nil {
		s.inW.Close() // never fed: newRunStdio failed, or the run was not started
	}
}

// syncStdin is how much of a run's stdin the checker writes to its pipe before the start, then
// closes it: a pipe holds at least a page on Linux, so the write never waits for the program. The
// exercises' runs have no stdin at all, so a read of it ends at once, and never waits for a busy
// checker. Elsewhere only an empty stdin is written so.
var syncStdin = func() int {
	if runtime.GOOS == "linux" {
		return 4096
	}
	return 0
}()

// feedStdin writes stdin to w and closes it: at once when it fits in the pipe (syncStdin), else in
// a goroutine, with feeding true until that has ended; it reports whether it feeds so. w is the
// checker's end of the run's stdin pipe; feedStdin closes it.
func feedStdin(w *os.File, stdin string, feeding *atomic.Bool) bool {
	if len(stdin) <= syncStdin || stdin == "" {
		io.WriteString(w, stdin)
		w.Close()
		return false
	}
	feeding.Store(true)
	go func() {
		io.WriteString(w, stdin)
		w.Close()
		feeding.Store(false)
	}()
	return true
}

// copyBuffers are the buffers copyOutput reads a run's output with: most runs print little, and
// a buffer of io.Copy's own for each stream of every run is most of what a run allocates.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyOutput copies r to w until r ends.
func copyOutput(w io.Writer, r io.Reader) {
	if d := testDrainPause.Load(); d > 0 {
		r = pausedReader{r, time.Duration(d)}
	}
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	io.CopyBuffer(w, struct{ io.Reader }{r}, *bp)
}

// testDrainPause, when set by a test, makes every read of a run's output wait that long first: a
// checker a busy machine keeps from draining the output, made certain.
var testDrainPause atomic.Int64

// pausedReader waits d before each read of r.
type pausedReader struct {
	r io.Reader
	d time.Duration
}

func (p pausedReader) Read(b []byte) (int, error) {
	time.Sleep(p.d)
	return p.r.Read(b)
}
