// Package config holds the config document a renderer produces for one
// device and a vendor driver compares with the running config: an ordered
// tree of CLI lines, or SONiC CONFIG_DB tables, plus the exact text the
// device would print. It has no vendor knowledge.
package config

// Format names the shape of a Document.
type Format string

// Document formats.
const (
	// CLI is an ordered tree of configuration lines (NX-OS, EOS, Huawei CE).
	CLI Format = "cli"
	// ConfigDB is SONiC CONFIG_DB: table → key → field → string value.
	ConfigDB Format = "configdb"
)

// Node is one CLI line and the lines nested under it.
type Node struct {
	// Text is the line without indentation ("tx-queue 3").
	Text     string
	Children []*Node
}

// DB is CONFIG_DB content: table → key ("Ethernet0|3") → field → value.
// Every value is a string, as in redis.
type DB map[string]map[string]map[string]string

// Document is one device's rendered configuration.
type Document struct {
	Device string
	Format Format
	// Tree is the CLI tree in the device's running-config order (CLI only).
	Tree []*Node
	// DB is the CONFIG_DB content (ConfigDB only).
	DB DB
	// Text is the rendering byte for byte as the device prints it
	// (running-config text, or indented CONFIG_DB JSON).
	Text []byte
	// Warnings report every value rounded to the device's granularity
	// (naming the value before and after), every part of the intent the
	// platform keeps its default for, and every default chosen where the
	// intent is silent.
	Warnings []Warning
	// Disruptive lists the parts of the rendering whose change the device
	// cannot apply in place (for example SONiC BUFFER_POOL needs a reload),
	// each as a short reason.
	Disruptive []string
	// Prune is the intent's unmanaged = "prune": a driver's diff removes
	// the objects of a family lossless manages that this rendering does
	// not contain, instead of keeping and listing them (the default).
	// Nothing referenced from outside the scope is removed either way.
	Prune bool
}

// Warning is one note a renderer makes about a device's rendering: a
// value rounded to the device's granularity, intent the platform cannot
// express and keeps its default for, or a default chosen where the intent
// is silent. Rule is its rule ID (LLnnn, the renderers package names
// them), so that validate -strict, plan and apply report it the same way.
type Warning struct {
	Rule    string `json:"rule"`
	Device  string `json:"device"`
	Message string `json:"message"`
}

// String is "DEVICE: MESSAGE".
func (w Warning) String() string { return w.Device + ": " + w.Message }

// Messages returns each warning's String, in order (nil for none).
func Messages(ws []Warning) []string {
	if len(ws) == 0 {
		return nil
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}
