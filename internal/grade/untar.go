package grade

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
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
	return untarFor(src, dst, lim, "")
}

// tarReader is a tar archive's stream, read at most maxTarStream bytes.
type tarReader struct {
	*tar.Reader
	stream *capReader
	close  func()
}

// openTar opens the tar archive at src (gunzipped or bunzipped by its extension).
func openTar(src string) (*tarReader, error) {
	f, _, err := openArchive(src, maxZipArchive)
	if err != nil {
		return nil, err
	}
	r, closeStream, err := tarStream(src, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	stream := &capReader{r: r, left: maxTarStream}
	return &tarReader{Reader: tar.NewReader(stream), stream: stream, close: func() { closeStream(); f.Close() }}, nil
}

// corrupt is the error of a tar that cannot be read on at entry: a bomb when its stream is past
// maxTarStream.
func (t *tarReader) corrupt(entry string) error {
	if t.stream.over {
		return &ArchiveError{Code: ZipBomb, Entry: fmt.Sprintf("more than %d bytes", maxTarStream)}
	}
	return &ArchiveError{Code: ZipCorrupt, Entry: entry}
}

// tarPick is what of the tar at src to unpack for the exercise (pickFolders; nil for all of it): a
// first read through its headers, which looks into at most maxPeeks .go files for their package.
func tarPick(src, exercise string, lim ReadLimits) ([]string, error) {
	tr, err := openTar(src)
	if err != nil {
		return nil, err
	}
	defer tr.close()
	var entries []listed
	mains := map[string]bool{}
	peeks := 0
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, tr.corrupt(filepath.Base(src))
		}
		if len(entries) >= listLimit(lim) {
			return nil, &ArchiveError{Code: ZipBomb, Entry: filepath.Base(src), Limit: BigEntries}
		}
		rel, err := safeRel(hdr.Name)
		if err != nil {
			continue // refused when unpacked
		}
		e := listed{rel: rel, file: hdr.Typeflag == tar.TypeReg, size: uint64(max(hdr.Size, 0))}
		entries = append(entries, e)
		if e.file && goFile(path.Base(rel)) && !mains[path.Dir(rel)] && peeks < maxPeeks {
			peeks++
			mains[path.Dir(rel)] = peekMain(tr)
		}
	}
	return pickFolders(entries, exercise, lim, func(dir string) bool { return mains[dir] }), nil
}

// untarFor is untar under the limits lim; with exercise set, a tar that holds more than a program
// is unpacked from the exercise's folder alone (tarPick).
func untarFor(src, dst string, lim ReadLimits, exercise string) (skipped []SkippedEntry, err error) {
	lim = lim.orDefault()
	var keep []string
	if exercise != "" {
		if keep, err = tarPick(src, exercise, lim); err != nil {
			return nil, err
		}
	}
	tr, err := openTar(src)
	if err != nil {
		return nil, err
	}
	defer tr.close()
	corrupt := tr.corrupt
	entries := 0
	u := &tarFiles{lim: lim, budget: lim.Bytes, archives: lim.Archives, seen: map[string]bool{}}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return skipped, nil
		}
		if err != nil {
			return nil, corrupt(filepath.Base(src))
		}
		entries++
		rel, target, err := tarTarget(hdr, dst, lim, entries, keep)
		if err != nil {
			return nil, err
		}
		if rel == "" {
			continue
		}
		if hdr.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return nil, &ArchiveError{Code: ZipCorrupt, Entry: rel}
			}
			continue
		}
		if kind, regular := tarKind(hdr.Typeflag); !regular {
			if kind != "" {
				skipped = append(skipped, SkippedEntry{Path: rel, Kind: kind})
			}
			continue
		}
		if err := u.file(tr, hdr, rel, target); err != nil {
			if errors.Is(err, errTarRead) {
				return nil, corrupt(hdr.Name)
			}
			return nil, err
		}
	}
}

// errTarRead marks a tar entry that could not be read (the archive's fault).
var errTarRead = errors.New("the entry cannot be read")

// tarFiles counts the regular files of a tar as they are unpacked.
type tarFiles struct {
	lim      ReadLimits
	files    int
	budget   int64
	archives int64 // what is left of lim.Archives
	seen     map[string]bool
}

// file unpacks the regular entry hdr to target under the limits.
func (u *tarFiles) file(tr io.Reader, hdr *tar.Header, rel, target string) error {
	key := nameKey(rel)
	if u.seen[key] {
		return &ArchiveError{Code: ZipTwice, Entry: hdr.Name}
	}
	u.seen[key] = true
	if u.files++; u.files > u.lim.Files {
		return &ArchiveError{Code: ZipBomb, Entry: hdr.Name, Limit: BigFiles}
	}
	b := &u.budget
	if innerArchive(rel) {
		b = &u.archives
	}
	n, readFailed, err := writeTarFile(tr, target, rel, *b)
	*b -= n
	switch {
	case *b < 0:
		return &ArchiveError{Code: ZipBomb, Entry: hdr.Name, Limit: BigBytes}
	case readFailed:
		return errTarRead
	}
	return err
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

// tarStream is the tar stream of the archive f at src: gunzipped or bunzipped as its first bytes say.
func tarStream(src string, f io.Reader) (io.Reader, func(), error) {
	// The stream's first bytes tell its compression, whatever the name says (sniffArchive).
	br := bufio.NewReader(f)
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, &ArchiveError{Code: ZipCorrupt, Entry: filepath.Base(src)}
		}
		return gz, func() { gz.Close() }, nil
	case bytes.HasPrefix(head, bzip2Magic):
		return bzip2.NewReader(br), func() {}, nil
	}
	return br, func() {}, nil
}

// tarKind says what a tar entry that is no folder is: regular, or the kind it is skipped as ("" for
// headers of their own, PAX global headers, skipped without a word).
func tarKind(flag byte) (kind string, regular bool) {
	switch flag {
	case tar.TypeReg:
		return "", true
	case tar.TypeSymlink:
		return SkipSymlink, false
	case tar.TypeLink:
		return SkipHardlink, false
	case tar.TypeChar, tar.TypeBlock:
		return SkipDevice, false
	case tar.TypeFifo:
		return SkipFIFO, false
	case tar.TypeXGlobalHeader:
		return "", false
	}
	return SkipOther, false
}

// writeTarFile writes the current entry of tr to target, at most budget+1 bytes; readFailed is set
// when reading the entry failed (the archive's fault), err when writing did (ours).
func writeTarFile(tr io.Reader, target, rel string, budget int64) (n int64, readFailed bool, err error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return 0, false, &ArchiveError{Code: ZipCorrupt, Entry: rel}
	}
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
	if err != nil {
		return 0, false, &ArchiveError{Code: ZipCorrupt, Entry: rel}
	}
	in := &readErr{r: io.LimitReader(tr, budget+1)}
	n, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, in.err != nil, err
}

// tarTarget is where the tar entry hdr, the entries-th, goes under dst: its path (slashes) and the
// target ("" for an entry skipped: junk, or outside the folders of keep when set), or the
// ArchiveError that refuses the archive.
func tarTarget(hdr *tar.Header, dst string, lim ReadLimits, entries int, keep []string) (rel, target string, err error) {
	if entries > listLimit(lim) {
		return "", "", &ArchiveError{Code: ZipBomb, Entry: hdr.Name, Limit: BigEntries}
	}
	rel, err = safeRel(hdr.Name)
	if err != nil {
		return "", "", &ArchiveError{Code: ZipSlip, Entry: hdr.Name}
	}
	if rel == "" || skipEntry(rel) || !picked(rel, keep) {
		return "", "", nil
	}
	if strings.Count(rel, "/") >= lim.Depth {
		return "", "", &ArchiveError{Code: ZipBomb, Entry: hdr.Name, Limit: BigDepth}
	}
	target = filepath.Join(dst, filepath.FromSlash(rel))
	if !within(dst, target) {
		return "", "", &ArchiveError{Code: ZipSlip, Entry: hdr.Name}
	}
	return rel, target, nil
}
