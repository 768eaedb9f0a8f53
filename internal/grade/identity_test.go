package grade

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// TestIdentityAttacks lists classes whose entry names try to pass one student's work off as
// another's, or to merge two students into one row: every entry stays a row of its own under the
// identity that cannot be faked, and a name that reads two ways is a conflict, never merged.
func TestIdentityAttacks(t *testing.T) {
	const prog = "package main\n\nfunc main() {}\n"
	type row struct {
		Name, ID, Conflict string
		Files              int
	}
	nfc := norm.NFC.String("Йордан Пеев")
	nfd := norm.NFD.String("Йордан Пеев")
	tests := []struct {
		name   string
		fs     files
		roster string
		want   []row
	}{
		{
			name: "trailing space",
			fs:   files{"Ivan Petrov/main.go": prog, "Ivan Petrov /main.go": prog},
			want: []row{{"Ivan Petrov (" + entrySuffix("Ivan Petrov") + ")", "", "", 0}, {"Ivan Petrov (" + entrySuffix("Ivan Petrov ") + ")", "", "", 0}},
		},
		{
			name: "NFC and NFD",
			fs:   files{nfc + "/main.go": prog, nfd + "/main.go": prog},
			want: []row{{nfc + " (" + entrySuffix(nfc) + ")", "", "", 0}, {nfc + " (" + entrySuffix(nfd) + ")", "", "", 0}},
		},
		{
			// Moodle writes "_" in a name as a space: a flat name with a second marker reads one way
			// as Moodle writes names, and is still a conflict row apart from the victim's own.
			name: "moodle name built to look like an id",
			fs: files{
				"Eve_100002_assignsubmission_file_ Smith_100001_assignsubmission_file_main.go": prog,
				"John Smith_100001_assignsubmission_file_main.go":                              prog,
			},
			want: []row{{"Eve", "100002", ConflictAmbiguous, 0}, {"John Smith", "100001", "", 0}},
		},
		{
			name: "moodle folder whose name holds another participant's marker",
			fs: files{
				"Eve_100002_assignsubmission_file_ Smith_100001_assignsubmission_file_/main.go": prog,
				"John Smith_100001_assignsubmission_file_/main.go":                              prog,
			},
			want: []row{{"Eve_100002_assignsubmission_file_ Smith", "", ConflictAmbiguous, 0}, {"John Smith", "100001", "", 0}},
		},
		{
			// With the roster, the reading it lists under the same name is the student.
			name:   "moodle flat name decided by the roster",
			fs:     files{"Eve_100002_assignsubmission_file_ Smith_100001_assignsubmission_file_main.go": prog},
			roster: "Identifier,Full name,Grade,Last modified (grade)\nParticipant 100002,Eve,,-\nParticipant 100001,John Smith,,-\n",
			want:   []row{{"Eve", "100002", "", 0}},
		},
		{
			name: "moodle files of one id that disagree about the name",
			fs: files{
				"John Smith_100001_assignsubmission_file_main.go":   prog,
				"John Smith_100001_assignsubmission_file_helper.go": prog,
				"Eve_100001_assignsubmission_file_evil.go":          prog,
			},
			want: []row{{"Eve", "", ConflictNamesDiffer, 0}, {"John Smith", "", ConflictNamesDiffer, 2}},
		},
		{
			name:   "moodle names that disagree, decided by the roster",
			fs:     files{"John Smith_100001_assignsubmission_file_main.go": prog, "Eve_100001_assignsubmission_file_evil.go": prog},
			roster: "Identifier,Full name,Grade,Last modified (grade)\nParticipant 100001,John Smith,,-\n",
			want:   []row{{"Eve", "", ConflictNamesDiffer, 0}, {"John Smith", "100001", "", 0}},
		},
		{
			// A Canvas login may hold "_": "mc_donald" is one student, and a file name that reads as
			// another student's id is a conflict.
			name: "canvas login with an underscore",
			fs: files{
				"mc_donald_1001_5001_main.go":          prog,
				"eve_1002_5002_x_1001_5003_main.go":    prog,
				"smithjohn_1001_5004_notmine.go":       prog,
				"anon_G7kP2_5005_main.go":              prog,
				"anon_late_Qx9z_5006_text.html":        "<pre>package main\n\nfunc main() {}\n</pre>",
				"smithjohn_1003_text.html":             "<p>package main</p><p>func main() {}</p>",
				"smithjohn_late_1004_5007_deadline.go": prog,
			},
			want: []row{
				{"anon G7kP2", "G7kP2", "", 0}, {"anon Qx9z", "Qx9z", "", 1},
				{"eve", "", ConflictAmbiguous, 0},
				{"mc_donald", "", ConflictNamesDiffer, 0},
				{"smithjohn (1003)", "1003", "", 1}, {"smithjohn (1004)", "1004", "", 0},
				{"smithjohn_1001_5004_notmine.go", "", ConflictNamesDiffer, 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.fs)
			var ro *Roster
			if tt.roster != "" {
				ro = rosterOf(t, tt.roster)
			}
			subs, _, err := ListWith(dir, ro)
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			names := map[string]bool{}
			for _, s := range subs {
				got = append(got, row{s.Name, s.ID, s.Conflict, len(s.Files)})
				if names[s.Name] {
					t.Errorf("two rows named %q", s.Name)
				}
				names[s.Name] = true
			}
			sort.Slice(got, func(i, j int) bool { return got[i].Name < got[j].Name })
			sort.Slice(tt.want, func(i, j int) bool { return tt.want[i].Name < tt.want[j].Name })
			if len(got) != len(tt.want) {
				t.Fatalf("got %d rows %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("row %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
			// Every row its own feedback file.
			fb := FeedbackNames(sortedNames(subs))
			seen := map[string]bool{}
			for _, f := range fb {
				if seen[strings.ToLower(f)] {
					t.Errorf("two rows share the feedback file %s", f)
				}
				seen[strings.ToLower(f)] = true
			}
		})
	}
}

func sortedNames(subs []Submission) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// TestCodeFromHTML takes programs out of online texts as Moodle's and Canvas's editors write them.
func TestCodeFromHTML(t *testing.T) {
	tests := []struct{ name, html, want string }{
		{"pre", "<p>my answer:</p><pre>package main\n\nfunc main() {\n\tprintln(&quot;x&lt;y&quot;)\n}\n</pre>", "package main\n\nfunc main() {\n\tprintln(\"x<y\")\n}\n"},
		{"paragraphs", "<p>package main</p><p>func main() {}</p>", "package main\nfunc main() {}\n"},
		{"nbsp and br", "<div>package&nbsp;main<br>func main() {}</div>", "package main\nfunc main() {}\n"},
	}
	for _, tt := range tests {
		got, err := codeFromHTML([]byte(tt.html))
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := codeFromHTML([]byte("<p>I did not finish</p>")); err == nil {
		t.Error("a text without a program gave one")
	}
}

// sevenZip writes a .7z archive of files, stored (the Copy method), as 7-Zip's format describes it
// (7zFormat.txt: signature header, packed streams, then the header with MainStreamsInfo and
// FilesInfo): enough to test reading without a 7z tool.
func sevenZip(t testing.TB, fs files) []byte {
	t.Helper()
	var names []string
	for n := range fs {
		names = append(names, n)
	}
	sort.Strings(names)
	var packed bytes.Buffer
	for _, n := range names {
		packed.WriteString(fs[n])
	}
	num := func(b *bytes.Buffer, v uint64) {
		switch {
		case v < 0x80:
			b.WriteByte(byte(v))
		case v < 0x4000:
			b.WriteByte(0x80 | byte(v>>8))
			b.WriteByte(byte(v))
		default:
			b.WriteByte(0xC0 | byte(v>>16))
			b.WriteByte(byte(v))
			b.WriteByte(byte(v >> 8))
		}
	}
	var h bytes.Buffer
	h.WriteByte(0x01)                                                     // kHeader
	h.WriteByte(0x04)                                                     // kMainStreamsInfo
	h.Write([]byte{0x06, 0x00, 0x01, 0x09})                               // kPackInfo, pos 0, 1 stream, kSize
	num(&h, uint64(packed.Len()))                                         //
	h.Write([]byte{0x00, 0x07, 0x0B, 0x01, 0x00, 0x01, 0x01, 0x00, 0x0C}) // kEnd; kUnPackInfo, kFolder, 1, not external, 1 coder, id size 1, Copy; kCodersUnPackSize
	num(&h, uint64(packed.Len()))
	h.Write([]byte{0x00, 0x08, 0x0D}) // kEnd; kSubStreamsInfo, kNumUnPackStream
	num(&h, uint64(len(names)))
	if len(names) > 1 {
		h.WriteByte(0x09)
		for _, n := range names[:len(names)-1] {
			num(&h, uint64(len(fs[n])))
		}
	}
	h.Write([]byte{0x00, 0x00, 0x05}) // kEnd, kEnd; kFilesInfo
	num(&h, uint64(len(names)))
	var nb bytes.Buffer
	nb.WriteByte(0) // not external
	for _, n := range names {
		for _, u := range utf16.Encode([]rune(n)) {
			binary.Write(&nb, binary.LittleEndian, u)
		}
		nb.Write([]byte{0, 0})
	}
	h.WriteByte(0x11) // kName
	num(&h, uint64(nb.Len()))
	h.Write(nb.Bytes())
	h.Write([]byte{0x00, 0x00}) // kEnd of FilesInfo, kEnd of Header

	var start [20]byte
	binary.LittleEndian.PutUint64(start[0:], uint64(packed.Len()))
	binary.LittleEndian.PutUint64(start[8:], uint64(h.Len()))
	binary.LittleEndian.PutUint32(start[16:], crc32.ChecksumIEEE(h.Bytes()))
	var out bytes.Buffer
	out.Write([]byte{'7', 'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4})
	binary.Write(&out, binary.LittleEndian, crc32.ChecksumIEEE(start[:]))
	out.Write(start[:])
	out.Write(packed.Bytes())
	out.Write(h.Bytes())
	return out.Bytes()
}

// TestUn7z unpacks a .7z under the rules of unzip.
func TestUn7z(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "hw.7z")
	if err := os.WriteFile(src, sevenZip(t, files{"hw/main.go": "package main\n\nfunc main() {}\n", "hw/util.go": "package main\n"}), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if _, err := un7z(src, dst, DefaultReadLimits.orDefault()); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "hw", "main.go")); err != nil || !strings.Contains(string(data), "func main") {
		t.Fatalf("hw/main.go: %q, %v", data, err)
	}
	for name, tt := range map[string]struct {
		fs   files
		lim  ReadLimits
		code string
	}{
		"slip":     {files{"../evil.go": "package main\n"}, DefaultReadLimits, ZipSlip},
		"files":    {files{"a.go": "package main\n", "b.go": "package main\n"}, ReadLimits{Files: 1}, ZipBomb},
		"bytes":    {files{"a.go": strings.Repeat("x", 300)}, ReadLimits{Bytes: 100}, ZipBomb},
		"twice":    {files{"a.go": "package main\n", "A.go": "package main\n"}, DefaultReadLimits, ZipTwice},
		"not a 7z": {nil, DefaultReadLimits, ZipCorrupt},
	} {
		p := filepath.Join(dir, name+".7z")
		data := []byte("<html>not an archive</html>")
		if tt.fs != nil {
			data = sevenZip(t, tt.fs)
		}
		os.WriteFile(p, data, 0o644)
		_, err := un7z(p, t.TempDir(), tt.lim.orDefault())
		ae, ok := err.(*ArchiveError)
		if !ok || ae.Code != tt.code {
			t.Errorf("%s: got %v, want %s", name, err, tt.code)
		}
	}
}
