package checker

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io"
	"os"
)

// checkExe checks a freshly built executable before it is used or cached, by what it is rather than
// by the syntax it came from: the writable memory its segments ask for at start (initialised data
// and zeroed bss, ELF's writable PT_LOAD segments, Mach-O's writable segments, PE's writable
// sections) must fit in half a run's memory limit (Limits.Memory). A program whose static data is
// larger (var ballast = [...]byte{700 << 20: 0}) could never run within its limits; it gets a build
// error with reason static_data, and is never cached. An executable in a format this Go cannot read
// is refused the same way, as is one that cannot be read at all.
func checkExe(exe string, lim Limits) error {
	lim = lim.withDefaults()
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	size, err := writableSize(f)
	if err != nil {
		return &BuildFailure{Verdict: BuildError, Reason: "static_data", Log: "the executable could not be read: " + err.Error()}
	}
	if max := uint64(lim.Memory / 2); size > max {
		return &BuildFailure{Verdict: BuildError, Reason: "static_data",
			Log: fmt.Sprintf("the program's static data takes %d MiB, more than the %d MiB it may have (half the memory of a run)", size>>20, max>>20)}
	}
	return nil
}

// writableSize is the writable memory an executable's image asks for when it starts.
func writableSize(r io.ReaderAt) (uint64, error) {
	if ef, err := elf.NewFile(r); err == nil {
		defer ef.Close()
		var n uint64
		for _, p := range ef.Progs {
			if p.Type == elf.PT_LOAD && p.Flags&elf.PF_W != 0 {
				n += p.Memsz
			}
		}
		return n, nil
	}
	if mf, err := macho.NewFile(r); err == nil {
		defer mf.Close()
		var n uint64
		for _, l := range mf.Loads {
			if s, ok := l.(*macho.Segment); ok && s.Prot&2 != 0 {
				n += s.Memsz
			}
		}
		return n, nil
	}
	pf, err := pe.NewFile(r)
	if err != nil {
		return 0, fmt.Errorf("neither ELF, Mach-O nor PE: %w", err)
	}
	defer pf.Close()
	const memWrite = 0x80000000 // IMAGE_SCN_MEM_WRITE
	var n uint64
	for _, s := range pf.Sections {
		if s.Characteristics&memWrite != 0 {
			n += uint64(max(s.VirtualSize, s.Size))
		}
	}
	return n, nil
}
