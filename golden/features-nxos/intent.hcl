# Every intent feature beyond the core that the NX-OS renderer renders
# (vendors/nxos register.go Features), on NX-OS devices only:
# - tor1 is a Microsoft Azure Local ToR (testdata/realworld/nxos/
#   azure-local-storage-tor): trust by CoS (match cos 3 / 7) with match-all
#   class-maps, remaining shares of 50 % and 48 % (below 100 %), and the
#   cluster queue's guaranteed 1 % (bandwidth percent 1), with the
#   options for send-tlv and no class-default;
# - leaf1 classifies by DSCP, with match-all on the RoCE class, and leaves
#   PFC to DCBX (pfc mode auto: no mode line);
# - leaf2 is leaf1 with PFC off on its ports.

qos_profile "azure" {
  trust = "cos"

  names {
    classifier  = "AZS_SERVICES"
    network_qos = "QOS_NETWORK"
  }

  traffic_class "default" {
    id        = 0
    cos       = "default"
    bandwidth = "48%"
    mtu       = 9216
  }

  traffic_class "RDMA" {
    id        = 3
    cos       = [3]
    match     = "all"
    lossless  = true
    bandwidth = "50%"
    mtu       = 9216

    ecn {
      min_threshold   = "300KB"
      max_threshold   = "300KB"
      max_probability = 100
      weight          = 0
    }
  }

  traffic_class "CLUSTER" {
    id            = 7
    cos           = [7]
    match         = "all"
    min_bandwidth = "1%"
    mtu           = 9216
  }
}

qos_profile "dcbx" {
  traffic_class "default" {
    id        = 0
    dscp      = "default"
    bandwidth = "40%"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    match     = "all"
    lossless  = true
    bandwidth = "60%"
    mtu       = 9216

    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
      weight          = 0
    }
  }

  traffic_class "CNP" {
    id       = 7
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }

  pfc {
    mode = "auto"
    watchdog {}
  }
}

buffer_profile "default" {
  headroom = "auto"
}

# The Azure Local configs' own forms: PFC on with send-tlv, and no
# class-default (unclassified traffic is qos-group 0).
assign "tor" {
  devices = ["tor1"]
  qos     = qos_profile.azure
  buffers = buffer_profile.default
  options = { "nxos.pfc-tlv" = "send-tlv", "nxos.class-default" = "implicit" }
}

assign "leaves" {
  devices = ["leaf1", "leaf2"]
  qos     = qos_profile.dcbx
  buffers = buffer_profile.default

  device "leaf2" {
    qos {
      pfc {
        mode = "off"
        watchdog {}
      }
    }
  }
}
