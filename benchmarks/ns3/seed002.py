"""Issue 10's scenario 1, seed 002's model, in ns-3 (PyPI package `ns3`): N Reno sources on
2 Mb/s, 0 ms access links into a 10 Mb/s, 50 ms bottleneck with a 200-packet DropTail buffer and
packet loss p (uniform, as ns-2's ErrorModel), then a very fast 0 ms link to each sink; 1460-byte
segments, a 32-segment window (the receive buffer), delayed ACKs (every second segment or
100 ms, as ns-2's TCPSink/DelAck), sources starting uniformly in [0, 100 ms].

    python seed002.py T p N bs

Prints "total_mbps X": the bytes the sinks received, with 40-byte headers as ns-2's script
counts them, over T (examples/ns2/seed002.tcl prints the same quantity in Byte/ms).
"""

from __future__ import annotations

import random
import sys

from ns import ns  # type: ignore[import-not-found]


def main() -> None:
    t, p, n, bs = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", ns.StringValue("ns3::TcpLinuxReno"))
    ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1460))
    ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(32 * 1460))
    ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(1 << 22))
    ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(2))
    ns.Config.SetDefault("ns3::TcpSocket::DelAckTimeout", ns.TimeValue(ns.Seconds(0.1)))

    core = ns.NodeContainer()
    core.Create(2)
    sources = ns.NodeContainer()
    sources.Create(n)
    sinks = ns.NodeContainer()
    sinks.Create(n)
    stack = ns.InternetStackHelper()
    for c in (core, sources, sinks):
        stack.Install(c)
    addr = ns.Ipv4AddressHelper()
    tch = ns.TrafficControlHelper()

    def link(a: object, b: object, rate: str, delay: str, packets: int, net: str) -> object:
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                     ns.QueueSizeValue(ns.QueueSize(f"{packets}p")))
        devices = p2p.Install(a, b)
        addr.SetBase(ns.Ipv4Address(net), ns.Ipv4Mask("255.255.255.0"))
        ifaces = addr.Assign(devices)
        tch.Uninstall(devices)
        return devices, ifaces

    bottleneck, _ = link(core.Get(0), core.Get(1), "10Mbps", "50ms", bs, "10.0.0.0")
    em = ns.CreateObject[ns.RateErrorModel]()
    em.SetAttribute("ErrorRate", ns.DoubleValue(p))
    em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    bottleneck.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
    sink_addrs = []
    for i in range(n):
        link(sources.Get(i), core.Get(0), "2Mbps", "0ms", 1000, f"10.1.{i}.0")
        _, ifaces = link(core.Get(1), sinks.Get(i), "100Gbps", "0ms", 1000, f"10.2.{i}.0")
        sink_addrs.append(ifaces.GetAddress(1))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    rng = random.Random(1)
    apps = []
    for i in range(n):
        local = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5000).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", local).Install(sinks.Get(i))
        sink.Start(ns.Seconds(0))
        apps.append(sink.Get(0))
        remote = ns.InetSocketAddress(sink_addrs[i], 5000).ConvertTo()
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", remote)
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.Install(sources.Get(i)).Start(ns.Seconds(rng.uniform(0, 0.1)))

    ns.Simulator.Stop(ns.Seconds(t))
    ns.Simulator.Run()
    payload = sum(ns.DynamicCast[ns.PacketSink](a).GetTotalRx() for a in apps)
    ns.Simulator.Destroy()
    print(f"total_mbps {payload * 1500 / 1460 * 8 / t / 1e6}")


if __name__ == "__main__":
    main()
