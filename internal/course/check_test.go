package course

import "testing"

func TestExpectedIn(t *testing.T) {
	script := []byte("# a case\nrun -n 3\nexpect out\n-- out.bg --\nопит 1\n-- out.ru --\nпопытка 1\n-- other.bg --\nне то\n")
	for _, tc := range []struct {
		script []byte
		lang   string
		want   string
	}{
		{script, "bg", "опит 1\n"},
		{script, "ru", "попытка 1\n"},
		{script, "en", ""},
		{[]byte("run\nstdout x\n-- out.bg --\nопит\n"), "bg", ""}, // no expect line
		{nil, "bg", ""},
	} {
		if got := expectedIn(tc.script, tc.lang); got != tc.want {
			t.Errorf("expectedIn(%q) = %q, want %q", tc.lang, got, tc.want)
		}
	}
}
