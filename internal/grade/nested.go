package grade

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ZipNested is the code of an archive refused because its program is in archives nested deeper than
// maxNesting.
const ZipNested = "zip_nested"

// maxNesting is how many archives deep a program is looked for: the student's archive (or the one
// uploaded in a folder), an archive in it, and one in that.
const maxNesting = 3

// unpackArchive unpacks the archive src of the kind (KindZip, KindTar, Kind7z; KindArchive is refused
// with ArchiveFormat) into dst under lim, from the exercise's folder alone when it holds more than a
// program (exercise "" unpacks all of it). The kind its first bytes show wins over the one its name
// gives: a .tar.gz renamed .zip, or a zip renamed .rar, is read as what it is.
func unpackArchive(kind, src, dst string, lim ReadLimits, exercise string) ([]SkippedEntry, error) {
	if k := sniffArchive(src); k != "" {
		kind = k
	}
	switch kind {
	case KindZip:
		return unzipLim(src, dst, lim, exercise)
	case KindTar:
		return untarFor(src, dst, lim, exercise)
	case Kind7z:
		return un7zFor(src, dst, lim, exercise)
	}
	return nil, &ArchiveError{Code: ArchiveFormat, Entry: filepath.Base(src)}
}

// unpackedName is the folder beside the archive p (in dir) that p is unpacked into: its name without
// the extension, made safe, and new.
func unpackedName(dir, p string) string {
	name := filepath.Base(p)
	name = safeFileName(strings.TrimSuffix(name, name[len(name)-len(archiveExt(strings.ToLower(name))):]))
	if name == "" || junkName(name) {
		name = "archive"
	}
	dst := filepath.Join(dir, name)
	for i := 2; fileExists(dst) || isDir(dst); i++ {
		dst = filepath.Join(dir, name+"-"+strconv.Itoa(i))
	}
	return dst
}

// openNested opens the archives inside what was unpacked into root, when root holds no Go yet: a
// zip in a zip, a .tar.gz in a zip, a .7z in a folder's zip. Each is unpacked beside itself, the
// first that can be read first, until Go turns up: at most maxOpened of them, all together within
// lim (what is already in root counts), none more than maxNesting archives deep (ZipNested), so
// that a bomb inside an archive is a bomb as any other and a chain of archives ends.
func openNested(skipped []SkippedEntry, root string, lim ReadLimits, exercise string) ([]SkippedEntry, error) {
	done := map[string]bool{}
	levels := map[string]int{} // a folder an archive was unpacked into → how deep its contents are
	for opened := 0; !hasGoFiles(root); opened++ {
		p, kind := nextArchive(root, done)
		if p == "" {
			return skipped, nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		level := archiveLevel(root, p, levels)
		switch {
		case kind == KindArchive:
			return skipped, &ArchiveError{Code: ArchiveFormat, Entry: rel}
		case level > maxNesting || opened >= maxOpened:
			return skipped, &ArchiveError{Code: ZipNested, Entry: rel}
		}
		dst := unpackedName(filepath.Dir(p), p)
		left, err := budgetLeft(root, dst, lim)
		if err != nil {
			return skipped, err
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return skipped, err
		}
		done[p], levels[dst] = true, level+1
		sk, err := unpackArchive(kind, p, dst, left, exercise)
		for _, e := range sk {
			skipped = append(skipped, SkippedEntry{Path: rel + "/" + e.Path, Kind: e.Kind})
		}
		if err != nil {
			return skipped, err
		}
	}
	return skipped, nil
}

// maxOpened is how many archives inside archives are opened for one submission at most.
const maxOpened = 8

// archiveLevel is how many archives deep the archive p is: one more than the submission's own (or
// the one uploaded in its folder), whose contents are root, or as deep as the contents of the
// archive unpacked into its nearest folder (levels).
func archiveLevel(root, p string, levels map[string]int) int {
	for d := filepath.Dir(p); len(d) > len(root); d = filepath.Dir(d) {
		if l, ok := levels[d]; ok {
			return l
		}
	}
	return 2
}

// nextArchive is the first archive in root not done yet, one that can be read before one that cannot
// (whose kind is KindArchive), shallowest first, then by name; "" when there is none.
func nextArchive(root string, done map[string]bool) (string, string) {
	type found struct {
		p, kind string
		depth   int
	}
	var list []found
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && junkName(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		kind := archiveKind(strings.ToLower(d.Name()))
		if kind == "" || !d.Type().IsRegular() || done[p] {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		list = append(list, found{p, kind, strings.Count(filepath.ToSlash(rel), "/")})
		return nil
	})
	if len(list) == 0 {
		return "", ""
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if (a.kind == KindArchive) != (b.kind == KindArchive) {
			return b.kind == KindArchive
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.p < b.p
	})
	return list[0].p, list[0].kind
}

// budgetLeft is what of lim is left for an archive unpacked into dst, once what root already holds
// is counted: files, bytes (the archives' own in Archives), and folders deep below dst. Nothing left is
// a bomb (ZipBomb).
func budgetLeft(root, dst string, lim ReadLimits) (ReadLimits, error) {
	files, bytes, archives := 0, int64(0), int64(0)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				files++
				if innerArchive(d.Name()) {
					archives += info.Size()
				} else {
					bytes += info.Size()
				}
			}
		}
		return nil
	})
	rel, _ := filepath.Rel(root, dst)
	left := lim
	left.Files -= files
	left.Bytes -= bytes
	// What the archives in root already hold on disk is all the archives of this submission may:
	// those inside the one opened now get what is left (none left is not a bomb yet: it may hold none).
	left.Archives = max(lim.Archives-archives, 1)
	left.Depth -= strings.Count(filepath.ToSlash(rel), "/") + 1
	switch {
	case left.Files <= 0:
		return left, &ArchiveError{Code: ZipBomb, Entry: filepath.Base(dst), Limit: BigFiles}
	case left.Bytes <= 0:
		return left, &ArchiveError{Code: ZipBomb, Entry: filepath.Base(dst), Limit: BigBytes}
	case left.Depth <= 0:
		return left, &ArchiveError{Code: ZipBomb, Entry: filepath.Base(dst), Limit: BigDepth}
	}
	return left, nil
}

// sniffArchive is the kind of archive the file src is by its first bytes (KindZip, Kind7z, or KindTar
// for a tar, plain, gzipped or in bzip2), "" when they show none of these.
func sniffArchive(src string) string {
	f, err := os.Open(src)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return KindZip
	case bytes.HasPrefix(head, []byte("7z\xbc\xaf\x27\x1c")):
		return Kind7z
	case bytes.HasPrefix(head, gzipMagic), bytes.HasPrefix(head, bzip2Magic):
		return KindTar
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return KindTar
	}
	return ""
}

// The first bytes of a gzip and a bzip2 stream.
var gzipMagic, bzip2Magic = []byte{0x1f, 0x8b}, []byte("BZh")
