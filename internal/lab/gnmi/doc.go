// Package gnmitarget is the lab's gNMI target: a gRPC server speaking the
// gNMI proto (Capabilities, Get, Set, and the Commit Confirmed extension)
// in front of the lab's emulated devices, so the real gNMI code paths of
// lossless and third-party clients (gnmi_cli) can be tested without
// hardware. It knows devices only through the lab/device contract:
//
//   - a device that keeps SONiC CONFIG_DB ([device.ConfigDB]) answers
//     origin "sonic-db" on /CONFIG_DB/localhost/TABLE[/key[/field]] with
//     json_ietf_val, and a Set becomes one JSON Patch applied by
//     ConfigDB.Patch (reference/sonic.md §9);
//   - a device that runs config lines as one session ([device.CLIConfig],
//     EOS) takes origin "cli" Sets (reference/eos.md §6) and answers
//     OpenConfig QoS Gets (origin "openconfig" or empty) from its running
//     config through the ygot structs of package ocqos;
//   - a device that can checkpoint ([device.Checkpointer]) supports commit
//     confirmed: rolled back unless confirmed in time.
//
// One [Target] serves any number of devices on one listener
// (127.0.0.1:0 by default) and picks the device by the request's
// Prefix.Target, the device name given to [Target.Add]; an empty target is
// allowed when the Target serves exactly one device, which is how a
// client that sets no target (gnmi_cli -get/-set with a prefix-less proto)
// reaches it. Run one Target per device to give each its own port.
//
// TLS is on by default, with a [CA] the lab makes for the run; plaintext
// only with [WithPlaintext]. Every RPC must carry the `username` and
// `password` metadata given to [WithCredentials], else it fails with
// codes.Unauthenticated. The lab never imports renderers, vendors or plan.
package gnmitarget
