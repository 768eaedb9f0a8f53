//go:build !unix

package grade

import "os"

// openFlags are added to every open of a file from a submission. Windows has no FIFOs in the file
// system and no O_NOFOLLOW: there the fstat after opening (and os.Root's refusal of links that lead
// out of the folder) is what keeps a submission to regular files of its own.
const openFlags = 0

// hardLinked reports a regular file with more than one name; Windows' FileInfo does not say, and
// hard links there need the user's own rights to make.
func hardLinked(os.FileInfo) bool { return false }
