package sonic

import (
	"regexp"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// show version prints the platform lines of show/main.py with the SKU's
// platform and hwsku, the ASIC type and the inventory's model.
func TestShowVersion(t *testing.T) {
	k := defaultKind
	d, err := k.newSpecDevice("leaf1", nil, device.Spec{Model: "SN3700"})
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession("admin", nil)
	out, _ := s.Handle("show version --brief")
	for _, want := range []string{
		`(?m)^SONiC Software Version: SONiC\.\S+$`,
		`(?m)^Platform: x86_64-mlnx_msn3700-r0$`,
		`(?m)^HwSKU: ACS-MSN3700$`,
		`(?m)^ASIC: mellanox$`,
		`(?m)^ASIC Count: 1$`,
		`(?m)^Model Number: SN3700$`,
		`(?m)^Uptime: \d\d:\d\d:\d\d up 0 min,  1 user,  load average: 0\.00, 0\.00, 0\.00$`,
		`(?m)^Date: \w{3} \d\d \w{3} \d{4} \d\d:\d\d:\d\d$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("show version: no line %s in:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`Docker images`).MatchString(out) {
		t.Errorf("--brief printed the docker images")
	}
}

// Pipes to grep and head filter the command's output; the pipeline's
// status is the last stage's.
func TestPipes(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	got := transcript(s,
		"show pfcwd config | grep Ethernet4",
		"echo $?",
		"pfc show priority | grep -c Ethernet",
		"show pfcwd config | grep -i nothing",
		"echo $?",
		"ecnconfig -l | head -n 3",
		"show pfcwd config | head -2",
		"show version | grep -E '^(HwSKU|ASIC):'",
		"show pfcwd config | sort",
		"echo $?",
	)
	want := `admin@sonic:~$ show pfcwd config | grep Ethernet4
Ethernet4      drop               200                 200    disable
admin@sonic:~$ echo $?
0
admin@sonic:~$ pfc show priority | grep -c Ethernet
2
admin@sonic:~$ show pfcwd config | grep -i nothing
admin@sonic:~$ echo $?
1
admin@sonic:~$ ecnconfig -l | head -n 3
Profile: ROCE_LOSSLESS
----------------------  ---------
ecn                     ecn_green
admin@sonic:~$ show pfcwd config | head -2
Changed polling interval to 200ms
     PORT    ACTION    DETECTION TIME    RESTORATION TIME    HISTORY
admin@sonic:~$ show version | grep -E '^(HwSKU|ASIC):'
HwSKU: Arista-7060CX-32S-C32
ASIC: broadcom
admin@sonic:~$ show pfcwd config | sort
-bash: sort: command not found
admin@sonic:~$ echo $?
127
`
	checkTranscript(t, want, got)
}
