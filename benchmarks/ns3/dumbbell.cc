// Issue 10's scenarios 2 and 3 in ns-3: N TCP flows, each on its own sender and receiver,
// over a 1 Gb/s, 10 ms bottleneck with a 1000-packet buffer (ns-2 accounting: 999 waiting),
// 10 Gb/s 1 ms access links, 1448-byte segments with timestamps (52 B of IP and TCP headers,
// 1500 B packets), for T seconds; as benchmarks/ns2/dumbbell.tcl and
// benchmarks/ackclock/dumbbell.toml.
//
//   dumbbell N T VARIANT        (VARIANT: newreno or cubic)
//
// After the first retransmission timeout ns-3 departs from ns-2 here: duplicate ACKs of the ACK
// that ends its timeout recovery start a spurious fast recovery (TcpSocketBase::DupAck counts
// them, ns-2's NewReno does not; docs/performance.md, "ns-3"). That is ns-3's TCP, not this
// configuration; ACKCLOCK_NS3_NS2_GUARD=1 (common.h) measures what it costs.
//
// With ACKCLOCK_NS3_TRACE=FILE in the environment it also writes a trace for investigation (not
// used by benchmarks/compare.py), one "time event flow value..." a line: every sender's cwnd and
// ssthresh (segments), congestion state and RTO changes; flow 0's data segments sent ("tx",
// and "retx" again for retransmissions) and ACKs received (the next segment expected), in
// segment numbers from 0; the bottleneck's queue length every millisecond and its drops (TcDrop
// at the left router: flow and segment); at the end, the bytes each sink received.
#include "common.h"

#include <fstream>

using namespace ns3;

namespace
{

std::ofstream g_trace;

double
Now()
{
    return Simulator::Now().GetSeconds();
}

void
TraceSocket(uint32_t flow, Ptr<TcpSocketBase> s, uint32_t segment)
{
    s->TraceConnectWithoutContext(
        "CongestionWindow", Callback<void, uint32_t, uint32_t>([=](uint32_t, uint32_t v) {
            g_trace << Now() << " cwnd " << flow << " " << double(v) / segment << "\n";
        }));
    s->TraceConnectWithoutContext(
        "SlowStartThreshold", Callback<void, uint32_t, uint32_t>([=](uint32_t, uint32_t v) {
            g_trace << Now() << " ssth " << flow << " " << double(v) / segment << "\n";
        }));
    s->TraceConnectWithoutContext(
        "CongState",
        Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
            [=](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v) {
                g_trace << Now() << " state " << flow << " "
                        << TcpSocketState::TcpCongStateName[v] << "\n";
            }));
    s->TraceConnectWithoutContext("RTO", Callback<void, Time, Time>([=](Time, Time v) {
                                      g_trace << Now() << " rto " << flow << " "
                                              << v.GetSeconds() << "\n";
                                  }));
    if (flow != 0)
    {
        return;
    }
    s->TraceConnectWithoutContext(
        "Tx",
        Callback<void, Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>>(
            [=](Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>) {
                if (p->GetSize() > 0)
                {
                    g_trace << Now() << " tx " << flow << " "
                            << (h.GetSequenceNumber().GetValue() - 1) / segment << "\n";
                }
            }));
    s->TraceConnectWithoutContext(
        "Retransmission",
        Callback<void,
                 Ptr<const Packet>,
                 const TcpHeader&,
                 const Address&,
                 const Address&,
                 Ptr<const TcpSocketBase>>([=](Ptr<const Packet>,
                                               const TcpHeader& h,
                                               const Address&,
                                               const Address&,
                                               Ptr<const TcpSocketBase>) {
            g_trace << Now() << " retx " << flow << " "
                    << (h.GetSequenceNumber().GetValue() - 1) / segment << "\n";
        }));
    s->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>>(
            [=](Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>) {
                if (h.GetFlags() & TcpHeader::ACK)
                {
                    g_trace << Now() << " ack " << flow << " "
                            << (h.GetAckNumber().GetValue() - 1) / segment << "\n";
                }
            }));
}

void
SampleQueue(Ptr<Queue<Packet>> q)
{
    g_trace << Now() << " queue - " << q->GetNPackets() << "\n";
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, q);
}

// Connects the traces once the BulkSend applications have made their sockets (at time 0).
void
StartTrace(NodeContainer senders,
           Ptr<Node> left,
           Ptr<NetDevice> bottleneck,
           uint32_t senderBase,
           uint32_t segment)
{
    for (uint32_t i = 0; i < senders.GetN(); ++i)
    {
        auto tcp = senders.Get(i)->GetObject<TcpL4Protocol>();
        ObjectVectorValue sockets;
        tcp->GetAttribute("SocketList", sockets);
        TraceSocket(i, DynamicCast<TcpSocketBase>(sockets.Get(0)), segment);
    }
    left->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop", Callback<void, Ptr<const Packet>>([=](Ptr<const Packet> p) {
            // The packet carries its IP header here; the sender's address names the flow (each
            // sender's access link and its receiver's egress link take a /30 in turn).
            Ptr<Packet> q = p->Copy();
            Ipv4Header ip;
            TcpHeader h;
            q->RemoveHeader(ip);
            q->RemoveHeader(h);
            if (q->GetSize() > 0)
            {
                g_trace << Now() << " drop " << (ip.GetSource().Get() - senderBase) / 8 << " "
                        << (h.GetSequenceNumber().GetValue() - 1) / segment << "\n";
            }
        }));
    SampleQueue(DynamicCast<PointToPointNetDevice>(bottleneck)->GetQueue());
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 4)
    {
        std::fprintf(stderr, "usage: dumbbell N T newreno|cubic\n");
        return 2;
    }
    const uint32_t n = std::stoul(argv[1]);
    const double t = std::stod(argv[2]);
    const std::string variant = argv[3];
    bench::TcpDefaults(1448, 2, 10000, true);
    if (variant == "cubic")
    {
        // ns-2's Agent/TCP/Linux with a Sack1 sink: CUBIC with SACK.
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpCubic::GetTypeId()));
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    }
    else if (variant == "newreno")
    {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           TypeIdValue(TcpNewReno::GetTypeId()));
    }
    else
    {
        std::fprintf(stderr, "unknown variant %s\n", variant.c_str());
        return 2;
    }

    NodeContainer routers(2), senders(n), receivers(n);
    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(senders);
    stack.Install(receivers);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
    // ns-2: queue-limit 1000 on left->right; the other direction keeps ns-2's default 50.
    bench::Link bottleneck =
        bench::MakeLink(routers.Get(0), routers.Get(1), "1Gbps", "10ms", 999, 49, addr);
    std::vector<bench::Link> access, egress;
    for (uint32_t i = 0; i < n; ++i)
    {
        access.push_back(
            bench::MakeLink(senders.Get(i), routers.Get(0), "10Gbps", "1ms", 9999, 49, addr));
        egress.push_back(
            bench::MakeLink(routers.Get(1), receivers.Get(i), "10Gbps", "1ms", 9999, 49, addr));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        sinks.push_back(bench::BulkFlow(senders.Get(i), receivers.Get(i),
                                        egress[i].ifaces.GetAddress(1), 5000, 0.0, 1448));
    }
    std::vector<Ptr<Node>> senderNodes(senders.Begin(), senders.End());
    std::vector<Ptr<NetDevice>> senderDevices;
    for (auto& l : access)
    {
        senderDevices.push_back(l.devices.Get(0));
    }
    bench::Ns2Guards guards(senderNodes, senderDevices);
    if (const char* file = std::getenv("ACKCLOCK_NS3_TRACE"))
    {
        g_trace.open(file);
        g_trace.precision(9);
        Simulator::Schedule(NanoSeconds(1),
                            &StartTrace,
                            senders,
                            routers.Get(0),
                            bottleneck.devices.Get(0),
                            access[0].ifaces.GetAddress(0).Get(),
                            1448);
    }
    Simulator::Stop(Seconds(t));
    Simulator::Run();
    uint64_t delivered = 0, data = 0, acks = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        delivered += sinks[i]->GetTotalRx();
        if (g_trace.is_open())
        {
            g_trace << t << " delivered " << i << " " << sinks[i]->GetTotalRx() << "\n";
        }
        data += bench::Sent(access[i].devices.Get(0));
        acks += bench::Sent(access[i].devices.Get(1));
    }
    bench::Report(delivered, data, acks);
    guards.Report();
    Simulator::Destroy();
    return 0;
}
