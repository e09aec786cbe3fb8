//! Report: the result tables of a finished run.

use super::*;

impl Simulator {
    /// The run's result tables; `None` until the run has reached its duration, and for a
    /// run that stopped early (see `stop_reason`).
    pub fn results(&self) -> Option<Results> {
        if !self.finished || self.stop.is_some() {
            return None;
        }
        let sc = &self.scenario;
        let window_s = (sc.run.duration_ps - sc.run.warmup_ps) as f64 / PS_PER_S as f64;
        let mbps = |bytes: u64| bytes as f64 * 8.0 / window_s / 1e6;

        let mut flows = Table::default();
        let mut cols: Vec<FlowCounters> = Vec::with_capacity(self.flows.len());
        for (i, c) in self.counters.iter().enumerate() {
            cols.push(*c - self.warm_flows.get(i).copied().unwrap_or_default());
        }
        // A Tmix flow reports the sum of its half-connections (it counts delivered ADU bytes
        // itself: the halves' sinks do not).
        for conn in &self.tmix {
            for h in conn.halves {
                let half = cols[h.idx()];
                let p = &mut cols[conn.parent.idx()];
                let delivered = p.bytes_delivered;
                *p = *p + half;
                p.bytes_delivered = delivered;
            }
        }
        cols.truncate(self.scenario_flows);
        let get = |f: fn(&FlowCounters) -> u64| cols.iter().map(f).collect::<Vec<u64>>();
        let tcp_str = |f: fn(&crate::scenario::TcpConfig) -> &str| {
            sc.flows
                .iter()
                .map(|x| x.tcp.as_ref().map_or(String::new(), |t| f(t).to_string()))
                .collect()
        };
        flows
            .str("flow", sc.flows.iter().map(|f| f.name.clone()).collect())
            .str(
                "kind",
                sc.flows
                    .iter()
                    .map(|f| match f.kind {
                        FlowKind::Tcp => "tcp".to_string(),
                        FlowKind::Udp => "udp".to_string(),
                        FlowKind::Tfrc => "tfrc".to_string(),
                    })
                    .collect(),
            )
            .str("variant", tcp_str(|t| t.variant.name()))
            .str("cc", tcp_str(|t| t.cc.as_str()))
            .str(
                "from",
                sc.flows
                    .iter()
                    .map(|f| sc.nodes[f.from as usize].clone())
                    .collect(),
            )
            .str(
                "to",
                sc.flows
                    .iter()
                    .map(|f| sc.nodes[f.to as usize].clone())
                    .collect(),
            )
            .f64(
                "start_s",
                self.flows[..self.scenario_flows]
                    .iter()
                    // A connection's acceptor that never saw a SYN never started.
                    .map(|f| match f.start {
                        SimTime(u64::MAX) => f64::NAN,
                        t => t.as_secs_f64(),
                    })
                    .collect(),
            )
            .u64("packets_sent", get(|c| c.packets_sent))
            .u64("bytes_sent", get(|c| c.bytes_sent))
            .u64("packets_retransmitted", get(|c| c.packets_retransmitted))
            .u64("packets_dropped", get(|c| c.packets_dropped))
            .u64("packets_delivered", get(|c| c.packets_received))
            .u64("bytes_delivered", get(|c| c.bytes_delivered))
            .f64(
                "throughput_mbps",
                cols.iter().map(|c| mbps(c.bytes_received)).collect(),
            )
            .f64(
                "goodput_mbps",
                cols.iter().map(|c| mbps(c.bytes_delivered)).collect(),
            )
            .f64(
                "loss_rate",
                cols.iter()
                    .map(|c| {
                        if c.packets_sent == 0 {
                            0.0
                        } else {
                            c.packets_dropped as f64 / c.packets_sent as f64
                        }
                    })
                    .collect(),
            )
            .f64(
                "mean_rtt_s",
                cols.iter()
                    .map(|c| {
                        if c.rtt_samples == 0 {
                            f64::NAN
                        } else {
                            c.rtt_sum_ps as f64 / c.rtt_samples as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .u64("timeouts", get(|c| c.timeouts))
            .u64("fast_retransmits", get(|c| c.fast_retransmits))
            .u64("acks_sent", get(|c| c.acks_sent))
            .u64("acks_dropped", get(|c| c.acks_dropped))
            .u64("rtt_samples", get(|c| c.rtt_samples))
            .u64("ecn_reductions", get(|c| c.ecn_reductions))
            .f64(
                "mean_rto_s",
                cols.iter()
                    .map(|c| {
                        if c.rto_time_ps == 0 {
                            f64::NAN
                        } else {
                            c.rto_area as f64 / c.rto_time_ps as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .f64(
                "completion_s",
                self.flows[..self.scenario_flows]
                    .iter()
                    .map(|f| match &f.agent {
                        Agent::Tcp { sender, .. } => {
                            sender.completed_at.map_or(f64::NAN, |t| t.as_secs_f64())
                        }
                        Agent::Udp { .. } | Agent::Tfrc(_) | Agent::Tmix | Agent::Idle => f64::NAN,
                    })
                    .collect(),
            );

        let mut queues = Table::default();
        let qs: Vec<QueueCounters> = self
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| l.counters - self.warm_queues.get(i).copied().unwrap_or_default())
            .collect();
        let window_ps = (sc.run.duration_ps - sc.run.warmup_ps) as f64;
        let empty = Histogram::default();
        let hists: Vec<Histogram> = self
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| {
                l.sojourn_histogram()
                    .since(self.warm_sojourn.get(i).unwrap_or(&empty))
            })
            .collect();
        let sojourn_quantiles = |q: f64| -> Vec<f64> {
            hists
                .iter()
                .map(|h| h.quantile(q).map_or(f64::NAN, |v| v / PS_PER_S as f64))
                .collect()
        };
        let qget = |f: fn(&QueueCounters) -> u64| qs.iter().map(f).collect::<Vec<u64>>();
        queues
            .str("link", self.link_names.clone())
            .u64("arrived_packets", qget(|q| q.arrived_packets))
            .u64("arrived_bytes", qget(|q| q.arrived_bytes))
            .u64("departed_packets", qget(|q| q.departed_packets))
            .u64("departed_bytes", qget(|q| q.departed_bytes))
            .u64("dropped_packets", qget(|q| q.dropped_packets))
            .u64("dropped_bytes", qget(|q| q.dropped_bytes))
            .f64(
                "mean_queue_packets",
                qs.iter()
                    .map(|q| q.area_packets as f64 / window_ps)
                    .collect(),
            )
            .f64(
                "mean_queue_bytes",
                qs.iter().map(|q| q.area_bytes as f64 / window_ps).collect(),
            )
            .u64("max_queue_packets", qget(|q| q.max_queue_packets))
            .f64(
                "utilization",
                qs.iter()
                    .zip(&self.links)
                    .map(|(q, l)| q.departed_bytes as f64 * 8.0 / (l.rate.bps() as f64 * window_s))
                    .collect(),
            )
            .u64("lost_packets", qget(|q| q.lost_packets))
            .u64("lost_bytes", qget(|q| q.lost_bytes))
            .u64("marked_packets", qget(|q| q.marked_packets))
            .f64(
                "mean_sojourn_s",
                qs.iter()
                    .map(|q| {
                        if q.departed_packets == 0 {
                            f64::NAN
                        } else {
                            q.sojourn_sum_ps as f64 / q.departed_packets as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .f64("p50_sojourn_s", sojourn_quantiles(0.5))
            .f64("p95_sojourn_s", sojourn_quantiles(0.95))
            .f64(
                "max_sojourn_s",
                qs.iter()
                    .map(|q| q.max_sojourn_ps as f64 / PS_PER_S as f64)
                    .collect(),
            );

        let (timeseries, queue_timeseries) = self
            .sampler
            .as_ref()
            .map_or_else(|| Sampler::default().tables(), Sampler::tables);

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
            tcp_trace: self.tracer.table(),
            connections: self.connections_table(),
            flows_detail: self.flow_monitor_table(),
            queue_flows: self.queue_flows_table(),
            cc_state: self.cc_state.table(),
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
                let d = match warm {
                    Some(w) => c.since(&w[i]),
                    None => *c,
                };
                let o = &mut per_flow[owner(i)];
                o.arrived_packets += d.arrived_packets;
                o.arrived_bytes += d.arrived_bytes;
                o.departed_packets += d.departed_packets;
                o.departed_bytes += d.departed_bytes;
                o.dropped_packets += d.dropped_packets;
                o.dropped_bytes += d.dropped_bytes;
                o.lost_packets += d.lost_packets;
                o.lost_bytes += d.lost_bytes;
                o.area_packets += d.area_packets;
                o.area_bytes += d.area_bytes;
            }
            for (i, c) in per_flow.into_iter().enumerate() {
                if c.arrived_packets > 0 {
                    rows.push((self.link_names[l].clone(), sc.flows[i].name.clone(), c));
                }
            }
        }
        let u = |g: fn(&FlowQueueCounters) -> u64| rows.iter().map(|r| g(&r.2)).collect();
        let mut t = Table::default();
        t.str("link", rows.iter().map(|r| r.0.clone()).collect())
            .str("flow", rows.iter().map(|r| r.1.clone()).collect())
            .u64("arrived_packets", u(|c| c.arrived_packets))
            .u64("arrived_bytes", u(|c| c.arrived_bytes))
            .u64("departed_packets", u(|c| c.departed_packets))
            .u64("departed_bytes", u(|c| c.departed_bytes))
            .u64("dropped_packets", u(|c| c.dropped_packets))
            .u64("dropped_bytes", u(|c| c.dropped_bytes))
            .u64("lost_packets", u(|c| c.lost_packets))
            .u64("lost_bytes", u(|c| c.lost_bytes))
            .f64(
                "mean_queue_packets",
                rows.iter()
                    .map(|r| r.2.area_packets as f64 / window)
                    .collect(),
            )
            .f64(
                "mean_queue_bytes",
                rows.iter()
                    .map(|r| r.2.area_bytes as f64 / window)
                    .collect(),
            );
        t
    }

    /// FlowMonitor-style rows: each flow's data direction, and its ACK direction for TCP;
    /// a Tmix application sums its connections.
    fn flow_monitor_table(&self) -> Table {
        let sc = &self.scenario;
        let mut merged: Vec<[FlowMonitor; 2]> = (0..sc.flows.len())
            .map(|i| [self.monitor[2 * i], self.monitor[2 * i + 1]])
            .collect();
        for (i, flow) in self.flows.iter().enumerate().skip(sc.flows.len()) {
            if let Some((c, _)) = flow.tmix() {
                let p = self.tmix[c as usize].parent.idx();
                for (d, m) in merged[p].iter_mut().enumerate() {
                    m.merge(&self.monitor[2 * i + d]);
                }
            }
        }
        let s = |ps: u64| ps as f64 / PS_PER_S as f64;
        let s128 = |ps: u128| ps as f64 / PS_PER_S as f64;
        let mut rows: Vec<(String, &str, FlowMonitor)> = Vec::new();
        for (i, f) in sc.flows.iter().enumerate() {
            rows.push((f.name.clone(), "data", merged[i][0]));
            if f.kind != FlowKind::Udp {
                rows.push((f.name.clone(), "ack", merged[i][1]));
            }
        }
        let col_u = |g: fn(&FlowMonitor) -> u64| rows.iter().map(|r| g(&r.2)).collect::<Vec<_>>();
        let col_f =
            |g: &dyn Fn(&FlowMonitor) -> f64| rows.iter().map(|r| g(&r.2)).collect::<Vec<_>>();
        let mean = |sum: u128, n: u64| {
            if n == 0 {
                f64::NAN
            } else {
                s128(sum) / n as f64
            }
        };
        let mut t = Table::default();
        t.str("flow", rows.iter().map(|r| r.0.clone()).collect())
            .str("direction", rows.iter().map(|r| r.1.to_string()).collect())
            .u64("tx_packets", col_u(|m| m.tx_packets))
            .u64("tx_bytes", col_u(|m| m.tx_bytes))
            .u64("rx_packets", col_u(|m| m.rx_packets))
            .u64("rx_bytes", col_u(|m| m.rx_bytes))
            .u64("lost_packets", col_u(|m| m.lost))
            .f64("delay_sum_s", col_f(&|m| s128(m.delay_sum_ps)))
            .f64(
                "mean_delay_s",
                col_f(&|m| mean(m.delay_sum_ps, m.rx_packets)),
            )
            .f64(
                "max_delay_s",
                col_f(&|m| {
                    if m.rx_packets == 0 {
                        f64::NAN
                    } else {
                        s(m.delay_max_ps)
                    }
                }),
            )
            .f64("jitter_sum_s", col_f(&|m| s128(m.jitter_sum_ps)))
            .f64(
                "mean_jitter_s",
                col_f(&|m| mean(m.jitter_sum_ps, m.rx_packets.saturating_sub(1))),
            )
            .f64("first_tx_s", col_f(&|m| m.first_tx().map_or(f64::NAN, s)))
            .f64(
                "last_tx_s",
                col_f(&|m| m.first_tx().map_or(f64::NAN, |_| s(m.last_tx))),
            )
            .f64("first_rx_s", col_f(&|m| m.first_rx().map_or(f64::NAN, s)))
            .f64(
                "last_rx_s",
                col_f(&|m| m.first_rx().map_or(f64::NAN, |_| s(m.last_rx))),
            );
        t
    }

    /// One row per Tmix connection.
    fn connections_table(&self) -> Table {
        let secs = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        let mut index = vec![0u64; self.scenario_flows];
        let mut numbers = Vec::with_capacity(self.tmix.len());
        for c in &self.tmix {
            numbers.push(index[c.parent.idx()]);
            index[c.parent.idx()] += 1;
        }
        let col = |f: &dyn Fn(&TmixConn) -> f64| self.tmix.iter().map(f).collect::<Vec<f64>>();
        let ucol = |f: &dyn Fn(&TmixConn) -> u64| self.tmix.iter().map(f).collect::<Vec<u64>>();
        let mut t = Table::default();
        t.str(
            "flow",
            self.tmix
                .iter()
                .map(|c| self.scenario.flows[c.parent.idx()].name.clone())
                .collect(),
        )
        .u64("connection", numbers)
        .str(
            "kind",
            self.tmix
                .iter()
                .map(|c| if c.cfg.concurrent { "conc" } else { "seq" }.to_string())
                .collect(),
        )
        .f64("start_s", col(&|c| secs(c.started_at)))
        .f64("finish_s", col(&|c| secs(c.finished_at)))
        .f64(
            "duration_s",
            col(&|c| match (c.started_at, c.finished_at) {
                (Some(a), Some(b)) => (b.0 - a.0) as f64 / PS_PER_S as f64,
                _ => f64::NAN,
            }),
        )
        .f64("min_rtt_s", col(&|c| c.cfg.rtt_ps as f64 / PS_PER_S as f64))
        .u64("adus", ucol(&|c| c.cfg.adus.len() as u64))
        .u64("adus_delivered", ucol(&|c| c.adus_delivered as u64))
        .u64("bytes_initiator", ucol(&|c| c.total_bytes()[0]))
        .u64("bytes_acceptor", ucol(&|c| c.total_bytes()[1]))
        .u64("delivered_initiator", ucol(&|c| c.delivered[0]))
        .u64("delivered_acceptor", ucol(&|c| c.delivered[1]));
        self.full_connection_rows(&mut t);
        t
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
            self.warm_flows = self.counters.clone();
            self.warm_queues = self.links.iter().map(|l| l.counters).collect();
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
                    .state(&mut |name, value| cc_state.push(t, &cfg.name, name, value));
            }
        }
        for (l, name) in self.links.iter().zip(&self.link_names) {
            let b = l.backlog();
            s.queue(t, name, b.packets, b.bytes, l.aqm_state());
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
