package nxos

// gnmiRefusal says why lossless does not push NX-OS QoS over gNMI
// (reference/nxos.md §6): NX-OS 10.3(1) advertises openconfig-qos
// 2019-11-28 with cisco-nx-openconfig-qos-deviations, whose coverage is
// unverified, and that OpenConfig revision has no PFC, no-drop, pause or
// watchdog model at all; the native Cisco-NX-OS-device model lacks a
// known WRED/ECN object. The CLI over SSH is the reference path.
const gnmiRefusal = "Cisco's OpenConfig QoS deviations for NX-OS mark its QoS config unsupported, and OpenConfig has no PFC, " +
	"no-drop or PFC watchdog model, so lossless cannot push or verify lossless QoS over gNMI on NX-OS; " +
	`use transport = "ssh", the supported transport for NX-OS`
