//go:build !unix

package grade

// openFlags are added to every open of a file from a submission. Windows has no FIFOs in the file
// system and no O_NOFOLLOW: there the fstat after opening (and os.Root's refusal of links that lead
// out of the folder) is what keeps a submission to regular files of its own.
const openFlags = 0
