package i18n

import (
	"strconv"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Decimal writes v with the given number of digits after the separator, which is the language's:
// a comma in Russian and Bulgarian ("13,9"), a point in English ("13.9"). A negative digits gives
// as many as v needs.
func Decimal(lang string, v float64, digits int) string {
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if DecimalSeparator(lang) == "," {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Score writes a score with at most two decimals, dropping trailing zeros, with the language's
// separator: "7,5" and "10" in Russian and Bulgarian, "7.5" in English.
func Score(lang string, v float64) string {
	return strings.TrimSuffix(strings.TrimRight(Decimal(lang, v, 2), "0"), DecimalSeparator(lang))
}

// DecimalSeparator is the decimal separator of lang: "," for Russian and Bulgarian, "." otherwise.
func DecimalSeparator(lang string) string {
	switch base, _, _ := strings.Cut(strings.ToLower(lang), "-"); base {
	case "ru", "bg":
		return ","
	}
	return "."
}

// Decimal writes v as Decimal does, in the printer's language.
func (p *Printer) Decimal(v float64, digits int) string { return Decimal(p.lang, v, digits) }

// Int writes n with the language's grouping of thousands, as CLDR gives it (golang.org/x/text):
// "10 000" in Russian and Bulgarian, with a no-break space, and "10,000" in English.
func Int(lang string, n int64) string {
	tag, err := language.Parse(lang)
	if err != nil {
		tag = language.English
	}
	return message.NewPrinter(tag).Sprintf("%d", n)
}

// Int writes n as Int does, in the printer's language.
func (p *Printer) Int(n int64) string { return Int(p.lang, n) }

// Size writes a number of bytes as a reader would: in whole mebibytes or kibibytes when it is one
// ("20 МиБ", "512 KiB"), in bytes otherwise ("1 500 байт"), with the language's unit and grouping.
func (p *Printer) Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return p.T("size_mib", "N", p.Int(n>>20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return p.T("size_kib", "N", p.Int(n>>10))
	}
	count := int(min(n, 1<<30)) // the plural form; far past where the forms repeat
	return p.N("size_bytes", count, "N", p.Int(n))
}
