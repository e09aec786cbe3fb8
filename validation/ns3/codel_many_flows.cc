// ackclock's CoDel "many flows" scenario (tests/integration/test_aqm_scenarios.py, many_flows)
// in ns-3, to check the median sojourn CoDel lets through as the number of flows grows.
//
//   codel_many_flows N D_MS [SECONDS] [WARMUP] [TCP]
//
// TCP: "nosack" (the default, closest to ns-2's one-way Reno agent), "guard" (the same with
// common.h's Ns2Guard on each sender, which hides from ns-3's TCP the duplicate ACKs that ns-2's
// NewReno would ignore after a recovery or timeout) or "sack" (SACK on, ns-3's default).
//
// Routers r1, r2 joined by 10 Mb/s with one-way delay D; flow i (0..N-1) runs s_i -> r1
// (100 Mb/s, 1+i ms) -> r2 -> d_i (100 Mb/s, 1 ms) and starts at i/10 s. A CoDelQueueDisc
// (target 5 ms, interval 100 ms, 1000 packets) sits on r1's bottleneck device, whose own device
// queue holds one packet so the backlog waits in the queue disc. All other devices have no
// queue disc and a 1000-packet device queue. TCP: NewReno with classic (RFC 6582) recovery, no
// SACK, no timestamps (40 B of IP and TCP headers), 1000 B segments, an ACK for every segment,
// 1000-segment receive window. Prints, for the packets dequeued from the queue disc after the
// warm-up: their count and median sojourn; the bottleneck's utilisation (IP bytes sent over
// the link rate) and the sinks' goodput over the same span.
#include "../../benchmarks/ns3/common.h" // bench::, the benchmarks' helpers (not validation/ns3/common.h)

#include <algorithm>
#include <vector>

using namespace ns3;

namespace
{

std::vector<double> g_sojourn;
uint64_t g_rx0 = 0;
uint64_t g_txBytes0 = 0;
uint64_t g_txPackets0 = 0;

uint64_t
SinkBytes(const std::vector<Ptr<PacketSink>>& sinks)
{
    uint64_t total = 0;
    for (auto& s : sinks)
    {
        total += s->GetTotalRx();
    }
    return total;
}

void
StartMeasuring(Ptr<QueueDisc> qd,
               Ptr<Queue<Packet>> devQueue,
               std::vector<Ptr<PacketSink>> sinks)
{
    qd->TraceConnectWithoutContext("SojournTime", Callback<void, Time>([](Time t) {
                                       g_sojourn.push_back(t.GetSeconds());
                                   }));
    g_rx0 = SinkBytes(sinks);
    g_txBytes0 = devQueue->GetTotalReceivedBytes();
    g_txPackets0 = devQueue->GetTotalReceivedPackets();
}

// With ACKCLOCK_NS3_TRACE set (a diagnostic, not used by validation/codel_vs_ns3.py), on
// standard error: every 100 ms the queue disc's backlog, its drops so far and each flow's cwnd
// (segments); and every change of a flow's congestion state.
std::vector<double> g_cwnd;

void
Sample(Ptr<QueueDisc> qd)
{
    std::fprintf(stderr, "%.1f q %u drops %u cwnd", Simulator::Now().GetSeconds(),
                 qd->GetNPackets(), qd->GetStats().nTotalDroppedPackets);
    for (double c : g_cwnd)
    {
        std::fprintf(stderr, " %.1f", c);
    }
    std::fprintf(stderr, "\n");
    Simulator::Schedule(MilliSeconds(100), &Sample, qd);
}

void
TraceFlow(Ptr<Node> sender, uint32_t flow, uint32_t segment)
{
    ObjectVectorValue sockets;
    sender->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
    auto sock = DynamicCast<TcpSocketBase>(sockets.Get(0));
    sock->TraceConnectWithoutContext(
        "CongestionWindow", Callback<void, uint32_t, uint32_t>([=](uint32_t, uint32_t v) {
            g_cwnd[flow] = double(v) / segment;
        }));
    sock->TraceConnectWithoutContext(
        "CongState",
        Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
            [=](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v) {
                std::fprintf(stderr, "%.4f state %u %s\n", Simulator::Now().GetSeconds(), flow,
                             TcpSocketState::TcpCongStateName[v]);
            }));
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc < 3 || argc > 6)
    {
        std::fprintf(stderr, "usage: codel_many_flows N D_MS [SECONDS] [WARMUP] [TCP]\n");
        return 2;
    }
    const uint32_t n = std::stoul(argv[1]);
    const double delayMs = std::stod(argv[2]);
    const double seconds = argc > 3 ? std::stod(argv[3]) : 60.0;
    const double warmup = argc > 4 ? std::stod(argv[4]) : 10.0;
    const std::string tcp = argc > 5 ? argv[5] : "nosack";
    const uint32_t segment = 1000;
    if (tcp != "nosack" && tcp != "guard" && tcp != "sack")
    {
        std::fprintf(stderr, "unknown TCP setting %s\n", tcp.c_str());
        return 2;
    }

    // No timestamps: 20 B IP + 20 B TCP headers, as the ns2 profile's 40 B.
    bench::TcpDefaults(segment, 2, 1000, false);
    // The send buffer well above the 1000-segment window, so only the window limits.
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4000 * segment));
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(tcp == "sack"));

    NodeContainer routers(2), senders(n), receivers(n);
    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(senders);
    stack.Install(receivers);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");

    char delay[32];
    std::snprintf(delay, sizeof delay, "%gms", delayMs);
    // r1 -> r2: one packet of device queue (besides the one on the line); r2 -> r1 (ACKs): 1000.
    bench::Link bottleneck =
        bench::MakeLink(routers.Get(0), routers.Get(1), "10Mbps", delay, 1, 1000, addr);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::CoDelQueueDisc",
                         "MaxSize", QueueSizeValue(QueueSize("1000p")),
                         "Target", TimeValue(MilliSeconds(5)),
                         "Interval", TimeValue(MilliSeconds(100)));
    QueueDiscContainer qdiscs = tch.Install(bottleneck.devices.Get(0));

    std::vector<bench::Link> access, egress;
    for (uint32_t i = 0; i < n; ++i)
    {
        char d[32];
        std::snprintf(d, sizeof d, "%ums", 1 + i);
        access.push_back(
            bench::MakeLink(senders.Get(i), routers.Get(0), "100Mbps", d, 1000, 1000, addr));
        egress.push_back(
            bench::MakeLink(routers.Get(1), receivers.Get(i), "100Mbps", "1ms", 1000, 1000, addr));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        sinks.push_back(bench::BulkFlow(senders.Get(i), receivers.Get(i),
                                        egress[i].ifaces.GetAddress(1), 5000, i / 10.0, segment));
    }
    // Ns2Guard is switched on by this environment variable (common.h).
    if (tcp == "guard")
    {
        setenv("ACKCLOCK_NS3_NS2_GUARD", "1", 1);
    }
    else
    {
        unsetenv("ACKCLOCK_NS3_NS2_GUARD");
    }
    std::vector<Ptr<Node>> senderNodes(senders.Begin(), senders.End());
    std::vector<Ptr<NetDevice>> senderDevices;
    for (auto& l : access)
    {
        senderDevices.push_back(l.devices.Get(0));
    }
    // Attached once the last flow has made its socket; a guard acts only after the first
    // recovery it sees, well inside the warm-up.
    bench::Ns2Guards guards(senderNodes, senderDevices, Seconds((n - 1) / 10.0) + NanoSeconds(1));
    Ptr<Queue<Packet>> devQueue =
        DynamicCast<PointToPointNetDevice>(bottleneck.devices.Get(0))->GetQueue();
    Simulator::Schedule(Seconds(warmup), &StartMeasuring, qdiscs.Get(0), devQueue, sinks);
    if (std::getenv("ACKCLOCK_NS3_TRACE"))
    {
        g_cwnd.assign(n, 0);
        for (uint32_t i = 0; i < n; ++i)
        {
            // Just after the flow's application has made its socket.
            Simulator::Schedule(Seconds(i / 10.0) + NanoSeconds(1), &TraceFlow, senders.Get(i),
                                i, segment);
        }
        Simulator::Schedule(MilliSeconds(100), &Sample, qdiscs.Get(0));
    }
    Simulator::Stop(Seconds(seconds));
    Simulator::Run();

    const double span = seconds - warmup;
    const uint64_t txPackets = devQueue->GetTotalReceivedPackets() - g_txPackets0;
    // IP bytes: the device queue's bytes carry the 2-byte PPP header.
    const uint64_t txIpBytes = devQueue->GetTotalReceivedBytes() - g_txBytes0 - 2 * txPackets;
    const uint64_t rx = SinkBytes(sinks) - g_rx0;
    double median = -1;
    if (!g_sojourn.empty())
    {
        auto mid = g_sojourn.begin() + g_sojourn.size() / 2;
        std::nth_element(g_sojourn.begin(), mid, g_sojourn.end());
        median = *mid;
        if (g_sojourn.size() % 2 == 0)
        {
            median = (median + *std::max_element(g_sojourn.begin(), mid)) / 2;
        }
    }
    const QueueDisc::Stats& st = qdiscs.Get(0)->GetStats();
    std::printf("sojourn_samples %zu\n", g_sojourn.size());
    std::printf("p50_sojourn_s %.9f\n", median);
    std::printf("utilization %.6f\n", txIpBytes * 8.0 / (10e6 * span));
    std::printf("goodput_mbps %.6f\n", rx * 8.0 / span / 1e6);
    std::printf("qdisc_drops %u\n", st.nTotalDroppedPackets);
    guards.Report();
    Simulator::Destroy();
    return 0;
}
