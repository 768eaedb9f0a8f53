package grade

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Limits on what a submission's archive may unpack to. A student's program is a few small files;
// anything past these is refused rather than unpacked.
const (
	maxZipEntries = 10000    // entries listed in the archive, hidden ones included
	maxZipFiles   = 500      // files unpacked
	maxZipBytes   = 20 << 20 // bytes unpacked
	maxZipDepth   = 32       // folders deep
)

// Codes of an archive refused, kept in Result.Message.
const (
	ZipCorrupt = "zip_corrupt" // not a zip archive, or damaged
	ZipSlip    = "zip_slip"    // an entry would land outside the folder it is unpacked to
	ZipBomb    = "zip_bomb"    // it unpacks to more than the limits allow
)

// ArchiveError is a submission's archive refused: a code (ZipCorrupt, ZipSlip, ZipBomb) and the
// entry at fault. It is a verdict about the submission, not a failure of the tool.
type ArchiveError struct {
	Code  string
	Entry string
}

func (e *ArchiveError) Error() string {
	if e.Entry == "" {
		return e.Code
	}
	return e.Code + ": " + e.Entry
}

// unzip unpacks the archive at src into the folder dst, refusing entries that climb out of it
// (zip-slip), absolute paths, and archives that unpack to more than the limits (zip bombs). Hidden
// entries, archive junk and symbolic links are skipped. Names not flagged as UTF-8 that are not
// valid UTF-8 are read as code page 866, which Windows' own zip writes for Cyrillic names.
func unzip(src, dst string) error {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return &ArchiveError{Code: ZipCorrupt, Entry: err.Error()}
	}
	defer zr.Close()
	if len(zr.File) > maxZipEntries {
		return &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d entries", len(zr.File))}
	}
	type item struct {
		f   *zip.File
		rel string
	}
	var items []item
	var declared uint64
	for _, f := range zr.File {
		name := entryName(f)
		rel, err := safeRel(name)
		if err != nil {
			return &ArchiveError{Code: ZipSlip, Entry: name}
		}
		if rel == "" || skipEntry(rel) {
			continue
		}
		mode := f.Mode()
		if mode&os.ModeSymlink != 0 || (!mode.IsDir() && !mode.IsRegular() && !strings.HasSuffix(name, "/")) {
			continue
		}
		if strings.Count(rel, "/") >= maxZipDepth {
			return &ArchiveError{Code: ZipBomb, Entry: name}
		}
		items = append(items, item{f, rel})
		if !f.FileInfo().IsDir() {
			declared += f.UncompressedSize64
		}
	}
	files := 0
	for _, it := range items {
		if !it.f.FileInfo().IsDir() {
			files++
		}
	}
	if files > maxZipFiles || declared > maxZipBytes {
		return &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d files, %d bytes", files, declared)}
	}
	// The sizes in the headers can lie: count what really comes out.
	budget := int64(maxZipBytes)
	for _, it := range items {
		target := filepath.Join(dst, filepath.FromSlash(it.rel))
		if !within(dst, target) {
			return &ArchiveError{Code: ZipSlip, Entry: it.f.Name}
		}
		// A name this file system cannot hold (a colon on Windows) is the archive's fault.
		if it.f.FileInfo().IsDir() || strings.HasSuffix(it.f.Name, "/") {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return &ArchiveError{Code: ZipCorrupt, Entry: it.rel}
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return &ArchiveError{Code: ZipCorrupt, Entry: it.rel}
		}
		n, err := extractFile(it.f, target, budget)
		budget -= n
		if err != nil {
			return err
		}
	}
	return nil
}

func extractFile(f *zip.File, target string, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			// Two entries with one name (or one that differs only in case on this file system).
			return 0, nil
		}
		return 0, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if n > budget {
		return n, &ArchiveError{Code: ZipBomb, Entry: f.Name}
	}
	if err != nil {
		if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) {
			return n, &ArchiveError{Code: ZipCorrupt, Entry: f.Name}
		}
		return n, err
	}
	return n, nil
}

// entryName is an entry's name as UTF-8.
func entryName(f *zip.File) string {
	name := f.Name
	if f.NonUTF8 && !utf8.ValidString(name) {
		if s, err := charmap.CodePage866.NewDecoder().String(name); err == nil {
			name = s
		}
	}
	return name
}

// safeRel turns an entry's name into a relative slash path inside the archive's folder, or fails
// when the entry would leave it: a ".." that climbs out, an absolute path, a drive letter.
func safeRel(name string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') || strings.ContainsRune(n, 0) {
		return "", errors.New("absolute")
	}
	depth := 0
	for _, part := range strings.Split(n, "/") {
		switch part {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return "", errors.New("climbs out")
			}
		default:
			depth++
		}
	}
	clean := path.Clean(n)
	if clean == "." {
		return "", nil
	}
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", errors.New("climbs out")
	}
	return clean, nil
}

// skipEntry reports entries not worth unpacking: anything under a hidden folder or archive junk.
func skipEntry(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if junkName(part) {
			return true
		}
	}
	return false
}

// within reports whether target lies inside dir.
func within(dir, target string) bool {
	rel, err := filepath.Rel(dir, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
