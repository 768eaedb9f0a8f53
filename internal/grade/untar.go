package grade

import (
	"archive/tar"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxTarStream is how many bytes of a compressed tar's stream are read at most, the entries left out
// (hidden ones, links) included: a gzip bomb of skipped entries stops there.
const maxTarStream = 4 * maxZipArchive

var errTarStream = errors.New("tar stream past its limit")

// untar unpacks a .tar, .tar.gz, .tgz or .tar.bz2 archive at src into dst under the limits and rules
// of unzip: entries that climb out are refused (ZipSlip), what comes out is counted while unpacking
// (ZipBomb), two files of one name are refused (ZipTwice), a damaged stream is ZipCorrupt; symbolic
// links, hard links, devices and FIFOs are skipped and returned.
func untar(src, dst string) (skipped []SkippedEntry, err error) {
	return untarLim(src, dst, DefaultReadLimits)
}

// untarLim is untar under the limits lim.
func untarLim(src, dst string, lim ReadLimits) (skipped []SkippedEntry, err error) {
	lim = lim.orDefault()
	f, _, err := openArchive(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	lower := strings.ToLower(src)
	switch {
	case strings.HasSuffix(lower, ".gz") || strings.HasSuffix(lower, ".tgz"):
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, &ArchiveError{Code: ZipCorrupt, Entry: filepath.Base(src)}
		}
		defer gz.Close()
		r = gz
	case strings.HasSuffix(lower, ".bz2") || strings.HasSuffix(lower, ".tbz2") || strings.HasSuffix(lower, ".tbz"):
		r = bzip2.NewReader(f)
	}
	stream := &capReader{r: r, left: maxTarStream}
	tr := tar.NewReader(stream)
	corrupt := func(entry string) error {
		if stream.over {
			return &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("more than %d bytes", maxTarStream)}
		}
		return &ArchiveError{Code: ZipCorrupt, Entry: entry}
	}
	entries, files := 0, 0
	budget := lim.Bytes
	seen := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return skipped, nil
		}
		if err != nil {
			return nil, corrupt(filepath.Base(src))
		}
		if entries++; entries > lim.Entries {
			return nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d", lim.Entries), Limit: BigEntries}
		}
		rel, err := safeRel(hdr.Name)
		if err != nil {
			return nil, &ArchiveError{Code: ZipSlip, Entry: hdr.Name}
		}
		if rel == "" || skipEntry(rel) {
			continue
		}
		if strings.Count(rel, "/") >= lim.Depth {
			return nil, &ArchiveError{Code: ZipBomb, Entry: hdr.Name}
		}
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if !within(dst, target) {
			return nil, &ArchiveError{Code: ZipSlip, Entry: hdr.Name}
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return nil, &ArchiveError{Code: ZipCorrupt, Entry: rel}
			}
			continue
		case tar.TypeReg:
		case tar.TypeSymlink:
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: SkipSymlink})
			continue
		case tar.TypeLink:
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: SkipHardlink})
			continue
		case tar.TypeChar, tar.TypeBlock:
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: SkipDevice})
			continue
		case tar.TypeFifo:
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: SkipFIFO})
			continue
		default:
			// Headers of their own (PAX global headers, GNU extensions the reader does not fold in).
			if hdr.Typeflag == tar.TypeXGlobalHeader {
				continue
			}
			skipped = append(skipped, SkippedEntry{Path: rel, Kind: SkipOther})
			continue
		}
		key := strings.ToLower(rel)
		if seen[key] {
			return nil, &ArchiveError{Code: ZipTwice, Entry: hdr.Name}
		}
		seen[key] = true
		if files++; files > lim.Files {
			return nil, &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("%d", lim.Files), Limit: BigFiles}
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, &ArchiveError{Code: ZipCorrupt, Entry: rel}
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
		if err != nil {
			return nil, &ArchiveError{Code: ZipCorrupt, Entry: rel}
		}
		in := &readErr{r: io.LimitReader(tr, budget+1)}
		n, err := io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		budget -= n
		switch {
		case budget < 0:
			return nil, &ArchiveError{Code: ZipBomb, Entry: hdr.Name}
		case in.err != nil:
			return nil, corrupt(hdr.Name)
		case err != nil:
			return nil, err
		}
	}
}

// capReader reads at most left bytes of r, then fails (and says so in over).
type capReader struct {
	r    io.Reader
	left int64
	over bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.over = true
		return 0, errTarStream
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
