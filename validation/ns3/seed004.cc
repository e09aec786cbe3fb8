// Seed 004's base scenario in ns-3.44: n1, n2 -> n3 -> n4 -> n5, n6, every link 10 ms, access
// links 10 Mb/s, bottleneck n3-n4 1.5 Mb/s; one bulk TCP flow (FTP-like BulkSend) n1 -> n5.
//
// What is set explicitly (everything else is ns-3.44's TcpSocket / TcpSocketBase default:
// InitialCwnd 10, DelAckCount 2, DelAckTimeout 200 ms, MinRto 1 s (--minRto), ClockGranularity
// 1 ms, timestamps on, window scaling on, LimitedTransmit on, Snd/RcvBufSize 131072 B (--buf;
// --rcvbuf sets the receive buffer alone, for seed 004's flow-control question),
// initial ssthresh unbounded, SACK on (--sack), PRR recovery (--recovery)):
//   SegmentSize = --seg (1200, the study's packet size; ns-3's default is 536),
//   SocketType  = --cc (TcpLinuxReno: the study's Reno, from examples/tcp/tcp-linux-reno.cc;
//                 ns-3.44's default is TcpCubic, ns-3.34's TcpNewReno),
//   every PointToPoint device queue = DropTailQueue of --q packets on n3's bottleneck device,
//   100 packets elsewhere (ns-3's default 100p), and --qdisc: "none" uninstalls the traffic-
//   control layer's root queue disc (pure device DropTail, as ackclock models the link),
//   "default" keeps what Ipv4AddressHelper::Assign installs (FqCoDel, 10240p, above the device),
//   "fqcodel" keeps it but on n3's bottleneck device, whose root queue disc is a 100-packet
//   FqCoDel (examples/seed004_queues.py's fq_codel row; --q=1 for a 1-packet device queue).
//   --err: RateErrorModel, ERROR_UNIT_PACKET, on n4's bottleneck device (data direction only).
//   --errLog=FILE: one line per packet n4's bottleneck device receives, "n time dropped flags
//   seq payload" (n from 1 over every packet, the SYN and the handshake's ACK included; dropped
//   1 where the error model took it, PointToPointNetDevice's PhyRxDrop trace), to replay the
//   same losses in ackclock (validation/seed004_vs_ns3.py --replay).
//   --cbr: a UDP flow n2 -> n6 of --cbrSize-byte payloads at this rate (b/s, 0 = none), each gap
//   jittered uniformly by up to half the interval either way (examples/seed004.toml's CBR flow,
//   ns-2's random_ 1; ns-3's OnOffApplication has no such jitter, so the program has its own;
//   --cbrJitter=0: exact gaps, examples/seed004_queues.py's CBR).
//   --cc2: a second TCP flow n2 -> n6 with this congestion control (node n2's TcpL4Protocol
//   SocketType), examples/seed004_two_flows.py's "Reno vs Westwood" case; --appRate: each TCP
//   flow is fed by the study's MyApp (ns-3's tutorial fifth.cc): from --appStart, a --seg-byte
//   write every seg x 8 / rate seconds, dropped by the socket when its send buffer is full.
//   --flowmon: FlowMonitor on every node (FlowMonitorHelper::InstallAll), and at the end one
//   line per flow as the study printed it (tx/rx packets and bytes, first transmission and last
//   reception): "flowmon SRC DST PROTO tx_packets rx_packets tx_bytes rx_bytes first_tx last_rx".
//   --cbrStop: the CBR stops at this time (s; 0: runs to the end).
// Output: a summary on stdout; with --prefix, P.cwnd/P.rtt/P.srtt/P.rto/P.ssth traces (time value)
// of flow 1 and P.tcp (time flow variable value) of both TCP flows.
//
//   seed004 --time=60 --q=100 --err=0 --cc=ns3::TcpLinuxReno --sack=1 --recovery=ns3::TcpPrrRecovery
#include "common.h"

#include "ns3/flow-monitor-helper.h"
#include "ns3/ipv4-flow-classifier.h"

#include <fstream>

using namespace ns3;
using namespace validation;

static std::string gPrefix;
static std::ofstream fCwnd, fRtt, fSrtt, fRto, fSsth;
static uint32_t gSeg = 1200;
static uint64_t gRetx = 0;

static void
CwndTr(uint32_t, uint32_t v)
{
    fCwnd << Simulator::Now().GetSeconds() << " " << double(v) / gSeg << "\n";
}
static void
SsthTr(uint32_t, uint32_t v)
{
    fSsth << Simulator::Now().GetSeconds() << " " << double(v) / gSeg << "\n";
}
static void
RttTr(Time, Time v)
{
    fRtt << Simulator::Now().GetSeconds() << " " << v.GetSeconds() << "\n";
}
static void
SrttTr(Time, Time v)
{
    fSrtt << Simulator::Now().GetSeconds() << " " << v.GetSeconds() << "\n";
}
static void
RtoTr(Time, Time v)
{
    fRto << Simulator::Now().GetSeconds() << " " << v.GetSeconds() << "\n";
}
static void
RetxTr(Ptr<const Packet>, const TcpHeader&, const Address&, const Address&, Ptr<const TcpSocketBase>)
{
    ++gRetx;
}

static std::ofstream fErr;
static uint64_t gArrivals = 0;

static void
ErrTr(bool dropped, Ptr<const Packet> p)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    TcpHeader tcp;
    c->RemoveHeader(ppp);
    c->RemoveHeader(ip);
    c->RemoveHeader(tcp);
    fErr << ++gArrivals << " " << Simulator::Now().GetSeconds() << " " << int(dropped) << " "
         << int(tcp.GetFlags()) << " " << tcp.GetSequenceNumber().GetValue() << " "
         << c->GetSize() << "\n";
}

// Without a root queue disc, the traffic-control layer drops a packet whose device queue is
// stopped (full): the device queue itself never overflows. Its TcDrop trace on n3 counts these.
static uint64_t gTcDrops = 0;

// P.tcp: "time flow variable value" on every change of each flow's cwnd, ssthresh, bytes in
// flight (segments) and congestion state (TcpSocketState::TcpCongState_t), flow 1 and 2.
static std::ofstream fTcp;

static void
FlowTr(std::string ctx, uint32_t, uint32_t v)
{
    auto sp = ctx.find(' ');
    fTcp << Simulator::Now().GetSeconds() << " " << ctx.substr(0, sp) << " "
         << ctx.substr(sp + 1) << " " << double(v) / gSeg << "\n";
}

static void
StateTr(std::string ctx, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v)
{
    fTcp << Simulator::Now().GetSeconds() << " " << ctx << " state " << int(v) << "\n";
}

// Flow 1's retransmission timeouts: its entries into CA_LOSS (TcpSocketBase::ReTxTimeout).
static uint64_t gTimeouts = 0;

static void
LossTr(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v)
{
    gTimeouts += v == TcpSocketState::CA_LOSS;
}

static void
Connect()
{
    std::string base = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(base + "Retransmission", MakeCallback(&RetxTr));
    Config::ConnectWithoutContext(base + "CongState", MakeCallback(&LossTr));
    if (gPrefix.empty())
        return;
    Config::ConnectWithoutContext(base + "CongestionWindow", MakeCallback(&CwndTr));
    Config::ConnectWithoutContext(base + "SlowStartThreshold", MakeCallback(&SsthTr));
    Config::ConnectWithoutContext(base + "LastRTT", MakeCallback(&RttTr));
    Config::ConnectWithoutContext(base + "RTT", MakeCallback(&SrttTr));
    Config::ConnectWithoutContext(base + "RTO", MakeCallback(&RtoTr));
    fTcp.open(gPrefix + ".tcp");
    for (int node : {0, 1})
    {
        std::string b =
            "/NodeList/" + std::to_string(node) + "/$ns3::TcpL4Protocol/SocketList/0/";
        std::string f = "flow" + std::to_string(node + 1);
        for (auto [src, name] : {std::pair{"CongestionWindow", "cwnd"},
                                 {"SlowStartThreshold", "ssthresh"},
                                 {"BytesInFlight", "inflight"}})
        {
            Config::MatchContainer m = Config::LookupMatches(b);
            if (m.GetN() == 0)
                continue;
            m.Get(0)->TraceConnect(src, f + " " + name, MakeCallback(&FlowTr));
        }
        Config::MatchContainer m = Config::LookupMatches(b);
        if (m.GetN())
            m.Get(0)->TraceConnect("CongState", f, MakeCallback(&StateTr));
    }
}


// A constant-bit-rate UDP sender whose gaps are interval x (1 + U(-0.5, 0.5)) (jitter false:
// interval).
class JitterCbr : public Application
{
  public:
    JitterCbr(Address to, uint32_t size, double rate, bool jitter)
        : m_to(to),
          m_size(size),
          m_interval(size * 8.0 / rate)
    {
        m_jitter = CreateObject<UniformRandomVariable>();
        m_jitter->SetAttribute("Min", DoubleValue(jitter ? -0.5 : 0));
        m_jitter->SetAttribute("Max", DoubleValue(jitter ? 0.5 : 0));
    }

  private:
    void StartApplication() override
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_socket->Bind();
        m_socket->Connect(m_to);
        Send();
    }

    void StopApplication() override
    {
        m_event.Cancel();
    }

    void Send()
    {
        m_socket->Send(Create<Packet>(m_size));
        m_event = Simulator::Schedule(Seconds(m_interval * (1 + m_jitter->GetValue())),
                                      &JitterCbr::Send, this);
    }

    Address m_to;
    uint32_t m_size;
    double m_interval;
    Ptr<UniformRandomVariable> m_jitter;
    Ptr<Socket> m_socket;
    EventId m_event;
};

// The study's MyApp: a fixed-size write into a TCP socket at a constant rate; a write the
// socket refuses (send buffer full) is lost, as MyApp ignores Send's result.
class Writer : public Application
{
  public:
    Writer(Address to, uint32_t size, double rate)
        : m_to(to),
          m_size(size),
          m_interval(size * 8.0 / rate)
    {
    }

  private:
    void StartApplication() override
    {
        m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        m_socket->Bind();
        m_socket->Connect(m_to);
        Send();
    }

    void StopApplication() override
    {
        m_event.Cancel();
    }

    void Send()
    {
        m_socket->Send(Create<Packet>(m_size));
        m_event = Simulator::Schedule(Seconds(m_interval), &Writer::Send, this);
    }

    Address m_to;
    uint32_t m_size;
    double m_interval;
    Ptr<Socket> m_socket;
    EventId m_event;
};

int
main(int argc, char** argv)
{
    double t = 60, warm = 10, err = 0, cbr = 0;
    uint32_t cbrSize = 1200;
    uint32_t q = 100, buf = 131072, rcvbuf = 0, delAck = 2;
    std::string cc = "ns3::TcpLinuxReno", recovery = "ns3::TcpPrrRecovery", qdisc = "none";
    bool sack = true;
    double minRto = 1.0, delAckTimeout = 0.2;
    uint32_t iw = 10;
    CommandLine cmd;
    cmd.AddValue("time", "duration s", t);
    cmd.AddValue("warmup", "warm-up s", warm);
    cmd.AddValue("q", "bottleneck device queue (packets)", q);
    cmd.AddValue("err", "packet error rate on the bottleneck", err);
    cmd.AddValue("cc", "congestion control TypeId", cc);
    cmd.AddValue("recovery", "recovery TypeId", recovery);
    cmd.AddValue("sack", "SACK", sack);
    cmd.AddValue("seg", "segment size", gSeg);
    cmd.AddValue("buf", "Snd/RcvBufSize bytes", buf);
    cmd.AddValue("rcvbuf", "RcvBufSize bytes (0: --buf)", rcvbuf);
    cmd.AddValue("minRto", "min RTO s", minRto);
    cmd.AddValue("delAck", "DelAckCount", delAck);
    cmd.AddValue("delAckTimeout", "DelAckTimeout s", delAckTimeout);
    cmd.AddValue("iw", "InitialCwnd", iw);
    cmd.AddValue("qdisc", "none | default | fqcodel", qdisc);
    cmd.AddValue("cbr", "CBR rate n2 -> n6 (b/s, 0 = none)", cbr);
    cmd.AddValue("cbrSize", "CBR payload bytes", cbrSize);
    bool cbrJitter = true;
    cmd.AddValue("cbrJitter", "the CBR's gaps jittered (false: exact)", cbrJitter);
    cmd.AddValue("prefix", "trace file prefix", gPrefix);
    std::string errLog;
    cmd.AddValue("errLog", "log of the packets n4's bottleneck device receives", errLog);
    std::string cc2;
    double appRate = 0, appStart = 1;
    cmd.AddValue("cc2", "second TCP flow n2 -> n6 with this TypeId (empty: none)", cc2);
    cmd.AddValue("appRate", "TCP flows fed by MyApp at this rate (b/s; 0: BulkSend)", appRate);
    cmd.AddValue("appStart", "MyApp's start (s)", appStart);
    bool flowmon = false;
    double cbrStop = 0;
    cmd.AddValue("flowmon", "FlowMonitor's per-flow counts at the end", flowmon);
    cmd.AddValue("cbrStop", "the CBR stops at this time (s; 0: never)", cbrStop);
    cmd.Parse(argc, argv);

    TcpSetup setup;
    setup.socketType = cc;
    setup.recoveryType = recovery;
    setup.segment = gSeg;
    setup.sndBuf = buf;
    setup.rcvBuf = rcvbuf ? rcvbuf : buf;
    setup.delAckCount = delAck;
    setup.initialCwnd = iw;
    SetTcpDefaults(setup);
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(Seconds(delAckTimeout)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));

    NodeContainer n(6); // n1..n6 = index 0..5
    InternetStackHelper stack;
    stack.Install(n);
    Ipv4AddressHelper addr("10.1.0.0", "255.255.255.0");
    PointToPointHelper fast, slow;
    fast.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    fast.SetChannelAttribute("Delay", StringValue("10ms"));
    slow.SetDeviceAttribute("DataRate", StringValue("1.5Mbps"));
    slow.SetChannelAttribute("Delay", StringValue("10ms"));
    auto d13 = fast.Install(n.Get(0), n.Get(2));
    auto d23 = fast.Install(n.Get(1), n.Get(2));
    auto d34 = slow.Install(n.Get(2), n.Get(3));
    auto d45 = fast.Install(n.Get(3), n.Get(4));
    auto d46 = fast.Install(n.Get(3), n.Get(5));
    DynamicCast<PointToPointNetDevice>(d34.Get(0))
        ->GetQueue()
        ->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, q));
    Ipv4InterfaceContainer i45, i46;
    for (auto* d : {&d13, &d23, &d34, &d45, &d46})
    {
        auto ifc = addr.Assign(*d);
        if (d == &d45)
            i45 = ifc;
        if (d == &d46)
            i46 = ifc;
        addr.NewNetwork();
        if (qdisc == "none")
        {
            TrafficControlHelper tch;
            tch.Uninstall(*d);
        }
        else if (qdisc == "fqcodel" && d == &d34)
        {
            // FqCoDel alone at the bottleneck: a 100-packet FqCoDelQueueDisc (its other
            // attributes ns-3's defaults) as n3's root queue disc, above the --q device queue.
            TrafficControlHelper tch;
            tch.Uninstall(d34.Get(0));
            tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize",
                                 QueueSizeValue(QueueSize("100p")));
            tch.Install(d34.Get(0));
        }
    }
    if (err > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(err));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        d34.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    if (!errLog.empty())
    {
        fErr.open(errLog);
        fErr.precision(12);
        d34.Get(1)->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&ErrTr, true));
        d34.Get(1)->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&ErrTr, false));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    if (!gPrefix.empty())
    {
        fCwnd.open(gPrefix + ".cwnd");
        fRtt.open(gPrefix + ".rtt");
        fSrtt.open(gPrefix + ".srtt");
        fRto.open(gPrefix + ".rto");
        fSsth.open(gPrefix + ".ssth");
    }
    uint16_t port = 5000;
    // Sinks: the TCP flow's, then the CBR's and the second TCP flow's when there are.
    Goodput goodput;
    auto sink = TcpSink(n.Get(4), port);
    goodput.Add(sink);
    double tcpStart = 0;
    if (appRate > 0)
    {
        auto app = Create<Writer>(InetSocketAddress(i45.GetAddress(1), port), gSeg, appRate);
        n.Get(0)->AddApplication(app);
        app->SetStartTime(Seconds(appStart));
        tcpStart = appStart;
    }
    else
        BulkSend(n.Get(0), InetSocketAddress(i45.GetAddress(1), port), 0, 0, 0, gSeg);
    Simulator::Schedule(Seconds(tcpStart) + NanoSeconds(1), &Connect);
    Ptr<PacketSink> sink2;
    if (!cc2.empty())
    {
        n.Get(1)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(TypeId::LookupByName(cc2)));
        sink2 = TcpSink(n.Get(5), port + 2);
        Address to = InetSocketAddress(i46.GetAddress(1), port + 2);
        if (appRate > 0)
        {
            auto app = Create<Writer>(to, gSeg, appRate);
            n.Get(1)->AddApplication(app);
            app->SetStartTime(Seconds(appStart));
        }
        else
            BulkSend(n.Get(1), to, 0, 0, 0, gSeg);
    }
    CountTcDrops(n.Get(2), &gTcDrops);
    Ptr<PacketSink> cbrSink;
    if (cbr > 0)
    {
        PacketSinkHelper udpSink("ns3::UdpSocketFactory",
                                 InetSocketAddress(Ipv4Address::GetAny(), port + 1));
        auto us = udpSink.Install(n.Get(5));
        us.Start(Seconds(0));
        cbrSink = DynamicCast<PacketSink>(us.Get(0));
        auto app = Create<JitterCbr>(InetSocketAddress(i46.GetAddress(1), port + 1), cbrSize, cbr,
                                     cbrJitter);
        n.Get(1)->AddApplication(app);
        app->SetStartTime(Seconds(0));
        if (cbrStop > 0)
            app->SetStopTime(Seconds(cbrStop));
    }
    if (cbrSink)
        goodput.Add(cbrSink);
    if (sink2)
        goodput.Add(sink2);
    Simulator::Schedule(Seconds(warm), [&]() { goodput.Mark(); });

    FlowMonitorHelper fmHelper;
    Ptr<FlowMonitor> monitor;
    if (flowmon)
        monitor = fmHelper.InstallAll();
    Simulator::Stop(Seconds(t));
    Simulator::Run();
    if (monitor)
    {
        monitor->CheckForLostPackets();
        auto classifier = DynamicCast<Ipv4FlowClassifier>(fmHelper.GetClassifier());
        for (const auto& [id, st] : monitor->GetFlowStats())
        {
            auto ft = classifier->FindFlow(id);
            std::printf("flowmon %u.%u %u.%u %u %llu %llu %llu %llu %.9f %.9f\n",
                        (ft.sourceAddress.Get() >> 8) & 0xff, ft.sourceAddress.Get() & 0xff,
                        (ft.destinationAddress.Get() >> 8) & 0xff,
                        ft.destinationAddress.Get() & 0xff, unsigned(ft.protocol),
                        (unsigned long long)st.txPackets, (unsigned long long)st.rxPackets,
                        (unsigned long long)st.txBytes, (unsigned long long)st.rxBytes,
                        st.timeFirstTxPacket.GetSeconds(), st.timeLastRxPacket.GetSeconds());
        }
    }
    auto bq = DynamicCast<PointToPointNetDevice>(d34.Get(0))->GetQueue();
    uint64_t rx = sink->GetTotalRx();
    std::printf("goodput_mbps_window %.4f\n", goodput.Mbps(0, warm, t));
    std::printf("goodput_mbps_all %.4f\n", rx * 8.0 / t / 1e6);
    if (cbrSink)
        std::printf("cbr_goodput_mbps_window %.4f\n", goodput.Mbps(1, warm, t));
    if (sink2)
        std::printf("flow2_goodput_mbps_window %.4f\n", goodput.Mbps(cbrSink ? 2 : 1, warm, t));
    uint64_t qdDrops = 0;
    if (auto qd = d34.Get(0)->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(d34.Get(0)))
        qdDrops = qd->GetStats().nTotalDroppedPackets;
    std::printf("bneck_qdisc_drops %llu\n", (unsigned long long)qdDrops);
    std::printf("n3_tc_drops %llu\n", (unsigned long long)gTcDrops);
    std::printf("delivered_bytes %llu\n", (unsigned long long)rx);
    std::printf("retransmissions %llu\n", (unsigned long long)gRetx);
    std::printf("timeouts %llu\n", (unsigned long long)gTimeouts);
    std::printf("bneck_dev_drops %u bneck_dev_sent %u\n", bq->GetTotalDroppedPackets(),
                bq->GetTotalReceivedPackets());
    Simulator::Destroy();
    return 0;
}
