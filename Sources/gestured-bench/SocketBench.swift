// socket_latency_us_p50/p99 and socket_fanout_*: through the real daemon event loop.
func benchSocket(quick: Bool) {
    for n in ["socket_latency_us_p50", "socket_latency_us_p99", "socket_fanout_clients",
              "socket_fanout_latency_us_p99", "socket_fanout_rss_kb"] {
        unavailable(n, "the daemon event loop has not landed on main")
    }
}

func serveMain(socketPath: String, configPath: String) -> Int32 { 1 }
