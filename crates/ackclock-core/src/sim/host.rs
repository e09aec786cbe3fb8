//! Host control between `run_until` calls: the ns-2 front end starts and stops applications
//! from `$ns at` scripts and reads counters and TCP variables.

use super::*;

impl Simulator {
    /// Starts (`start = true`) or stops flow `f`'s application at `at`, which must not be
    /// earlier than now.
    pub fn schedule_app(&mut self, f: usize, at: SimTime, start: bool) -> Result<(), String> {
        if f >= self.flows.len() {
            return Err(format!("no flow {f}"));
        }
        if at < self.now {
            return Err(format!("time {} ps is in the past", at.0));
        }
        let id = FlowId(f as u32);
        let (at, seq) = if self.ns2_clock {
            let script = at == self.now;
            let (at, seq) = self.ns2_scheduled(at, script);
            (at, Some(seq))
        } else {
            (at, None)
        };
        let ev = if start {
            self.flows[f].start = at;
            Event::AppStart(id)
        } else {
            Event::AppStop(id)
        };
        match seq {
            Some(seq) => self.queue.push_keyed(at, seq, ev),
            None => self.queue.push_timer(at, ev),
        }
        Ok(())
    }

    /// Gives flow `f`'s one-way TCP sender the congestion control `name` with its default
    /// parameters, before the flow has sent anything: ns-2's `select_ca` on an Agent/TCP/Linux
    /// from a `$ns at` script (tcp/tcp-linux.cc, `LinuxTcpAgent::command` installs the named
    /// `tcp_congestion_ops` whenever it is called). The sender and sink are built anew, as the
    /// run's start built them, with the new algorithm; once the flow has sent a segment the
    /// change is refused (its state would have to be carried over).
    /// Gives flow `f`'s TCP sender, which must not have sent yet, ns-2's `boot_time_` `boot`
    /// (the grid of its RTT samples' ticks): a FullTcp agent's connect draws it anew
    /// (`FullTcpAgent::advance_bytes` in CLOSED calls `reset`).
    pub fn set_ns2_boot_time(&mut self, f: usize, boot: SimDuration) -> Result<(), String> {
        match self.flows.get_mut(f).map(|flow| &mut flow.agent) {
            Some(Agent::Tcp { sender, .. }) if sender.seqs().2 == 0 => {
                sender.rtt.set_ns2_boot_time(boot);
                Ok(())
            }
            Some(Agent::Tcp { .. }) => Err(format!("flow {f} has sent already")),
            _ => Err(format!("flow {f} is not a TCP flow")),
        }
    }

    pub fn select_cc(
        &mut self,
        f: usize,
        name: &str,
        params: &std::collections::BTreeMap<String, f64>,
    ) -> Result<(), String> {
        let Some(flow) = self.flows.get(f) else {
            return Err(format!("no flow {f}"));
        };
        let (Agent::Tcp { sender, .. }, Role::Own, None) = (&flow.agent, flow.role, &flow.writer)
        else {
            return Err(format!("flow {f} is not a one-way TCP flow driven by FTP"));
        };
        if sender.seqs().2 > 0 {
            return Err(format!("flow {f} has sent data already"));
        }
        let spec = &self.scenario.flows[f];
        let (Some(tcp), AppConfig::Ftp { size_bytes, .. }) = (&spec.tcp, &spec.app) else {
            return Err(format!("flow {f} is not a one-way TCP flow driven by FTP"));
        };
        let mut t = tcp.clone();
        t.cc = crate::tcp::cc::CcConfig::parse(name, params)?;
        let (src, dst) = (NodeId(spec.from), NodeId(spec.to));
        let (sender, sink) = super::build::tcp_agents(
            FlowId(f as u32),
            (src, dst),
            &t,
            self.scenario.run.seed,
            &spec.name,
            *size_bytes,
        )?;
        self.scenario.flows[f].tcp = Some(t);
        self.flows[f].agent = Agent::Tcp { sender, sink };
        Ok(())
    }

    /// Flow `f`'s application closes its two-way connection now (ns-2's FullTcp `close`,
    /// `FullTcpAgent::usrclosed`): its FIN follows the data it has sent (`tcp/full.rs`).
    pub fn close_app(&mut self, f: usize) -> Result<(), String> {
        match self.flows.get(f).map(|flow| flow.role) {
            Some(Role::TwoWay(conn, side)) => self.full_close(super::flow::TwoWay { conn, side }),
            Some(_) => Err(format!(
                "flow {f} is not a direction of a two-way connection"
            )),
            None => Err(format!("no flow {f}")),
        }
    }

    /// Flow `f`, a direction of a two-way connection (ns-2's FullTcp), has been given
    /// `total` payload bytes in all by its application, a part of a segment allowed
    /// (`FullTcpAgent::advance_bytes`, `tcp/sender/stream.rs`); sends what its window allows.
    pub fn advance_app_bytes(&mut self, f: usize, total: u64) -> Result<(), String> {
        match self.flows.get(f).map(|flow| flow.role) {
            Some(Role::TwoWay(conn, side)) => {
                self.full_advance_bytes(super::flow::TwoWay { conn, side }, total)
            }
            Some(_) => Err(format!(
                "flow {f} is not a direction of a two-way connection"
            )),
            None => Err(format!("no flow {f}")),
        }
    }

    /// Lets flow `f`'s one-way TCP sender send up to segment `limit` (not included; a SYN is
    /// segment 0) and sends what its window allows now: ns-2's FTP `produce`, `producemore`
    /// and `send`, which move the agent's `curseq_` (tcp.cc, `TcpAgent::advanceby`).
    pub fn advance_app(&mut self, f: usize, limit: u64) -> Result<(), String> {
        let Some(flow) = self.flows.get_mut(f) else {
            return Err(format!("no flow {f}"));
        };
        if let Role::TwoWay(conn, side) = flow.role {
            return self.full_advance(super::flow::TwoWay { conn, side }, limit);
        }
        let now = self.now;
        let (Agent::Tcp { sender, .. }, Role::Own | Role::Reset(_), None) =
            (&mut flow.agent, flow.role, &flow.writer)
        else {
            return Err(format!("flow {f} is not a one-way TCP flow driven by FTP"));
        };
        if flow.start > now {
            flow.start = now;
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        sender.advance_to(limit, now, &mut out, &mut self.counters[f]);
        self.send_pooled(sent);
        self.sync_timers(FlowId(f as u32));
        Ok(())
    }

    /// Draws the random numbers ns-2 draws from its default generator from ns-2's generator,
    /// in state `state` now (`crate::rng::ns2`): RED's early drops (`REDQueue::drop_early`)
    /// and TFRC's send gaps (`TfrcAgent::nextpkt`). The ns-2 front end calls it before the
    /// run with `$defaultRNG`'s state, and again whenever the script drew in between.
    pub fn use_ns2_rng(&mut self, state: [u64; 6]) -> Result<(), String> {
        use crate::rng::ns2::{Mrg32k3a, Ns2Default};
        use crate::rng::Uniform;
        let g = Mrg32k3a::from_state(state)
            .ok_or_else(|| format!("not an MRG32k3a state: {state:?}"))?;
        if let Some(d) = &self.ns2_rng {
            d.set_state(g);
            return Ok(());
        }
        let d = Ns2Default::new(g);
        for link in &mut self.links {
            if let Some(r) = link.random() {
                *r = Uniform::Ns2(d.clone());
            }
        }
        for flow in &mut self.flows {
            match &mut flow.agent {
                Agent::Tfrc(conn) => conn.sender.use_random(Uniform::Ns2(d.clone())),
                // RapAgent::IpgTimeout's Random::uniform(overhead_).
                Agent::Rap(conn) => conn.rng = Uniform::Ns2(d.clone()),
                // TcpAgent::send_much's Random::uniform(overhead_).
                Agent::Tcp { sender, .. } => sender.use_overhead_random(Uniform::Ns2(d.clone())),
                _ => {}
            }
        }
        self.ns2_rng = Some(d);
        Ok(())
    }

    /// Link direction `l`'s loss model draws from ns-2's default generator too, as an ns-2
    /// `ErrorModel` without a random variable of its own does (`loss::bernoulli`); false if the
    /// link has no random loss model. [`Self::use_ns2_rng`] must have been called.
    pub fn ns2_rng_loss(&mut self, l: usize) -> Result<bool, String> {
        use crate::rng::Uniform;
        let d = self
            .ns2_rng
            .clone()
            .ok_or("ns-2's generator is not in use (use_ns2_rng first)")?;
        let link = self
            .links
            .get_mut(l)
            .ok_or_else(|| format!("no link {l}"))?;
        Ok(match link.loss_random() {
            Some(r) => {
                *r = Uniform::Ns2(d);
                true
            }
            None => false,
        })
    }

    /// Flow `f`'s CBR sends every `seconds`, ns-2's `interval_` as its double, on ns-2's
    /// clock (`traffic::cbr`); false if the flow is no CBR without jitter.
    pub fn ns2_cbr_interval(&mut self, f: usize, seconds: f64) -> Result<bool, String> {
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        Ok(match &mut flow.agent {
            Agent::Udp { source } => source.set_ns2_interval(seconds),
            _ => false,
        })
    }

    /// Flow `f`'s UDP agent has ns-2's `packetSize_` `size`: a larger message from its
    /// application goes as several packets (`UdpSource::set_ns2_packet_size`,
    /// `UdpAgent::sendmsg`); false if the flow is no UDP source or `size` is 0.
    pub fn ns2_udp_packet_size(&mut self, f: usize, size: u32) -> Result<bool, String> {
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        Ok(match &mut flow.agent {
            Agent::Udp { source } => source.set_ns2_packet_size(size),
            _ => false,
        })
    }

    /// Flow `f`'s CBR with jitter sends every `seconds` (ns-2's `interval_`, its double)
    /// plus a jitter drawn from ns-2's default generator, on ns-2's clock (`traffic::cbr`);
    /// false if the flow is no CBR with jitter. [`Self::use_ns2_rng`] must have been called.
    pub fn ns2_cbr_jitter(&mut self, f: usize, seconds: f64) -> Result<bool, String> {
        let d = self
            .ns2_rng
            .clone()
            .ok_or("ns-2's generator is not in use (use_ns2_rng first)")?;
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        Ok(match &mut flow.agent {
            Agent::Udp { source } => source.set_ns2_jitter(seconds, d),
            _ => false,
        })
    }

    /// Each link's cost (ns-2's `$ns cost`, by link index; 1 where the script set none): the
    /// static routes are computed again as ns-2.35's `RouteLogic::compute_routes` adds the
    /// costs up (`Routes::build_ns2_costs`), toward the same destinations as at build. Under
    /// `routing = "ns2"` and before the run has begun only.
    pub fn ns2_link_costs(&mut self, costs: &[f64]) -> Result<(), String> {
        if self.scenario.run.routing != crate::scenario::Routing::Ns2 {
            return Err("link costs need routing = \"ns2\"".into());
        }
        if self.now != SimTime::ZERO || self.counters.iter().any(|c| c.packets_sent > 0) {
            return Err("link costs are set before the run".into());
        }
        if let Some(c) = costs.iter().find(|c| !c.is_finite() || **c < 0.0) {
            return Err(format!("a link cost of {c}"));
        }
        let mut dests = Vec::new();
        for f in &self.scenario.flows {
            dests.push(NodeId(f.to));
            if f.kind != FlowKind::Udp {
                dests.push(NodeId(f.from));
            }
        }
        self.routes =
            Routes::build_ns2_costs(self.scenario.nodes.len(), &self.links, &dests, costs)?;
        self.routes_changed(true);
        Ok(())
    }

    /// Flow `f`'s data packets bear ns-2's packet type `ty` in ns-2 traces from now on: ns-2
    /// names an agent's packets by its `type_`, which an application may set when it starts
    /// (`EXPOO_Traffic::init` and `POO_Traffic::init`, tools/expoo.cc and pareto.cc, call
    /// `agent_->set_pkttype(PT_EXP)` / `PT_PARETO` on any agent, a TCP agent too, so its
    /// segments, retransmissions included, print as `exp` / `pareto`, numbered 0). The ACKs
    /// keep theirs.
    pub fn ns2_data_type(&mut self, f: usize, ty: &'static str) -> Result<(), String> {
        if f >= self.flows.len() {
            return Err(format!("no flow {f}"));
        }
        // ns-2.35 Trace::get_seqno prints an `exp` or `pareto` packet's RTP sequence number,
        // which a UDP agent sets (UdpAgent::sendmsg) and a TCP or TFRC agent never does.
        let unnumbered = matches!(self.scenario.flows[f].kind, FlowKind::Tcp | FlowKind::Tfrc);
        if let Some(t) = &mut self.traces {
            t.set_data_type(f, ty);
            if unnumbered {
                t.set_unnumbered(f);
            }
        }
        Ok(())
    }

    /// Flow `f`'s TCP window becomes `window` segments during the run (ns-2's `window_`,
    /// `wnd_`, which `TcpAgent::window()` and `slowdown` read on every use): from the next
    /// segment sent and the next reduction on. Not above the window the flow was made with
    /// (its sink and scoreboard are sized by it). False if the flow is no one-way TCP flow.
    pub fn ns2_tcp_window(&mut self, f: usize, window: f64) -> Result<bool, String> {
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        Ok(match &mut flow.agent {
            Agent::Tcp { sender, .. } => sender.set_ns2_window(window)?,
            _ => false,
        })
    }

    /// Flow `f`'s on-off source becomes ns-2's (`traffic::ns2_onoff`): `interval` seconds
    /// between sends in a burst (ns-2's `interval_`), bursts and silences drawn from ns-2's
    /// default generator, sends on ns-2's clock; false if the flow has no on-off source.
    /// [`Self::use_ns2_rng`] must have been called.
    pub fn ns2_onoff(
        &mut self,
        f: usize,
        interval: f64,
        bursts: crate::traffic::Ns2Bursts,
    ) -> Result<bool, String> {
        let d = self
            .ns2_rng
            .clone()
            .ok_or("ns-2's generator is not in use (use_ns2_rng first)")?;
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        Ok(match &mut flow.agent {
            Agent::Udp { source } => source.set_ns2_onoff(interval, bursts, d),
            _ => false,
        })
    }

    /// ns-2's default generator's state now, if the run draws from it ([`Self::use_ns2_rng`]).
    pub fn ns2_rng_state(&self) -> Option<[u64; 6]> {
        self.ns2_rng.as_ref().map(|d| d.state())
    }

    /// Flow `f`'s TCP sender's first unacknowledged segment, next segment to send and one
    /// past the highest sent (ns-2's `ack_` + 1, `t_seqno_`, `maxseq_` + 1); `None` for a
    /// flow without one.
    pub fn tcp_seqs(&self, f: usize) -> Option<(u64, u64, u64)> {
        match &self.flows.get(f)?.agent {
            Agent::Tcp { sender, .. } => Some(sender.seqs()),
            _ => None,
        }
    }

    /// Flow `f`'s counters since the start of the run.
    pub fn flow_counters(&self, f: usize) -> Option<FlowCounters> {
        let mut c = self.counters.get(f).copied()?;
        let mut held = self.flows[f].rto_held;
        flush_rto(&mut held, self.now, &mut c);
        Some(c)
    }

    /// Flow `f`'s TCP variables now, in [`crate::trace::tracer::TRACEABLE`] order; `None` for UDP.
    pub fn tcp_vars(&self, f: usize) -> Option<[f64; 10]> {
        let Agent::Tcp { sender, .. } = &self.flows.get(f)?.agent else {
            return None;
        };
        Some(traceable_values(sender))
    }

    /// Starts keeping a queue monitor's integrals of link direction `l`'s backlog in ns-2's
    /// doubles (`Link::keep_ns2_integrals`); false if the link keeps no ns-2 clock.
    pub fn keep_ns2_integrals(&mut self, l: usize) -> Result<bool, String> {
        let link = self
            .links
            .get_mut(l)
            .ok_or_else(|| format!("no link {l}"))?;
        Ok(link.keep_ns2_integrals())
    }

    /// Link direction `l`'s queue monitor integrals, if kept.
    pub fn ns2_integrals(&self, l: usize) -> Option<Ns2Integrals> {
        self.links.get(l)?.ns2_integrals()
    }

    /// When link direction `l`'s last accepted transmission ends, in ns-2's double, if the
    /// link keeps ns-2's clock (`Link::ns2_busy`).
    pub fn ns2_line_busy(&self, l: usize) -> Option<f64> {
        self.links.get(l)?.ns2_busy()
    }

    /// Sets link direction `l`'s queue monitor integrals; false if they are not kept.
    pub fn set_ns2_integrals(&mut self, l: usize, integrals: Ns2Integrals) -> bool {
        self.links
            .get_mut(l)
            .is_some_and(|link| link.set_ns2_integrals(integrals))
    }

    /// Flow `f`'s ns-2 average window `awnd_` (`TcpSender::ns2_awnd`); `None` for UDP.
    /// Flow `f`'s Quick-Start requests and approvals since the last call (what ns-2's
    /// `print_request_` prints; `tcp/sender/quick_start.rs`); empty for others.
    pub fn take_quick_start_log(&mut self, f: usize) -> Vec<crate::tcp::sender::QsLog> {
        match self.flows.get_mut(f).map(|fl| &mut fl.agent) {
            Some(Agent::Tcp { sender, .. }) => sender.take_quick_start_log(),
            _ => Vec::new(),
        }
    }

    /// One-way TCP flow `f`'s ACKs received by its sender (`TcpSender::acks_received`).
    pub fn tcp_acks_received(&self, f: usize) -> Option<u64> {
        match &self.flows.get(f)?.agent {
            Agent::Tcp { sender, .. } => Some(sender.acks_received()),
            _ => None,
        }
    }

    pub fn tcp_syns_sent(&self, f: usize) -> Option<u64> {
        match &self.flows.get(f)?.agent {
            Agent::Tcp { sender, .. } => Some(sender.syns_sent()),
            _ => None,
        }
    }

    pub fn tcp_ns2_awnd(&self, f: usize) -> Option<f64> {
        match &self.flows.get(f)?.agent {
            Agent::Tcp { sender, .. } => Some(sender.ns2_awnd()),
            _ => None,
        }
    }

    /// An RBP agent's `rbp_segs_actually_paced_` and `rbp_inter_pace_delay_` (seconds)
    /// (`tcp/sender/rbp.rs`), or None for another flow.
    pub fn tcp_rbp_stats(&self, f: usize) -> Option<(u64, f64)> {
        match &self.flows.get(f)?.agent {
            Agent::Tcp { sender, .. } => sender.rbp_stats(),
            _ => None,
        }
    }

    /// Starts recording the changes of link direction `l`'s queue variables (RED's `curq_`
    /// and `ave_`, `queue::VarTrace`); false if its discipline has none.
    pub fn trace_queue_vars(&mut self, l: usize) -> Result<bool, String> {
        let link = self
            .links
            .get_mut(l)
            .ok_or_else(|| format!("no link {l}"))?;
        Ok(match link.var_trace() {
            Some(slot) => {
                slot.get_or_insert_with(Default::default);
                true
            }
            None => false,
        })
    }

    /// The changes recorded on link direction `l` since the last call: (time in seconds,
    /// curq, ave).
    pub fn take_queue_vars(&mut self, l: usize) -> Vec<(f64, f64, f64)> {
        let Some(Some(t)) = self.links.get_mut(l).and_then(|x| x.var_trace()) else {
            return Vec::new();
        };
        t.rows
            .drain(..)
            .map(|(at, q, ave)| (at.as_secs_f64(), q, ave))
            .collect()
    }

    /// Link direction `l`'s queue counters since the start of the run, brought up to now,
    /// and the instant of the backlog's last change (what an ns-2 Integrator has reached).
    pub fn queue_counters(&mut self, l: usize) -> Option<(QueueCounters, SimTime)> {
        let now = self.now;
        let link = self.links.get_mut(l)?;
        link.settle(now);
        Some((link.counters_at(now), link.counted_until()))
    }

    /// Link direction `l`'s departures that carried CE on an ECN-capable packet (ns-2's
    /// `pmarks_`), if the link keeps ns-2's clock.
    pub fn ns2_ce_departures(&self, l: usize) -> Option<u64> {
        self.links.get(l)?.ns2_ce_departures()
    }

    /// Link direction `l`'s per-flow queue counters since the start of the run, brought up
    /// to now, indexed by engine flow (`None`: the link keeps none).
    pub fn queue_flow_counters(&mut self, l: usize) -> Option<Vec<FlowQueueCounters>> {
        let now = self.now;
        let link = self.links.get_mut(l)?;
        link.settle(now);
        let m = link.flow_monitor.as_mut()?;
        for c in m.iter_mut() {
            c.integrate(now.0);
        }
        Some(m.clone())
    }

    /// Whether flow `f`'s data (`Some(true)`) or its ACKs and replies (`Some(false)`) cross
    /// link direction `l` on their route.
    pub fn flow_crosses(&self, f: usize, l: usize) -> Option<bool> {
        let flow = self.scenario.flows.get(f)?;
        let on_path = |from: u32, to: u32| {
            let (mut at, mut hops) = (from, 0);
            while at != to && hops <= self.links.len() {
                let Some(next) = self
                    .routes
                    .next_hop(NodeId(at), NodeId(to), FlowId(f as u32))
                else {
                    return false;
                };
                if next.idx() == l {
                    return true;
                }
                at = self.links[next.idx()].to.0;
                hops += 1;
            }
            false
        };
        if on_path(flow.from, flow.to) {
            Some(true)
        } else if on_path(flow.to, flow.from) {
            Some(false)
        } else {
            None
        }
    }

    /// The traced-variable rows recorded since the last call (they leave `results()`).
    pub fn take_tcp_trace(&mut self) -> Table {
        let flows = &self.scenario.flows;
        self.tracer.take(|f| &flows[f as usize].name)
    }

    /// Per-link packets in the network right now (waiting, on the wire or propagating).
    pub fn link_in_flight(&self) -> Vec<usize> {
        self.links.iter().map(|l| l.in_flight()).collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures::{dumbbell, ns2_tcp};
    use crate::scenario::{TraceConfig, TraceFormat};
    use crate::time::SimTime;
    use crate::Simulator;

    /// A TCP flow whose data is renamed mid-run (an Exponential source starting on the
    /// agent, `EXPOO_Traffic::init`): its segments before print as `tcp`, after as `exp`
    /// with sequence number 0 (`Trace::get_seqno` reads an `exp` packet's RTP header), its
    /// ACKs stay `ack` with theirs.
    #[test]
    fn a_data_type_set_during_the_run_names_the_later_segments() {
        let dir = std::env::temp_dir().join(format!("ackclock-dtype-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tr = dir.join("out.tr");
        let mut sc = dumbbell(1, 10e6, 1, 1e6, 10, 50, ns2_tcp(), 2);
        sc.traces = vec![TraceConfig {
            format: TraceFormat::Ns2,
            path: tr.to_string_lossy().into_owned(),
            links: vec![0, 1],
            nodes: vec![],
            events: vec!["-".into()],
            lost_untraced: vec![],
            ahead_of_loss: vec![],
            tcp_header: false,
        }];
        let mut sim = Simulator::new(sc).unwrap();
        let half = SimTime(1_000_000_000_000);
        sim.run_until(half);
        assert!(sim.ns2_data_type(1, "exp").is_err(), "no flow 1");
        sim.ns2_data_type(0, "exp").unwrap();
        sim.run();
        assert!(sim.trace_error().is_none());
        let text = std::fs::read_to_string(&tr).unwrap();
        let rows: Vec<(f64, String, String, u64)> = text
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let seq = f[10].parse().unwrap();
                (
                    f[1].parse().unwrap(),
                    f[2].to_string(),
                    f[4].to_string(),
                    seq,
                )
            })
            .collect();
        let top = |before: bool, from: &str| {
            rows.iter()
                .filter(|(t, n, _, _)| (*t < 1.0) == before && n == from)
                .map(|r| r.3)
                .max()
                .unwrap()
        };
        assert!(top(true, "0") > 0 && top(true, "1") > 0);
        assert_eq!(top(false, "0"), 0, "an exp packet's sequence number");
        assert!(top(false, "1") > top(true, "1"), "the ACKs' numbers go on");
        let kinds = |before: bool, from: &str| -> Vec<&str> {
            let mut k: Vec<&str> = rows
                .iter()
                .filter(|(t, n, _, _)| (*t < 1.0) == before && n == from)
                .map(|(_, _, ty, _)| ty.as_str())
                .collect();
            k.dedup();
            k
        };
        // r1 (node 0) sends the data on link 0, r2 (node 1) the ACKs on link 1.
        assert_eq!(kinds(true, "0"), ["tcp"]);
        assert_eq!(kinds(false, "0"), ["exp"]);
        assert_eq!(kinds(true, "1"), ["ack"]);
        assert_eq!(kinds(false, "1"), ["ack"]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
