package importer

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// AddPorts returns the inventory source src (an inventory.hcl) with a
// ports block, in each imported device's block, for every port its
// running config gives QoS and a speed to that the inventory lacks
// (Device.Added), and one line per port added, for the report. Nothing
// to add returns src unchanged and no lines.
func (r *Result) AddPorts(src []byte, filename string) ([]byte, []string, error) {
	added := map[string]*Device{}
	for _, d := range r.Devices {
		if len(d.Added) > 0 {
			added[d.Name] = d
		}
	}
	if len(added) == 0 {
		return src, nil, nil
	}
	f, diags := hclwrite.ParseConfig(src, filename, hclStart)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("add ports to %s: %s", filename, diags.Error())
	}
	var lines []string
	for _, b := range f.Body().Blocks() {
		if b.Type() != "device" || len(b.Labels()) != 1 {
			continue
		}
		d := added[b.Labels()[0]]
		if d == nil {
			continue
		}
		for _, p := range d.Added {
			pb := b.Body().AppendNewBlock("ports", []string{p.Name}).Body()
			pb.SetAttributeValue("speed", cty.StringVal(p.Speed.String()))
			what := p.Speed.String()
			if p.Cable > 0 {
				pb.SetAttributeValue("cable", cty.StringVal(p.Cable.String()))
				what += ", " + p.Cable.String()
			}
			lines = append(lines, fmt.Sprintf("%s: port %s (%s), from its running config", d.Name, p.Name, what))
		}
		delete(added, d.Name)
	}
	for name := range added {
		return nil, nil, fmt.Errorf("add ports to %s: device %s has no device block there", filename, name)
	}
	return hclwrite.Format(f.Bytes()), lines, nil
}
