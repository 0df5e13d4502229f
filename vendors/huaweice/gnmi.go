package huaweice

// gnmiRefusal says why lossless does not push CloudEngine QoS over gNMI
// (reference/huawei-ce.md §7): the only OpenConfig QoS the CE offers
// (openconfig-qos 2016-12-16) has no PFC or ECN threshold model, the
// huawei-* models that do were not verified against a device, and gNMI
// has no confirmed commit there. The CLI over SSH is the reference path.
const gnmiRefusal = "Huawei's gNMI models for CloudEngine QoS (huawei-qos, huawei-dcb) are unverified and its OpenConfig QoS " +
	"has no PFC or ECN threshold model, so lossless cannot push or verify lossless QoS over gNMI on CloudEngine; " +
	`use transport = "ssh", the supported transport for CloudEngine`
