// Package all registers every vendor renderer. Import it for its side
// effect where the full set is needed (the CLI, golden tests):
//
//	import _ "github.com/lossless-net/lossless/renderers/all"
package all

import (
	_ "github.com/lossless-net/lossless/renderers/eos"      // Arista EOS
	_ "github.com/lossless-net/lossless/renderers/huaweice" // Huawei CloudEngine
	_ "github.com/lossless-net/lossless/renderers/nxos"     // Cisco NX-OS
	_ "github.com/lossless-net/lossless/renderers/sonic"    // SONiC CONFIG_DB
)
