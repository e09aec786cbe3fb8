// Issue 10's scenarios 2 and 3 in ns-3: N TCP flows, each on its own sender and receiver,
// over a 1 Gb/s, 10 ms bottleneck with a 1000-packet buffer (ns-2 accounting: 999 waiting),
// 10 Gb/s 1 ms access links, 1448-byte segments with timestamps (52 B of IP and TCP headers,
// 1500 B packets), for T seconds; as benchmarks/ns2/dumbbell.tcl and
// benchmarks/ackclock/dumbbell.toml.
//
//   dumbbell N T VARIANT        (VARIANT: newreno or cubic)
#include "common.h"

using namespace ns3;

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
    Simulator::Stop(Seconds(t));
    Simulator::Run();
    uint64_t delivered = 0, data = 0, acks = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        delivered += sinks[i]->GetTotalRx();
        data += bench::Sent(access[i].devices.Get(0));
        acks += bench::Sent(access[i].devices.Get(1));
    }
    bench::Report(delivered, data, acks);
    Simulator::Destroy();
    return 0;
}
