# How lossless apply rolls this fabric out; a flag given to apply wins over
# each value (lossless apply -help).

rollout {
  # One JSON line per device step, relative to this directory; read it
  # with: lossless history examples/ai-fabric/audit/lossless.jsonl
  audit_log = "audit/lossless.jsonl"

  # Health gates between batches: a batch whose managed ports exceed a
  # limit halts the rollout and is put back to its previous config.
  # Drops are not limited: lossy classes drop by design under congestion.
  gate {
    max_pause    = 1000 # PFC pause frames per second per port
    max_watchdog = 0    # PFC watchdog events per port during a batch
  }
}
