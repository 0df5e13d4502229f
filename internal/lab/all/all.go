// Package all registers every lab personality with lab/device: import it
// for its side effects (import _ ".../lab/all") to make every kind
// available to lab.Add.
package all

import (
	_ "github.com/lossless-net/lossless/internal/lab/eos"      // registers "eos"
	_ "github.com/lossless-net/lossless/internal/lab/huaweice" // registers "huawei-ce"
	_ "github.com/lossless-net/lossless/internal/lab/nxos"     // registers "nxos"
	_ "github.com/lossless-net/lossless/internal/lab/sonic"    // registers "sonic"
)
