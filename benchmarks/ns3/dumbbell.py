"""Issue 10's scenarios 2 and 3 in ns-3 (PyPI package `ns3`, its Python bindings; the
simulation itself runs in ns-3's C++): N TCP flows over a 1 Gb/s, 10 ms bottleneck with a
1000-packet DropTail buffer, 10 Gb/s 1 ms access links, 1448-byte segments, T seconds.

    python dumbbell.py N T VARIANT      (VARIANT: newreno or cubic)

As in benchmarks/ns2/dumbbell.tcl: one ACK per segment (ns-2's TCPSink; ns-3 would delay
every second), no queue discipline above the devices (ns-3 would add FQ-CoDel), windows
limited only by the path. Prints "total_mbps X": the sinks' bytes, headers included
(1500 B per 1448-byte segment, as ns-2 counts them), over the run.
"""

from __future__ import annotations

import sys

from ns import ns  # type: ignore[import-not-found]


def main() -> None:
    n, t, variant = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    tcp = {"newreno": "ns3::TcpNewReno", "cubic": "ns3::TcpCubic"}[variant]
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", ns.StringValue(tcp))
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448))
    ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))
    ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(1 << 27))
    ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(1 << 27))

    routers = ns.NodeContainer()
    routers.Create(2)
    senders = ns.NodeContainer()
    senders.Create(n)
    receivers = ns.NodeContainer()
    receivers.Create(n)
    stack = ns.InternetStackHelper()
    stack.Install(routers)
    stack.Install(senders)
    stack.Install(receivers)

    def link(a: object, b: object, rate: str, delay: str, packets: int) -> object:
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                     ns.QueueSizeValue(ns.QueueSize(f"{packets}p")))
        return p2p.Install(a, b)

    addr = ns.Ipv4AddressHelper()
    tch = ns.TrafficControlHelper()

    def assign(devices: object, net: str) -> object:
        addr.SetBase(ns.Ipv4Address(net), ns.Ipv4Mask("255.255.255.0"))
        ifaces = addr.Assign(devices)
        tch.Uninstall(devices)  # the device's own DropTail queue only
        return ifaces

    assign(link(routers.Get(0), routers.Get(1), "1Gbps", "10ms", 1000), "10.0.0.0")
    sink_addrs = []
    for i in range(n):
        assign(link(senders.Get(i), routers.Get(0), "10Gbps", "1ms", 10000), f"10.1.{i}.0")
        ifaces = assign(link(routers.Get(1), receivers.Get(i), "10Gbps", "1ms", 10000),
                        f"10.2.{i}.0")
        sink_addrs.append(ifaces.GetAddress(1))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    port = 5000
    sinks = []
    for i in range(n):
        local = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
        sink_app = ns.PacketSinkHelper("ns3::TcpSocketFactory", local).Install(receivers.Get(i))
        sink_app.Start(ns.Seconds(0))
        sinks.append(sink_app.Get(0))
        remote = ns.InetSocketAddress(sink_addrs[i], port).ConvertTo()
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", remote)
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(1448))
        app = bulk.Install(senders.Get(i))
        app.Start(ns.Seconds(0))

    ns.Simulator.Stop(ns.Seconds(t))
    ns.Simulator.Run()
    payload = sum(ns.DynamicCast[ns.PacketSink](s).GetTotalRx() for s in sinks)
    ns.Simulator.Destroy()
    print(f"total_mbps {payload * 1500 / 1448 * 8 / t / 1e6}")


if __name__ == "__main__":
    main()
