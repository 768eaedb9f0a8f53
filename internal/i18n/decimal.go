package i18n

import (
	"strconv"
	"strings"
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
