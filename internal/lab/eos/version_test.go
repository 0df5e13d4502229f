package eos_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/eos"
)

// TestShowVersion: show version names the device's model and the lab's
// release in EOS's fields and order (doShowVersion's source), abbreviated
// too, from privileged exec and configuration mode.
func TestShowVersion(t *testing.T) {
	d, err := eos.New("leaf-1", nil, eos.WithModel("DCS-7060DX5-64S"))
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession("admin", nil)
	out, _ := s.Handle("show version")
	var fields []string
	for _, l := range strings.Split(out, "\n") {
		if k, _, ok := strings.Cut(l, ": "); ok {
			fields = append(fields, k)
		} else {
			fields = append(fields, l)
		}
	}
	want := "Arista DCS-7060DX5-64S|Hardware version|Serial number|Hardware MAC address|System MAC address||Software image version|Architecture|" +
		"Internal build version|Internal build ID|Image format version||Uptime|Total memory|Free memory|"
	if got := strings.Join(fields, "|"); got != want {
		t.Errorf("show version fields:\n%s\nwant:\n%s\n%s", got, want, out)
	}
	if !strings.Contains(out, "\nSoftware image version: 4.32.2F\n") {
		t.Errorf("no release:\n%s", out)
	}
	mustRun(t, s, "configure")
	if again, _ := s.Handle("sh ver"); again != out {
		t.Errorf("sh ver in configuration mode:\n%s", again)
	}
}
