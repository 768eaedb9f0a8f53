package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"slices"
	"time"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// DefaultAddr is where `workbook serve` listens unless told otherwise: loopback only.
const DefaultAddr = "127.0.0.1:8080"

// Serve serves s on ln until ctx ends, then shuts down, giving the requests under way five seconds.
// It returns nil once ctx has ended, or the error that stopped serving before.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(stop)
	return nil
}

// StartURL is the address of the course's first page in lang on the server listening on host and
// port, with the session token: the one address the learner is given (an unspecified host is
// reached on loopback).
func (s *Server) StartURL(host, port, lang string) string {
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/" + lang + "/?token=" + s.Token()
}

// OpenBrowser asks the system to open url in the default browser.
func OpenBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	case "darwin":
		cmd = exec.Command("open", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// ChartNote returns, for a hidden block of the lesson on topic that holds the data of a chart the
// lesson's page draws, a line in p's language that names the chart and gives its address on a
// server at DefaultAddr; "" for any other block. The terminal keeps its own text pictures; these
// charts are in the browser only. The note is Markdown, like the rest of the lesson.
func ChartNote(l *lesson.Lesson, topic string, b *lesson.Block, p *i18n.Printer) string {
	if b.Kind != lesson.OutputBlock || l.Lang == "" {
		return ""
	}
	title, id, ok := ChartTitle(slices.Index(l.Blocks, b), b.Text, p)
	if !ok {
		return ""
	}
	url := fmt.Sprintf("http://%s/%s/lessons/%s#%s", DefaultAddr, l.Lang, topic, id)
	// The address in a block of its own, so that it is not wrapped (a wrapped address cannot be
	// copied).
	return p.T("lesson_chart_in_browser", "Title", title) + "\n\n```text\n" + url + "\n```\n"
}
