// Package ocqos holds the Go structs ygot generates from the OpenConfig QoS
// and interfaces YANG models (../shared/yang/openconfig, commit named in its
// SOURCES.txt): the OpenConfig view of a device's QoS that the lab's gNMI
// target answers with and the gNMI driver reads back and diffs with
// ygot.Diff. The file ocqos.go is generated; edit the go:generate line
// below, never the output.
//
// The generation is pruned to keep the package small: only the config
// tree (-exclude_state), with compressed paths, and without the modules the
// QoS model imports only for types or references (openconfig-platform,
// openconfig-defined-sets, ietf-interfaces' data tree). The root struct is
// [Device], holding /qos and /interfaces. The YANG schema is included, so
// [Schema] and [Unmarshal] validate and decode RFC 7951 JSON.
package ocqos

//go:generate go run -trimpath github.com/openconfig/ygot/generator -path=../../../shared/yang/openconfig -output_file=ocqos.go -package_name=ocqos -generate_fakeroot -fakeroot_name=device -compress_paths -exclude_state -shorten_enum_leaf_names -typedef_enum_with_defmod -enum_suffix_for_simple_union_enums -generate_simple_unions -generate_getters -generate_leaf_getters -generate_append -generate_delete -include_schema -include_model_data -exclude_modules=ietf-interfaces,openconfig-platform,openconfig-defined-sets ../../../shared/yang/openconfig/openconfig-qos.yang ../../../shared/yang/openconfig/openconfig-interfaces.yang
//go:generate gofmt -w ocqos.go
