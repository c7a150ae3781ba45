-- wrk reporter for bench/run_all.py: one machine-readable line with the percentiles it needs (p95 is not
-- in wrk's own --latency table). Latencies are in microseconds.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK_JSON {\"requests\": %d, \"duration_us\": %d, \"status_errors\": %d, \"socket_errors\": %d, " ..
    "\"p50_us\": %d, \"p95_us\": %d, \"p99_us\": %d, \"max_us\": %d}\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
