// Shared by the ns-3 benchmark programs (compiled by benchmarks/sims.py against the PyPI `ns3`
// wheel's headers and release-built libraries; see docs/performance.md).
//
// Every link is a PointToPoint link whose device queue is the only queue (no queue disc: ns-3
// would otherwise put FQ-CoDel above the device), so it behaves like ns-2's DropTail link:
// one packet on the line, the rest waiting in a FIFO. With no queue disc the drops of a full
// device queue are not the queue's: the device stops its transmission queue when it cannot take
// one more packet (NetDeviceQueue::PacketEnqueued, WouldOverflow) and the traffic-control layer
// discards what IP hands it meanwhile (TrafficControlLayer::Send), traced as the node's
// $ns3::TrafficControlLayer/TcDrop, not the device queue's Drop or the device's MacTxDrop. The
// buffer is still the device queue's limit.
#ifndef ACKCLOCK_BENCH_NS3_COMMON_H
#define ACKCLOCK_BENCH_NS3_COMMON_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

namespace bench
{

using namespace ns3;

// A duplex point-to-point link between a and b, `waiting` packets of device queue each way
// (ns-2's queue-limit N holds N - 1 waiting packets besides the one on the line: callers
// pass N - 1). Returns the two devices (a's first) and their addresses.
struct Link
{
    NetDeviceContainer devices;
    Ipv4InterfaceContainer ifaces;
};

inline Link
MakeLink(Ptr<Node> a,
         Ptr<Node> b,
         const std::string& rate,
         const std::string& delay,
         uint32_t waitingAb,
         uint32_t waitingBa,
         Ipv4AddressHelper& addr)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    Link l;
    l.devices = p2p.Install(a, b);
    auto setLimit = [](Ptr<NetDevice> d, uint32_t n) {
        DynamicCast<PointToPointNetDevice>(d)->GetQueue()->SetMaxSize(
            QueueSize(QueueSizeUnit::PACKETS, n));
    };
    setLimit(l.devices.Get(0), waitingAb);
    setLimit(l.devices.Get(1), waitingBa);
    l.ifaces = addr.Assign(l.devices);
    addr.NewNetwork();
    TrafficControlHelper tch;
    tch.Uninstall(l.devices);
    return l;
}

// Packets a device has put on its line so far (accepted into its queue; drops excluded).
inline uint64_t
Sent(Ptr<NetDevice> d)
{
    return DynamicCast<PointToPointNetDevice>(d)->GetQueue()->GetTotalReceivedPackets();
}

// TCP options common to every scenario, as in ns-2's one-way Agent/TCP: no delayed ACKs unless
// the scenario says so, the RFC 6582 NewReno recovery (no PRR), a 200 ms minimum RTO on a 10 ms
// timer granularity (ns-2's tcpTick_), initial window from the caller, receive and send buffers
// as ns-2's window_ (in segments), no SACK (the caller turns it on where ns-2's agent has it).
inline void
TcpDefaults(uint32_t segment, uint32_t initialCwnd, uint32_t windowSegments, bool timestamps)
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(windowSegments * segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(windowSegments * segment));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(10)));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
}

// One bulk-transfer flow from src to dst (whose address is dstAddr), starting at `start`.
inline Ptr<PacketSink>
BulkFlow(Ptr<Node> src, Ptr<Node> dst, Ipv4Address dstAddr, uint16_t port, double start,
         uint32_t sendSize)
{
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(dst);
    sinkApp.Start(Seconds(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(dstAddr, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(0));
    bulk.SetAttribute("SendSize", UintegerValue(sendSize));
    bulk.Install(src).Start(Seconds(start));
    return DynamicCast<PacketSink>(sinkApp.Get(0));
}

// The common report, one "key value" a line (benchmarks/sims.py reads it):
// delivered_bytes: payload delivered in order to the sinks; data_sent: data packets the senders
// put on their access links (retransmissions included); acks_received: ACKs the senders'
// access links brought back; hops_exact: packets every device put on its line.
inline void
Report(uint64_t deliveredBytes, uint64_t dataSent, uint64_t acksReceived)
{
    uint64_t exact = 0;
    for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        for (uint32_t i = 0; i < (*n)->GetNDevices(); ++i)
        {
            if (auto p2p = DynamicCast<PointToPointNetDevice>((*n)->GetDevice(i)))
            {
                exact += p2p->GetQueue()->GetTotalReceivedPackets();
            }
        }
    }
    std::printf("delivered_bytes %llu\n", (unsigned long long)deliveredBytes);
    std::printf("data_sent %llu\n", (unsigned long long)dataSent);
    std::printf("acks_received %llu\n", (unsigned long long)acksReceived);
    std::printf("hops_exact %llu\n", (unsigned long long)exact);
}

// A diagnostic, never used by benchmarks/compare.py (ACKCLOCK_NS3_NS2_GUARD=1): it makes ns-3
// ignore duplicate ACKs as ns-2's NewReno does after a loss, to show what the difference costs.
// ns-2 sets recover_ to the highest segment sent (maxseq_) at a timeout or fast retransmit and
// starts a new fast retransmit only once an ACK covers more than that. ns-3 (TcpSocketBase::
// ProcessAck, DupAck) sets its recovery point to the next new byte, clears it as soon as an ACK
// reaches it and then counts duplicates of that very ACK. This receive error model on a
// sender's access device drops, before TCP sees them, the duplicate ACKs that ns-2 would not
// act on: outside recovery, those whose ACK number does not go past the sender's highest
// sequence at its last timeout or fast retransmit.
class Ns2Guard : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ackclock::Ns2Guard").SetParent<ErrorModel>();
        return tid;
    }

    uint32_t m_highTx{0};  // the socket's highest sequence sent, as traced
    uint32_t m_recover{0}; // m_highTx at the last timeout or fast retransmit
    uint32_t m_lastAck{0};
    bool m_counting{true}; // open or disorder: duplicates count toward a fast retransmit
    uint64_t m_dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> q = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader h;
        q->RemoveHeader(ppp);
        q->RemoveHeader(ip);
        q->RemoveHeader(h);
        if (q->GetSize() > 0 || !(h.GetFlags() & TcpHeader::ACK))
        {
            return false;
        }
        const uint32_t ack = h.GetAckNumber().GetValue();
        const bool dup = ack == m_lastAck;
        m_lastAck = std::max(m_lastAck, ack);
        if (dup && m_counting && m_recover != 0 && ack <= m_recover)
        {
            ++m_dropped;
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

inline void
GuardSocket(Ptr<Ns2Guard> g, Ptr<TcpSocketBase> s)
{
    s->TraceConnectWithoutContext(
        "HighestSequence",
        Callback<void, SequenceNumber32, SequenceNumber32>(
            [=](SequenceNumber32, SequenceNumber32 v) { g->m_highTx = v.GetValue(); }));
    s->TraceConnectWithoutContext(
        "CongState",
        Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
            [=](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v) {
                if (v == TcpSocketState::CA_LOSS || v == TcpSocketState::CA_RECOVERY)
                {
                    g->m_recover = g->m_highTx;
                }
                g->m_counting = v == TcpSocketState::CA_OPEN || v == TcpSocketState::CA_DISORDER;
            }));
}

inline void
StartGuard(std::vector<Ptr<Node>> senders, std::vector<Ptr<Ns2Guard>> guards)
{
    for (uint32_t i = 0; i < senders.size(); ++i)
    {
        ObjectVectorValue sockets;
        senders[i]->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
        GuardSocket(guards[i], DynamicCast<TcpSocketBase>(sockets.Get(0)));
    }
}


// With ACKCLOCK_NS3_NS2_GUARD set, one Ns2Guard on the device of each sender (which receives its
// ACKs), attached at `when`, once the applications have made their sockets; else nothing.
struct Ns2Guards
{
    std::vector<Ptr<Ns2Guard>> guards;

    Ns2Guards(const std::vector<Ptr<Node>>& senders,
              const std::vector<Ptr<NetDevice>>& devices,
              Time when = NanoSeconds(1))
    {
        if (!std::getenv("ACKCLOCK_NS3_NS2_GUARD"))
        {
            return;
        }
        for (auto& d : devices)
        {
            guards.push_back(CreateObject<Ns2Guard>());
            d->SetAttribute("ReceiveErrorModel", PointerValue(guards.back()));
        }
        Simulator::Schedule(when, &StartGuard, senders, guards);
    }

    // On standard error: the ACKs each guard dropped.
    void Report() const
    {
        for (uint32_t i = 0; i < guards.size(); ++i)
        {
            std::fprintf(stderr,
                         "ns2 guard, flow %u: %llu duplicate ACKs dropped\n",
                         i,
                         (unsigned long long)guards[i]->m_dropped);
        }
    }
};

} // namespace bench

#endif
