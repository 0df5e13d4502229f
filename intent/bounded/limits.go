// Package bounded reads, parses and evaluates the HCL of lossless' input
// files (the intent, its variable files and -var values, the inventory)
// within fixed limits, so that no input can crash lossless or make it
// spend memory out of proportion to what it reads. Every limit gives an
// hcl.Diagnostic with a rule ID (LL090–LL093, listed below and in the
// intent's rule table) and the range of the text at fault; nothing is
// refused by a panic or a stack overflow.
//
//   - A file is at most MaxFileSize bytes, and so are all the files of one
//     load together (LL090). ReadFile checks the size before it reads.
//   - Brackets, braces, blocks, strings, template interpolations and
//     directives nest at most MaxNesting levels deep, operator chains
//     included (LL091). hclsyntax parses and evaluates recursively, about
//     13 KB of stack per bracket level, and a Go stack overflow cannot be
//     recovered: the depth is measured on the bytes, before the lexer or
//     the parser see them (scan.go). Evaluated values nest at most
//     MaxNesting levels too, as locals can nest them one level each.
//   - A list, object, block body, argument list or file holds at most
//     MaxElements items, counted on the bytes as well, and an evaluated
//     value at most MaxElements values and MaxValueBytes bytes of strings,
//     counted as a tree: a value shared by two elements counts twice
//     (LL092). Functions whose result can outgrow their arguments (range,
//     setproduct, format, split, …) are checked before they run. A number
//     is at most about 1e±331, in the source and in a value (LL092): cty
//     holds any number exactly, and writing out one of a hundred million
//     digits, as a template or a conversion to string does, takes minutes.
//   - One load reads at most MaxItems items in all its files, and builds
//     at most MaxBuilt values and MaxBuiltBytes bytes of strings by
//     evaluating them (LL093): every function result, every element a for
//     expression builds and every interpolation a template appends. This
//     bounds what nested for expressions or templates could build from
//     small parts.
//
// The memory all this bounds is hclsyntax's: its lexer keeps every token
// of the text it parses (about 100 bytes each) until the parse ends, so
// Parse cuts a file between top-level blocks and parses each piece alone
// (split.go), and the values above are cty's.
package bounded

import (
	"github.com/lossless-net/lossless/internal/diag"
)

// The limits. They are far above what any intent or inventory needs: a
// 10,000-device fabric's inventory is about 3 MB and nests 3 levels.
const (
	// MaxFileSize is the largest file, in bytes; all the files of one
	// load together are at most this large too.
	MaxFileSize = 16 << 20
	// MaxNesting is the deepest nesting of the source and of a value.
	MaxNesting = 128
	// MaxElements is the most items of one list, object, block body,
	// argument list or file, and the most values in one evaluated value.
	MaxElements = 100_000
	// MaxValueBytes is the most bytes of strings in one evaluated value;
	// a number counts as many bytes as it has digits.
	MaxValueBytes = MaxFileSize
	// MaxItems is the most items (values, attributes, blocks) the files
	// of one load hold together.
	MaxItems = 1_000_000
	// MaxBuilt is the most values one load builds by evaluating them.
	MaxBuilt = 250_000
	// MaxBuiltBytes is the most bytes of strings one load builds.
	MaxBuiltBytes = 4 * MaxFileSize
)

// Rule IDs of the limits. They belong to the intent's table (LL0xx)
// though the inventory's files are held to them too.
const (
	RuleFileSize diag.Rule = "LL090" // a file, or the files of one load together, larger than MaxFileSize
	RuleNesting  diag.Rule = "LL091" // source or a value nested deeper than MaxNesting
	RuleElements diag.Rule = "LL092" // a collection, body or value with more than MaxElements items, or strings over MaxValueBytes
	RuleBudget   diag.Rule = "LL093" // a load that reads more than MaxItems items, or builds more than MaxBuilt values or MaxBuiltBytes bytes
)
