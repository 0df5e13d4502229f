// Package units holds the typed quantities lossless works in — sizes, bit
// rates, lengths and percentages — and parses the unit-suffixed strings an
// intent writes ("150KB", "100G", "5m", "20us", "50%").
//
// Every quantity is parsed once, here, into a base unit (bytes, bits per
// second, millimetres, whole percent, time.Duration); no plain int elsewhere
// leaves open which unit it holds. Conversions that would lose precision
// fail or report the rounding instead of rounding silently.
package units
