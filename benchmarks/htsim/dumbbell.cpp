// The dumbbell of benchmarks/ackclock/dumbbell.toml (issue 10's scenarios 2 and 3, issue 31's
// scaling cases) in htsim (https://github.com/Broadcom/csg-htsim), for benchmarks/htsim.py:
// N TCP flows, each from its own host over a 10 Gb/s, 1 ms access link to the left router,
// a 1 Gb/s, 10 ms bottleneck with a 1000-packet buffer, and a 10 Gb/s, 1 ms link to its own
// receiver; ACKs come back the same way through 50-packet buffers. 1500-byte packets.
//
// htsim has no nodes or routing: a flow's path is the list of queues (serialisation) and
// pipes (propagation) it crosses, here three queue-and-pipe hops each way, shared where the
// flows share a link (the bottleneck both ways). Its TCP is its own NewReno-like model
// (TcpSrc/TcpSink: an ACK per packet, go-back on timeout, a 10 ms retransmission scanner),
// so only the rates, buffers and packet size are the ackclock case's. Its own initial window
// and slow-start threshold (10 and 100 packets) are kept: with ns-2's (2 and unlimited) the
// 10-flow case's overshoot ends in timeouts that htsim's TCP is slow to recover from
// (775 instead of 907 Mb/s over 10 s).
//
//   dumbbell N SECONDS
// prints: flows, simulated s, data packets sent, packets delivered to the sinks, ACKs,
// goodput Mb/s, packet-hops (3 per data packet sent and per ACK).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "clock.h"
#include "config.h"
#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s FLOWS SECONDS\n", argv[0]);
        return 2;
    }
    const int flows = std::atoi(argv[1]);
    const double seconds = std::atof(argv[2]);
    EventList eventlist;
    eventlist.setEndtime(timeFromSec(seconds));
    Packet::set_packet_size(1500);
    const mem_b mss = Packet::data_packet_size();

    const linkspeed_bps access = speedFromMbps((uint64_t)10000);
    const linkspeed_bps bottleneck = speedFromMbps((uint64_t)1000);
    Queue forward(bottleneck, memFromPkt(1000), eventlist, nullptr);
    Pipe forward_pipe(timeFromMs(10), eventlist);
    Queue backward(bottleneck, memFromPkt(50), eventlist, nullptr);
    Pipe backward_pipe(timeFromMs(10), eventlist);
    TcpRtxTimerScanner scanner(timeFromMs(10), eventlist);

    std::vector<TcpSrc*> sources;
    std::vector<TcpSink*> sinks;
    for (int i = 0; i < flows; i++) {
        auto* src = new TcpSrc(nullptr, nullptr, eventlist);
        auto* sink = new TcpSink();
        scanner.registerTcp(*src);
        auto* out = new route_t();
        out->push_back(new Queue(access, memFromPkt(10000), eventlist, nullptr));
        out->push_back(new Pipe(timeFromMs(1), eventlist));
        out->push_back(&forward);
        out->push_back(&forward_pipe);
        out->push_back(new Queue(access, memFromPkt(10000), eventlist, nullptr));
        out->push_back(new Pipe(timeFromMs(1), eventlist));
        out->push_back(sink);
        auto* back = new route_t();
        back->push_back(new Queue(access, memFromPkt(50), eventlist, nullptr));
        back->push_back(new Pipe(timeFromMs(1), eventlist));
        back->push_back(&backward);
        back->push_back(&backward_pipe);
        back->push_back(new Queue(access, memFromPkt(50), eventlist, nullptr));
        back->push_back(new Pipe(timeFromMs(1), eventlist));
        back->push_back(src);
        src->connect(*out, *back, *sink, 0);
        sources.push_back(src);
        sinks.push_back(sink);
    }
    while (eventlist.doNextEvent()) {
    }
    unsigned long long sent = 0, delivered_bytes = 0, acked = 0;
    for (int i = 0; i < flows; i++) {
        sent += sources[i]->_packets_sent / mss;
        delivered_bytes += sinks[i]->_packets;
        acked += sources[i]->_last_acked;
    }
    const unsigned long long delivered = delivered_bytes / mss;
    std::printf("flows %d\nsimulated_s %g\nsent %llu\ndelivered %llu\nacks %llu\n", flows,
                seconds, sent, delivered, delivered);
    std::printf("goodput_mbps %.3f\npacket_hops %llu\n", acked * 8.0 / seconds / 1e6,
                3 * (sent + delivered));
    return 0;
}
