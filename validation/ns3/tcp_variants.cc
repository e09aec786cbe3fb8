// ns-3.44's examples/tcp/tcp-variants-comparison scenario, rebuilt for validation/ns3_examples.py:
// source --10 Mb/s, 45 ms-- gateway --2 Mb/s, 0.01 ms-- sink, one BulkSend flow of the given
// TCP class, 400-byte MTU (340-byte segments), 2 MB socket buffers, SACK, classic recovery,
// PfifoFast root queue discs sized to the BDP (56 packets) above the 100-packet device queues,
// the application running from 0 to 97.1 s. Prints the measures ns3_examples.py compares:
// goodput, time-averaged and peak cwnd (segments), mean queue (gateway queue disc + device,
// packets, sampled every 10 ms), mean srtt, and drops at the gateway.
//
//   tcp_variants <TcpClass> [duration_s]
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <string>

using namespace ns3;

namespace
{
const uint32_t kSegment = 340;
double g_lastT = 0;
double g_lastCwnd = 0;
double g_area = 0;
double g_peak = 0;
double g_stop = 97.1;
uint64_t g_drops = 0;
double g_queueSum = 0;
uint64_t g_queueN = 0;
double g_srttSum = 0;
uint64_t g_srttN = 0;
Ptr<QueueDisc> g_qdisc;
Ptr<Queue<Packet>> g_devq;
Ptr<TcpSocketBase> g_sock;
double g_srtt = 0;

void
OnRtt(Time, Time now)
{
    g_srtt = now.GetSeconds();
}

void
OnCwnd(uint32_t, uint32_t now)
{
    double t = std::min(Simulator::Now().GetSeconds(), g_stop);
    g_area += g_lastCwnd * (t - g_lastT);
    g_lastT = t;
    g_lastCwnd = static_cast<double>(now) / kSegment;
    if (t < g_stop)
    {
        g_peak = std::max(g_peak, g_lastCwnd);
    }
}

void
OnDrop(Ptr<const QueueDiscItem>)
{
    g_drops++;
}

void
OnDevDrop(Ptr<const Packet>)
{
    g_drops++;
}

void
Sample()
{
    g_queueSum += g_qdisc->GetNPackets() + g_devq->GetNPackets();
    g_queueN++;
    if (!g_sock)
    {
        Ptr<TcpL4Protocol> tcp = NodeList::GetNode(1)->GetObject<TcpL4Protocol>();
        ObjectVectorValue socks;
        tcp->GetAttribute("SocketList", socks);
        if (socks.GetN() > 0)
        {
            g_sock = DynamicCast<TcpSocketBase>(socks.Get(0));
            g_sock->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&OnCwnd));
            g_sock->TraceConnectWithoutContext("RTT", MakeCallback(&OnRtt));
            g_lastCwnd = 0;
        }
    }
    if (g_srtt > 0)
    {
        g_srttSum += g_srtt;
        g_srttN++;
    }
    if (Simulator::Now().GetSeconds() + 0.01 < g_stop)
    {
        Simulator::Schedule(MilliSeconds(10), &Sample);
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string cls = argc > 1 ? argv[1] : "TcpWestwoodPlus";
    if (argc > 2)
    {
        g_stop = std::atof(argv[2]);
    }
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 21));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 21));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSegment));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                       TypeIdValue(TypeId::LookupByName("ns3::" + cls)));
    // The example's BDP-sized queue disc: 2 Mb/s x 90.02 ms / 400 bytes = 56 packets.
    uint32_t bdp = static_cast<uint32_t>(2e6 / 8 * 0.09002);
    Config::SetDefault("ns3::PfifoFastQueueDisc::MaxSize",
                       QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bdp / 400)));

    Ptr<Node> gw = CreateObject<Node>();
    Ptr<Node> src = CreateObject<Node>();
    Ptr<Node> dst = CreateObject<Node>();
    InternetStackHelper stack;
    stack.InstallAll();
    TrafficControlHelper pfifo;
    pfifo.SetRootQueueDisc("ns3::PfifoFastQueueDisc");
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    access.SetChannelAttribute("Delay", StringValue("45ms"));
    NetDeviceContainer a = access.Install(src, gw);
    pfifo.Install(a);
    addr.NewNetwork();
    addr.Assign(a);

    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", StringValue("2Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("0.01ms"));
    NetDeviceContainer b = bottleneck.Install(gw, dst);
    QueueDiscContainer q = pfifo.Install(b);
    addr.NewNetwork();
    Ipv4InterfaceContainer bi = addr.Assign(b);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    g_qdisc = q.Get(0);
    g_qdisc->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
    g_devq = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    g_devq->TraceConnectWithoutContext("Drop", MakeCallback(&OnDevDrop));

    uint16_t port = 50000;
    BulkSendHelper ftp("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
    ftp.SetAttribute("SendSize", UintegerValue(kSegment));
    ApplicationContainer s = ftp.Install(src);
    s.Start(Seconds(0));
    s.Stop(Seconds(g_stop));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer k = sinkHelper.Install(dst);
    k.Start(Seconds(0));
    Simulator::Schedule(MilliSeconds(1), &Sample);
    Simulator::Stop(Seconds(g_stop));
    Simulator::Run();
    OnCwnd(0, 0);
    uint64_t rx = DynamicCast<PacketSink>(k.Get(0))->GetTotalRx();
    std::printf("goodput_mbps %.6f\n", rx * 8.0 / g_stop / 1e6);
    std::printf("mean_cwnd %.4f\n", g_area / g_stop);
    std::printf("peak_cwnd %.4f\n", g_peak);
    std::printf("mean_queue %.4f\n", g_queueN ? g_queueSum / g_queueN : 0.0);
    std::printf("mean_srtt_s %.6f\n", g_srttN ? g_srttSum / g_srttN : 0.0);
    std::printf("drops %llu\n", static_cast<unsigned long long>(g_drops));
    Simulator::Destroy();
    return 0;
}
