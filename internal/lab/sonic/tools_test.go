package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The outputs below follow sonic-utilities @ 691b1bbc (scripts/ecnconfig,
// pfc/main.py, pfcwd/main.py) and the outputs its tests expect
// (tests/ecn_input/ecn_test_vectors.py, tests/pfc_input/assert_show_output.py,
// tests/pfcwd_input/pfcwd_test_vectors.py).

func TestEcnconfig(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	got := transcript(s,
		"ecnconfig -l",
		"ecnconfig -p ROCE_LOSSLESS -gmin 204800",
		"sudo ecnconfig -p ROCE_LOSSLESS -gmin 204800 -gdrop 7 -vv",
		"sudo ecnconfig -p ROCE_LOSSLESS -gmin 4000000",
		"sudo ecnconfig -p ROCE_LOSSLESS -gdrop 105",
		"sudo ecnconfig -p NOPE -gmin 1",
		"sudo ecnconfig -p ROCE_LOSSLESS",
		"ecnconfig -l -gmin 1",
		"ecnconfig -x",
	)
	want := `admin@sonic:~$ ecnconfig -l
Profile: ROCE_LOSSLESS
----------------------  ---------
ecn                     ecn_green
green_drop_probability  5
green_max_threshold     3072000
green_min_threshold     153600
wred_green_enable       true
----------------------  ---------

admin@sonic:~$ ecnconfig -p ROCE_LOSSLESS -gmin 204800
Root privileges required for this operation
admin@sonic:~$ sudo ecnconfig -p ROCE_LOSSLESS -gmin 204800 -gdrop 7 -vv
Setting green_min_threshold value to 204800
Setting green_drop_probability value to 7%
admin@sonic:~$ sudo ecnconfig -p ROCE_LOSSLESS -gmin 4000000
Invalid gmin (4000000) and gmax (3072000). gmin should be smaller than gmax
Exception caught:  Input arguments error. Invalid WRED profile parameters
admin@sonic:~$ sudo ecnconfig -p ROCE_LOSSLESS -gdrop 105
Invalid gdrop (105). gdrop should be an integer between 0 and 100.
Exception caught:  Input arguments error. Invalid WRED profile parameters
admin@sonic:~$ sudo ecnconfig -p NOPE -gmin 1
Exception caught:  Input arguments error. Invalid WRED profile NOPE for namespace None
admin@sonic:~$ sudo ecnconfig -p ROCE_LOSSLESS
Exception caught:  Input arguments error. Specify at least one threshold parameter to set
admin@sonic:~$ ecnconfig -l -gmin 1
Exception caught:  Input arguments error. No set options allowed when -l[ist] specified
admin@sonic:~$ ecnconfig -x
Usage: ecnconfig [OPTIONS] [[on|off]]
Try 'ecnconfig --help' for help.

Error: No such option: -x
`
	checkTranscript(t, want, got)
	w := d.DB()["WRED_PROFILE"]["ROCE_LOSSLESS"]
	if w["green_min_threshold"] != "204800" || w["green_drop_probability"] != "7" || w["green_max_threshold"] != "3072000" {
		t.Errorf("WRED_PROFILE|ROCE_LOSSLESS = %v", w)
	}
}

// ecnconfig -q points the DEVICE_NEIGHBOR ports' queues at AZURE_LOSSLESS
// whatever they pointed at, and off removes the field.
func TestEcnconfigQueues(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	d.db["DEVICE_NEIGHBOR"] = map[string]map[string]string{"Ethernet4": {"name": "s2"}, "Ethernet0": {"name": "s1"}}
	s := d.NewSession("admin", nil)
	got := transcript(s, "ecnconfig -q 3", "sudo ecnconfig -q 3,4 on -vv", "ecnconfig -q 3", "sudo ecnconfig -q 4 off")
	want := `admin@sonic:~$ ecnconfig -q 3
ECN status:
queue 3: off
admin@sonic:~$ sudo ecnconfig -q 3,4 on -vv
Enable ECN on Ethernet0,Ethernet4 queue 3
Enable ECN on Ethernet0,Ethernet4 queue 4
admin@sonic:~$ ecnconfig -q 3
ECN status:
queue 3: on
admin@sonic:~$ sudo ecnconfig -q 4 off
`
	checkTranscript(t, want, got)
	q := d.DB()["QUEUE"]
	if q["Ethernet0|3"]["wred_profile"] != ecnOn || q["Ethernet0|3"]["scheduler"] == "" {
		t.Errorf("QUEUE|Ethernet0|3 = %v", q["Ethernet0|3"])
	}
	if _, ok := q["Ethernet4|4"]; ok {
		t.Errorf("QUEUE|Ethernet4|4 = %v, want gone", q["Ethernet4|4"])
	}
}

func TestPfcPriority(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	got := transcript(s,
		"pfc show priority",
		"pfc config priority on Ethernet0 4",
		"pfc config priority on Ethernet0 4",
		"pfc config priority off Ethernet4 4",
		"pfc config priority on Ethernet8 4",
		"pfc config priority on Ethernet0 9",
		"show pfc priority Ethernet0",
		"show pfc priority Ethernet1234",
	)
	want := `admin@sonic:~$ pfc show priority

Interface    Lossless priorities
-----------  ---------------------
Ethernet0    3
Ethernet4    3
global       N/A

admin@sonic:~$ pfc config priority on Ethernet0 4
admin@sonic:~$ pfc config priority on Ethernet0 4
Priority 4 has already been enabled on Ethernet0
admin@sonic:~$ pfc config priority off Ethernet4 4
Priority 4 is not enabled on Ethernet4
admin@sonic:~$ pfc config priority on Ethernet8 4
Cannot find interface Ethernet8
admin@sonic:~$ pfc config priority on Ethernet0 9
Usage: pfc config priority [OPTIONS] {on|off} INTERFACE {0|1|2|3|4|5|6|7}
Try 'pfc config priority --help' for help.

Error: Invalid value for '{0|1|2|3|4|5|6|7}': '9' is not one of '0', '1', '2', '3', '4', '5', '6', '7'.
admin@sonic:~$ show pfc priority Ethernet0

Interface    Lossless priorities
-----------  ---------------------
Ethernet0    3,4

admin@sonic:~$ show pfc priority Ethernet1234
Cannot find interface Ethernet1234
`
	checkTranscript(t, want, got)
	if v := d.DB()["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"]; v != "3,4" {
		t.Errorf("pfc_enable = %q, want 3,4", v)
	}
}

func TestPfcwd(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	got := transcript(s,
		"show pfcwd config",
		"pfcwd stop Ethernet4",
		"sudo pfcwd stop Ethernet4",
		"sudo pfcwd start --action forward Ethernet0 400",
		"sudo pfcwd start Ethernet8 400",
		"sudo pfcwd start all 50",
		"sudo pfcwd interval 500",
		"sudo pfcwd interval 300",
		"pfcwd show config",
	)
	want := `admin@sonic:~$ show pfcwd config
Changed polling interval to 200ms
     PORT    ACTION    DETECTION TIME    RESTORATION TIME    HISTORY
---------  --------  ----------------  ------------------  ---------
Ethernet0      drop               200                 200    disable
Ethernet4      drop               200                 200    disable
admin@sonic:~$ pfcwd stop Ethernet4
Root privileges are required for this operation
admin@sonic:~$ sudo pfcwd stop Ethernet4
admin@sonic:~$ sudo pfcwd start --action forward Ethernet0 400
restoration time not defined; default to 2 times detection time: 800 ms
admin@sonic:~$ sudo pfcwd start Ethernet8 400
Failed to run command, invalid options:
Ethernet8
admin@sonic:~$ sudo pfcwd start all 50
Usage: pfcwd start [OPTIONS] [PORTS]... DETECTION_TIME
Try 'pfcwd start --help' for help.

Error: Invalid value for 'DETECTION_TIME': 50 is not in the range 100<=x<=5000.
admin@sonic:~$ sudo pfcwd interval 500
unable to use polling interval = 500ms, value is bigger than one of the configured detection time values, please choose a smaller polling_interval
admin@sonic:~$ sudo pfcwd interval 300
admin@sonic:~$ pfcwd show config
Changed polling interval to 300ms
     PORT    ACTION    DETECTION TIME    RESTORATION TIME    HISTORY
---------  --------  ----------------  ------------------  ---------
Ethernet0   forward               400                 800    disable
`
	checkTranscript(t, want, got)
	wd := d.DB()["PFC_WD"]
	if _, ok := wd["Ethernet4"]; ok {
		t.Errorf("PFC_WD|Ethernet4 = %v, want gone", wd["Ethernet4"])
	}
	want0 := map[string]string{"action": "forward", "detection_time": "400", "restoration_time": "800", "pfc_stat_history": "disable"}
	if diff := cmp.Diff(want0, wd["Ethernet0"]); diff != "" {
		t.Errorf("PFC_WD|Ethernet0 (-want +got):\n%s", diff)
	}
}

// pfcwd start skips a port without pfc_enable, with the tool's warning.
func TestPfcwdStartSkipsPortWithoutPFC(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	delete(d.db["PORT_QOS_MAP"]["Ethernet4"], "pfc_enable")
	s := d.NewSession("admin", nil)
	got := transcript(s, "sudo pfcwd start -r 300 all 300")
	want := "admin@sonic:~$ sudo pfcwd start -r 300 all 300\nSKIPPED: PFC is not enabled on port: Ethernet4\n"
	checkTranscript(t, want, got)
	if e := d.DB()["PFC_WD"]["Ethernet0"]; e["restoration_time"] != "300" || e["detection_time"] != "300" {
		t.Errorf("PFC_WD|Ethernet0 = %v", e)
	}
}

func TestTabulateEmptyHeaders(t *testing.T) {
	// tests/pfc_input/assert_show_output.py pfc_asym_cannot_find_intf
	want := "Interface    Asymmetric\n-----------  ------------\n"
	if got := tabulate(nil, []string{"Interface", "Asymmetric"}, false); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A column of integers is aligned right, header and all (tabulate's
	// numalign); one string in it makes it a string column, as "N/A" does
	// in TestPfcPriority.
	want = "Interface      Lossless priorities\n-----------  ---------------------\nEthernet0                        3\n"
	if got := tabulate([][]string{{"Ethernet0", "3"}}, []string{"Interface", "Lossless priorities"}, false); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The `config` wrappers of config/main.py run the same tools.
func TestConfigWrappers(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	got := transcript(s,
		"config ecn -profile ROCE_LOSSLESS -gmin 204800",
		"sudo config ecn -profile ROCE_LOSSLESS -gmin 0204800 -gdrop 9 -v",
		"sudo config ecn -profile ROCE_LOSSLESS -gdrop 105",
		"sudo config interface pfc priority Ethernet4 4 on",
		"sudo config pfcwd start --action alert Ethernet0 300 -r 600",
		"sudo config pfcwd interval 150",
		"sudo config pfcwd stop",
		"show pfcwd config",
	)
	want := `admin@sonic:~$ config ecn -profile ROCE_LOSSLESS -gmin 204800
Root privileges are required for this operation
admin@sonic:~$ sudo config ecn -profile ROCE_LOSSLESS -gmin 0204800 -gdrop 9 -v
Running command: ecnconfig -p ROCE_LOSSLESS -gmin 204800 -gdrop 9 -vv
Setting green_min_threshold value to 204800
Setting green_drop_probability value to 9%
admin@sonic:~$ sudo config ecn -profile ROCE_LOSSLESS -gdrop 105
Usage: config ecn [OPTIONS]
Try 'config ecn -h' for help.

Error: Invalid value for '-gdrop': 105 is not in the range 0<=x<=100.
admin@sonic:~$ sudo config interface pfc priority Ethernet4 4 on
admin@sonic:~$ sudo config pfcwd start --action alert Ethernet0 300 -r 600
admin@sonic:~$ sudo config pfcwd interval 150
admin@sonic:~$ sudo config pfcwd stop
admin@sonic:~$ show pfcwd config
  PORT    ACTION    DETECTION TIME    RESTORATION TIME    HISTORY
------  --------  ----------------  ------------------  ---------
`
	checkTranscript(t, want, got)
	db := d.DB()
	if v := db["PORT_QOS_MAP"]["Ethernet4"]["pfc_enable"]; v != "3,4" {
		t.Errorf("pfc_enable = %q, want 3,4", v)
	}
	if v := db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]; v != "150" {
		t.Errorf("POLL_INTERVAL = %q, want 150", v)
	}
	if v := db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"]; v != "9" {
		t.Errorf("green_drop_probability = %q, want 9", v)
	}
}

// FuzzTools types arbitrary lines to the tools and the pipes: no panic.
func FuzzTools(f *testing.F) {
	for _, l := range []string{
		"sudo ecnconfig -p ROCE_LOSSLESS -gmin 1 -gmax 2 -vv",
		"ecnconfig -q 3 on",
		"pfc config priority on Ethernet0 4",
		"sudo pfcwd start -a drop -r 300 all 200",
		"sudo config ecn -profile ROCE_LOSSLESS -rdrop 5",
		"sudo config interface pfc priority Ethernet0 4 off",
		"show pfcwd config | grep -v Eth | head -n 1",
		"show version | head -",
		"| grep",
	} {
		f.Add(l)
	}
	seed := readFileF(f, "testdata/config_db.json")
	f.Fuzz(func(t *testing.T, line string) {
		d := newTestDevice(t, seed)
		d.NewSession("admin", nil).Handle(line)
	})
}
