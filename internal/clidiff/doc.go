// Package clidiff is the diff engine of the drivers whose config is CLI
// text in indented modes. It owns the tree of canonical config lines
// ([Node]: read from a running-config text with [Read], copied from a
// rendering with [Canonical]), the walk that compares two trees mode by
// mode ([Differ.Diff]), the change recorder that keeps each command with
// its phase, group and step, the ordering of those commands, their
// emission as the lines typed in config mode, entering and leaving modes
// ([Differ.Commands]), and the trees the human diff prints ([Differ.Only],
// [Ordered], [Print]).
//
// It knows no vendor and no command. A vendor package supplies its facts:
// how it splits a text into lines and depths (a [Scanner]), how a line is
// canonicalised and keyed (a [LineFunc]), and, as [Rules], the phase of a
// top-level line, which lines open a mode, and the commands that set,
// remove or drop a line; optional abilities ([Creator], [Enterer],
// [Disrupter], [Implier]) are found by type assertion. A [Dialect] says
// how modes are left and how commands are grouped. Scope, hidden defaults
// and the vendor's own text form stay in the vendor package.
package clidiff
