package grade

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestArchiveReadAsWhatItIs: a student's archive is read as its first bytes say, whatever its name:
// a .tar.gz renamed .zip, a zip renamed .rar or .tar.gz, a plain tar named .zip. It was refused as
// damaged or of an unknown format, the student's honest program never graded. What is no archive
// at all is refused as before.
func TestArchiveReadAsWhatItIs(t *testing.T) {
	const prog = "package main\n\nfunc main() {}\n"
	zipped := zipOf(t, files{"deadline/main.go": prog})
	tgz := tgzOf(t, files{"deadline/main.go": prog})
	var plain bytes.Buffer
	tw := tar.NewWriter(&plain)
	tw.WriteHeader(&tar.Header{Name: "deadline/main.go", Mode: 0o644, Size: int64(len(prog)), Typeflag: tar.TypeReg})
	tw.Write([]byte(prog))
	tw.Close()
	for _, tc := range []struct {
		name, data string
		code       string // the ArchiveError's code, "" when main.go is unpacked
	}{
		{"ivanov.zip", zipped, ""},
		{"ivanov.zip", tgz, ""},
		{"ivanov.zip", plain.String(), ""},
		{"ivanov.rar", zipped, ""},
		{"ivanov.rar", tgz, ""},
		{"ivanov.tar.gz", zipped, ""},
		{"ivanov.tgz", plain.String(), ""},
		{"ivanov.7z", zipped, ""},
		{"ivanov.zip", prog, ZipCorrupt},
		{"ivanov.rar", "Rar!\x1a\x07\x01\x00 not read here", ArchiveFormat},
	} {
		dir := t.TempDir()
		src := filepath.Join(dir, tc.name)
		if err := os.WriteFile(src, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, "out")
		if err := os.Mkdir(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := unpackArchive(archiveKind(tc.name), src, dst, DefaultReadLimits, "")
		var ae *ArchiveError
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s holding %q…: %v", tc.name, tc.data[:4], err)
		case tc.code == "" && !fileExists(filepath.Join(dst, "deadline", "main.go")):
			t.Errorf("%s holding %q…: no deadline/main.go unpacked", tc.name, tc.data[:4])
		case tc.code != "" && (!errors.As(err, &ae) || ae.Code != tc.code):
			t.Errorf("%s holding %q…: error %v, want the code %s", tc.name, tc.data[:4], err, tc.code)
		}
	}
}
