//go:build windows

package workspace

import "golang.org/x/sys/windows"

// osLocale is the first of the user's preferred display languages ("ru-RU", "bg-BG"): Windows
// keeps it in the user's settings, not in LANG, which a Windows terminal does not set.
func osLocale() string {
	langs, err := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	if err != nil || len(langs) == 0 {
		return ""
	}
	return langs[0]
}
