package main

import (
	"strings"
	"testing"
	"time"

	"github.com/workbook-course/workbook/internal/i18n"
)

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
			e := &env{stderr: &stderr, ui: i18n.New("ru"), tty: func() bool { return tt.terminal }}
			done := e.busy("собираю…", 20*time.Millisecond)
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
