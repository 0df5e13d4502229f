package sonic

import (
	"regexp"
	"strings"
)

// intRe is what python-tabulate takes for an integer cell.
var intRe = regexp.MustCompile(`^[-+]?[0-9]+$`)

// tabulate prints rows as python-tabulate's "simple" format does, the
// format sonic-utilities' scripts print with: columns two spaces apart,
// a column of integers aligned right (numalign) and any other aligned
// left unless alignRight (stralign="right"); with headers, each column is
// at least two wider than its header and a dashed line follows the
// header; without, a dashed line is printed above and below. Every line
// is right-trimmed, as tabulate does. [I: python-tabulate's simple
// format, checked against the outputs sonic-utilities' tests expect in
// tests/pfc_input/assert_show_output.py, tests/ecn_input/ecn_test_vectors.py
// and tests/pfcwd_input/pfcwd_test_vectors.py; float columns, which
// tabulate aligns on the decimal point, are not told apart here.]
func tabulate(rows [][]string, headers []string, alignRight bool) string {
	n := len(headers)
	for _, r := range rows {
		n = max(n, len(r))
	}
	width := make([]int, n)
	numeric := make([]bool, n)
	for c := range n {
		if c < len(headers) {
			width[c] = len(headers[c]) + 2
		}
		numeric[c] = len(rows) > 0
		for _, r := range rows {
			v := cell(r, c)
			width[c] = max(width[c], len(v))
			if v != "" && !intRe.MatchString(v) {
				numeric[c] = false
			}
		}
	}
	line := func(cells []string) string {
		out := make([]string, n)
		for c := range n {
			v := cell(cells, c)
			if numeric[c] || alignRight {
				out[c] = strings.Repeat(" ", width[c]-len(v)) + v
			} else {
				out[c] = v + strings.Repeat(" ", width[c]-len(v))
			}
		}
		return strings.TrimRight(strings.Join(out, "  "), " ") + "\n"
	}
	dashes := make([]string, n)
	for c := range n {
		dashes[c] = strings.Repeat("-", width[c])
	}
	rule := strings.Join(dashes, "  ") + "\n"
	var b strings.Builder
	if len(headers) > 0 {
		b.WriteString(line(headers))
		b.WriteString(rule)
	} else if len(rows) > 0 {
		b.WriteString(rule)
	}
	for _, r := range rows {
		b.WriteString(line(r))
	}
	if len(headers) == 0 && len(rows) > 0 {
		b.WriteString(rule)
	}
	return b.String()
}

func cell(r []string, c int) string {
	if c < len(r) {
		return r[c]
	}
	return ""
}
