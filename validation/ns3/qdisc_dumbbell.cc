// A dumbbell with one of ns-3.44's queue discs on its bottleneck, to compare ackclock's
// disciplines (docs/models/queue-disciplines.md) with ns-3's (validation/qdiscs_vs_ns3.py).
//
//   qdisc_dumbbell QDISC N D_MS [SECONDS] [WARMUP] [TCP] [STEP]
//
// QDISC: cobalt | fq_pie | ared | nlred | tbf | pfifo_fast | fq_codel (each with its ns-3
// defaults, MaxSize 1000 packets; tbf: 5 Mb/s, a 10 000-byte bucket, a FIFO of 1000 packets).
// Routers r1, r2 joined by 10 Mb/s with one-way delay D; flow i (0..N-1) runs s_i -> r1
// (100 Mb/s, 1+i ms) -> r2 -> d_i (100 Mb/s, 1 ms), starting at i * STEP s (STEP 0.1 unless
// given). The queue disc sits on r1's bottleneck device, whose own device queue holds one packet (besides the one on the
// line); every other device has no queue disc and a 1000-packet device queue. TCP: NewReno
// with classic recovery, no timestamps, 1000 B segments, an ACK per segment, a 1000-segment
// window (common.h's TcpDefaults); TCP "sack" (the default) turns SACK on, "nosack" leaves it
// off (ns-3's NewReno then re-enters recovery on the duplicate ACKs of its own go-back-N
// retransmissions: docs/models/queues.md). After the warm-up it measures: the time-averaged
// and peak backlog (packets) of the queue disc and the device queue together, the queue disc's
// drops and marks, the median sojourn of the packets it sends, the bottleneck's utilisation
// and the sinks' goodput, in all and per flow (flowI_goodput_mbps).
#include "../../benchmarks/ns3/common.h" // bench::, the benchmarks' helpers (not validation/ns3/common.h)

#include <algorithm>
#include <vector>

using namespace ns3;

namespace
{

std::vector<double> g_sojourn;
uint64_t g_rx0 = 0;
std::vector<uint64_t> g_flowRx0; // each sink's bytes at the warm-up's end
uint64_t g_txBytes0 = 0;
uint64_t g_txPackets0 = 0;
uint32_t g_drops0 = 0;
uint32_t g_marks0 = 0;
bool g_measuring = false;
double g_area = 0;     // packet-seconds
double g_last = 0;     // time of the last change
uint32_t g_qdisc = 0;  // packets in the queue disc
uint32_t g_device = 0; // packets waiting in the device queue below it
uint32_t g_peak = 0;

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

// The backlog is the queue disc's packets and the device queue's (the packet on the line is
// in neither), as ackclock counts a link with a device queue.
void
Integrate()
{
    const double now = Simulator::Now().GetSeconds();
    if (g_measuring)
    {
        g_area += (g_qdisc + g_device) * (now - g_last);
    }
    g_last = now;
}

void
QdiscBacklog(uint32_t, uint32_t v)
{
    Integrate();
    g_qdisc = v;
    if (g_measuring)
    {
        g_peak = std::max(g_peak, g_qdisc + g_device);
    }
}

void
DeviceBacklog(uint32_t, uint32_t v)
{
    Integrate();
    g_device = v;
    if (g_measuring)
    {
        g_peak = std::max(g_peak, g_qdisc + g_device);
    }
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
    for (auto& s : sinks)
    {
        g_flowRx0.push_back(s->GetTotalRx());
    }
    g_txBytes0 = devQueue->GetTotalReceivedBytes();
    g_txPackets0 = devQueue->GetTotalReceivedPackets();
    g_drops0 = qd->GetStats().nTotalDroppedPackets;
    g_marks0 = qd->GetStats().nTotalMarkedPackets;
    g_measuring = true;
    g_last = Simulator::Now().GetSeconds();
    g_peak = g_qdisc + g_device;
}

// With QDISC_DUMBBELL_TRACE=FILE in the environment: each sender's cwnd, ssthresh and bytes in
// flight (bytes) and congestion state at their changes, "time flow cwnd|state value" a line (for tracing a comparison).
FILE* g_trace = nullptr;

void
TraceFlow(uint32_t flow, uint32_t nodeId)
{
    const std::string base = "/NodeList/" + std::to_string(nodeId) +
                             "/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(
        base + "CongestionWindow",
        Callback<void, uint32_t, uint32_t>([flow](uint32_t, uint32_t v) {
            std::fprintf(g_trace, "%.9f %u cwnd %u\n", Simulator::Now().GetSeconds(), flow, v);
        }));
    for (const char* name : {"SlowStartThreshold", "BytesInFlight"})
    {
        Config::ConnectWithoutContext(
            base + name,
            Callback<void, uint32_t, uint32_t>([flow, name](uint32_t, uint32_t v) {
                std::fprintf(g_trace, "%.9f %u %s %u\n", Simulator::Now().GetSeconds(), flow,
                             name, v);
            }));
    }
    Config::ConnectWithoutContext(
        base + "CongState",
        Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
            [flow](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v) {
                std::fprintf(g_trace,
                             "%.9f %u state %d\n",
                             Simulator::Now().GetSeconds(),
                             flow,
                             static_cast<int>(v));
            }));
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc < 4 || argc > 8)
    {
        std::fprintf(stderr, "usage: qdisc_dumbbell QDISC N D_MS [SECONDS] [WARMUP] [TCP] [STEP]\n");
        return 2;
    }
    const std::string kind = argv[1];
    const uint32_t n = std::stoul(argv[2]);
    const double delayMs = std::stod(argv[3]);
    const double seconds = argc > 4 ? std::stod(argv[4]) : 60.0;
    const double warmup = argc > 5 ? std::stod(argv[5]) : 10.0;
    const std::string tcp = argc > 6 ? argv[6] : "sack";
    const double step = argc > 7 ? std::stod(argv[7]) : 0.1; // flow i starts at i * step s
    const uint32_t segment = 1000;

    bench::TcpDefaults(segment, 2, 1000, false);
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
    bench::Link bottleneck =
        bench::MakeLink(routers.Get(0), routers.Get(1), "10Mbps", delay, 1, 1000, addr);
    TrafficControlHelper tch;
    const QueueSizeValue limit(QueueSize("1000p"));
    if (kind == "cobalt")
    {
        tch.SetRootQueueDisc("ns3::CobaltQueueDisc", "MaxSize", limit);
    }
    else if (kind == "fq_pie")
    {
        tch.SetRootQueueDisc("ns3::FqPieQueueDisc", "MaxSize", limit);
    }
    else if (kind == "fq_codel")
    {
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize", limit);
    }
    else if (kind == "ared" || kind == "nlred")
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", limit,
                             "LinkBandwidth", DataRateValue(DataRate("10Mbps")),
                             "LinkDelay", TimeValue(Time(delay)),
                             "MeanPktSize", UintegerValue(segment + 40),
                             "ARED", BooleanValue(kind == "ared"),
                             "NLRED", BooleanValue(kind == "nlred"));
    }
    else if (kind == "tbf")
    {
        tch.SetRootQueueDisc("ns3::TbfQueueDisc",
                             "MaxSize", limit,
                             "Rate", DataRateValue(DataRate("5Mbps")),
                             "PeakRate", DataRateValue(DataRate("0bps")),
                             "Burst", UintegerValue(10000),
                             "Mtu", UintegerValue(1500));
    }
    else if (kind == "pfifo_fast")
    {
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", limit);
    }
    else
    {
        std::fprintf(stderr, "unknown queue disc %s\n", kind.c_str());
        return 2;
    }
    QueueDiscContainer qdiscs = tch.Install(bottleneck.devices.Get(0));
    qdiscs.Get(0)->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QdiscBacklog));
    DynamicCast<PointToPointNetDevice>(bottleneck.devices.Get(0))
        ->GetQueue()
        ->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&DeviceBacklog));

    std::vector<bench::Link> egress;
    for (uint32_t i = 0; i < n; ++i)
    {
        char d[32];
        std::snprintf(d, sizeof d, "%ums", 1 + i);
        bench::MakeLink(senders.Get(i), routers.Get(0), "100Mbps", d, 1000, 1000, addr);
        egress.push_back(
            bench::MakeLink(routers.Get(1), receivers.Get(i), "100Mbps", "1ms", 1000, 1000, addr));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        sinks.push_back(bench::BulkFlow(senders.Get(i), receivers.Get(i),
                                        egress[i].ifaces.GetAddress(1), 5000, i * step, segment));
    }
    if (const char* path = std::getenv("QDISC_DUMBBELL_TRACE"))
    {
        g_trace = std::fopen(path, "w");
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(Seconds(i * step + 1e-6), &TraceFlow, i, senders.Get(i)->GetId());
        }
    }
    Ptr<Queue<Packet>> devQueue =
        DynamicCast<PointToPointNetDevice>(bottleneck.devices.Get(0))->GetQueue();
    Simulator::Schedule(Seconds(warmup), &StartMeasuring, qdiscs.Get(0), devQueue, sinks);
    Simulator::Stop(Seconds(seconds));
    Simulator::Run();
    Integrate();

    const double span = seconds - warmup;
    const uint64_t txPackets = devQueue->GetTotalReceivedPackets() - g_txPackets0;
    const uint64_t txIpBytes = devQueue->GetTotalReceivedBytes() - g_txBytes0 - 2 * txPackets;
    const uint64_t rx = SinkBytes(sinks) - g_rx0;
    double median = -1;
    if (!g_sojourn.empty())
    {
        auto mid = g_sojourn.begin() + g_sojourn.size() / 2;
        std::nth_element(g_sojourn.begin(), mid, g_sojourn.end());
        median = *mid;
    }
    const QueueDisc::Stats& st = qdiscs.Get(0)->GetStats();
    std::printf("mean_queue %.6f\n", g_area / span);
    std::printf("peak_queue %u\n", g_peak);
    std::printf("drops %u\n", st.nTotalDroppedPackets - g_drops0);
    std::printf("marks %u\n", st.nTotalMarkedPackets - g_marks0);
    std::printf("p50_sojourn_s %.9f\n", median);
    std::printf("utilization %.6f\n", txIpBytes * 8.0 / (10e6 * span));
    std::printf("goodput_mbps %.6f\n", rx * 8.0 / span / 1e6);
    for (size_t i = 0; i < sinks.size(); ++i)
    {
        std::printf("flow%zu_goodput_mbps %.6f\n",
                    i,
                    (sinks[i]->GetTotalRx() - g_flowRx0[i]) * 8.0 / span / 1e6);
    }
    Simulator::Destroy();
    if (g_trace)
    {
        std::fclose(g_trace);
    }
    return 0;
}
