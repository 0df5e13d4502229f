package units

import (
	"errors"
	"testing"
	"time"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in      string
		want    Bytes
		wantErr string
		noUnit  bool
	}{
		{in: "150KB", want: 153600},
		{in: "3000KB", want: 3072000},
		{in: "4MB", want: 4 * 1024 * 1024},
		{in: "1.5KB", want: 1536},
		{in: "9216B", want: 9216},
		{in: "9216 B", want: 9216},
		{in: "2kb", want: 2048},
		{in: "0B", want: 0},
		{in: "150", noUnit: true, wantErr: `size "150": missing unit: write it as 150B, 150KB or 150MB`},
		{in: "1.1B", wantErr: `size "1.1B": not a whole number of the base unit`},
		{in: "10kbit", wantErr: `size "10kbit": unknown unit "kbit": use B, KB (1024 B), MB or cells`},
		{in: "KB", wantErr: `"KB" is not a number with a unit`},
		{in: "-1KB", wantErr: `"-1KB" is not a number with a unit`},
		{in: "1..2KB", wantErr: `"1..2KB" is not a number with a unit`},
		{in: "99999999999999999999GB", wantErr: `size "99999999999999999999GB": too large`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBytes(tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("ParseBytes(%q) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				if tt.noUnit != errors.Is(err, ErrNoUnit) {
					t.Errorf("errors.Is(err, ErrNoUnit) = %v, want %v", !tt.noUnit, tt.noUnit)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseBytesOrCells(t *testing.T) {
	got, err := ParseBytesOrCells("480cells", 320)
	if err != nil || got != 153600 {
		t.Fatalf("480cells at 320 B = %d, %v; want 153600", got, err)
	}
	if _, err := ParseBytesOrCells("480cells", 0); err == nil {
		t.Fatal("cells without a cell size: want an error")
	}
	if got, err := ParseBytesOrCells("150KB", 0); err != nil || got != 153600 {
		t.Fatalf("150KB = %d, %v", got, err)
	}
}

func TestParseOthers(t *testing.T) {
	if r, err := ParseBitRate("400G"); err != nil || r != 400*Gbps {
		t.Errorf("400G = %v, %v", r, err)
	}
	if r, err := ParseBitRate("25Gbps"); err != nil || r != 25*Gbps {
		t.Errorf("25Gbps = %v, %v", r, err)
	}
	if _, err := ParseBitRate("100"); !errors.Is(err, ErrNoUnit) {
		t.Errorf("100: err = %v, want ErrNoUnit", err)
	}
	if l, err := ParseLength("2.5m"); err != nil || l != 2500 {
		t.Errorf("2.5m = %v, %v", l, err)
	}
	if _, err := ParseLength("5"); !errors.Is(err, ErrNoUnit) {
		t.Errorf("5: err = %v, want ErrNoUnit", err)
	}
	if d, err := ParseDuration("20us"); err != nil || d != 20*time.Microsecond {
		t.Errorf("20us = %v, %v", d, err)
	}
	if d, err := ParseDuration("0.2s"); err != nil || d != 200*time.Millisecond {
		t.Errorf("0.2s = %v, %v", d, err)
	}
	if _, err := ParseDuration("200"); !errors.Is(err, ErrNoUnit) {
		t.Errorf("200: err = %v, want ErrNoUnit", err)
	}
	if p, err := ParsePercent("50%"); err != nil || p != 50 {
		t.Errorf("50%% = %v, %v", p, err)
	}
	if _, err := ParsePercent("50"); !errors.Is(err, ErrNoUnit) {
		t.Errorf("50: err = %v, want ErrNoUnit", err)
	}
}

func TestConversions(t *testing.T) {
	// 100G for 1 µs carries 12,500 bytes.
	if got := (100 * Gbps).BytesIn(time.Microsecond); got != 12500 {
		t.Errorf("100G × 1us = %d, want 12500", got)
	}
	// 25G for 1 ns is 3.125 bytes: rounded up.
	if got := (25 * Gbps).BytesIn(time.Nanosecond); got != 4 {
		t.Errorf("25G × 1ns = %d, want 4", got)
	}
	if _, err := Bytes(1000).Cells(208); err == nil {
		t.Error("1000 B in 208 B cells: want an error, not silent rounding")
	}
	if n, err := Bytes(1040).Cells(208); err != nil || n != 5 {
		t.Errorf("1040/208 = %d, %v", n, err)
	}
	if got := Bytes(1000).Ceil(208); got != 1040 {
		t.Errorf("Ceil(1000, 208) = %d, want 1040", got)
	}
	for b, want := range map[Bytes]string{153600: "150KB", 4 * MB: "4MB", 1518: "1518B", 0: "0B"} {
		if b.String() != want {
			t.Errorf("%d.String() = %q, want %q", int64(b), b.String(), want)
		}
	}
	if s := Length(2500).String(); s != "2.5m" {
		t.Errorf("Length(2500) = %q", s)
	}
	if s := (100 * Gbps).String(); s != "100G" {
		t.Errorf("100G prints %q", s)
	}
}

// FuzzParseSize checks that no input makes the size parser panic and that
// every accepted size round-trips through String.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"150KB", "3000KB", "1.5MB", "9216B", "480cells", "150", "", "1e3KB", "0.0001KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBytesOrCells(s, 208)
		if err != nil {
			return
		}
		if b < 0 {
			t.Fatalf("%q parsed to negative %d", s, b)
		}
		back, err := ParseBytes(b.String())
		if err != nil || back != b {
			t.Fatalf("%q → %d → %q → %d, %v", s, b, b.String(), back, err)
		}
	})
}
