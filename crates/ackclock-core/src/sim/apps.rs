//! Applications starting, ticking and stopping: the events that open and close a flow's
//! sending (FTP, paced writers over TCP, UDP sources, Tmix applications). A flow's kind
//! (`Kind::start`, `Kind::stop`) decides what its application's start and stop do; one-way
//! flows' are here.

use super::*;

impl Simulator {
    pub(super) fn on_app_start(&mut self, f: FlowId) {
        let role = self.flows[f.idx()].role;
        role.start(self, f);
    }

    pub(super) fn on_app_stop(&mut self, f: FlowId) {
        let role = self.flows[f.idx()].role;
        role.stop(self, f);
    }

    /// A one-way flow's application starts.
    pub(super) fn one_way_start(&mut self, f: FlowId) {
        if let Agent::Tfrc(_) = self.flows[f.idx()].agent {
            self.on_tfrc(f, super::tfrc::Action::Start);
            return;
        }
        if let Agent::Rap(_) = self.flows[f.idx()].agent {
            self.on_rap(f, super::rap::Action::Start);
            return;
        }
        let now = self.now;
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        let c = &mut self.counters[f.idx()];
        let mut next_tick = None;
        let flow = &mut self.flows[f.idx()];
        match &mut flow.agent {
            Agent::Tcp { sender, .. } if flow.writer.is_some() => {
                let w = flow.writer.as_mut().expect("checked");
                if w.awaiting_connect() && sender.seqs().0 == 0 && sender.has_syn() {
                    // The connection opens first (the SYN); the first write comes with it.
                    sender.write(now, 0, &mut out, c);
                } else {
                    w.set_after_connect(false);
                    next_tick = Some(w.first_tick(now));
                }
            }
            Agent::Tcp { sender, .. } => sender.start(now, &mut out, c),
            // Only Tmix half-connections are idle, and they have no application of their own.
            Agent::Idle | Agent::Tfrc(_) | Agent::Rap(_) => {}
            Agent::Tmix => {
                let stop = self.scenario.flows[f.idx()]
                    .app
                    .stop_ps()
                    .map_or(self.duration, SimTime)
                    .min(self.duration);
                // Only the earliest start is in the event queue at a time, each start
                // scheduling the next: a replay of 100k connections otherwise held them all
                // in the timer heap, which every timer of every connection then went through.
                // The sequence numbers are those the starts would have had if all were
                // scheduled now, in connection order, so ties still break the same way.
                let mut starts: Vec<(SimTime, u64, u32)> = Vec::new();
                let app = &self.tmix_apps[self.tmix_app_of[f.idx()] as usize];
                for j in 0..app.vectors.len() {
                    let at = SimTime(now.0.saturating_add(app.vectors.start_ps(j)));
                    if at < stop {
                        starts.push((at, starts.len() as u64, app.first + j as u32));
                    }
                }
                let base = self.queue.reserve(starts.len() as u64);
                starts.sort_unstable_by_key(|&(at, k, _)| (at, k));
                for w in starts.windows(2) {
                    let (at, k, c) = w[1];
                    self.tmix_next_start[w[0].2 as usize] = Some((at, base + k, c));
                }
                if let Some(&(at, k, c)) = starts.first() {
                    self.queue
                        .push_timer_reserved(at, base + k, Event::TmixStart(c));
                }
            }
            Agent::Udp { source } => {
                source.restart();
                let first = source.first_tick(now);
                next_tick = if first > now {
                    Some(first)
                } else {
                    source.tick(now, &mut out, c)
                };
                if next_tick.is_some() {
                    source.armed();
                }
            }
        }
        self.send_pooled(sent);
        self.sync_timers(f);
        if let Some(t) = next_tick {
            self.push_udp_tick(t, f);
        }
    }

    /// Schedules a UDP source's next send: under the ns2 profile at ns-2's time for it (the
    /// CBR's timer: now + interval_, in doubles, with ns-2's own interval where the front
    /// end gave it, `UdpSource::ns2_interval`).
    /// A paced writer's connection opened now (`after_connect`): its first write is due
    /// one interval later.
    #[cold]
    pub(super) fn writer_connected(&mut self, f: FlowId) {
        let now = self.now;
        let Some(w) = self.flows[f.idx()].writer.as_mut() else {
            return;
        };
        if w.awaiting_connect() {
            let t = w.connected(now);
            self.push_udp_tick(t, f);
        }
    }

    pub(super) fn push_udp_tick(&mut self, t: SimTime, f: FlowId) {
        if self.ns2_clock {
            let iv = match &self.flows[f.idx()].agent {
                Agent::Udp { source } => source.ns2_interval(),
                _ => None,
            };
            let (t, seq) = match iv {
                Some(iv) => self.ns2_scheduled_at(self.pool.ns2_now.0 + iv, false),
                None => self.ns2_scheduled(t, false),
            };
            self.queue.push_keyed(t, seq, Event::UdpTick(f));
        } else {
            self.queue.push(t, Event::UdpTick(f));
        }
    }

    pub(super) fn on_udp_tick(&mut self, f: FlowId) {
        let now = self.now;
        let c = &mut self.counters[f.idx()];
        let flow = &mut self.flows[f.idx()];
        if let Agent::Udp { source } = &mut flow.agent {
            if !source.fired() {
                return;
            }
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        let next = tick_agent(flow, now, &mut out, c);
        if let (Some(_), Agent::Udp { source }) = (next, &mut flow.agent) {
            source.armed();
        }
        self.send_pooled(sent);
        if self.flows[f.idx()].writer.is_some() {
            self.sync_timers(f);
        }
        if let Some(t) = next {
            self.push_udp_tick(t, f);
        }
    }

    /// A one-way flow's application stops.
    pub(super) fn one_way_stop(&mut self, f: FlowId) {
        if let Agent::Tfrc(_) = self.flows[f.idx()].agent {
            self.on_tfrc(f, super::tfrc::Action::Stop);
            return;
        }
        if let Agent::Rap(_) = self.flows[f.idx()].agent {
            self.on_rap(f, super::rap::Action::Stop);
            return;
        }
        let flow = &mut self.flows[f.idx()];
        match &mut flow.agent {
            // A paced writer stops writing; what it wrote is still delivered.
            Agent::Tcp { .. } if flow.writer.is_some() => {
                flow.writer.as_mut().expect("checked").stop();
            }
            Agent::Tcp { sender, .. } => sender.stop(),
            Agent::Udp { source } => source.stop(),
            // Connections after the stop were never scheduled; running ones finish.
            Agent::Tmix | Agent::Idle | Agent::Tfrc(_) | Agent::Rap(_) => {}
        }
    }
}
