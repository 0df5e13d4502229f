package eos

import "github.com/lossless-net/lossless/internal/textdiff"

// unifiedDiff is a line diff of a and b in unified format with 3 lines of
// context, headed by the two names; it is empty when a equals b (eos.md
// §1c: show session-config diffs prints nothing without a change, and its
// headers are "--- system:/running-config" and
// "+++ session:/NAME-session-config" [T:53bits, T:ngworx]). The hunks are
// diff -u's (a one-line range prints without ",1") [I: the reference shows
// no hunk header]. textdiff is linear in space, so a whole real config
// diffs in bounded memory where a table of every line pair did not.
func unifiedDiff(nameA, nameB, a, b string) string {
	return textdiff.Unified(nameA, nameB, a, b)
}
