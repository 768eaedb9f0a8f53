package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/workbook-course/workbook/internal/web"
	"github.com/workbook-course/workbook/internal/workspace"
)

// runServe serves the course in the browser until interrupted: lessons with runnable programs and
// quizzes, exercises with an editor, checks and hints, and the progress of the workspace or clone
// the command runs in. It listens on loopback, on a new port, unless --addr names another address;
// its one argument, when given, is the page to open (as a terminal lesson names a chart's).
func runServe(ctx context.Context, e *env, args []string) error {
	flags := e.newFlags()
	addr := flags.String("addr", web.DefaultAddr, e.ui.T("flag_serve_addr"))
	open := flags.Bool("open", false, e.ui.T("flag_serve_open"))
	timeout := flags.Duration("timeout", 2*time.Second, e.ui.T("flag_timeout"))
	pos, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	page, anchor, ok := "/"+e.content+"/", "", true
	if len(pos) == 1 {
		page, anchor, ok = web.StartPage(pos[0])
	}
	if len(pos) > 1 || !ok {
		return e.usageErr("err_serve_args", "Arg", strings.Join(pos, " "))
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return e.usageErr("err_serve_addr", "Addr", *addr, "Err", err.Error())
	}
	if !web.IsLoopback(host) {
		// Only when asked for: the default is loopback, and anyone who can reach the address can
		// open the pages (and so get the session token).
		e.warn("warn_serve_exposed", "Addr", *addr)
	}
	p, err := e.keepWorkspace()
	if err != nil {
		return err
	}
	cfg := e.webConfig(p, *timeout)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return e.usageErr("err_serve_listen", "Addr", *addr, "Err", err.Error())
	}
	at := ln.Addr().(*net.TCPAddr)
	cfg.Addr = net.JoinHostPort(host, strconv.Itoa(at.Port))
	srv, err := web.New(cfg)
	if err != nil {
		ln.Close()
		return err
	}
	// The token is handed only in this address, printed to the learner alone, in its fragment, and,
	// with --open, in a file that the learner alone may read (see internal/web). Its host is the
	// address listened on, and a connection to it must arrive here, not at another user's server.
	url := srv.StartURL(at, page, anchor)
	served, err := web.Claim(ln.(*net.TCPListener))
	if err != nil {
		ln.Close()
		if errors.Is(err, web.ErrNotOurs) {
			return e.usageErr("err_serve_claim", "Addr", web.StartAddr(at))
		}
		return e.usageErr("err_serve_listen", "Addr", *addr, "Err", err.Error())
	}
	return e.serveUntil(ctx, srv, served, url, p, *addr, *open)
}

// webConfig is the web server's configuration: the course in the content language, messages in
// the language something named, the workspace p when there is one.
func (e *env) webConfig(p *workspace.Workspace, timeout time.Duration) web.Config {
	cfg := web.Config{Course: e.course, Lang: e.contentLang(), Log: e.stderr, Rewrite: e.runnable}
	if !e.choice.FollowsContent() {
		cfg.Messages = e.ui.Lang() // named by a flag, the environment, the workspace or the locale
	}
	cfg.Limits.RunTime = timeout
	if p != nil {
		cfg.Place = e.learnPlace(p)
	}
	return cfg
}

// serveUntil serves srv on ln until ctx ends, having said where, and opens the browser when asked.
func (e *env) serveUntil(ctx context.Context, srv *web.Server, ln net.Listener, url string, p *workspace.Workspace, addr string, open bool) error {
	fmt.Fprintln(e.stdout, e.ui.T("serve_listening", "URL", url))
	if p == nil {
		fmt.Fprintln(e.stdout, e.ui.T("serve_no_place"))
	} else {
		fmt.Fprintln(e.stdout, e.ui.T("serve_place", "Root", p.Root))
	}
	fmt.Fprintln(e.stdout, e.ui.T("serve_stop_hint"))
	if open {
		defer e.openBrowser(url, p)()
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return e.usageErr("err_serve_listen", "Addr", addr, "Err", err.Error())
	}
	fmt.Fprintln(e.stdout, e.ui.T("serve_stopped"))
	return nil
}

// openBrowser opens url in the browser (web.Open: the token in no process's arguments).
func (e *env) openBrowser(url string, p *workspace.Workspace) func() {
	remove, err := web.Open(url, p.RootOrNone(), e.opener)
	if err != nil {
		e.warn("warn_serve_open", "URL", url, "Err", err.Error())
	}
	return remove
}
