package grade

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

type zipEntry struct {
	name, body string
	cp866      bool // the name in code page 866 without the UTF-8 flag, as Windows' own zip writes it
	symlink    bool
}

func makeZip(t *testing.T, entries []zipEntry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.cp866 {
			n, err := charmap.CodePage866.NewEncoder().String(e.name)
			if err != nil {
				t.Fatal(err)
			}
			h.Name, h.NonUTF8 = n, true
		}
		if e.symlink {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUnzip(t *testing.T) {
	tests := []struct {
		name    string
		entries []zipEntry
		code    string   // the ArchiveError code expected, "" for none
		files   []string // files expected after unpacking
		absent  []string
	}{
		{"plain", []zipEntry{{name: "hw/main.go", body: "package main"}}, "", []string{"hw/main.go"}, nil},
		{"cyrillic and spaces", []zipEntry{{name: "Задача 1/main.go", body: "package main"}}, "", []string{"Задача 1/main.go"}, nil},
		{"cp866 names", []zipEntry{{name: "задача/main.go", body: "package main", cp866: true}}, "", []string{"задача/main.go"}, nil},
		{"backslashes", []zipEntry{{name: `hw\main.go`, body: "package main"}}, "", []string{"hw/main.go"}, nil},
		{"junk skipped", []zipEntry{{name: "__MACOSX/._main.go", body: "x"}, {name: ".git/config", body: "x"}, {name: "main.go", body: "package main"}},
			"", []string{"main.go"}, []string{"__MACOSX", ".git"}},
		{"symlink skipped", []zipEntry{{name: "link", body: "/etc/passwd", symlink: true}, {name: "main.go", body: "package main"}},
			"", []string{"main.go"}, []string{"link"}},
		{"inner dot-dot stays inside", []zipEntry{{name: "a/../main.go", body: "package main"}}, "", []string{"main.go"}, nil},
		{"zip-slip", []zipEntry{{name: "main.go", body: "package main"}, {name: "../../evil.go", body: "x"}}, ZipSlip, nil, []string{"main.go"}},
		{"zip-slip deep", []zipEntry{{name: "a/b/../../../evil.go", body: "x"}}, ZipSlip, nil, nil},
		{"zip-slip backslash", []zipEntry{{name: `..\evil.go`, body: "x"}}, ZipSlip, nil, nil},
		{"absolute", []zipEntry{{name: "/etc/evil", body: "x"}}, ZipSlip, nil, nil},
		{"drive letter", []zipEntry{{name: `C:\evil.go`, body: "x"}}, ZipSlip, nil, nil},
		{"bomb", []zipEntry{{name: "main.go", body: strings.Repeat(" ", int(DefaultReadLimits.Bytes)+1)}}, ZipBomb, nil, nil},
		{"too many files", manyFiles(DefaultReadLimits.Files + 1), ZipBomb, nil, nil},
		{"same name twice", []zipEntry{{name: "main.go", body: "package main"}, {name: "main.go", body: "package evil"}}, ZipTwice, nil, nil},
		{"same name in another case", []zipEntry{{name: "hw/main.go", body: "package main"}, {name: "HW/Main.go", body: "package evil"}}, ZipTwice, nil, nil},
		{"same name in NFC and NFD", []zipEntry{{name: "задача/йод.go", body: "package main"}, {name: norm.NFD.String("задача/йод.go"), body: "package evil"}}, ZipTwice, nil, nil},
		{"same name once through dot-dot", []zipEntry{{name: "main.go", body: "package main"}, {name: "a/../main.go", body: "package evil"}}, ZipTwice, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := makeZip(t, tt.entries)
			root := t.TempDir()
			dst := filepath.Join(root, "out")
			os.MkdirAll(dst, 0o755)
			_, err := unzip(src, dst)
			var ae *ArchiveError
			switch {
			case tt.code == "" && err != nil:
				t.Fatalf("unzip: %v", err)
			case tt.code != "" && (!errors.As(err, &ae) || ae.Code != tt.code):
				t.Fatalf("unzip: got %v, want %s", err, tt.code)
			}
			for _, f := range tt.files {
				if _, err := os.Stat(filepath.Join(dst, filepath.FromSlash(f))); err != nil {
					t.Errorf("%s missing: %v", f, err)
				}
			}
			for _, f := range tt.absent {
				if _, err := os.Stat(filepath.Join(dst, f)); err == nil {
					t.Errorf("%s should not be there", f)
				}
			}
			for _, f := range []string{filepath.Join(root, "evil.go"), filepath.Join(filepath.Dir(root), "evil.go")} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s was written outside the folder", f)
				}
			}
		})
	}
}

func manyFiles(n int) []zipEntry {
	list := make([]zipEntry, n)
	for i := range list {
		list[i] = zipEntry{name: "f/" + strconv.Itoa(i) + ".txt", body: "x"}
	}
	return list
}

// TestUnzipSkipped: entries that are neither files nor folders are left out and named.
func TestUnzipSkipped(t *testing.T) {
	src := makeZip(t, []zipEntry{{name: "hw/zz.go", body: "/dev/zero", symlink: true}, {name: "hw/main.go", body: "package main"}})
	skipped, err := unzip(src, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := []SkippedEntry{{"hw/zz.go", SkipSymlink}}; len(skipped) != 1 || skipped[0] != want[0] {
		t.Errorf("skipped %+v, want %+v", skipped, want)
	}
}

// rawZip writes an archive of one entry whose header and data are given as they are, lies included.
func rawZip(t *testing.T, h *zip.FileHeader, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	zw.Close()
	p := filepath.Join(t.TempDir(), "raw.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	return p
}

// TestUnzipLies: the sizes in an archive's headers are not believed, and a damaged entry is the
// archive's verdict, never an error that would stop the grading of the class.
func TestUnzipLies(t *testing.T) {
	var bomb bytes.Buffer
	fw, _ := flate.NewWriter(&bomb, flate.BestCompression)
	fw.Write(make([]byte, int(DefaultReadLimits.Bytes)+1<<20))
	fw.Close()
	tests := []struct {
		name  string
		h     *zip.FileHeader
		data  []byte
		codes []string
	}{
		{"header says 10 bytes, unpacks to 21 MiB", &zip.FileHeader{Name: "main.go", Method: zip.Deflate, UncompressedSize64: 10,
			CompressedSize64: uint64(bomb.Len())}, bomb.Bytes(), []string{ZipBomb, ZipCorrupt}},
		{"damaged deflate stream", &zip.FileHeader{Name: "main.go", Method: zip.Deflate, UncompressedSize64: 100,
			CompressedSize64: 9}, []byte{0xff, 0xfe, 0xfd, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05}, []string{ZipCorrupt}},
		{"unknown method", &zip.FileHeader{Name: "main.go", Method: 99, UncompressedSize64: 3, CompressedSize64: 3}, []byte("abc"), []string{ZipCorrupt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := unzip(rawZip(t, tt.h, tt.data), t.TempDir())
			var ae *ArchiveError
			if !errors.As(err, &ae) || !slices.Contains(tt.codes, ae.Code) {
				t.Fatalf("got %v, want an ArchiveError with one of %v", err, tt.codes)
			}
		})
	}
}

func TestUnzipCorrupt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.zip")
	os.WriteFile(p, []byte("this is not a zip"), 0o644)
	var ae *ArchiveError
	if _, err := unzip(p, t.TempDir()); !errors.As(err, &ae) || ae.Code != ZipCorrupt {
		t.Fatalf("got %v, want %s", err, ZipCorrupt)
	}
}

func TestSafeRel(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{"a/b.go", "a/b.go", false},
		{"./a/./b.go", "a/b.go", false},
		{"a/../b.go", "b.go", false},
		{"dir/", "dir", false},
		{"", "", false},
		{"..", "", true},
		{"../a", "", true},
		{"a/../../b", "", true},
		{`a\..\..\b`, "", true},
		{"/abs", "", true},
		{"C:/x", "", true},
	}
	for _, tt := range tests {
		got, err := safeRel(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("safeRel(%q) = %q, %v; want %q, bad=%v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

// TestUnzipManyRecords: an archive of many empty entries is refused from a count of its records,
// before archive/zip reads them all. Entries passed over only cost their listing, so the bound is
// listLimit's, whatever --max-files says.
func TestUnzipManyRecords(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for range listLimit(DefaultReadLimits.orDefault()) + 1 {
		zw.CreateHeader(&zip.FileHeader{Name: "", Method: zip.Store})
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "many.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	var ae *ArchiveError
	if _, err := unzip(p, t.TempDir()); !errors.As(err, &ae) || ae.Code != ZipBomb {
		t.Fatalf("got %v, want %s", err, ZipBomb)
	}
}

func TestCentralRecords(t *testing.T) {
	sig := string(centralSig)
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"none", "no signature here", 0},
		{"one", "xx" + sig + "yy", 1},
		{"back to back", sig + sig + sig, 3},
		// A signature across the 64 KiB boundary of a read is still counted.
		{"across a read", strings.Repeat("x", 64<<10-2) + sig, 1},
		{"at the boundary", strings.Repeat("x", 64<<10-4) + sig + "z", 1},
	}
	for _, tt := range tests {
		n, err := centralRecords(strings.NewReader(tt.in))
		if err != nil || n != tt.want {
			t.Errorf("%s: %d, %v; want %d", tt.name, n, err, tt.want)
		}
	}
}
