// Shared by the ns-3.44 validation programs in this folder (tcp_examples.cc, tc_examples.cc,
// seed004.cc), compiled by validation/ns3_examples.py's ns3_program against the PyPI `ns3`
// wheel: the TCP defaults each program sets, bulk flows with their sinks, the goodput of those
// sinks after a warm-up, per-flow cwnd and srtt traces, and the queue of one device (its root
// queue disc and device queue together) with the drops around it.
#ifndef ACKCLOCK_VALIDATION_NS3_COMMON_H
#define ACKCLOCK_VALIDATION_NS3_COMMON_H

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

namespace validation
{

using namespace ns3;

// A value's time average and peak from its changes.
struct TimeAvg
{
    double start = -1, last = 0, lastT = 0, area = 0, peak = 0, peakT = 0;

    void Set(double v)
    {
        double now = Simulator::Now().GetSeconds();
        if (start < 0)
        {
            start = now;
        }
        else
        {
            area += last * (now - lastT);
        }
        last = v;
        lastT = now;
        if (v > peak)
        {
            peak = v;
            peakT = now;
        }
    }

    double Mean(double end) const
    {
        if (start < 0 || end <= start)
            return 0;
        return (area + last * (end - lastT)) / (end - start);
    }
};

// TcpSocket attributes a program sets (0: keep ns-3's default).
struct TcpSetup
{
    uint32_t segment = 0, sndBuf = 0, rcvBuf = 0, initialCwnd = 0, delAckCount = 0;
    std::string socketType, recoveryType;
};

inline void
SetTcpDefaults(const TcpSetup& s)
{
    if (s.segment)
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(s.segment));
    if (s.sndBuf)
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(s.sndBuf));
    if (s.rcvBuf)
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(s.rcvBuf));
    if (s.initialCwnd)
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(s.initialCwnd));
    if (s.delAckCount)
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(s.delAckCount));
    if (!s.socketType.empty())
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           TypeIdValue(TypeId::LookupByName(s.socketType)));
    if (!s.recoveryType.empty())
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                           TypeIdValue(TypeId::LookupByName(s.recoveryType)));
}

// A TCP sink on `dst` listening on `port` from `start`.
inline Ptr<PacketSink>
TcpSink(Ptr<Node> dst, uint16_t port, double start = 0)
{
    PacketSinkHelper h("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer a = h.Install(dst);
    a.Start(Seconds(start));
    return DynamicCast<PacketSink>(a.Get(0));
}

// A BulkSend from `src` to `to`, from `start` to `stop` (0: never stops); maxBytes 0: no end;
// sendSize 0: BulkSend's default (512-byte writes).
inline void
BulkSend(Ptr<Node> src, Address to, double start, double stop, uint64_t maxBytes = 0,
         uint32_t sendSize = 0)
{
    BulkSendHelper bulk("ns3::TcpSocketFactory", to);
    bulk.SetAttribute("MaxBytes", UintegerValue(maxBytes));
    if (sendSize)
        bulk.SetAttribute("SendSize", UintegerValue(sendSize));
    ApplicationContainer a = bulk.Install(src);
    a.Start(Seconds(start));
    if (stop > 0)
        a.Stop(Seconds(stop));
}

// Goodput of each sink from a warm-up time to the end.
struct Goodput
{
    std::vector<Ptr<PacketSink>> sinks;
    std::vector<uint64_t> atWarmup;

    void Add(Ptr<PacketSink> s)
    {
        sinks.push_back(s);
        atWarmup.push_back(0);
    }

    void Mark()
    {
        for (size_t i = 0; i < sinks.size(); ++i)
            atWarmup[i] = sinks[i]->GetTotalRx();
    }

    double Mbps(size_t i, double warmup, double end) const
    {
        return (sinks[i]->GetTotalRx() - atWarmup[i]) * 8.0 / (end - warmup) / 1e6;
    }
};

// Per flow: time-averaged and peak cwnd (segments) and srtt (s), from the first socket of a
// node's TcpL4Protocol, connected just after the flow's start (the socket exists by then).
struct FlowTraces
{
    uint32_t segment = 536;
    std::vector<TimeAvg> cwnd, srtt;

    static void Cwnd(FlowTraces* t, uint32_t i, uint32_t, uint32_t v)
    {
        t->cwnd[i].Set(double(v) / t->segment);
    }

    static void Srtt(FlowTraces* t, uint32_t i, Time, Time v)
    {
        t->srtt[i].Set(v.GetSeconds());
    }

    static void Connect(FlowTraces* t, uint32_t node, uint32_t socket, uint32_t i)
    {
        std::string base = "/NodeList/" + std::to_string(node) +
                           "/$ns3::TcpL4Protocol/SocketList/" + std::to_string(socket) + "/";
        Config::ConnectWithoutContext(base + "CongestionWindow",
                                      MakeBoundCallback(&FlowTraces::Cwnd, t, i));
        Config::ConnectWithoutContext(base + "RTT", MakeBoundCallback(&FlowTraces::Srtt, t, i));
    }

    // Traces the next flow, sent from `node` from `start` by the socket created `socket`-th
    // on that node (0: the first; a sink listening there since time 0 is the first).
    void Watch(uint32_t node, double start, uint32_t socket = 0)
    {
        uint32_t i = cwnd.size();
        cwnd.emplace_back();
        srtt.emplace_back();
        Simulator::Schedule(Seconds(start) + NanoSeconds(1), &FlowTraces::Connect, this, node,
                            socket, i);
    }
};

// The traffic-control layer's drops on a node (TcDrop: a packet for a stopped device queue
// when the device has no root queue disc).
inline void
CountTcDrops(Ptr<Node> node, uint64_t* count)
{
    node->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop",
        MakeBoundCallback(+[](uint64_t* c, Ptr<const Packet>) { ++*c; }, count));
}

// One device's queue: its root queue disc's packets and its device queue's together,
// time-averaged from the last Reset; drops in the queue disc, the traffic-control layer and the
// device queue, and the queue disc's marks, counted from the last Reset too (ackclock's
// queues.csv counts them over the measurement window, from the warm-up's end).
struct DeviceQueueMeter
{
    Ptr<QueueDisc> qd;
    Ptr<Queue<Packet>> devq;
    uint32_t inQdisc = 0, inDevice = 0;
    uint64_t tcDrops = 0;
    uint64_t dropsAtReset = 0, marksAtReset = 0;
    TimeAvg queue;

    static void Qdisc(DeviceQueueMeter* m, uint32_t, uint32_t v)
    {
        m->inQdisc = v;
        m->queue.Set(m->inQdisc + m->inDevice);
    }

    static void Device(DeviceQueueMeter* m, uint32_t, uint32_t v)
    {
        m->inDevice = v;
        m->queue.Set(m->inQdisc + m->inDevice);
    }

    // Watches `device`'s queue disc (none: only its device queue).
    void Watch(Ptr<NetDevice> device)
    {
        qd = device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(device);
        if (qd)
            qd->TraceConnectWithoutContext("PacketsInQueue",
                                           MakeBoundCallback(&DeviceQueueMeter::Qdisc, this));
        devq = DynamicCast<PointToPointNetDevice>(device)->GetQueue();
        devq->TraceConnectWithoutContext("PacketsInQueue",
                                         MakeBoundCallback(&DeviceQueueMeter::Device, this));
        CountTcDrops(device->GetNode(), &tcDrops);
        queue.Set(0);
    }

    // The time average and the drop and mark counts start again now (the warm-up's end).
    void Reset()
    {
        queue = TimeAvg();
        queue.Set(inQdisc + inDevice);
        dropsAtReset = TotalDrops();
        marksAtReset = TotalMarks();
    }

    uint64_t TotalDrops() const
    {
        uint64_t n = tcDrops + devq->GetTotalDroppedPackets();
        if (qd)
            n += qd->GetStats().nTotalDroppedPackets;
        return n;
    }

    uint64_t TotalMarks() const
    {
        return qd ? qd->GetStats().nTotalMarkedPackets : 0;
    }

    uint64_t Drops() const
    {
        return TotalDrops() - dropsAtReset;
    }

    uint64_t Marks() const
    {
        return TotalMarks() - marksAtReset;
    }
};

// The summary every example prints, one "key value" a line (validation/ns3_examples.py reads
// it): per flow i flow<i>_goodput_mbps, flow<i>_mean_cwnd, flow<i>_peak_cwnd,
// flow<i>_mean_srtt_s, flow<i>_peak_cwnd_time_s; and the watched queue's mean_queue,
// peak_queue, drops and marks.
inline void
Report(const Goodput& g, const FlowTraces& f, const DeviceQueueMeter& q, double warmup,
       double stop)
{
    for (size_t i = 0; i < g.sinks.size(); ++i)
    {
        std::printf("flow%zu_goodput_mbps %.6f\n", i, g.Mbps(i, warmup, stop));
        std::printf("flow%zu_mean_cwnd %.6f\nflow%zu_peak_cwnd %.6f\n", i, f.cwnd[i].Mean(stop),
                    i, f.cwnd[i].peak);
        std::printf("flow%zu_mean_srtt_s %.6f\n", i, f.srtt[i].Mean(stop));
        std::printf("flow%zu_peak_cwnd_time_s %.6f\n", i, f.cwnd[i].peakT);
    }
    std::printf("mean_queue %.6f\npeak_queue %.0f\n", q.queue.Mean(stop), q.queue.peak);
    std::printf("drops %llu\nmarks %llu\n", (unsigned long long)q.Drops(),
                (unsigned long long)q.Marks());
}

} // namespace validation

#endif
