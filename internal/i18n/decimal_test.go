package i18n

import "testing"

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		lang   string
		v      float64
		digits int
		want   string
	}{
		{"ru", 13.94, 1, "13,9"},
		{"bg", 0.05, 2, "0,05"},
		{"en", 13.94, 1, "13.9"},
		{"ru", 2, 0, "2"},
		{"bg", -1.25, 1, "-1,2"},
		{"ru", 1.5, -1, "1,5"},
		{"ru-RU", 1.5, 1, "1,5"},
		{"de", 1.5, 1, "1.5"},
	} {
		if got := Decimal(tc.lang, tc.v, tc.digits); got != tc.want {
			t.Errorf("Decimal(%q, %v, %d) = %q, want %q", tc.lang, tc.v, tc.digits, got, tc.want)
		}
	}
	if got := New("bg").Decimal(3.14159, 2); got != "3,14" {
		t.Errorf("Printer.Decimal = %q, want 3,14", got)
	}
}

func TestScore(t *testing.T) {
	for _, tc := range []struct {
		lang string
		v    float64
		want string
	}{
		{"ru", 7.5, "7,5"},
		{"bg", 10, "10"},
		{"en", 7.25, "7.25"},
		{"ru", 0, "0"},
		{"bg", 100, "100"},
		{"en", 3.14159, "3.14"},
		{"ru", 2.999, "3"},
	} {
		if got := Score(tc.lang, tc.v); got != tc.want {
			t.Errorf("Score(%q, %v) = %q, want %q", tc.lang, tc.v, got, tc.want)
		}
	}
}

// TestIntAndSize: counts are grouped as each language groups thousands, and sizes read in the
// language's units, with the plural form the number takes.
func TestIntAndSize(t *testing.T) {
	for _, tc := range []struct {
		lang      string
		n         int64
		int, size string
	}{
		{"ru", 10000, "10\u00a0000", "10\u00a0000\u00a0байт"},
		{"bg", 10000, "10\u00a0000", "10\u00a0000\u00a0байта"},
		{"en", 10000, "10,000", "10,000 bytes"},
		{"ru", 20 << 20, "20\u00a0971\u00a0520", "20\u00a0МиБ"},
		{"bg", 20 << 20, "20\u00a0971\u00a0520", "20\u00a0МиБ"},
		{"en", 20 << 20, "20,971,520", "20 MiB"},
		{"ru", 512 << 10, "524\u00a0288", "512\u00a0КиБ"},
		{"ru", 1, "1", "1\u00a0байт"},
		{"ru", 3, "3", "3\u00a0байта"},
		{"ru", 21, "21", "21\u00a0байт"},
		{"bg", 1, "1", "1\u00a0байт"},
		{"en", 1, "1", "1 byte"},
		{"xx", 1500, "1,500", "1,500 bytes"},
	} {
		p := New(tc.lang)
		if got := p.Int(tc.n); got != tc.int {
			t.Errorf("Int(%q, %d) = %q, want %q", tc.lang, tc.n, got, tc.int)
		}
		if got := p.Size(tc.n); got != tc.size {
			t.Errorf("Size(%q, %d) = %q, want %q", tc.lang, tc.n, got, tc.size)
		}
	}
}
