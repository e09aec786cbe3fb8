//! What the ns-2 front end asks of a run beyond its scenario: ns-2's loss monitors, links
//! going down and up (`rtmodel`), and nam's trace times.
//!
//! - `Agent/LossMonitor` (ns-2.35 tools/loss-monitor.cc, `LossMonitor::recv`): each datagram
//!   that reaches the monitor carries its source's sequence number (`UdpAgent::sendmsg`
//!   numbers them 0, 1, 2...); with `expected_` the last one's plus one (before the first,
//!   the script's value, 0 by default in tcl/lib/ns-default.tcl; -1 after `clear`: no loss
//!   counted at the next), a datagram numbered above `expected_` adds the difference to
//!   `nlost_`. `lastPktTime_` is ns-2's clock at the last arrival. One monitor takes the
//!   datagrams of every source connected to it, in the order they arrive, as ns-2's does.
//! - `rtmodel-at`: see [`crate::net::Link::ns2_set_down`].
//! - `namtrace-all`: see [`crate::trace::packets::PacketTraces::use_ns2_double_times`].

use super::*;

/// ns-2's default `ttl_` (tcl/lib/ns-default.tcl `Agent set ttl_ 32`).
const NS2_TTL: u8 = 32;

/// One `Agent/LossMonitor`'s state beside the counters its flows keep.
#[derive(Clone, Copy, Debug)]
pub(super) struct LossMonitor {
    expected: i64,
    nlost: i64,
    last_time: f64,
}

impl LossMonitor {
    /// `LossMonitor::recv` for a datagram numbered `seq` arriving at ns-2 time `t2`.
    #[inline]
    pub(super) fn recv(&mut self, seq: u64, t2: f64) {
        let seq = seq as i64;
        if self.expected >= 0 && seq > self.expected {
            self.nlost += seq - self.expected;
        }
        self.last_time = t2;
        self.expected = seq + 1;
    }
}

/// No loss monitor (in [`Simulator::loss_monitor_of`]).
pub(super) const NO_MONITOR: u32 = u32::MAX;

/// Link direction `l`, if it keeps ns-2's clock (`run.ties = "ns2"`, not a shaper's): only
/// such a link can change during the run. `what` ends the error: "cannot go down", ...
fn ns2_clock_link<'a>(
    links: &'a mut [Link],
    names: &[String],
    l: usize,
    what: &str,
) -> Result<&'a mut Link, String> {
    let link = links.get_mut(l).ok_or_else(|| format!("no link {l}"))?;
    if !link.has_ns2_clock() {
        let name = names.get(l).map_or("", String::as_str);
        return Err(format!(
            "link {name}{what}: only a link on ns-2's clock can"
        ));
    }
    Ok(link)
}

impl Simulator {
    /// A new `Agent/LossMonitor` that the UDP flows `flows` reach, its `expected_` at
    /// `expected`; returns its index.
    pub fn ns2_loss_monitor(&mut self, flows: &[usize], expected: i64) -> Result<usize, String> {
        for &f in flows {
            match self.flows.get(f).map(|x| &x.agent) {
                Some(Agent::Udp { .. }) => {}
                _ => return Err(format!("flow {f} is not a UDP flow")),
            }
        }
        if self.loss_monitor_of.is_empty() {
            self.loss_monitor_of = vec![NO_MONITOR; self.flows.len()];
        }
        let m = self.loss_monitors.len();
        self.loss_monitors.push(LossMonitor {
            expected,
            nlost: 0,
            last_time: 0.0,
        });
        for &f in flows {
            self.loss_monitor_of[f] = m as u32;
        }
        Ok(m)
    }

    /// Loss monitor `m`'s `nlost_`, `expected_` and `lastPktTime_` (seconds).
    pub fn loss_monitor(&self, m: usize) -> Option<(i64, i64, f64)> {
        let x = self.loss_monitors.get(m)?;
        Some((x.nlost, x.expected, x.last_time))
    }

    /// `$monitor clear`: forgets the next expected sequence number.
    pub fn loss_monitor_clear(&mut self, m: usize) -> bool {
        match self.loss_monitors.get_mut(m) {
            Some(x) => {
                x.expected = -1;
                true
            }
            None => false,
        }
    }

    /// A datagram of flow `f` reached its sink: its loss monitor, if any, sees it.
    #[inline]
    pub(super) fn loss_monitor_recv(&mut self, f: usize, seq: u64) {
        if let Some(&m) = self.loss_monitor_of.get(f) {
            if m != NO_MONITOR {
                let t2 = self.now2();
                self.loss_monitors[m as usize].recv(seq, t2);
            }
        }
    }

    /// Link direction `l` goes down (`up` false) or up now, as ns-2's `rtmodel` takes it
    /// (`net::Link::ns2_set_down`): the packets it held are dropped and traced (`d`), in
    /// ns-2's order. Only a link that keeps ns-2's clock (`run.ties = "ns2"`, not a
    /// shaper's) can go down.
    pub fn ns2_set_link(&mut self, l: usize, up: bool) -> Result<(), String> {
        if up {
            let link = self
                .links
                .get_mut(l)
                .ok_or_else(|| format!("no link {l}"))?;
            link.ns2_set_up();
            return Ok(());
        }
        let link = ns2_clock_link(&mut self.links, &self.link_names, l, " cannot go down")?;
        if link.is_down() {
            return Ok(());
        }
        let mut dropped = Vec::new();
        link.ns2_set_down(self.now, &mut self.pool, &mut dropped);
        for pkt in &dropped {
            if self.tracing {
                self.trace(LinkId(l as u32), TraceEvent::Drop, pkt);
            }
            self.count_drop(pkt);
        }
        Ok(())
    }

    /// From now on the host program writes the routes ([`Simulator::ns2_set_route`]): ns-2's
    /// dynamic routing (`rtproto DV`), whose routing objects install each route as they learn
    /// it. Until then every node drops what it would forward (ns-2's `rtObject instproc init`
    /// puts the null agent in every slot but the node's own).
    pub fn ns2_dynamic_routes(&mut self) {
        self.routes = Routes::dynamic(self.scenario.nodes.len());
        self.routes_changed(false);
        // Routes may loop now: hops are counted from the next packet sent.
        self.ttl_on = true;
        self.set_checked_arrivals();
    }

    /// A packet leaves its source with ns-2's `ttl_` hops (`Agent::initpkt`, ns-default.tcl's
    /// `Agent set ttl_ 32`; DV's `Agent set-maxttl` keeps it at its INFINITY, 32).
    #[cold]
    #[inline(never)]
    pub(super) fn ttl_start(&mut self, r: PacketRef) {
        let i = r.slot();
        if i >= self.hops_left.len() {
            self.hops_left.resize(i + 1, 0);
        }
        self.hops_left[i] = NS2_TTL;
    }

    /// ns-2's `TTLChecker::recv` where packet `c` leaves link `l` (ns-link.tcl puts it after
    /// the link's delay, before its receive trace): one hop less; at none left the packet is
    /// dropped there (traced `d` where `r` would be). Whether it was.
    #[cold]
    #[inline(never)]
    pub(super) fn ttl_expired(&mut self, l: LinkId, c: Carried) -> bool {
        let i = c.r.slot();
        let Some(left) = self.hops_left.get_mut(i) else {
            return false; // sent before hops were counted
        };
        *left = left.saturating_sub(1);
        if *left > 0 {
            return false;
        }
        let pkt = self.pool.take(c.r);
        if self.tracing {
            self.trace(l, TraceEvent::Drop, &pkt);
        }
        self.count_drop(&pkt);
        true
    }

    /// Node `at` forwards toward node `dst` on link `link` from now on (None: drops, untraced,
    /// as ns-2's null agent in the classifier slot). Only after
    /// [`Simulator::ns2_dynamic_routes`]; the link must leave `at`.
    pub fn ns2_set_route(&mut self, at: u32, dst: u32, link: Option<u32>) -> Result<(), String> {
        if let Some(l) = link {
            match self.links.get(l as usize) {
                Some(lk) if lk.from == NodeId(at) => {}
                Some(_) => return Err(format!("link {l} does not leave node {at}")),
                None => return Err(format!("no link {l}")),
            }
        }
        self.routes
            .set_next_hop(NodeId(at), NodeId(dst), link.map(LinkId))
    }

    /// A packet node `at` has no route for under dynamic routing
    /// ([`Simulator::ns2_dynamic_routes`]): ns-2's null agent takes it, untraced.
    #[cold]
    #[inline(never)]
    pub(super) fn no_route(&mut self, c: Carried) {
        let pkt = self.pool.take(c.r);
        self.count_drop(&pkt);
    }

    /// ns-2.35's `$ns bandwidth` / `$ns delay` on link direction `l` during the run: its rate
    /// becomes `bw` bit/s (ns-2's double) and its propagation delay `delay_ps`, for the
    /// packets that start from now on ([`crate::net::Link::ns2_set_params`]). Packets on the
    /// line that a shorter delay lets later ones overtake get an event each. Only a link that
    /// keeps ns-2's clock (`run.ties = "ns2"`, not a shaper's) can change.
    pub fn ns2_set_link_params(&mut self, l: usize, bw: f64, delay_ps: u64) -> Result<(), String> {
        let hop = self.links.hop(LinkId(l as u32));
        let link = ns2_clock_link(
            &mut self.links,
            &self.link_names,
            l,
            " cannot change during the run",
        )?;
        let name = &self.link_names[l];
        let rate = Rate::from_bps_f64(bw)
            .ok_or_else(|| format!("link {name}: expected a positive rate, got {bw}"))?;
        let mut lingering = Vec::new();
        let head = link.ns2_set_params(rate, bw, SimDuration(delay_ps), &mut lingering);
        let id = LinkId(l as u32);
        if head {
            let q = &mut self.queue;
            if let Some((t, t2, seq)) = link.ns2_head(|| q.reserve(1)) {
                let hop = hop.expect("a link `ns2_clock_link` found");
                q.push_keyed(t, crate::sched::ns2_key(t, t2, seq), Event::LinkHead(hop));
            }
        }
        if lingering.is_empty() {
            return Ok(());
        }
        if self.ns2_lingering.len() < self.links.len() {
            self.ns2_lingering.resize_with(self.links.len(), Vec::new);
        }
        for &(t, t2, seq, _) in &lingering {
            self.queue
                .push_keyed(t, crate::sched::ns2_key(t, t2, seq), Event::Linger(id));
        }
        self.ns2_lingering[l].extend(lingering);
        Ok(())
    }

    /// A CBQ class's new allotment on link direction `l` during the run (ns-2.35's `$class
    /// newallot bw`, queue/cbq.cc `CBQClass::newallot`): `class` is its index in the link's
    /// class tree.
    pub fn cbq_newallot(&mut self, l: usize, class: usize, bw: f64) -> Result<(), String> {
        let name = self
            .link_names
            .get(l)
            .ok_or_else(|| format!("no link direction {l}"))?;
        let q = self.links[l]
            .cbq_mut()
            .ok_or_else(|| format!("link {name}'s queue is not cbq"))?;
        if class >= q.len() {
            return Err(format!("link {name}'s cbq has no class {class}"));
        }
        if !(bw.is_finite()) {
            return Err(format!("expected a share, got {bw}"));
        }
        q.newallot(class, bw);
        Ok(())
    }

    /// A value of link direction `l`'s DiffServ queue now (ns-2.35 diffserv/dsred.cc,
    /// `dsREDQueue::command`): `pkts`, `drops`, `edrops` (of code point `a`, or all with `a`
    /// negative; `getStat`), `average` of physical queue `a` (`getAverage`), `average_v`
    /// of virtual queue (a, b) (`getAverageV`), `current` / `current_v` (their lengths,
    /// `getCurrent` / `getCurrentV`), `cbucket` of the policy of nodes a to b (`getCBucket`).
    pub fn dsred_query(&self, l: usize, what: &str, a: i64, b: i64) -> Result<f64, String> {
        let name = self
            .link_names
            .get(l)
            .ok_or_else(|| format!("no link direction {l}"))?;
        let q = self.links[l]
            .dsred()
            .ok_or_else(|| format!("link {name}'s queue is not dsred"))?;
        let s = &q.stats;
        let cp = usize::try_from(a).ok();
        let per = |v: &[u64; crate::queue::dsred::MAX_CP], all: u64| match cp {
            None => Some(all as f64),
            Some(c) => v.get(c).map(|&x| x as f64),
        };
        let ua = usize::try_from(a).unwrap_or(usize::MAX);
        let ub = usize::try_from(b).unwrap_or(usize::MAX);
        let v = match what {
            "pkts" => per(&s.pkts_cp, s.pkts),
            "drops" => per(&s.drops_cp, s.drops),
            "edrops" => per(&s.edrops_cp, s.edrops),
            "average" => q.average(ua),
            "average_v" => q.average_v(ua, ub),
            "current" => q.current(ua).map(|x| x as f64),
            "current_v" => q.current_v(ua, ub).map(|x| x as f64),
            "cbucket" => q.c_bucket(
                crate::ids::NodeId(a.max(0) as u32),
                crate::ids::NodeId(b.max(0) as u32),
            ),
            _ => return Err(format!("no dsred value {what:?}")),
        };
        v.ok_or_else(|| format!("link {name}'s dsred has no {what} {a} {b}"))
    }

    /// A DropTail queue's `limit_` on link direction `l` during the run (ns-2.35 `$ns
    /// queue-limit`), and with `shrink` its `shrink-queue`: the packets waiting beyond the
    /// limit are dropped from the tail, traced (`d`) in that order
    /// ([`crate::net::Link::ns2_shrink_queue`]).
    pub fn ns2_set_queue_limit(
        &mut self,
        l: usize,
        limit: Option<u64>,
        shrink: bool,
    ) -> Result<(), String> {
        let link = ns2_clock_link(
            &mut self.links,
            &self.link_names,
            l,
            "'s queue cannot change during the run",
        )?;
        let name = &self.link_names[l];
        if let Some(n) = limit {
            if !link.ns2_set_queue_limit(n) {
                return Err(format!("link {name}'s queue is not DropTail"));
            }
        }
        if !shrink {
            return Ok(());
        }
        let mut dropped = Vec::new();
        if !link.ns2_shrink_queue(self.now, &mut self.pool, &mut dropped) {
            return Err(format!("link {name}'s queue is not DropTail"));
        }
        for pkt in &dropped {
            if self.tracing {
                self.trace(LinkId(l as u32), TraceEvent::Drop, pkt);
            }
            self.count_drop(pkt);
        }
        Ok(())
    }

    /// An ns-2 `Delayer` on link direction `l` (between its queue and its line) blocks it
    /// (`blocked`) or lets it go now ([`crate::net::Link::ns2_block`],
    /// [`crate::net::Link::ns2_unblock`]): `$delayer block` / `unblock`, or the end of a
    /// delay spike.
    pub fn ns2_block_link(&mut self, l: usize, blocked: bool) -> Result<(), String> {
        let link = ns2_clock_link(&mut self.links, &self.link_names, l, " cannot be blocked")?;
        if link.holds() {
            let name = self.link_names.get(l).map_or("", String::as_str);
            return Err(format!(
                "link {name} cannot be blocked: only a FIFO link on ns-2's clock can"
            ));
        }
        if blocked {
            link.ns2_block();
            return Ok(());
        }
        let now2 = self.pool.ns2_now.0;
        if let Some(out) = link.ns2_unblock(self.now, now2, &self.pool) {
            self.collect_ns2(LinkId(l as u32), out);
        }
        Ok(())
    }

    /// A packet that was on link `l`'s line when its delay was shortened reaches the far
    /// node: the first of them by ns-2's order of events (the event running is its own).
    pub(super) fn on_ns2_linger(&mut self, l: LinkId) {
        let v = &mut self.ns2_lingering[l.idx()];
        let first = (0..v.len())
            .min_by(|&a, &b| {
                let (x, y) = (&v[a], &v[b]);
                (x.0, x.1, x.2)
                    .partial_cmp(&(y.0, y.1, y.2))
                    .expect("ns-2 times are numbers")
            })
            .expect("a lingering packet per event");
        let (_, _, _, c) = v.swap_remove(first);
        let link = &mut self.links[l.idx()];
        link.ns2_linger_delivered();
        let (at, loses_after) = (link.to, link.loses_after());
        self.arrive(l, at, c, loses_after);
    }

    /// `$ns eventtrace-all` (ns-2.35 `Simulator create-eventtrace`, `TcpAgent::trace_event`):
    /// flow `f`'s agent, at node `node` and connected to one at `peer`, writes its congestion
    /// events into ns-2 packet trace `w` (`tcp/sender/events.rs`). False if `w` is no ns-2
    /// trace or `f` no TCP flow.
    pub fn ns2_event_trace(&mut self, f: usize, w: usize, node: u32, peer: u32) -> bool {
        let Some(Agent::Tcp { sender, .. }) = self.flows.get_mut(f).map(|x| &mut x.agent) else {
            return false;
        };
        let Some(t) = self.traces.as_mut() else {
            return false;
        };
        if !t.trace_agent_events(f, w, node, peer) {
            return false;
        }
        sender.trace_events(true);
        true
    }

    /// ns-2's `iss_` of the FullTcp agent that sends flow `f` (a direction of a two-way
    /// connection): its packet traces number that direction from `iss` (the SYN's), the
    /// reverse direction's acknowledgements too. False if `f` is no such direction.
    pub fn ns2_full_iss(&mut self, f: usize, iss: u32) -> bool {
        let Some(peer) = self.full.iter().find_map(|c| {
            let [a, b] = c.flows;
            (a.idx() == f)
                .then_some(b.idx())
                .or((b.idx() == f).then_some(a.idx()))
        }) else {
            return false;
        };
        if let Some(t) = self.traces.as_mut() {
            t.set_full_iss(f, peer, iss);
        }
        true
    }

    /// ns-2's `ecn_syn_` (`on`) and `ecn_syn_wait_` (`wait`, 0 to 2) of the FullTcp agent
    /// that sends flow `f` (`tcp/full.rs`, `FullConn::set_ecn_syn`). False if `f` is no
    /// direction of a two-way connection.
    pub fn ns2_full_ecn_syn(&mut self, f: usize, on: bool, wait: u8) -> bool {
        for c in self.full.iter_mut() {
            if let Some(s) = c.flows.iter().position(|x| x.idx() == f) {
                c.set_ecn_syn(s, on, wait);
                return true;
            }
        }
        false
    }

    /// ns-2's TCPSink `ecn_syn_` on one-way flow `f` (`TcpSink::set_ecn_syn`), when its
    /// sender is ECN-capable (the only case in which ns-2's sink sees an ECN-setup packet).
    /// False if `f` is no one-way TCP flow.
    pub fn ns2_sink_ecn_syn(&mut self, f: usize) -> bool {
        if self
            .full
            .iter()
            .any(|c| c.flows.iter().any(|x| x.idx() == f))
        {
            return false;
        }
        let Some(Agent::Tcp { sender, sink }) = self.flows.get_mut(f).map(|x| &mut x.agent) else {
            return false;
        };
        if sender.is_ecn() {
            sink.set_ecn_syn();
        }
        true
    }

    /// Writes the events flow `f`'s sender collected, at the current time.
    #[inline]
    pub(super) fn agent_events(&mut self, f: FlowId) {
        let Agent::Tcp { sender, .. } = &mut self.flows[f.idx()].agent else {
            return;
        };
        if sender.has_events() {
            self.write_agent_events(f);
        }
    }

    #[cold]
    fn write_agent_events(&mut self, f: FlowId) {
        let mut events = Vec::new();
        if let Agent::Tcp { sender, .. } = &mut self.flows[f.idx()].agent {
            sender.take_events(&mut events);
        }
        if let Some(t) = self.traces.as_mut() {
            t.agent_events(self.now, f.idx(), &events);
        }
    }

    /// Packet trace `w` writes its times as a nam trace does (`%.15g` of ns-2's clock);
    /// false if there is no such ns-2 trace.
    pub fn ns2_nam_times(&mut self, w: usize) -> bool {
        self.traces
            .as_mut()
            .is_some_and(|t| t.use_ns2_double_times(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2.35's LossMonitor counts the gaps in the sequence numbers it sees, and ignores a
    /// number below the expected one (a late datagram, or another source's).
    #[test]
    fn a_loss_monitor_counts_gaps() {
        let mut m = LossMonitor {
            expected: -1,
            nlost: 0,
            last_time: 0.0,
        };
        for (seq, t) in [(5, 0.1), (6, 0.2), (9, 0.3), (8, 0.4), (12, 0.5)] {
            m.recv(seq, t);
        }
        // 7 and 8 missed at 9; 8 sets expected back to 9; 9..11 missed at 12.
        assert_eq!((m.nlost, m.expected, m.last_time), (5, 13, 0.5));
    }
}
