// Package paths answers one question the tool asks in many places: does a path lie inside a folder,
// and where, relative to it?
//
//	if rel, ok := paths.Within(root, file); ok {
//		fmt.Println(rel) // "exercise-deadline/main.go", with forward slashes
//	}
package paths

import (
	"os"
	"path/filepath"
	"strings"
)

// Within reports whether p is root itself or lies below it, comparing the cleaned paths (no link
// is followed), and gives p relative to root with forward slashes ("." for root itself). A path on
// another volume, one that climbs out with "..", and an empty path are not within.
func Within(root, p string) (rel string, ok bool) {
	if root == "" || p == "" {
		return "", false
	}
	r, err := filepath.Rel(filepath.Clean(root), filepath.Clean(p))
	if err != nil || filepath.IsAbs(r) || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Under is Within for paths relative to the working directory: it reports whether p is root or lies
// below it once both are made absolute. A path that cannot be made absolute is not under.
func Under(root, p string) bool {
	r, err1 := filepath.Abs(root)
	a, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return false
	}
	_, ok := Within(r, a)
	return ok
}

// FromWorkingDir is p relative to the working directory when it is below it, else p itself.
func FromWorkingDir(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	return FromDir(wd, p)
}

// FromDir is p relative to the folder dir when it is below it, else p itself.
func FromDir(dir, p string) string {
	if r, ok := Within(dir, p); ok {
		return filepath.FromSlash(r)
	}
	return p
}

// Same reports whether a and b name the same path once both are made absolute and cleaned (no
// link is followed).
func Same(a, b string) bool {
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}
