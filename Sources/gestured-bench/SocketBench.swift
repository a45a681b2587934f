// socket_latency_us_p50/p99 and socket_fanout_*: through the real daemon event loop.
func benchSocket(quick: Bool) {
    unavailable("socket_latency_us_p50", "the daemon event loop has not landed on main")
    unavailable("socket_latency_us_p99", "the daemon event loop has not landed on main")
    unavailable("socket_fanout_clients", "the daemon event loop has not landed on main")
    unavailable("socket_fanout_latency_us_p99", "the daemon event loop has not landed on main")
    unavailable("socket_fanout_rss_kb", "the daemon event loop has not landed on main")
}
