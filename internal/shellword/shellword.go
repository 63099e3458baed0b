// Package shellword writes words as a POSIX shell needs them typed, for the
// command lines and flag values that messages show.
package shellword

import (
	"strconv"
	"strings"
	"unicode"
)

// plain are the bytes a word may hold and still be typed bare.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-"

// Quote is w bare when a shell reads it as itself, else single-quoted (the
// empty word as two quotes). A word with characters that do not print is
// Go-quoted instead: a message shows it, it is not for pasting.
func Quote(w string) string {
	switch {
	case w != "" && strings.Trim(w, plain) == "":
		return w
	case strings.IndexFunc(w, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return strconv.Quote(w)
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// Join is the words quoted and joined by blanks.
func Join(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}
