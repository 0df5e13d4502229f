package vendors

import "fmt"

// Reported returns the counters of ports out of all, what the device
// reported to the command source: a port it did not report is an error,
// "read counters DEVICE: SOURCE does not report port PORT".
func Reported(device, source string, all map[string]PortCounters, ports []string) (map[string]PortCounters, error) {
	res := make(map[string]PortCounters, len(ports))
	for _, p := range ports {
		c, ok := all[p]
		if !ok {
			return nil, fmt.Errorf("read counters %s: %s does not report port %s", device, source, p)
		}
		res[p] = c
	}
	return res, nil
}
