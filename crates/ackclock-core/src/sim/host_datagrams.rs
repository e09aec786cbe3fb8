//! Flows whose datagrams the host program sends one at a time and whose arrivals it takes:
//! ns-2's agents whose `recv` calls back into the script (`Agent/Ping`, an `Agent/UDP` with
//! `process_data`, `Agent/MessagePassing`). ns-2 runs such a `recv` inside the packet's
//! arrival event (apps/ping.cc, `PingAgent::recv` evaluates `$self recv ...` through
//! `Tcl::eval`), and what the procedure sends leaves at that instant, before the events that
//! follow. Here an arrival of such a flow stops the run right after its event
//! ([`Simulator::host_pause`], checked where the run loops already look at `watch_at`, so
//! other flows pay nothing); the host takes the arrivals ([`Simulator::take_host_arrivals`]),
//! runs its procedures, which may send ([`Simulator::host_send`]) with the arrival's time and
//! ns-2 scheduling order still in force, and runs on.
//!
//! The flow's packets are UDP datagrams of the size the host gives, carrying a number of the
//! host's choosing (its `tag`, in the packet's `ack` field, which a datagram does not use
//! otherwise) by which it finds the payload it keeps for the packet. This file is a child
//! module of `sim`.

use super::flow::{Agent, Kind, Role};
use super::Simulator;
use crate::ids::{FlowId, NodeId};
use crate::net::Routes;
use crate::packet::{Packet, PacketKind, SackBlocks};
use crate::packet_pool::{Outgoing, PacketRef, PoolOut};
use crate::time::SimTime;

/// The per-packet hooks of [`Role::Host`] flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HostDatagrams;

/// A datagram of a host flow that reached its destination node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostArrival {
    pub flow: usize,
    /// The host's number for the packet ([`Simulator::host_send`]).
    pub tag: u64,
    pub src: u32,
    pub dst: u32,
    pub size: u32,
    /// The arrival's time in ns-2's double clock under the ns2 profile, else the engine's
    /// clock in seconds.
    pub time: f64,
}

impl Kind for HostDatagrams {
    fn send(self, sim: &mut Simulator, r: PacketRef, _later: &[PacketRef]) {
        let (src, c) = sim.enter(r);
        sim.forward_carried(src, c);
    }

    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        sim.packets_delivered += 1;
        let c = &mut sim.counters[pkt.flow.idx()];
        c.packets_received += 1;
        c.bytes_received += pkt.size as u64;
        c.bytes_delivered += pkt.size as u64;
        let time = if sim.ns2_clock {
            sim.pool.ns2_now.0
        } else {
            sim.now.as_secs_f64()
        };
        sim.host_arrivals.push(HostArrival {
            flow: pkt.flow.idx(),
            tag: pkt.ack,
            src: pkt.src.0,
            dst: pkt.dst.0,
            size: pkt.size,
            time,
        });
        // The run loops look at `watch_at` before each event: the next look stops the run.
        sim.watch_at = 0;
    }

    fn dropped(self, _sim: &mut Simulator, _pkt: &Packet) {}

    // The host sends each datagram itself: no application to start or stop.
    fn start(self, _sim: &mut Simulator, _f: FlowId) {}

    fn stop(self, _sim: &mut Simulator, _f: FlowId) {}
}

impl Simulator {
    /// Makes one-way UDP flow `f`, which must not have sent yet, a host flow: its application
    /// never sends, the host sends its datagrams ([`Simulator::host_send`]) and takes their
    /// arrivals ([`Simulator::take_host_arrivals`]); `packet_type` names its packets in ns-2
    /// traces (ns-2's `ping`, `udp`, `message`). With `anywhere`, its datagrams may go to any
    /// node (ns-2's `Agent/MessagePassing` `sendto`): routes to every node are computed.
    pub fn host_flow(
        &mut self,
        f: usize,
        packet_type: &'static str,
        anywhere: bool,
    ) -> Result<(), String> {
        let Some(flow) = self.flows.get_mut(f) else {
            return Err(format!("no flow {f}"));
        };
        if !matches!((&flow.agent, flow.role), (Agent::Udp { .. }, Role::Own))
            || self.counters[f].packets_sent > 0
        {
            return Err(format!(
                "flow {f} is not a one-way UDP flow that has not sent"
            ));
        }
        flow.role = Role::Host;
        if let Some(t) = &mut self.traces {
            t.set_data_type(f, packet_type);
        }
        if anywhere {
            let dests: Vec<NodeId> = (0..self.scenario.nodes.len() as u32).map(NodeId).collect();
            let ecmp = self.scenario.run.routing == crate::scenario::Routing::Ecmp;
            self.routes = Routes::build(self.scenario.nodes.len(), &self.links, &dests, ecmp)?;
            self.routes_changed(true);
        }
        Ok(())
    }

    /// Host flow `f` sends a datagram of `size` bytes (headers included) now, to node `dst`
    /// (None: the flow's destination), numbered `seq` in traces (u64::MAX prints as ns-2's
    /// -1) and carrying the host's number `tag`.
    pub fn host_send(
        &mut self,
        f: usize,
        size: u32,
        dst: Option<u32>,
        seq: u64,
        tag: u64,
    ) -> Result<(), String> {
        match self.flows.get(f).map(|flow| flow.role) {
            Some(Role::Host) => {}
            Some(_) => return Err(format!("flow {f} is not a host flow")),
            None => return Err(format!("no flow {f}")),
        }
        let spec = &self.scenario.flows[f];
        let src = NodeId(spec.from);
        let dst = NodeId(dst.unwrap_or(spec.to));
        if dst.idx() >= self.scenario.nodes.len() {
            return Err(format!("no node {}", dst.0));
        }
        if src != dst && !self.routes.reaches(src, dst) {
            return Err(format!(
                "no route from {} to {}",
                self.scenario.nodes[src.idx()],
                self.scenario.nodes[dst.idx()]
            ));
        }
        let c = &mut self.counters[f];
        c.packets_sent += 1;
        c.bytes_sent += size as u64;
        let pkt = Packet {
            id: 0,
            flow: FlowId(f as u32),
            kind: PacketKind::Udp,
            flags: 0,
            src,
            dst,
            size,
            seq,
            ack: tag,
            sent_at: self.now,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: c.packets_sent as u32,
            rwnd: 0,
            ecn: 0,
        };
        if src == dst {
            // A node's own agent: delivered at once, as ns-2's classifier hands it over.
            HostDatagrams.receive(self, &pkt);
            return Ok(());
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        }
        .push(pkt);
        self.send_pooled(sent);
        Ok(())
    }

    /// The arrivals of host flows' datagrams since the last call, in the order they came.
    pub fn take_host_arrivals(&mut self) -> Vec<HostArrival> {
        std::mem::take(&mut self.host_arrivals)
    }

    /// Whether the run must stop for the host: a host flow's datagram arrived and the host
    /// has not taken it yet.
    #[inline]
    pub(super) fn host_pause(&self) -> bool {
        !self.host_arrivals.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures::{dumbbell, ns2_tcp};
    use crate::scenario::{AppConfig, Distribution, FlowConfig, FlowKind, Ties};
    use crate::time::SimTime;
    use crate::Simulator;

    /// A dumbbell of one pair (s0 = node 2, d0 = node 3: three hops of 1 Mb/s and 10 ms),
    /// one UDP flow each way that never starts.
    fn two_flows(ties: Ties) -> Simulator {
        let mut sc = dumbbell(1, 1e6, 10, 1e6, 10, 50, ns2_tcp(), 10);
        sc.run.ties = ties;
        let udp = |name: &str, from: u32, to: u32| FlowConfig {
            tcp_table: None,
            ns2_boot_time_ps: None,
            tfrc: None,
            rap: None,
            connection: None,
            name: name.into(),
            kind: FlowKind::Udp,
            from,
            to,
            tcp: None,
            header_size: 0,
            fid: None,
            priority: 0,
            ports: None,
            trace: vec![],
            app: AppConfig::Cbr {
                start: Distribution::Constant(u64::MAX),
                stop_ps: None,
                interval_ps: 1_000_000_000,
                packet_size: 100,
                random: false,
                after_connect: false,
                restart_every_ps: None,
            },
        };
        sc.flows = vec![udp("p0", 2, 3), udp("p1", 3, 2)];
        Simulator::new(sc).expect("scenario")
    }

    #[test]
    fn an_arrival_stops_the_run_and_an_answer_leaves_at_its_time() {
        for ties in [Ties::Ns2, Ties::Insertion] {
            let mut sim = two_flows(ties);
            sim.host_flow(0, "ping", false).unwrap();
            sim.host_flow(1, "ping", false).unwrap();
            sim.run_until(SimTime(200_000_000_000));
            sim.host_send(0, 64, None, u64::MAX, 7).unwrap();
            sim.run_until(SimTime(1_000_000_000_000));
            // 64 bytes at 1 Mb/s (512 us) and 10 ms, three hops: the run stops there.
            let got = sim.take_host_arrivals();
            assert_eq!(got.len(), 1, "{ties:?}");
            assert_eq!(
                (got[0].flow, got[0].tag, got[0].src, got[0].dst),
                (0, 7, 2, 3)
            );
            assert_eq!(sim.now().0, 231_536_000_000, "{ties:?}");
            assert!((got[0].time - 0.231536).abs() < 1e-12, "{ties:?}");
            // The echo, sent at the arrival's time, arrives three hops later.
            sim.host_send(1, 64, None, u64::MAX, 8).unwrap();
            sim.run_until(SimTime(1_000_000_000_000));
            let back = sim.take_host_arrivals();
            assert_eq!(back.len(), 1, "{ties:?}");
            assert_eq!((back[0].flow, back[0].tag), (1, 8));
            assert_eq!(sim.now().0, 263_072_000_000, "{ties:?}");
            // Nothing more: the run goes to its target.
            sim.run_until(SimTime(1_000_000_000_000));
            assert!(sim.take_host_arrivals().is_empty());
            assert_eq!(sim.now().0, 1_000_000_000_000);
            assert_eq!(sim.counters[0].packets_received, 1);
            assert_eq!(sim.counters[1].bytes_sent, 64);
        }
    }

    #[test]
    fn only_an_unsent_udp_flow_becomes_a_host_flow() {
        let mut sim = two_flows(Ties::Ns2);
        assert!(sim.host_flow(5, "ping", false).is_err());
        assert!(
            sim.host_send(0, 64, None, 0, 0).is_err(),
            "not a host flow yet"
        );
        sim.host_flow(0, "udp", true).unwrap();
        assert!(sim.host_send(0, 64, Some(9), 0, 0).is_err(), "no node 9");
        // To its own node: at once.
        sim.host_send(0, 64, Some(2), 0, 3).unwrap();
        assert_eq!(sim.take_host_arrivals()[0].tag, 3);
        // To a node no flow goes to: routes to every node were computed.
        sim.host_send(0, 64, Some(0), 0, 4).unwrap();
        sim.run_until(SimTime(1_000_000_000_000));
        assert_eq!(sim.take_host_arrivals()[0].dst, 0);
    }

    /// The id of the link direction from node `a` to node `b`.
    fn link(sim: &Simulator, a: u32, b: u32) -> u32 {
        sim.links
            .iter()
            .position(|l| l.from.0 == a && l.to.0 == b)
            .unwrap() as u32
    }

    #[test]
    fn dynamic_routes_forward_where_set_and_drop_silently_elsewhere() {
        let mut sim = two_flows(Ties::Ns2);
        sim.host_flow(0, "rtProtoDV", false).unwrap();
        sim.ns2_dynamic_routes();
        // No route at the source yet: nothing can be sent.
        assert!(sim.host_send(0, 64, None, u64::MAX, 1).is_err());
        let (s, d) = (2, 3);
        let first = link(&sim, s, 0);
        sim.ns2_set_route(s, d, Some(first)).unwrap();
        assert!(
            sim.ns2_set_route(s, d, Some(link(&sim, 0, 1))).is_err(),
            "not from s"
        );
        // The first router has no route on: the packet is dropped there, untraced.
        sim.host_send(0, 64, None, u64::MAX, 2).unwrap();
        sim.run_until(SimTime(1_000_000_000_000));
        assert!(sim.take_host_arrivals().is_empty());
        assert_eq!(sim.counters[0].packets_dropped, 1);
        sim.ns2_set_route(0, d, Some(link(&sim, 0, 1))).unwrap();
        sim.ns2_set_route(1, d, Some(link(&sim, 1, d))).unwrap();
        sim.host_send(0, 64, None, u64::MAX, 3).unwrap();
        sim.run_until(SimTime(2_000_000_000_000));
        let got = sim.take_host_arrivals();
        assert_eq!((got.len(), got[0].tag), (1, 3));
        // A route taken away again: dropped at that router.
        sim.ns2_set_route(1, d, None).unwrap();
        sim.host_send(0, 64, None, u64::MAX, 4).unwrap();
        sim.run_until(SimTime(3_000_000_000_000));
        assert!(sim.take_host_arrivals().is_empty());
        assert_eq!(sim.counters[0].packets_dropped, 2);
    }

    #[test]
    fn a_packet_caught_in_a_routing_loop_is_dropped_after_32_hops() {
        let mut sim = two_flows(Ties::Ns2);
        sim.host_flow(0, "rtProtoDV", false).unwrap();
        sim.ns2_dynamic_routes();
        // Node 2 sends toward 3 through router 0, which sends it back, and so on.
        let (s, d) = (2, 3);
        sim.ns2_set_route(s, d, Some(link(&sim, s, 0))).unwrap();
        sim.ns2_set_route(0, d, Some(link(&sim, 0, s))).unwrap();
        sim.host_send(0, 64, None, u64::MAX, 1).unwrap();
        sim.run_until(SimTime(10_000_000_000_000));
        assert!(sim.take_host_arrivals().is_empty());
        // Without hops counted it would go round until the run's end.
        assert_eq!(sim.counters[0].packets_dropped, 1);
    }
}
