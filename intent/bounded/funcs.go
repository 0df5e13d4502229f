package bounded

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/lossless-net/lossless/internal/diag"
)

// rangeMax is the most values go-cty's range gives (stdlib.RangeFunc
// refuses more with an error of its own).
const rangeMax = 1024

// Functions returns fns with every function held to the limits: its
// arguments together are at most one value's worth (MaxElements values,
// MaxValueBytes bytes, MaxNesting levels); a function whose result can
// outgrow its arguments (range, setproduct, format, formatlist, indent,
// join, replace, split, regexall, jsondecode) is refused before it runs
// when the result it would give is over those limits; and its result is
// checked and charged to b. fns is keyed by the names the intent calls
// the functions by (Terraform's).
func (b *Budget) Functions(fns map[string]function.Function) map[string]function.Function {
	out := make(map[string]function.Function, len(fns))
	for name, f := range fns {
		out[name] = b.wrap(name, f)
	}
	return out
}

func (b *Budget) wrap(name string, f function.Function) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type:        f.ReturnTypeForValues,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if b.spent {
				return cty.UnknownVal(retType), nil
			}
			if err := precheck(name, args); err != nil {
				return cty.UnknownVal(retType), err
			}
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			s := measure(v)
			if d := checkSize(s, hcl.Range{}, "Its result"); d != nil {
				return cty.UnknownVal(retType), &limitError{rule: d.Extra.(diag.Rule), summary: d.Summary, detail: d.Detail}
			}
			if ok, d := b.charge(s.values, s.bytes, hcl.Range{}); !ok {
				if d == nil {
					return cty.UnknownVal(retType), nil
				}
				return cty.UnknownVal(retType), &limitError{rule: RuleBudget, summary: d.Summary, detail: d.Detail}
			}
			return v, nil
		},
	})
}

// precheck refuses a call whose arguments, or the result they would give,
// are over the limits of one value.
func precheck(name string, args []cty.Value) error {
	var total size
	for _, a := range args {
		s := measure(a)
		total.values += s.values
		total.bytes += s.bytes
		total.depth = max(total.depth, s.depth)
	}
	if d := checkSize(total, hcl.Range{}, "Its arguments together"); d != nil {
		return &limitError{rule: d.Extra.(diag.Rule), summary: "Function arguments too large", detail: d.Detail}
	}
	for _, a := range args {
		if !a.IsWhollyKnown() || a.IsNull() {
			return nil // the function gives an unknown result or its own error
		}
	}
	values, bytes := 0, 0
	switch name {
	case "range":
		if n := rangeCount(args); n > rangeMax {
			return &limitError{rule: RuleElements, summary: "Value too large",
				detail: fmt.Sprintf("range would give %.0f values; it gives at most %d.", n, rangeMax)}
		}
	case "setproduct":
		n := 1.0
		for _, a := range args {
			if a.CanIterateElements() {
				n *= float64(a.LengthInt())
			}
		}
		values = int(min(n, MaxElements+1))
	case "format":
		bytes = total.bytes + formatWidths(args[0].AsString())
	case "formatlist":
		rows, scalars := 1, 0
		for _, a := range args[1:] {
			if a.Type().IsListType() || a.Type().IsTupleType() {
				rows = max(rows, a.LengthInt())
			} else {
				scalars += measure(a).bytes
			}
		}
		values = rows
		bytes = total.bytes + rows*(len(args[0].AsString())+formatWidths(args[0].AsString())+scalars)
	case "indent":
		spaces, _ := args[0].AsBigFloat().Float64()
		bytes = int(min(spaces*float64(strings.Count(args[1].AsString(), "\n")), MaxValueBytes+1)) + total.bytes
	case "join":
		bytes = total.bytes + len(args[0].AsString())*total.values
	case "replace":
		str, sub, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		n := utf8.RuneCountInString(str) + 1
		if sub != "" {
			n = strings.Count(str, sub)
		}
		bytes = len(str) + n*len(repl)
	case "split":
		sep, str := args[0].AsString(), args[1].AsString()
		values = utf8.RuneCountInString(str)
		if sep != "" {
			values = strings.Count(str, sep) + 1
		}
	case "regexall":
		if re, err := regexp.Compile(args[0].AsString()); err == nil {
			values = len(re.FindAllStringIndex(args[1].AsString(), MaxElements+1)) * (1 + re.NumSubexp())
		}
	case "jsondecode":
		if d, _ := scanJSON([]byte(args[0].AsString()), "jsondecode"); d != nil {
			return &limitError{rule: d.Extra.(diag.Rule), summary: d.Summary, detail: "the JSON text: " + d.Detail}
		}
	}
	if d := checkSize(size{values: values, bytes: bytes}, hcl.Range{}, "Its result would be a value that"); d != nil {
		return &limitError{rule: d.Extra.(diag.Rule), summary: d.Summary, detail: d.Detail}
	}
	return nil
}

// rangeCount is the number of values range(args...) gives, as
// stdlib.RangeFunc reads its one to three arguments.
func rangeCount(args []cty.Value) float64 {
	f := func(v cty.Value) float64 { x, _ := v.AsBigFloat().Float64(); return x }
	var start, end, step float64
	switch len(args) {
	case 1:
		end, step = f(args[0]), 1
	case 2:
		start, end, step = f(args[0]), f(args[1]), 1
	case 3:
		start, end, step = f(args[0]), f(args[1]), f(args[2])
	default:
		return 0
	}
	if len(args) < 3 && end < start {
		step = -1
	}
	n := math.Ceil((end - start) / step)
	if math.IsNaN(n) || n < 0 {
		return 0
	}
	return n
}

// formatWidths adds up the widths and precisions of the verbs of a
// format string ("%10d", "%.3f"): the padding format may add beyond its
// arguments' own text.
func formatWidths(s string) int {
	total := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		n := 0
		for i++; i < len(s) && strings.IndexByte("+-# 0[]123456789.", s[i]) >= 0; i++ {
			if c := s[i]; c >= '0' && c <= '9' {
				n = min(n*10+int(c-'0'), MaxValueBytes+1)
			} else {
				total, n = min(total+n, MaxValueBytes+1), 0
			}
		}
		total = min(total+n, MaxValueBytes+1)
	}
	return total
}
