package inventory

import (
	"slices"
	"strconv"
	"strings"
)

// CompactPorts writes names as one port pattern that ExpandPorts turns
// back into the same names in natural order (ComparePorts): runs of
// three or more names that differ only in their last number by one step
// become a range ("Ethernet1/1-32", SONiC's "Ethernet0-124 step 4"), the
// others are listed; items are joined by commas. Repeats are dropped. It
// returns "" for no names.
func CompactPorts(names []string) string {
	ns := slices.Clone(names)
	slices.SortFunc(ns, ComparePorts)
	ns = slices.Compact(ns)
	var items []string
	for i := 0; i < len(ns); {
		head, n, ok := lastNumber(ns[i])
		j, step := i+1, 0
		if ok && i+1 < len(ns) {
			if h2, n2, ok2 := lastNumber(ns[i+1]); ok2 && h2 == head && n2 > n {
				step = n2 - n
				j = i + 2
				for j < len(ns) {
					h, m, ok := lastNumber(ns[j])
					if !ok || h != head || m != n+step*(j-i) {
						break
					}
					j++
				}
			}
		}
		if j-i < 3 {
			items = append(items, ns[i])
			i++
			continue
		}
		hi := n + step*(j-i-1)
		item := head + strconv.Itoa(n) + "-" + strconv.Itoa(hi)
		if step != 1 {
			item += " step " + strconv.Itoa(step)
		}
		items = append(items, item)
		i = j
	}
	return strings.Join(items, ",")
}

// lastNumber splits a port name into everything before its last number
// and that number, when the name ends in digits with no leading zero and
// the part before them has no range or step syntax of its own.
func lastNumber(name string) (head string, n int, ok bool) {
	cut := len(name)
	for cut > 0 && isDigit(name[cut-1]) {
		cut--
	}
	digits := name[cut:]
	if digits == "" || len(digits) > 6 || (len(digits) > 1 && digits[0] == '0') || cut == 0 {
		return "", 0, false
	}
	head = name[:cut]
	if strings.ContainsAny(head, " ,-") {
		return "", 0, false
	}
	n, err := strconv.Atoi(digits)
	return head, n, err == nil
}
