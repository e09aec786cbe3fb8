"""Seed 003 without background traffic, ackclock: same topology/settings as seed003_ns2.tcl.

usage: python seed003_ackclock.py CC1 CC2|none START2 END OUTPREFIX
  CC: cubic | scalable | highspeed (ackclock names)
Writes OUTPREFIX.fN.cwnd with rows "time cwnd ssthresh delivered_bytes" every 0.1 s.
"""
import sys

import ackclock as ac

cc1, cc2, out = sys.argv[1], sys.argv[2], sys.argv[5]
start2, end = float(sys.argv[3]), float(sys.argv[4])
net = ac.Network("seed003-nobg", profile="ns2")
net.nodes("R0", "R1", "n6", "n7", "n8", "n9")
net.link("R0", "R1", rate="622Mb/s", delay="48ms", queue_limit=1555)
for a, b in (("n6", "R0"), ("n8", "R0"), ("R1", "n7"), ("R1", "n9")):
    net.link(a, b, rate="1Gb/s", delay="1ms", queue_limit=67000)
net.defaults(variant="sack", timestamps=True, window=67000, packet_size=1000,
             max_ssthresh=100, max_burst=2, sink="sack")
params = {"cubic": {"beta": 0.8, "c": 0.4}}
flows = [(cc1, "n6", "n7", 0.0), (cc2, "n8", "n9", start2)]
for i, (cc, s, d, t0) in enumerate(flows):
    if cc == "none":
        continue
    net.tcp(f"flow{i + 1}", s, d, cc=cc, cc_params=params.get(cc, {}), start=f"{t0}s")
res = net.run(duration=f"{end}s", sample_interval="0.1s")
ts = res.timeseries
for i in (1, 2):
    part = ts[ts.flow == f"flow{i}"]
    if part.empty:
        continue
    with open(f"{out}.f{i}.cwnd", "w") as f:
        for r in part.itertuples():
            f.write(f"{r.time_s} {r.cwnd} {r.ssthresh} {r.delivered_bytes}\n")
print(res.flows[["flow", "throughput_mbps", "packets_retransmitted", "packets_dropped", "timeouts",
                 "fast_retransmits"]].to_string())
