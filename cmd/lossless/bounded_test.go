package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
)

// The inputs of issue 12's "bounded input": each must give a diagnostic
// with its rule and position, never a crash.

// deepList is a locals block holding a list nested n levels deep.
func deepList(n int) string {
	return "locals {\n  x = " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "\n}\n"
}

// bigIntent is about size bytes of QoS profiles, each valid.
func bigIntent(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "qos_profile \"p%d\" {\n  traffic_class \"bulk\" {\n    id   = 0\n    dscp = \"default\"\n  }\n  traffic_class \"rdma\" {\n    id       = 3\n    dscp     = [24, 26]\n    lossless = true\n  }\n}\n\n", i)
	}
	return b.String()
}

// longList is a locals block holding a list of n numbers, one a line.
func longList(n int) string {
	var b strings.Builder
	b.WriteString("locals {\n  x = [\n")
	for i := range n {
		fmt.Fprintf(&b, "    %d,\n", i)
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

// validateJSON runs validate -json on dir and returns the exit code and
// the diagnostics.
func validateJSON(t *testing.T, dir string) (int, []diag.JSONDiagnostic) {
	t.Helper()
	code, out, _ := runCmd(t, "validate", "-json", dir)
	var doc diag.JSONDocument
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("validate -json: %v\n%.500s", err, out)
	}
	return code, doc.Diagnostics
}

// wantOne checks that validate fails on dir with exactly one diagnostic,
// of rule, in file at line, both in the text (with its snippet) and in
// -json; it returns the text.
func wantOne(t *testing.T, dir, file, rule string, line int) string {
	t.Helper()
	code, ds := validateJSON(t, dir)
	if code != 1 || len(ds) != 1 {
		t.Fatalf("exit %d, diagnostics %+v", code, ds)
	}
	d := ds[0]
	if d.Rule != rule || d.Range == nil || filepath.Base(d.Range.Filename) != file || d.Range.Start.Line != line {
		t.Fatalf("diagnostic %+v %+v, want %s at %s:%d", d, d.Range, rule, file, line)
	}
	code, _, text := runCmd(t, "validate", dir)
	where := fmt.Sprintf("%s:%d:%d", filepath.Join(dir, file), line, d.Range.Start.Column)
	if code != 1 || !strings.Contains(text, "Error ["+rule+"]: "+d.Summary) || !strings.Contains(text, "  on "+where) {
		t.Fatalf("exit %d, text does not show %s at %s:\n%.2000s", code, rule, where, text)
	}
	return text
}

// TestBoundedDeepNesting checks the value issue 12 found crashing the
// process with a Go stack overflow, 100,000 levels deep, in the intent,
// the inventory and a -var: refused before hclsyntax parses it, with a
// snippet cut to a readable line.
func TestBoundedDeepNesting(t *testing.T) {
	dir := writeFabric(t, map[string]string{"deep.hcl": deepList(100_000)})
	text := wantOne(t, dir, "deep.hcl", "LL091", 2)
	if !strings.Contains(text, "   2: …[[[[") || len(text) > 2000 {
		t.Errorf("snippet not cut:\n%.3000s", text)
	}

	inv := strings.Replace(testInventory, `address  = "192.0.2.2"`, `address  = "192.0.2.2"`+"\n  roles    = "+strings.Repeat("[", 100_000)+`"leaf"`+strings.Repeat("]", 100_000), 1)
	wantOne(t, writeFabric(t, map[string]string{"inventory.hcl": inv}), "inventory.hcl", "LL091", 15)

	withVar := writeFabric(t, map[string]string{"deep.hcl": "variable \"deep\" {\n  type    = list(any)\n  default = []\n}\n"})
	code, out, _ := runCmd(t, "validate", "-json", "-var", "deep="+strings.Repeat("[", 50_000)+strings.Repeat("]", 50_000), withVar)
	if code != 1 || !strings.Contains(out, `"rule": "LL091"`) {
		t.Errorf("-var 50,000 deep: exit %d\n%.1000s", code, out)
	}
}

// TestBoundedLargeIntent checks a 50 MB intent: refused before it is read
// (it took 56 s and 9.3 GB), at its first line.
func TestBoundedLargeIntent(t *testing.T) {
	dir := writeFabric(t, map[string]string{"big.hcl": bigIntent(50 << 20)})
	text := wantOne(t, dir, "big.hcl", "LL090", 1)
	if !strings.Contains(text, `   1: qos_profile "p0" {`) {
		t.Errorf("no snippet of the first line:\n%s", text)
	}
}

// TestBoundedLongList checks a list of 10⁶ entries, written and computed.
func TestBoundedLongList(t *testing.T) {
	wantOne(t, writeFabric(t, map[string]string{"list.hcl": longList(1_000_000)}), "list.hcl", "LL092", 2)
	wantOne(t, writeFabric(t, map[string]string{"list.hcl": "locals {\n  x = range(1000000)\n}\n"}), "list.hcl", "LL092", 2)
	wantOne(t, writeFabric(t, map[string]string{"list.hcl": "locals {\n  a = range(1000)\n  x = flatten([for i in local.a : [for j in local.a : j]])\n}\n"}), "list.hcl", "LL093", 3)
}

// TestBoundedSecretMasked checks that a literal password refused by LL112
// is shown masked in the snippet, and that neither the text nor -json
// holds any of it.
func TestBoundedSecretMasked(t *testing.T) {
	const secret = "Zq81-vX7k-never-printed"
	inv := "credentials \"ops\" {\n  username_env = \"U\"\n  password     = \"" + secret + "\"\n}\n\n" +
		strings.Replace(testInventory, `address  = "192.0.2.1"`, "address  = \"192.0.2.1\"\n  credentials = credentials.ops", 1)
	dir := writeFabric(t, map[string]string{"inventory.hcl": inv})
	text := wantOne(t, dir, "inventory.hcl", "LL112", 3)
	_, out, _ := runCmd(t, "validate", "-json", dir)
	if !strings.Contains(text, `   3:   password     = "`+strings.Repeat("*", len(secret))+`"`) {
		t.Errorf("no masked snippet:\n%s", text)
	}
	for i := 0; i+6 <= len(secret); i++ {
		if part := secret[i : i+6]; strings.Contains(text+out, part) {
			t.Fatalf("output shows %q of the password:\n%s\n%s", part, text, out)
		}
	}
}

// childEnv names the input directory of TestBoundedMemoryChild.
const childEnv = "LOSSLESS_BOUNDED_CHILD"

// TestBoundedMemory measures, in a process of its own for each input, the
// memory validate takes: the growth of the process's peak resident set
// (VmHWM) while it runs must stay within 10× the input's size. Linux only
// (/proc/self/status).
func TestBoundedMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("drives child processes only; it runs without -race (the README's test command)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	for name, intent := range map[string]string{
		"50 MB intent":   bigIntent(50 << 20),
		"10⁶-entry list": longList(1_000_000),
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeFabric(t, map[string]string{"big.hcl": intent})
			size := 0
			for _, n := range []string{"big.hcl", "qos.hcl", "variables.hcl", "inventory.hcl"} {
				st, err := os.Stat(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				size += int(st.Size())
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestBoundedMemoryChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			var before, after, code int
			if _, err := fmt.Sscanf(lastLine(out, "memory "), "memory %d %d exit %d", &before, &after, &code); err != nil {
				t.Fatalf("child output: %v\n%s", err, out)
			}
			t.Logf("input %d bytes, peak resident set %d → %d kB (+%.1f× the input), exit %d", size, before, after, float64(after-before)*1024/float64(size), code)
			if code != 1 {
				t.Errorf("validate exited %d", code)
			}
			if grew := (after - before) * 1024; grew > 10*size {
				t.Errorf("validate grew the process by %d bytes, more than 10× the %d-byte input", grew, size)
			}
		})
	}
}

// TestBoundedMemoryChild runs validate on the directory TestBoundedMemory
// gives it and prints the process's peak resident set before and after.
func TestBoundedMemoryChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("run by TestBoundedMemory")
	}
	before := peakRSS(t)
	code, _, _ := runCmd(t, "validate", "-json", dir)
	fmt.Printf("memory %d %d exit %d\n", before, peakRSS(t), code)
}

// peakRSS is the process's peak resident set so far, in kB.
func peakRSS(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmHWM:" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// lastLine returns the last line of out that starts with prefix.
func lastLine(out []byte, prefix string) string {
	var last string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, prefix) {
			last = l
		}
	}
	return last
}
