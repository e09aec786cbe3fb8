// ns-3.44's examples/tcp/tcp-bbr-example.cc and examples/tcp/tcp-pacing.cc, their scenarios
// rebuilt against the ns3 wheel with a summary on stdout instead of their .dat files, for
// validation/ns3_examples.py. What each sets is what the example sets; the rest is ns-3's default.
//
//   --example=bbr: Sender --1000 Mb/s, 5 ms-- R1 --10 Mb/s, 10 ms-- R2 --1000 Mb/s, 5 ms--
//     Receiver; TcpBbr (--cc), 1448-byte segments, InitialCwnd 10, DelAckCount 2, 4 MB send and
//     6 MB receive buffers; every device queue 1 packet (DropTailQueue MaxSize 1p), a 100-packet
//     FifoQueueDisc with byte queue limits (DynamicQueueLimits, HoldTime 1000 ms) as the root
//     queue disc on the edge links and on R1's bottleneck device (R2's side of the bottleneck
//     keeps the FqCoDel Ipv4AddressHelper::Assign installs); one BulkSend from 0.1 s to 100 s.
//   --example=pacing: n0, n1 --40 Mb/s, 5 ms-- n2 --10 Mb/s, 40 ms-- n3 --40 Mb/s, 5 ms-- n4, n5;
//     TcpCubic, InitialCwnd 10, pacing on (PaceInitialWindow, MaxPacingRate 4 Gb/s), ECN on;
//     FqCoDel on every device (the bottleneck's installed explicitly, the others by Assign); two
//     BulkSends n0 -> n4, n1 -> n5 starting at U(0, 1000) us (stream 0), 5 s.
//   --example=validation --validation=CASE: examples/tcp/tcp-validation.cc, one of its four
//     validation cases (cubic-50ms-no-ecn, cubic-50ms-ecn, dctcp-10ms, dctcp-80ms: TcpCubic or
//     TcpDctcp, 50 or 10 or 80 ms base RTT, ECN on the queues or not, 20 / 20 / 15 / 40 s): server
//     --1000 Mb/s, 1 us-- WR --50 Mb/s (WR's side; 1000 Mb/s back), RTT/2-- LR --1000 Mb/s, 1 us--
//     client; every device queue 3 packets with BQL (DynamicQueueLimits, HoldTime 1 ms), CoDel
//     as WR's bottleneck root queue disc and FqCoDel on every other device (CeThreshold 1 ms
//     on both with DCTCP), 1448-byte segments, 32768000-byte buffers, InitialCwnd 10, PRR,
//     TcpCubic's TcpFriendliness off, UseEcn On; one BulkSend from 5 s to the stop time - 1 s.
//     The example's ping flow (one small echo every 100 ms) and its idle second server are
//     left out.
//   --example=dctcp: examples/dctcp.py's scenario (the DCTCP paper's result): s --40 Gb/s,
//     10 us-- r1 --10 Gb/s, 20 us-- r2 --40 Gb/s, 20 us-- d; two TcpDctcp flows (--cc) s -> d
//     from 0 s, 1448-byte segments, 16 MB receive buffers, ECN on; r1's bottleneck device a
//     1-packet device queue below RedQueueDisc marking at K = 65 packets on the instantaneous
//     queue (MinTh = MaxTh = 65, QW 1, not gentle, UseHardDrop off, 1000 packets); the other
//     devices a 10000-packet FIFO; 0.3 s, measured from 0.1 s. Diagnostics (not used by
//     validation/ns3_examples.py's table): --offset1=NS starts flow 1 NS nanoseconds after 0 s;
//     --sndBuf=BYTES sets the senders' SndBufSize (ns-3's default 131072 otherwise);
//     --trace=FILE writes one line per transmission start on r1's bottleneck device, "tx T FLOW
//     SEQ CE BYTES" (SEQ the number of the segment of 1448 bytes the first byte is in, from 1;
//     CE 1 if marked; BYTES the payload), for tracing against ackclock's
//     packet trace of r1->r2.
//
// Output, per flow i: flow<i>_goodput_mbps (sink bytes from --warmup to the end), flow<i>_mean_cwnd
// and flow<i>_peak_cwnd (segments, time-averaged from the flow's start), flow<i>_mean_srtt_s
// (time-averaged srtt once measured); and the bottleneck's mean_queue (packets in its queue disc
// and device queue, time-averaged from --warmup), drops (queue disc, traffic-control layer and
// device) and marks.
#include "common.h"

using namespace ns3;
using namespace validation;

namespace
{
FILE* traceFile = nullptr;

// The dctcp example's bottleneck: flow (port 5000 + i), segment number and CE mark of a segment.
void
DctcpTxBegin(Ptr<const Packet> p)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    c->RemoveHeader(ppp);
    Ipv4Header ip;
    c->RemoveHeader(ip);
    TcpHeader tcp;
    c->RemoveHeader(tcp);
    if (c->GetSize() == 0)
        return;
    std::fprintf(traceFile, "tx %.9f %u %u %d %u\n", Simulator::Now().GetSeconds(),
                 tcp.GetDestinationPort() - 5000u, tcp.GetSequenceNumber().GetValue() / 1448 + 1,
                 ip.GetEcn() == Ipv4Header::ECN_CE ? 1 : 0, c->GetSize());
}
} // namespace

int
main(int argc, char** argv)
{
    std::string example = "bbr", cc, validation = "cubic-50ms-no-ecn";
    double warmup = 0, stop = 0;
    uint64_t offset1 = 0;
    uint32_t sndBuf = 0;
    std::string trace;
    CommandLine cmd;
    cmd.AddValue("example", "bbr | pacing", example);
    cmd.AddValue("cc", "congestion control TypeId (default: the example's)", cc);
    cmd.AddValue("warmup", "goodput from this time (s)", warmup);
    cmd.AddValue("stop", "end of the run (s; default: the example's)", stop);
    cmd.AddValue("validation", "tcp-validation's case", validation);
    cmd.AddValue("offset1", "dctcp: flow 1 starts this many ns after 0 s", offset1);
    cmd.AddValue("trace", "dctcp: bottleneck transmissions to this file", trace);
    cmd.AddValue("sndBuf", "dctcp: the senders' SndBufSize (0: ns-3's default)", sndBuf);
    cmd.Parse(argc, argv);

    Ptr<NetDevice> bottleneck;
    Goodput goodput;
    FlowTraces flows;
    DeviceQueueMeter meter;
    NodeContainer c;
    if (example == "bbr")
    {
        flows.segment = 1448;
        stop = stop > 0 ? stop : 100;
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           StringValue(cc.empty() ? "ns3::TcpBbr" : cc));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4194304));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(6291456));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(flows.segment));
        Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", QueueSizeValue(QueueSize("1p")));
        Config::SetDefault("ns3::FifoQueueDisc::MaxSize", QueueSizeValue(QueueSize("100p")));
        c.Create(4); // sender 0, receiver 1, R1 2, R2 3
        PointToPointHelper slow, edge;
        slow.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        slow.SetChannelAttribute("Delay", StringValue("10ms"));
        edge.SetDeviceAttribute("DataRate", StringValue("1000Mbps"));
        edge.SetChannelAttribute("Delay", StringValue("5ms"));
        auto se = edge.Install(c.Get(0), c.Get(2));
        auto r12 = slow.Install(c.Get(2), c.Get(3));
        auto re = edge.Install(c.Get(3), c.Get(1));
        InternetStackHelper internet;
        internet.Install(c);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FifoQueueDisc");
        tch.SetQueueLimits("ns3::DynamicQueueLimits", "HoldTime", StringValue("1000ms"));
        tch.Install(se);
        tch.Install(re);
        Ipv4AddressHelper ipv4("10.0.0.0", "255.255.255.0");
        ipv4.Assign(r12);
        ipv4.NewNetwork();
        ipv4.Assign(se);
        ipv4.NewNetwork();
        auto ir = ipv4.Assign(re);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        BulkSend(c.Get(0), InetSocketAddress(ir.GetAddress(1), 50001), 0.1, stop);
        flows.Watch(0, 0.1);
        goodput.Add(TcpSink(c.Get(1), 50001));
        bottleneck = r12.Get(0);
        tch.Uninstall(bottleneck);
        tch.Install(bottleneck);
    }
    else if (example == "pacing")
    {
        stop = stop > 0 ? stop : 5;
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           StringValue(cc.empty() ? "ns3::TcpCubic" : cc));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
        Config::SetDefault("ns3::TcpSocketState::PaceInitialWindow", BooleanValue(true));
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
        Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", StringValue("4Gbps"));
        c.Create(6);
        PointToPointHelper reg, slow;
        reg.SetDeviceAttribute("DataRate", StringValue("40Mbps"));
        reg.SetChannelAttribute("Delay", StringValue("5ms"));
        slow.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        slow.SetChannelAttribute("Delay", StringValue("40ms"));
        auto d02 = reg.Install(c.Get(0), c.Get(2));
        auto d12 = reg.Install(c.Get(1), c.Get(2));
        auto d34 = reg.Install(c.Get(3), c.Get(4));
        auto d35 = reg.Install(c.Get(3), c.Get(5));
        auto d23 = slow.Install(c.Get(2), c.Get(3));
        InternetStackHelper stack;
        stack.Install(c);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc");
        tch.Install(d23);
        Ipv4AddressHelper ipv4;
        ipv4.SetBase("10.1.1.0", "255.255.255.0");
        ipv4.Assign(d02);
        ipv4.SetBase("10.1.2.0", "255.255.255.0");
        ipv4.Assign(d12);
        ipv4.SetBase("10.1.3.0", "255.255.255.0");
        ipv4.Assign(d23);
        ipv4.SetBase("10.1.4.0", "255.255.255.0");
        auto i4 = ipv4.Assign(d34);
        ipv4.SetBase("10.1.5.0", "255.255.255.0");
        auto i5 = ipv4.Assign(d35);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        goodput.Add(TcpSink(c.Get(4), 8080));
        goodput.Add(TcpSink(c.Get(5), 8080));
        Ptr<UniformRandomVariable> rv = CreateObject<UniformRandomVariable>();
        rv->SetStream(0);
        double t0 = rv->GetInteger(0, 1000) * 1e-6, t1 = rv->GetInteger(0, 1000) * 1e-6;
        BulkSend(c.Get(0), InetSocketAddress(i4.GetAddress(1), 8080), t0, stop);
        BulkSend(c.Get(1), InetSocketAddress(i5.GetAddress(1), 8080), t1, stop);
        flows.Watch(0, t0);
        flows.Watch(1, t1);
        std::printf("flow0_start_s %.6f\nflow1_start_s %.6f\n", t0, t1);
        bottleneck = d23.Get(0);
    }
    else if (example == "validation")
    {
        bool dctcp = validation.rfind("dctcp", 0) == 0;
        bool queueEcn = validation != "cubic-50ms-no-ecn";
        double rttMs = validation == "dctcp-10ms" ? 10 : validation == "dctcp-80ms" ? 80 : 50;
        NS_ABORT_MSG_UNLESS(dctcp || validation.rfind("cubic-50ms", 0) == 0,
                            "unknown --validation " << validation);
        flows.segment = 1448;
        stop = stop > 0 ? stop
                        : (validation == "dctcp-10ms" ? 15 : validation == "dctcp-80ms" ? 40 : 20);
        warmup = 5;
        std::string tcp = cc.empty() ? (dctcp ? "ns3::TcpDctcp" : "ns3::TcpCubic") : cc;
        TcpSetup setup;
        setup.segment = flows.segment;
        setup.sndBuf = setup.rcvBuf = 32768000;
        setup.initialCwnd = 10;
        setup.recoveryType = "ns3::TcpPrrRecovery";
        SetTcpDefaults(setup);
        Config::SetDefault("ns3::TcpCubic::TcpFriendliness", BooleanValue(false));
        if (dctcp)
        {
            Config::SetDefault("ns3::CoDelQueueDisc::CeThreshold", TimeValue(MilliSeconds(1)));
            Config::SetDefault("ns3::FqCoDelQueueDisc::CeThreshold", TimeValue(MilliSeconds(1)));
        }
        if (queueEcn)
        {
            Config::SetDefault("ns3::CoDelQueueDisc::UseEcn", BooleanValue(true));
            Config::SetDefault("ns3::FqCoDelQueueDisc::UseEcn", BooleanValue(true));
        }
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
        c.Create(4); // server 0, WR 1, LR 2, client 3
        PointToPointHelper p2p;
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("3p")));
        p2p.SetDeviceAttribute("DataRate", StringValue("1000Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        auto sd = p2p.Install(c.Get(1), c.Get(0));
        p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(rttMs / 2)));
        auto wl = p2p.Install(c.Get(1), c.Get(2));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        auto cd = p2p.Install(c.Get(2), c.Get(3));
        wl.Get(0)->SetAttribute("DataRate", StringValue("50Mbps"));
        InternetStackHelper stack;
        stack.Install(c);
        for (uint32_t node : {0u, 3u})
            c.Get(node)->GetObject<TcpL4Protocol>()->SetAttribute(
                "SocketType",
                TypeIdValue(TypeId::LookupByName(tcp)));
        TrafficControlHelper fq;
        fq.SetRootQueueDisc("ns3::FqCoDelQueueDisc");
        fq.SetQueueLimits("ns3::DynamicQueueLimits", "HoldTime", StringValue("1ms"));
        fq.Install(sd);
        fq.Install(wl.Get(1));
        fq.Install(cd);
        TrafficControlHelper codel;
        codel.SetRootQueueDisc("ns3::CoDelQueueDisc");
        codel.SetQueueLimits("ns3::DynamicQueueLimits", "HoldTime", StringValue("1ms"));
        codel.Install(wl.Get(0));
        Ipv4AddressHelper ipv4;
        ipv4.SetBase("10.1.2.0", "255.255.255.0");
        ipv4.Assign(sd);
        ipv4.SetBase("172.16.1.0", "255.255.255.0");
        ipv4.Assign(wl);
        ipv4.SetBase("192.168.2.0", "255.255.255.0");
        auto ci = ipv4.Assign(cd);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        BulkSend(c.Get(0), InetSocketAddress(ci.GetAddress(1), 5000), 5, stop - 1, 7500000000);
        flows.Watch(0, 5.0);
        goodput.Add(TcpSink(c.Get(3), 5000, 5));
        bottleneck = wl.Get(0);
    }
    else if (example == "dctcp")
    {
        // examples/dctcp.py's scenario: the DCTCP paper's 10 Gb/s, K = 65 result.
        flows.segment = 1448;
        stop = stop > 0 ? stop : 0.3;
        warmup = stop / 3;
        TcpSetup setup;
        setup.segment = flows.segment;
        setup.rcvBuf = 16 << 20;
        setup.sndBuf = sndBuf;
        setup.socketType = cc.empty() ? "ns3::TcpDctcp" : cc;
        SetTcpDefaults(setup);
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
        c.Create(4); // s 0, r1 1, r2 2, d 3
        PointToPointHelper fast, slow;
        fast.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
        fast.SetChannelAttribute("Delay", StringValue("10us"));
        fast.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("10000p")));
        auto d01 = fast.Install(c.Get(0), c.Get(1));
        fast.SetChannelAttribute("Delay", StringValue("20us"));
        auto d23 = fast.Install(c.Get(2), c.Get(3));
        slow.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        slow.SetChannelAttribute("Delay", StringValue("20us"));
        slow.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1p")));
        auto d12 = slow.Install(c.Get(1), c.Get(2));
        InternetStackHelper stack;
        stack.Install(c);
        // Step marking on the instantaneous queue (QW 1, MinTh = MaxTh = K, not gentle, ECN
        // marks instead of drops): RedQueueDisc::DoEnqueue's forced mark at qAvg >= MaxTh.
        TrafficControlHelper red;
        red.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", QueueSizeValue(QueueSize("1000p")),
                             "MinTh", DoubleValue(65), "MaxTh", DoubleValue(65), "QW",
                             DoubleValue(1), "Gentle", BooleanValue(false), "UseEcn",
                             BooleanValue(true), "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(1502), "LinkBandwidth",
                             DataRateValue(DataRate("10Gbps")), "LinkDelay",
                             TimeValue(MicroSeconds(20)));
        red.Install(d12.Get(0));
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                              QueueSizeValue(QueueSize("10000p")));
        fifo.Install(d01);
        fifo.Install(d23);
        fifo.Install(d12.Get(1));
        Ipv4AddressHelper ipv4("10.0.0.0", "255.255.255.0");
        ipv4.Assign(d01);
        ipv4.NewNetwork();
        ipv4.Assign(d12);
        ipv4.NewNetwork();
        auto i23 = ipv4.Assign(d23);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        for (uint16_t i = 0; i < 2; ++i)
        {
            double start = i == 1 ? offset1 * 1e-9 : 0.0;
            BulkSend(c.Get(0), InetSocketAddress(i23.GetAddress(1), 5000 + i), start, stop);
            goodput.Add(TcpSink(c.Get(3), 5000 + i));
            flows.Watch(0, start, i);
        }
        bottleneck = d12.Get(0);
        if (!trace.empty())
        {
            traceFile = std::fopen(trace.c_str(), "w");
            bottleneck->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&DctcpTxBegin));
        }
    }
    else
    {
        NS_FATAL_ERROR("unknown --example " << example);
    }

    meter.Watch(bottleneck);
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
