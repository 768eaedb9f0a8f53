//go:build windows

package checker

import "errors"

func mkfifo(path string) error { return errors.New("Windows has no FIFOs in a folder") }
