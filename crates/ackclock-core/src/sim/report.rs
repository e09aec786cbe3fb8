//! Report: the result tables of a finished run.

use super::*;
use std::borrow::Cow;

use crate::results::Labels;

impl Simulator {
    /// The run's result tables; `None` until the run has reached its duration, and for a
    /// run that stopped early (see `stop_reason`).
    pub fn results(&self) -> Option<Results> {
        let series = self.sampler.as_ref().map(Sampler::tables);
        self.results_with(series)
    }

    /// [`Simulator::results`], handing over the sampled time series instead of copying them
    /// (they are most of a sampled run's memory): a later call has them empty.
    pub fn take_results(&mut self) -> Option<Results> {
        if !self.finished || self.stop.is_some() {
            return None;
        }
        let series = self.sampler.as_mut().map(Sampler::take_tables);
        self.results_with(series)
    }

    fn results_with(&self, series: Option<(Table, Table)>) -> Option<Results> {
        if !self.finished || self.stop.is_some() {
            return None;
        }
        let sc = &self.scenario;
        let window_s = (sc.run.duration_ps - sc.run.warmup_ps) as f64 / PS_PER_S as f64;
        let mbps = |bytes: u64| bytes as f64 * 8.0 / window_s / 1e6;

        let mut flows = Table::default();
        let mut cols = self.scenario_counters();
        for (i, c) in cols.iter_mut().enumerate() {
            *c = *c - self.warm_flows.get(i).copied().unwrap_or_default();
        }
        let flow_cfg = &sc.flows[..];
        let agents = &self.flows[..self.scenario_flows];
        // Kinds, variants and algorithms as labels: a few values over all the rows.
        let tcp_str = |f: fn(&crate::scenario::TcpConfig) -> &str| {
            Labels::of(flow_cfg.iter().map(move |x| x.tcp.as_ref().map_or("", f)))
        };
        flows
            .str_of("flow", flow_cfg, |f| f.name.clone())
            .labels(
                "kind",
                Labels::of(flow_cfg.iter().map(|f| match f.kind {
                    FlowKind::Tcp => "tcp",
                    FlowKind::Udp => "udp",
                    FlowKind::Tfrc => "tfrc",
                    FlowKind::Rap => "rap",
                })),
            )
            .labels("variant", tcp_str(|t| t.variant.name()))
            .labels("cc", tcp_str(|t| t.cc.name()))
            .str_of("from", flow_cfg, |f| sc.nodes[f.from as usize].clone())
            .str_of("to", flow_cfg, |f| sc.nodes[f.to as usize].clone())
            // A connection's acceptor that never saw a SYN never started.
            .f64_of("start_s", agents, |f| match f.start {
                SimTime(u64::MAX) => f64::NAN,
                t => t.as_secs_f64(),
            })
            .u64_of("packets_sent", &cols, |c| c.packets_sent)
            .u64_of("bytes_sent", &cols, |c| c.bytes_sent)
            .u64_of("packets_retransmitted", &cols, |c| c.packets_retransmitted)
            .u64_of("packets_dropped", &cols, |c| c.packets_dropped)
            .u64_of("packets_delivered", &cols, |c| c.packets_received)
            .u64_of("bytes_delivered", &cols, |c| c.bytes_delivered)
            .f64_of("throughput_mbps", &cols, |c| mbps(c.bytes_received))
            .f64_of("goodput_mbps", &cols, |c| mbps(c.bytes_delivered))
            .f64_of("loss_rate", &cols, |c| {
                if c.packets_sent == 0 {
                    0.0
                } else {
                    c.packets_dropped as f64 / c.packets_sent as f64
                }
            })
            .f64_of("mean_rtt_s", &cols, |c| mean_s(c.rtt_sum_ps, c.rtt_samples))
            .u64_of("timeouts", &cols, |c| c.timeouts)
            .u64_of("fast_retransmits", &cols, |c| c.fast_retransmits)
            .u64_of("acks_sent", &cols, |c| c.acks_sent)
            .u64_of("acks_dropped", &cols, |c| c.acks_dropped)
            .u64_of("rtt_samples", &cols, |c| c.rtt_samples)
            .u64_of("ecn_reductions", &cols, |c| c.ecn_reductions)
            .f64_of("mean_rto_s", &cols, |c| mean_s(c.rto_area, c.rto_time_ps))
            .f64_of("completion_s", agents, |f| match &f.agent {
                Agent::Tcp { sender, .. } => {
                    sender.completed_at.map_or(f64::NAN, |t| t.as_secs_f64())
                }
                Agent::Udp { .. } | Agent::Tfrc(_) | Agent::Rap(_) | Agent::Tmix | Agent::Idle => {
                    f64::NAN
                }
            });

        // Each column computed from the links as it is written: a vector of every link
        // direction's counters and histograms beside the table would be freed right after
        // (40 002 directions at 10 000 flows: some 8 MB), yet count in the run's peak.
        let mut queues = Table::default();
        let window_ps = (sc.run.duration_ps - sc.run.warmup_ps) as f64;
        let counts = || {
            self.links
                .iter()
                .enumerate()
                .map(|(i, l)| l.counters() - self.warm_queues.get(i).copied().unwrap_or_default())
        };
        let empty = &Histogram::default();
        let quantile_s = |q: f64| {
            self.links.iter().enumerate().map(move |(i, l)| {
                l.sojourn_histogram()
                    .since(self.warm_sojourn.get(i).unwrap_or(empty))
                    .quantile(q)
                    .map_or(f64::NAN, |v| v / PS_PER_S as f64)
            })
        };
        queues
            .str("link", self.link_names.clone())
            .u64_iter("arrived_packets", counts().map(|q| q.arrived_packets))
            .u64_iter("arrived_bytes", counts().map(|q| q.arrived_bytes))
            .u64_iter("departed_packets", counts().map(|q| q.departed_packets))
            .u64_iter("departed_bytes", counts().map(|q| q.departed_bytes))
            .u64_iter("dropped_packets", counts().map(|q| q.dropped_packets))
            .u64_iter("dropped_bytes", counts().map(|q| q.dropped_bytes))
            .f64_iter(
                "mean_queue_packets",
                counts().map(|q| q.area_packets as f64 / window_ps),
            )
            .f64_iter(
                "mean_queue_bytes",
                counts().map(|q| q.area_bytes as f64 / window_ps),
            )
            .u64_iter("max_queue_packets", counts().map(|q| q.max_queue_packets))
            .f64_iter(
                "utilization",
                counts()
                    .zip(&self.links)
                    .map(|(q, l)| q.departed_bytes as f64 * 8.0 / (l.rate.bps() as f64 * window_s)),
            )
            .u64_iter("lost_packets", counts().map(|q| q.lost_packets))
            .u64_iter("lost_bytes", counts().map(|q| q.lost_bytes))
            .u64_iter("marked_packets", counts().map(|q| q.marked_packets))
            .f64_iter(
                "mean_sojourn_s",
                counts().map(|q| mean_s(q.sojourn_sum_ps, q.departed_packets)),
            )
            .f64_iter("p50_sojourn_s", quantile_s(0.5))
            .f64_iter("p95_sojourn_s", quantile_s(0.95))
            .f64_iter(
                "max_sojourn_s",
                counts().map(|q| q.max_sojourn_ps as f64 / PS_PER_S as f64),
            );

        let (timeseries, queue_timeseries) = series.unwrap_or_else(|| Sampler::default().tables());

        Some(Results {
            summary: Summary {
                name: sc.name.clone(),
                profile: sc.profile.clone(),
                seed: sc.run.seed,
                duration_s: sc.run.duration_ps as f64 / PS_PER_S as f64,
                warmup_s: sc.run.warmup_ps as f64 / PS_PER_S as f64,
                events: self.events,
                packet_hops: self.packet_hops(),
                packets_delivered: self.packets_delivered,
                version: crate::VERSION.to_string(),
            },
            flows,
            queues,
            timeseries,
            queue_timeseries,
            tcp_trace: self.tracer.table(|f| &self.scenario.flows[f as usize].name),
            connections: self.connections_table(),
            flows_detail: self.flow_monitor_table(),
            queue_flows: self.queue_flows_table(),
            cc_state: self
                .cc_state
                .table(|f| &self.scenario.flows[f as usize].name),
        })
    }

    /// Per-flow queue monitors over the measurement window: a row per monitored link
    /// direction and flow that offered it packets (a Tmix application sums its connections).
    fn queue_flows_table(&self) -> Table {
        let sc = &self.scenario;
        let window = (sc.run.duration_ps - sc.run.warmup_ps) as f64;
        let owner = |i: usize| match self.flows[i].tmix() {
            Some((c, _)) => self.tmix[c as usize].parent.idx(),
            None => i,
        };
        let mut rows: Vec<(String, String, FlowQueueCounters)> = Vec::new();
        for (l, link) in self.links.iter().enumerate() {
            let Some(m) = &link.flow_monitor else {
                continue;
            };
            let warm = self.warm_flow_queues.get(l).and_then(Option::as_ref);
            let mut per_flow = vec![FlowQueueCounters::default(); sc.flows.len()];
            for (i, c) in m.iter().enumerate() {
                // A Tmix slot made after the warm-up counted nothing before it.
                let d = match warm.and_then(|w| w.get(i)) {
                    Some(w) => *c - *w,
                    None => *c,
                };
                let o = &mut per_flow[owner(i)];
                *o = *o + d;
            }
            for (i, c) in per_flow.into_iter().enumerate() {
                if c.arrived_packets > 0 {
                    rows.push((self.link_names[l].clone(), sc.flows[i].name.clone(), c));
                }
            }
        }
        let mut t = Table::default();
        t.str_of("link", &rows, |r| r.0.clone())
            .str_of("flow", &rows, |r| r.1.clone())
            .u64_of("arrived_packets", &rows, |r| r.2.arrived_packets)
            .u64_of("arrived_bytes", &rows, |r| r.2.arrived_bytes)
            .u64_of("departed_packets", &rows, |r| r.2.departed_packets)
            .u64_of("departed_bytes", &rows, |r| r.2.departed_bytes)
            .u64_of("dropped_packets", &rows, |r| r.2.dropped_packets)
            .u64_of("dropped_bytes", &rows, |r| r.2.dropped_bytes)
            .u64_of("lost_packets", &rows, |r| r.2.lost_packets)
            .u64_of("lost_bytes", &rows, |r| r.2.lost_bytes)
            .f64_of("mean_queue_packets", &rows, |r| {
                r.2.area_packets as f64 / window
            })
            .f64_of("mean_queue_bytes", &rows, |r| {
                r.2.area_bytes as f64 / window
            });
        t
    }

    /// FlowMonitor-style rows: each flow's data direction, and its ACK direction for TCP;
    /// a Tmix application sums its connections.
    fn flow_monitor_table(&self) -> Table {
        let sc = &self.scenario;
        let n = sc.flows.len();
        // Each flow's data and ACK monitors, at 2i and 2i + 1: the engine's own, copied only
        // when Tmix halves add theirs.
        let mut merged: Cow<[FlowMonitor]> = Cow::Borrowed(&self.monitor[..2 * n]);
        for (i, flow) in self.flows.iter().enumerate().skip(n) {
            if let Some((c, _)) = flow.tmix() {
                let p = self.tmix[c as usize].parent.idx();
                for d in 0..2 {
                    merged.to_mut()[2 * p + d].merge(&self.monitor[2 * i + d]);
                }
            }
        }
        // The freed half-connections' (`sim/tmix.rs`): sums, minima and maxima, in any order.
        for i in 0..n {
            if let Some(closed) = self.tmix_slots.closed_monitor(i) {
                let m = merged.to_mut();
                m[2 * i].merge(&closed[0]);
                m[2 * i + 1].merge(&closed[1]);
            }
        }
        let s = |ps: u64| ps as f64 / PS_PER_S as f64;
        let s128 = |ps: u128| ps as f64 / PS_PER_S as f64;
        // A row per direction, as its monitor's index: flow m / 2, ACKs if m is odd.
        let mut index: Vec<u32> = Vec::with_capacity(2 * n);
        for (i, f) in sc.flows.iter().enumerate() {
            index.push(2 * i as u32);
            if f.kind != FlowKind::Udp {
                index.push(2 * i as u32 + 1);
            }
        }
        let rows: Vec<&FlowMonitor> = index.iter().map(|&m| &merged[m as usize]).collect();
        let mean = |sum: u128, n: u64| {
            if n == 0 {
                f64::NAN
            } else {
                s128(sum) / n as f64
            }
        };
        let mut t = Table::default();
        t.labels(
            "flow",
            Labels {
                values: sc.flows.iter().map(|f| f.name.clone()).collect(),
                codes: index.iter().map(|m| m / 2).collect::<Vec<_>>().into(),
            },
        )
        .labels(
            "direction",
            Labels {
                values: vec!["data".to_string(), "ack".to_string()],
                codes: index.iter().map(|m| m % 2).collect::<Vec<_>>().into(),
            },
        )
        .u64_of("tx_packets", &rows, |r| r.tx_packets)
        .u64_of("tx_bytes", &rows, |r| r.tx_bytes)
        .u64_of("rx_packets", &rows, |r| r.rx_packets)
        .u64_of("rx_bytes", &rows, |r| r.rx_bytes)
        .u64_of("lost_packets", &rows, |r| r.lost)
        .f64_of("delay_sum_s", &rows, |r| s128(r.delay_sum_ps))
        .f64_of("mean_delay_s", &rows, |r| {
            mean(r.delay_sum_ps, r.rx_packets)
        })
        .f64_of("max_delay_s", &rows, |r| {
            if r.rx_packets == 0 {
                f64::NAN
            } else {
                s(r.delay_max_ps)
            }
        })
        .f64_of("jitter_sum_s", &rows, |r| s128(r.jitter_sum_ps))
        .f64_of("mean_jitter_s", &rows, |r| {
            mean(r.jitter_sum_ps, r.rx_packets.saturating_sub(1))
        })
        .f64_of("first_tx_s", &rows, |r| r.first_tx().map_or(f64::NAN, s))
        .f64_of("last_tx_s", &rows, |r| {
            r.first_tx().map_or(f64::NAN, |_| s(r.last_tx))
        })
        .f64_of("first_rx_s", &rows, |r| r.first_rx().map_or(f64::NAN, s))
        .f64_of("last_rx_s", &rows, |r| {
            r.first_rx().map_or(f64::NAN, |_| s(r.last_rx))
        });
        t
    }

    /// One row per Tmix connection, then one per two-way TCP connection
    /// (`Simulator::full_connection_rows`); the last three columns only with two-way ones.
    /// The Tmix rows go straight into the columns (seed 003's study runs have millions).
    fn connections_table(&self) -> Table {
        let secs = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        let full: Vec<ConnRow> = self.full_connection_rows().collect();
        let n = self.tmix.len() + full.len();
        // The flow and kind columns as labels: a Tmix row's flow is its scenario flow's
        // name (code: the flow's index), its kind seq or conc.
        let mut flow = Labels {
            values: self.scenario.flows.iter().map(|f| f.name.clone()).collect(),
            codes: Vec::with_capacity(n).into(),
        };
        let mut kind = Labels {
            values: vec!["seq".to_string(), "conc".to_string()],
            codes: Vec::with_capacity(n).into(),
        };
        let code = |labels: &mut Labels, s: &str| match labels.values.iter().position(|v| v == s) {
            Some(k) => k as u32,
            None => {
                labels.values.push(s.to_string());
                labels.values.len() as u32 - 1
            }
        };
        let mut connection = Vec::with_capacity(n);
        let (mut start, mut finish, mut duration) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let (mut min_rtt, mut adus, mut adus_delivered) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut bytes = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut delivered = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut index = vec![0u64; self.scenario_flows];
        for c in &self.tmix {
            let p = c.parent.idx();
            let v = &self.tmix_apps[self.tmix_app_of[p] as usize].vectors;
            let j = index[p] as usize;
            flow.push(p as u32);
            connection.push(index[p]);
            index[p] += 1;
            kind.push(u32::from(v.concurrent(j)));
            start.push(secs(c.started_at()));
            finish.push(secs(c.finished_at()));
            duration.push(span_s(c.started_at(), c.finished_at()));
            min_rtt.push(v.rtt_ps(j) as f64 / PS_PER_S as f64);
            adus.push(v.adus(j).len() as u64);
            adus_delivered.push(c.adus_delivered as u64);
            let total = v.total_bytes(j);
            for side in 0..2 {
                bytes[side].push(total[side]);
                delivered[side].push(c.delivered[side]);
            }
        }
        for r in &full {
            let k = code(&mut flow, &r.flow);
            flow.push(k);
            connection.push(r.connection);
            let k = code(&mut kind, r.kind);
            kind.push(k);
            start.push(r.start_s);
            finish.push(r.finish_s);
            duration.push(r.duration_s);
            min_rtt.push(r.min_rtt_s);
            adus.push(r.adus);
            adus_delivered.push(r.adus_delivered);
            for side in 0..2 {
                bytes[side].push(r.bytes[side]);
                delivered[side].push(r.delivered[side]);
            }
        }
        let [bytes_i, bytes_a] = bytes;
        let [delivered_i, delivered_a] = delivered;
        let mut t = Table::default();
        t.labels("flow", flow)
            .u64("connection", connection)
            .labels("kind", kind)
            .f64("start_s", start)
            .f64("finish_s", finish)
            .f64("duration_s", duration)
            .f64("min_rtt_s", min_rtt)
            .u64("adus", adus)
            .u64("adus_delivered", adus_delivered)
            .u64("bytes_initiator", bytes_i)
            .u64("bytes_acceptor", bytes_a)
            .u64("delivered_initiator", delivered_i)
            .u64("delivered_acceptor", delivered_a);
        if !self.full.is_empty() {
            // Two-way connections only: a Tmix connection's setup is NaN, its states empty.
            let tmix = self.tmix.len();
            let setup = (0..tmix)
                .map(|_| f64::NAN)
                .chain(full.iter().map(|r| r.setup_s));
            let state = |side: usize| -> Vec<String> {
                (0..tmix)
                    .map(|_| String::new())
                    .chain(full.iter().map(|r| r.states[side].to_string()))
                    .collect()
            };
            t.f64("setup_s", setup.collect())
                .str("state_initiator", state(0))
                .str("state_acceptor", state(1));
        }
        t
    }

    /// The scenario's flows' counters, a Tmix flow's with its half-connections' added (it
    /// counts delivered ADU bytes itself: the halves' sinks do not), the freed ones' too
    /// (`sim/tmix.rs`). Kept at the warm-up in this form, not per half-connection: the
    /// counters only add up, so the difference of the sums is the sum of the differences.
    fn scenario_counters(&self) -> Vec<FlowCounters> {
        let mut cols = self.counters[..self.scenario_flows].to_vec();
        for (f, flow) in self.flows.iter().enumerate().skip(self.scenario_flows) {
            if let Some((c, _)) = flow.tmix() {
                let p = self.tmix[c as usize].parent.idx();
                tmix::add_half(&mut cols[p], &self.counters[f]);
            }
        }
        for (i, col) in cols.iter_mut().enumerate() {
            if let Some(closed) = self.tmix_slots.closed(i) {
                tmix::add_half(col, closed);
            }
        }
        cols
    }

    /// The end of the warm-up: the counters from which the results count. Without a
    /// warm-up (at time zero, the first event: every counter is still zero) no copy is
    /// kept and the results count from zero, which is the same (and spares a copy of every
    /// flow's and link direction's counters: 90 MB for a 100 000-flow dumbbell).
    pub(super) fn on_warmup(&mut self) {
        self.advance_links();
        self.integrate_rtos();
        let keep = self.now > SimTime::ZERO;
        if keep {
            self.warm_flows = self.scenario_counters();
            self.warm_queues = self.links.iter().map(|l| l.counters()).collect();
        }
        for (i, l) in self.links.iter_mut().enumerate() {
            l.reset_max_queue();
            if keep {
                self.warm_sojourn.push(l.sojourn_histogram());
            }
            if let Some(m) = l.flow_monitor.as_mut() {
                m.iter_mut().for_each(|f| f.integrate(self.now.0));
                self.warm_flow_queues[i] = Some(m.clone());
            }
        }
    }

    pub(super) fn on_sample(&mut self) {
        self.advance_links();
        let t = self.now.as_secs_f64();
        let Some(s) = self.sampler.as_mut() else {
            return;
        };
        for (i, (flow, cfg)) in self.flows.iter().zip(&self.scenario.flows).enumerate() {
            let c = &self.counters[i];
            let sample = match &flow.agent {
                Agent::Tcp { sender, .. } => FlowSample {
                    cwnd: sender.w.cwnd * sender.window_scale(),
                    ssthresh: sender.w.ssthresh * sender.window_scale(),
                    srtt_s: SimDuration(sender.rtt.srtt).as_secs_f64(),
                    rttvar_s: SimDuration(sender.rtt.rttvar).as_secs_f64(),
                    rto_s: sender.rtt.rto().as_secs_f64(),
                    backoff: sender.rtt.backoff as f64,
                    delivered_bytes: c.bytes_delivered,
                    received_bytes: c.bytes_received,
                    rtt_s: SimDuration(sender.rtt.last_sample).as_secs_f64(),
                    window: (sender.w.cwnd + sender.dupwnd).min(sender.w.rwnd)
                        * sender.window_scale(),
                },
                Agent::Tfrc(conn) => FlowSample {
                    cwnd: f64::NAN,
                    ssthresh: f64::NAN,
                    srtt_s: conn.sender.rtt(),
                    rttvar_s: f64::NAN,
                    rto_s: f64::NAN,
                    backoff: f64::NAN,
                    delivered_bytes: c.bytes_delivered,
                    received_bytes: c.bytes_received,
                    rtt_s: f64::NAN,
                    window: f64::NAN,
                },
                Agent::Rap(conn) => FlowSample {
                    cwnd: f64::NAN,
                    ssthresh: f64::NAN,
                    srtt_s: conn.sender.vars()[3],
                    rttvar_s: f64::NAN,
                    rto_s: conn.sender.vars()[4],
                    backoff: f64::NAN,
                    delivered_bytes: c.bytes_delivered,
                    received_bytes: c.bytes_received,
                    rtt_s: f64::NAN,
                    window: f64::NAN,
                },
                Agent::Udp { .. } | Agent::Tmix | Agent::Idle => FlowSample {
                    cwnd: f64::NAN,
                    ssthresh: f64::NAN,
                    srtt_s: f64::NAN,
                    rttvar_s: f64::NAN,
                    rto_s: f64::NAN,
                    backoff: f64::NAN,
                    delivered_bytes: c.bytes_delivered,
                    // A Tmix flow's wire bytes are its half-connections'.
                    received_bytes: c.bytes_received + self.tmix_received_bytes[i],
                    rtt_s: f64::NAN,
                    window: f64::NAN,
                },
            };
            s.flow(t, i, &cfg.name, sample);
            if let Agent::Tcp { sender, .. } = &flow.agent {
                let cc_state = &mut self.cc_state;
                sender
                    .cc()
                    .state(&mut |name, value| cc_state.push(t, i as u32, name, value));
            }
        }
        for (j, (l, name)) in self.links.iter().zip(&self.link_names).enumerate() {
            let b = l.backlog();
            s.queue(t, j, name, b.packets, b.bytes, l.aqm_state());
            if s.has_own_queue_columns() {
                if let Some(ext) = l.external() {
                    ext.declared(&mut |c, v| s.set_queue_column(c, v));
                }
            }
        }
        let next = self.now + self.sample_interval;
        if next <= self.duration {
            self.queue.push_timer(next, Event::Sample);
        }
    }
}

/// The mean of a sum of picoseconds over `n` (in seconds), NaN without any.
fn mean_s(sum_ps: u128, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        sum_ps as f64 / n as f64 / PS_PER_S as f64
    }
}

/// The time from `a` to `b` in seconds, NaN unless both happened.
pub(super) fn span_s(a: Option<SimTime>, b: Option<SimTime>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (b.0 - a.0) as f64 / PS_PER_S as f64,
        _ => f64::NAN,
    }
}

/// A row of the connections table: a Tmix connection or a two-way TCP connection (whose
/// `connection` is 0, `min_rtt_s` NaN; a Tmix connection's `setup_s` is NaN, its states
/// empty).
pub(super) struct ConnRow {
    pub flow: String,
    pub connection: u64,
    pub kind: &'static str,
    pub start_s: f64,
    pub finish_s: f64,
    pub duration_s: f64,
    pub min_rtt_s: f64,
    pub adus: u64,
    pub adus_delivered: u64,
    /// Initiator's, acceptor's.
    pub bytes: [u64; 2],
    pub delivered: [u64; 2],
    pub setup_s: f64,
    pub states: [&'static str; 2],
}
