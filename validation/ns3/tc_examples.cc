// Two of ns-3.44's examples/traffic-control programs, their scenarios rebuilt against the ns3
// wheel with a summary on stdout (validation/ns3/common.h's Report) instead of their own
// output, for validation/ns3_examples.py. What each sets is what the example sets; the rest is
// ns-3's default (TcpCubic, InitialCwnd 10, DelAckCount 2, 128 KB buffers, SACK, PRR, ...).
//
//   --example=benchmark: queue-discs-benchmark.cc. n1 --100 Mb/s, 0.1 ms-- n2 --10 Mb/s, 5 ms--
//     n3; the access link's devices a 1000-packet PfifoFastQueueDisc above 100-packet device
//     queues; the bottleneck's devices (both directions) --queueDiscType (PfifoFast, CoDel,
//     FqCoDel or PIE; MaxSize --queueDiscSize packets, 1000) above --netdevicesQueueSize-packet
//     device queues (50), with byte queue limits (DynamicQueueLimits, its defaults) if --bql;
//     1000-byte segments; two TCP flows, n1 -> n3 (upload, flow 0) and n3 -> n1 (download,
//     flow 1), each an OnOffApplication always on at 20 Mb/s (above the bottleneck: TCP's send
//     buffer stays full, so they behave as bulk transfers) from 0.1 s to 60 s; 60.1 s. The
//     example's ping (n1 -> n3, one echo a second) and its files are left out. The queue
//     watched is n2's bottleneck device (the upload's data, the download's ACKs).
//   --example=red: traffic-control-example.cc. n0 --10 Mb/s, 2 ms-- n1, 1-packet device queues,
//     RedQueueDisc with its defaults on both devices (MaxSize 25p, MinTh 5, MaxTh 15, QW 0.002,
//     LInterm 50, MeanPktSize 500, Wait, Gentle; its idle-time decay from LinkBandwidth 1.5 Mb/s),
//     1448-byte segments, one TCP flow n1 -> n0 from an OnOffApplication always on at 50 Mb/s
//     (Tos 0xb8, which only picks a band) from 1 s to 10.1 s; 15 s. The queue watched is n1's.
//
// Goodput is counted from --warmup (benchmark 5 s, red 1 s) to the end; cwnd and srtt from each
// flow's start; the queue from --warmup.
//
// --offset0=S, --offset1=S (benchmark): the upload or the download starts S seconds after 0.1 s
// (how sensitive the two-way dynamics are to small shifts, docs/validation.md).
// --trace=FILE writes, for tracing against ackclock's packet trace, one line per event:
// "cwnd T FLOW SEGMENTS" at each change of a flow's cwnd, and for the watched device's queue
// disc "drop T FLOW data|ack SEQ" (SEQ the segment's number from 1, or the ACK's ackno in
// segments), at each transmission start on the watched device "tx T FLOW data|ack SEQ" (on
// the benchmark's other bottleneck device, n3's, "txback T FLOW data|ack SEQ"), its
// device queue's length "devq T PACKETS" and its byte queue limit "bql T BYTES" at each change.
#include "common.h"

using namespace ns3;
using namespace validation;

namespace
{
FILE* traceFile = nullptr;
uint32_t traceSegment = 1000;

// The flow (0: port 7's, 1: port 8's), whether it carries data, and its segment number.
void
Describe(Ptr<const Packet> p, const char* what)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    if (c->PeekHeader(ppp) && ppp.GetProtocol() == 0x0021)
        c->RemoveHeader(ppp);
    if (c->GetSize() >= 20)
    {
        Ipv4Header probe;
        c->PeekHeader(probe);
        if (probe.GetProtocol() == 6 && probe.GetSerializedSize() == 20 &&
            probe.GetPayloadSize() + 20 == c->GetSize())
            c->RemoveHeader(ip);
    }
    TcpHeader tcp;
    c->RemoveHeader(tcp);
    uint32_t flow = tcp.GetDestinationPort() == 7 || tcp.GetSourcePort() == 7 ? 0 : 1;
    bool data = c->GetSize() > 0;
    uint32_t seq = data ? tcp.GetSequenceNumber().GetValue() / traceSegment + 1
                        : (tcp.GetAckNumber().GetValue() - 1) / traceSegment;
    std::fprintf(traceFile, "%s %.9f %u %s %u\n", what, Simulator::Now().GetSeconds(), flow,
                 data ? "data" : "ack", seq);
}

void
QdiscDrop(Ptr<const QueueDiscItem> item)
{
    Describe(item->GetPacket(), "drop");
}

void
TxBegin(Ptr<const Packet> p)
{
    Describe(p, "tx");
}

void
TxBeginBack(Ptr<const Packet> p)
{
    Describe(p, "txback");
}

void
CwndTrace(uint32_t flow, uint32_t, uint32_t v)
{
    std::fprintf(traceFile, "cwnd %.9f %u %.3f\n", Simulator::Now().GetSeconds(), flow,
                 double(v) / traceSegment);
}

void
BqlLimit(uint32_t, uint32_t v)
{
    std::fprintf(traceFile, "bql %.9f %u\n", Simulator::Now().GetSeconds(), v);
}

void
DeviceQueueLength(uint32_t, uint32_t v)
{
    std::fprintf(traceFile, "devq %.9f %u\n", Simulator::Now().GetSeconds(), v);
}

void
ConnectCwnd(uint32_t node, uint32_t socket, uint32_t flow)
{
    Config::ConnectWithoutContext("/NodeList/" + std::to_string(node) +
                                      "/$ns3::TcpL4Protocol/SocketList/" +
                                      std::to_string(socket) + "/CongestionWindow",
                                  MakeBoundCallback(&CwndTrace, flow));
}
} // namespace

int
main(int argc, char** argv)
{
    std::string example = "benchmark", queueDiscType = "PfifoFast";
    uint32_t queueDiscSize = 1000, netdevicesQueueSize = 50;
    bool bql = false;
    double warmup = -1;
    CommandLine cmd;
    cmd.AddValue("example", "benchmark | red", example);
    cmd.AddValue("queueDiscType", "benchmark: PfifoFast, CoDel, FqCoDel or PIE", queueDiscType);
    cmd.AddValue("queueDiscSize", "benchmark: the bottleneck queue disc's packets", queueDiscSize);
    cmd.AddValue("netdevicesQueueSize", "benchmark: the bottleneck device queues' packets",
                 netdevicesQueueSize);
    cmd.AddValue("bql", "benchmark: byte queue limits on the bottleneck devices", bql);
    cmd.AddValue("warmup", "goodput and the queue from this time (s)", warmup);
    double offset0 = 0, offset1 = 0;
    cmd.AddValue("offset0", "benchmark: the upload starts this much later (s)", offset0);
    cmd.AddValue("offset1", "benchmark: the download starts this much later (s)", offset1);
    std::string trace;
    cmd.AddValue("trace", "write cwnd changes, queue-disc drops and transmissions here", trace);
    cmd.Parse(argc, argv);
    if (!trace.empty())
        traceFile = std::fopen(trace.c_str(), "w");

    Goodput goodput;
    FlowTraces flows;
    DeviceQueueMeter meter;
    Ptr<NetDevice> watched;
    double stop;
    if (example == "benchmark")
    {
        stop = 60.1;
        warmup = warmup < 0 ? 5 : warmup;
        uint32_t seg = 1000;
        flows.segment = seg;
        NodeContainer n;
        n.Create(3); // n1 0, n2 1, n3 2
        PointToPointHelper access, bottleneck;
        access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        access.SetChannelAttribute("Delay", StringValue("0.1ms"));
        access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("100p"));
        bottleneck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        bottleneck.SetChannelAttribute("Delay", StringValue("5ms"));
        bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize",
                            StringValue(std::to_string(netdevicesQueueSize) + "p"));
        InternetStackHelper stack;
        stack.InstallAll();
        TrafficControlHelper tchAccess;
        tchAccess.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", StringValue("1000p"));
        TrafficControlHelper tch;
        QueueSizeValue size(QueueSize(QueueSizeUnit::PACKETS, queueDiscSize));
        if (queueDiscType == "PfifoFast")
            tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", size);
        else if (queueDiscType == "CoDel" || queueDiscType == "FqCoDel" ||
                 queueDiscType == "PIE")
        {
            std::string type = queueDiscType == "PIE" ? "Pie" : queueDiscType;
            tch.SetRootQueueDisc("ns3::" + type + "QueueDisc");
            Config::SetDefault("ns3::" + type + "QueueDisc::MaxSize", size);
        }
        else
            NS_ABORT_MSG("unknown --queueDiscType " << queueDiscType);
        if (bql)
            tch.SetQueueLimits("ns3::DynamicQueueLimits");
        auto da = access.Install(n.Get(0), n.Get(1));
        tchAccess.Install(da);
        Ipv4AddressHelper address;
        address.SetBase("192.168.0.0", "255.255.255.0");
        address.NewNetwork();
        auto ia = address.Assign(da);
        auto db = bottleneck.Install(n.Get(1), n.Get(2));
        tch.Install(db);
        address.NewNetwork();
        auto ib = address.Assign(db);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(seg));
        // Upload n1 -> n3 (port 7), download n3 -> n1 (port 8); each end's sink listens from
        // 0 s, so each sender's socket is the second on its node.
        goodput.Add(TcpSink(n.Get(2), 7));
        goodput.Add(TcpSink(n.Get(0), 8));
        for (auto [src, to] : {std::pair{0u, Address(InetSocketAddress(ib.GetAddress(1), 7))},
                               std::pair{2u, Address(InetSocketAddress(ia.GetAddress(0), 8))}})
        {
            OnOffHelper onoff("ns3::TcpSocketFactory", to);
            onoff.SetAttribute("OnTime", StringValue("ns3::ConstantRandomVariable[Constant=1]"));
            onoff.SetAttribute("OffTime", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
            onoff.SetAttribute("PacketSize", UintegerValue(seg));
            onoff.SetAttribute("DataRate", StringValue("20Mbps"));
            auto app = onoff.Install(n.Get(src));
            app.Start(Seconds(0.1 + (src == 0 ? offset0 : offset1)));
            app.Stop(Seconds(stop - 0.1));
            flows.Watch(src, 0.1 + (src == 0 ? offset0 : offset1), 1);
        }
        watched = db.Get(0);
        if (traceFile)
            db.Get(1)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&TxBeginBack));
    }
    else if (example == "red")
    {
        stop = 15;
        warmup = warmup < 0 ? 1 : warmup;
        uint32_t seg = 1448;
        flows.segment = seg;
        NodeContainer n;
        n.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("2ms"));
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
        auto d = p2p.Install(n);
        InternetStackHelper stack;
        stack.Install(n);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::RedQueueDisc");
        tch.Install(d);
        Ipv4AddressHelper address;
        address.SetBase("10.1.1.0", "255.255.255.0");
        auto i = address.Assign(d);
        goodput.Add(TcpSink(n.Get(0), 7));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(seg));
        OnOffHelper onoff("ns3::TcpSocketFactory", Ipv4Address::GetAny());
        onoff.SetAttribute("OnTime", StringValue("ns3::ConstantRandomVariable[Constant=1]"));
        onoff.SetAttribute("OffTime", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
        onoff.SetAttribute("PacketSize", UintegerValue(seg));
        onoff.SetAttribute("DataRate", StringValue("50Mbps"));
        onoff.SetAttribute("Remote", AddressValue(InetSocketAddress(i.GetAddress(0), 7)));
        onoff.SetAttribute("Tos", UintegerValue(0xb8));
        auto app = onoff.Install(n.Get(1));
        app.Start(Seconds(1));
        app.Stop(Seconds(10.1));
        flows.Watch(1, 1.0);
        watched = d.Get(1);
    }
    else
    {
        NS_FATAL_ERROR("unknown --example " << example);
    }
    meter.Watch(watched);
    if (traceFile)
    {
        traceSegment = flows.segment;
        if (meter.qd)
            meter.qd->TraceConnectWithoutContext("Drop", MakeCallback(&QdiscDrop));
        watched->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&TxBegin));
        meter.devq->TraceConnectWithoutContext("PacketsInQueue",
                                               MakeCallback(&DeviceQueueLength));
        auto txq = watched->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
        if (txq->GetQueueLimits())
            txq->GetQueueLimits()->TraceConnectWithoutContext("Limit", MakeCallback(&BqlLimit));
        if (example == "benchmark")
        {
            Simulator::Schedule(Seconds(0.1) + NanoSeconds(1), &ConnectCwnd, 0, 1, 0);
            Simulator::Schedule(Seconds(0.1) + NanoSeconds(1), &ConnectCwnd, 2, 1, 1);
        }
        else
            Simulator::Schedule(Seconds(1) + NanoSeconds(1), &ConnectCwnd, 1, 0, 0);
    }
    Simulator::Schedule(Seconds(warmup), [&]() {
        goodput.Mark();
        meter.Reset();
    });
    Simulator::Stop(Seconds(stop));
    Simulator::Run();
    Report(goodput, flows, meter, warmup, stop);
    Simulator::Destroy();
    if (traceFile)
        std::fclose(traceFile);
    return 0;
}
