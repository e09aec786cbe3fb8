"""The issue's reference case from Python: one Reno flow over a 10 Mb/s, 50 ms bottleneck.

Run: python examples/python_api.py [OUT_DIR]
"""

import sys

import ackclock as ac


def main(out: str = "results/python-api") -> ac.Results:
    net = ac.Network("python-api", profile="ns2")
    net.nodes("s", "r1", "r2", "d")
    net.link("s", "r1", rate="100Mb/s", delay="1ms", queue_limit=1000)
    net.link("r1", "r2", rate="10Mb/s", delay="50ms", queue_limit=125)
    net.link("r2", "d", rate="100Mb/s", delay="1ms", queue_limit=1000)
    net.tcp("tcp1", "s", "d", window=1000, packet_size=1000)
    res = net.run(duration="100s", sample_interval="0.1s")
    print(res.flows[["flow", "throughput_mbps", "fast_retransmits", "timeouts"]].to_string())
    res.save(out, plot=True)
    return res


if __name__ == "__main__":
    main(*sys.argv[1:2])
