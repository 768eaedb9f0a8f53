package tty

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workbook-course/workbook/internal/i18n"
)

// syncBuffer is an output stream that the test can read while Busy writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestBusy(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		work     time.Duration
		want     []string // in stderr, in this order
		wantNone bool
	}{
		{name: "slow work on a terminal", terminal: true, work: 60 * time.Millisecond, want: []string{"\r\x1b[Kсобираю… 0\u00a0с", "\r\x1b[K"}},
		{name: "quick work on a terminal", terminal: true, work: 0, wantNone: true},
		{name: "slow work piped", terminal: false, work: 60 * time.Millisecond, wantNone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr syncBuffer
			ui := i18n.New("ru")
			done := Busy(&stderr, tt.terminal, "собираю…", 20*time.Millisecond, func(s int) string { return ui.T("busy_seconds", "Seconds", s) })
			time.Sleep(tt.work)
			done()
			got := stderr.String()
			if tt.wantNone {
				if got != "" {
					t.Errorf("stderr = %q, want nothing", got)
				}
				return
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("stderr = %q, want %q in it (in order)", got, w)
				}
				rest = rest[i+len(w):]
			}
			if !strings.HasSuffix(got, "\r\x1b[K") {
				t.Errorf("stderr = %q, want the line cleared at the end", got)
			}
		})
	}
}
