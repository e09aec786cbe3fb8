// Issue 10's scenario 1, seed 002's model, in ns-3: N Reno sources on 2 Mb/s, 0 ms access links
// into a 10 Mb/s bottleneck (50 ms each way) with packet loss p (RateErrorModel, per packet, on
// the data direction's receiving device, where ns-2's link-lossmodel drops) and a bs-packet
// DropTail buffer (ns-2's accounting: bs - 1 waiting), delayed-ACK sinks (every second segment
// or 100 ms) on very fast (10000 Gb/s; ns-2 writes 1e25 Mb/s) 0 ms links, 1460-byte segments
// without timestamps (1500 B packets), a 32-segment window (receive buffer), initial window 2,
// sources starting uniformly in [0, 100 ms]; as benchmarks/ns2/seed002.tcl and
// benchmarks/ackclock/seed002.toml. ns-3 has no Reno fast recovery (it leaves recovery on the
// first new ACK): every ns-3 sender recovers like NewReno (TcpClassicRecovery).
//
// Congestion control is TcpNewReno, not TcpLinuxReno: ns-2's Reno grows the window per ACK
// (slow start +1, congestion avoidance +1/cwnd, as TcpNewReno; TcpLinuxReno counts segments
// acknowledged, twice as fast with these delayed ACKs) and on a loss halves the window it was
// sending with, min(cwnd, window_) (tcp.cc slowdown(): window() / 2). TcpLinuxReno halves cwnd
// alone (tcp-linux-reno.cc GetSsThresh: m_cWnd / 2), and its slow start keeps opening cwnd far
// past the 32-segment receive window (seen at 76 segments), so a loss left ssthresh above 32
// and the sources never backed off: with N >= 10 (320 segments against a 283-packet pipe and
// buffer) the buffer overflowed every round trip, and spurious go-back-N retransmissions took
// a quarter of the bottleneck (7.25 Mb/s at N = 10 over 300 s, ns-2 9.97). TcpNewReno halves
// the bytes in flight, which the receive window bounds, as ns-2 does. N = 50 stays low (300 s:
// 8.10 Mb/s before, 7.87 after, ns-2 9.93): with windows of a few segments ns-3's recovery
// without SACK retransmits on every partial ACK and re-enters recovery on the duplicates'
// dupACKs (tcp-socket-base.cc DupAck: RFC 6582's heuristics not implemented), not configuration.
// The duplicate-ACK guard diagnostic of common.h (ACKCLOCK_NS3_NS2_GUARD=1) shows it: over 150 s
// it brings N = 50 from 7.84 to 9.81 Mb/s at the wire (ns-2 9.90), N = 10 from 9.64 to 9.91
// (ns-2 9.94).
//
//   seed002 T p N bs
#include "common.h"

using namespace ns3;

int
main(int argc, char** argv)
{
    if (argc != 5)
    {
        std::fprintf(stderr, "usage: seed002 T p N bs\n");
        return 2;
    }
    const double t = std::stod(argv[1]);
    const double p = std::stod(argv[2]);
    const uint32_t n = std::stoul(argv[3]);
    const uint32_t bs = std::stoul(argv[4]);
    bench::TcpDefaults(1460, 2, 32, false);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(100)));

    NodeContainer core(2), sources(n), sinks(n);
    InternetStackHelper stack;
    stack.Install(core);
    stack.Install(sources);
    stack.Install(sinks);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
    auto bottleneck = bench::MakeLink(core.Get(0), core.Get(1), "10Mbps", "50ms", bs - 1, 49, addr);
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorRate", DoubleValue(p));
    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    bottleneck.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    std::vector<bench::Link> access, egress;
    for (uint32_t i = 0; i < n; ++i)
    {
        access.push_back(bench::MakeLink(sources.Get(i), core.Get(0), "2Mbps", "0ms", 49, 49, addr));
        egress.push_back(bench::MakeLink(core.Get(1), sinks.Get(i), "10000Gbps", "0ms", 49, 49, addr));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Min", DoubleValue(0.0));
    start->SetAttribute("Max", DoubleValue(0.1));
    std::vector<Ptr<PacketSink>> apps;
    for (uint32_t i = 0; i < n; ++i)
    {
        apps.push_back(bench::BulkFlow(sources.Get(i), sinks.Get(i),
                                       egress[i].ifaces.GetAddress(1), 5000, start->GetValue(),
                                       1460));
    }
    std::vector<Ptr<Node>> senderNodes(sources.Begin(), sources.End());
    std::vector<Ptr<NetDevice>> senderDevices;
    for (auto& l : access)
    {
        senderDevices.push_back(l.devices.Get(0));
    }
    bench::Ns2Guards guards(senderNodes, senderDevices, Seconds(0.1) + NanoSeconds(1)); // diagnostic, off unless asked
    Simulator::Stop(Seconds(t));
    Simulator::Run();
    uint64_t delivered = 0, data = 0, acks = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        delivered += apps[i]->GetTotalRx();
        data += bench::Sent(access[i].devices.Get(0));
        acks += bench::Sent(access[i].devices.Get(1));
    }
    bench::Report(delivered, data, acks);
    guards.Report();
    Simulator::Destroy();
    return 0;
}
