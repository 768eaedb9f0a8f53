// Package watch tells when the learner saves a program: it watches folders for changes to Go
// sources and module files and reports a save once the folder has been quiet for a moment, so that
// an editor writing a file in several steps, or a save of several files, gives one save.
//
//	w, err := watch.New(func(err error) { log.Print(err) })
//	if err != nil { ... }
//	defer w.Close()
//	w.Add(dir)
//	for w.Wait(ctx) == nil {
//		check(dir)
//	}
package watch

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Debounce is how long a folder stays quiet after a change before the change counts as a save.
const Debounce = 250 * time.Millisecond

// Watcher watches folders for saves.
type Watcher struct {
	fsw  *fsnotify.Watcher
	warn func(error)
}

// New starts a watcher; warn hears the errors the system's watcher reports while it runs (a lost
// event, say), which end nothing.
func New(warn func(error)) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &Watcher{fsw: fsw, warn: warn}, nil
}

// Add watches dir (not its subfolders).
func (w *Watcher) Add(dir string) error { return w.fsw.Add(dir) }

// Remove stops watching dir.
func (w *Watcher) Remove(dir string) error { return w.fsw.Remove(dir) }

// Close stops the watcher.
func (w *Watcher) Close() error { return w.fsw.Close() }

// Wait waits for a change to a Go source or a module file in a watched folder, then for the folder
// to be quiet for Debounce. It returns ctx.Err() when ctx ends first.
func (w *Watcher) Wait(ctx context.Context) error {
	var quiet <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return errors.New("the file watcher stopped")
			}
			if Relevant(ev) {
				quiet = time.After(Debounce)
			}
		case err, ok := <-w.fsw.Errors:
			if ok && w.warn != nil {
				w.warn(err)
			}
		case <-quiet:
			return nil
		}
	}
}

// Relevant reports whether an event can change the program: a Go file or the module files changed
// (a change of mode alone does not).
func Relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	name := filepath.Base(ev.Name)
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum"
}

// Sleep waits for d or until ctx ends, and then returns ctx.Err().
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Until watches dir and checks the program in it with check, then again after every save, one
// check at a time, until a check passes, fails to run or ctx ends. It watches before the first
// check, so that a save during it is not missed; a folder it cannot watch is a *DirError.
func (w *Watcher) Until(ctx context.Context, dir string, check func(context.Context) (passed bool, err error)) error {
	if err := w.Add(dir); err != nil {
		return &DirError{Dir: dir, Err: err}
	}
	defer w.Remove(dir)
	passed, err := check(ctx)
	for err == nil && !passed {
		if err = w.Wait(ctx); err == nil {
			passed, err = check(ctx)
		}
	}
	return err
}

// DirError is a folder that cannot be watched.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return e.Dir + ": " + e.Err.Error() }
func (e *DirError) Unwrap() error { return e.Err }
