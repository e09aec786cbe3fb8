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

#include <cstdint>
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

} // namespace bench

#endif
