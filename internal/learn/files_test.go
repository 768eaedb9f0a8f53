package learn

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/workspace"
)

// TestReplaceWords: what a reset and a restore say, done or failed, in the words both front ends
// show, with the paths as the front end gives them.
func TestReplaceWords(t *testing.T) {
	s := testSession(t, "ru")
	ex := exercise(t, "exercise-timeout")
	ui := i18n.New("en")
	show := func(p string) string {
		rel, err := filepath.Rel(s.Place.Root, p)
		if err != nil {
			t.Fatal(err)
		}
		return "<" + filepath.ToSlash(rel) + ">"
	}
	dir := show(s.Place.Dir(ex, "ru"))
	backup := workspace.Version{N: 2, Dir: filepath.Join(s.Place.Root, ".workbook-backup", "ru", ex.Name, "2")}
	disk := errors.New("disk full")
	tests := []struct {
		name, got, want string
	}{
		{"reset, nothing kept", s.ResetSays(ex, workspace.Version{}, show), ui.T("reset_done_fresh", "Dir", dir)},
		{"reset, kept", s.ResetSays(ex, backup, show),
			ui.T("reset_done", "Dir", dir, "Backup", "<.workbook-backup/ru/exercise-timeout/2>", "Name", ex.Name, "N", 2)},
		{"restore, nothing kept", s.RestoreSays(ex, 1, workspace.Version{}, show), ui.T("restore_done", "Dir", dir, "N", 1, "Name", ex.Name)},
		{"restore, kept", s.RestoreSays(ex, 1, backup, show), ui.T("restore_done_kept", "Dir", dir, "N", 1, "Kept", 2, "Name", ex.Name)},
		{"reset asks", s.ResetConfirm(ex, show), ui.T("reset_confirm", "Dir", dir, "Name", ex.Name)},
		{"restore asks", s.RestoreConfirm(ex, 3, show), ui.T("restore_confirm", "Dir", dir, "Name", ex.Name, "N", 3)},
		{"reset, no backup", s.ResetFailed(ex, workspace.Version{}, &workspace.BackupError{Dir: "x", Err: disk}, show),
			ui.T("err_reset_backup", "Dir", dir, "Err", "disk full")},
		{"reset, not written", s.ResetFailed(ex, backup, disk, show),
			ui.T("err_reset_write", "Dir", dir, "Err", "disk full", "Backup", "<.workbook-backup/ru/exercise-timeout/2>")},
		{"restore, no such version", s.RestoreFailed(ex, 7, 2, &workspace.NoVersionError{Exercise: ex.Name, Lang: "ru", N: 7, Have: 2}, show),
			ui.T("err_restore_no_version", "Name", ex.Name, "N", 7, "Last", 2)},
		{"restore, no backup", s.RestoreFailed(ex, 1, 2, &workspace.BackupError{Dir: "x", Err: disk}, show),
			ui.T("err_reset_backup", "Dir", dir, "Err", "disk full")},
		{"restore, not written", s.RestoreFailed(ex, 1, 2, disk, show), ui.T("err_restore_write", "Dir", dir, "Err", "disk full")},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
