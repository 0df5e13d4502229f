package gnmitarget

import (
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// go test -run '^$' -bench . -benchmem ./internal/lab/gnmi

// BenchmarkStart measures making a target with its own CA and serving one
// device on a fresh port: the cost per device when each has its own port.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		tg, err := New(WithCredentials(testUser, testPass))
		if err != nil {
			b.Fatal(err)
		}
		if err := tg.Add("leaf1", newFakeSonic(), nil); err != nil {
			b.Fatal(err)
		}
		if err := tg.Start(b.Context()); err != nil {
			b.Fatal(err)
		}
		_ = tg.Close()
	}
}

// BenchmarkSonicSet measures one TLS Set round trip that patches CONFIG_DB.
func BenchmarkSonicSet(b *testing.B) {
	tg, err := New(WithCredentials(testUser, testPass))
	if err != nil {
		b.Fatal(err)
	}
	if err := tg.Add("sonic1", newFakeSonic(), nil); err != nil {
		b.Fatal(err)
	}
	if err := tg.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tg.Close() })
	c := benchClient(b, tg)
	req := &gpb.SetRequest{Update: []*gpb.Update{{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)}}}
	for b.Loop() {
		if _, err := c.Set(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenConfigGet measures a TLS Get of /qos from an EOS device:
// parse the running config, build and validate the ygot tree, emit JSON.
func BenchmarkOpenConfigGet(b *testing.B) {
	tg, err := New(WithCredentials(testUser, testPass))
	if err != nil {
		b.Fatal(err)
	}
	if err := tg.Add("leaf1", newFakeEOS(eosCanonical), nil); err != nil {
		b.Fatal(err)
	}
	if err := tg.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tg.Close() })
	c := benchClient(b, tg)
	req := &gpb.GetRequest{Path: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "qos"}}}}, Encoding: gpb.Encoding_JSON_IETF}
	for b.Loop() {
		if _, err := c.Get(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}
