package intent

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeepMerge: a device override changes what it writes and nothing
// else, block by block and by name; one scheduling attribute replaces the
// inherited way of scheduling; remove = true drops an inherited block;
// names reach the resolved QoS as written.
func TestDeepMerge(t *testing.T) {
	tests := []struct {
		name     string
		override string
		check    func(t *testing.T, q *QoS)
		diags    string // substring of the diagnostics; "" for none
	}{{
		name: "one ECN value",
		override: `traffic_class "rdma" {
        ecn { max_probability = 50 }
      }`,
		check: func(t *testing.T, q *QoS) {
			c := q.Class(3)
			if !c.Lossless || len(c.DSCP) != 3 || c.ECN == nil || c.ECN.MaxProbability != 50 || c.ECN.Max.Bytes != 3000*1024 || c.ECN.Min.Time == 0 {
				t.Errorf("class rdma = %+v, ECN %+v: want the profile's class with probability 50", c, c.ECN)
			}
		},
	}, {
		name: "weight replaces strict priority",
		override: `traffic_class "cnp" {
        weight = 20
      }
      traffic_class "bulk" {
        weight = 80
      }`,
		check: func(t *testing.T, q *QoS) {
			if s := q.Class(6).Scheduling; s.Mode != SchedulingDWRR || s.Weight != 20 {
				t.Errorf("cnp scheduling = %+v, want DWRR weight 20", s)
			}
		},
		diags: "CNP class is not strict priority",
	}, {
		name: "remove a class and an ECN block",
		override: `traffic_class "cnp" {
        remove = true
      }
      traffic_class "rdma" {
        ecn { remove = true }
      }`,
		check: func(t *testing.T, q *QoS) {
			if q.Class(6) != nil {
				t.Error("class cnp still there")
			}
			if c := q.Class(3); c == nil || c.ECN != nil || !c.Lossless {
				t.Errorf("class rdma = %+v: want it lossless without ECN", c)
			}
		},
		diags: "[LL051]", // leaf1's link to spine1 now carries DSCP 48 in class bulk
	}, {
		name: "remove of nothing is nothing",
		override: `traffic_class "video" {
        remove = true
      }`,
		check: func(t *testing.T, q *QoS) {
			if len(q.Classes) != 3 {
				t.Errorf("%d classes, want the profile's 3", len(q.Classes))
			}
		},
	}, {
		name: "names",
		override: `names {
        classifier = "QOS_IN"
        maps       = "AZURE"
      }
      traffic_class "rdma" {
        names {
          class_map    = "RoCEv2"
          scheduler    = "scheduler.1"
          drop_profile = "AZURE_LOSSLESS"
        }
      }`,
		check: func(t *testing.T, q *QoS) {
			if diff := cmp.Diff(Names{Classifier: "QOS_IN", Maps: "AZURE"}, q.Names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(ClassNames{ClassMap: "RoCEv2", Scheduler: "scheduler.1", DropProfile: "AZURE_LOSSLESS"}, q.Class(3).Names); diff != "" {
				t.Errorf("class names (-want +got):\n%s", diff)
			}
			if q.Class(3).ECN == nil {
				t.Error("the names block replaced the class's ECN")
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			devs, diags := loadString(t, testProfile+`
assign "all" {
  devices = ["leaf1", "leaf2", "spine1", "ce1"]
  qos     = qos_profile.roce
  device "leaf1" {
    qos {
      `+tt.override+`
    }
  }
}
`, nil)
			if tt.diags == "" && diags != "" || !strings.Contains(diags, tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant %q", diags, tt.diags)
			}
			for _, d := range devs {
				if d.Name == "leaf1" {
					tt.check(t, d.QoS)
				}
				if d.Name == "leaf2" && (len(d.QoS.Classes) != 3 || d.QoS.Class(3).ECN.MaxProbability != 7) {
					t.Errorf("leaf2 changed by leaf1's override: %+v", d.QoS)
				}
			}
		})
	}
}

// TestRemoveOutsideOverride: remove = true in a profile is an error, since
// it would remove the block it is written in.
func TestRemoveOutsideOverride(t *testing.T) {
	_, diags := loadString(t, strings.Replace(testProfile, `priority = "strict"`, `priority = "strict"
    remove   = true`, 1)+`
assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
`, nil)
	if !strings.Contains(diags, "LL004") || !strings.Contains(diags, "remove outside an override") {
		t.Errorf("diagnostics:\n%s\nwant LL004 remove outside an override", diags)
	}
}
