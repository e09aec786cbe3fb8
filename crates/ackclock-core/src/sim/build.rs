//! Build: a resolved scenario becomes the engine's objects (links with their disciplines and
//! loss models, flows with their agents, routes, traces).

use super::*;
use crate::queue::external::External;

/// A one-way TCP flow's sender and sink as `t` configures them, its congestion control drawing
/// from the flow's own random stream; an FTP of `size` bytes when given.
pub(super) fn tcp_agents(
    id: FlowId,
    (src, dst): (NodeId, NodeId),
    t: &crate::scenario::TcpConfig,
    seed: u64,
    name: &str,
    size: Option<u64>,
) -> Result<(Box<TcpSender>, Box<TcpSink>), String> {
    let mut cc = t.congestion_control()?;
    cc.set_random(RandomStream::named(seed, &format!("flow.{name}.cc")));
    let (recovery, params) = (t.variant, t.params());
    let mut sender = Box::new(TcpSender::new(id, src, dst, &params, recovery, cc));
    let mut sink = Box::new(TcpSink::new(id, dst, src, &params));
    if sender.is_ns2_vegas() {
        // ns-2.35's DelAckSink::recv answers segment 0 at once (SYN_immediate_ack_), which
        // VegasTcpAgent sends as data, not as a SYN.
        sink.set_first_ack_at_once(!params.delack_syn);
    }
    // ns-2's overhead_ outside an ns-2 script's run: the flow's own stream.
    sender.use_overhead_random(crate::rng::Uniform::Own(RandomStream::named(
        seed,
        &format!("flow.{name}.overhead"),
    )));
    if let Some(size) = size {
        sender.set_transfer(size);
        sink.set_transfer(size);
    }
    Ok((sender, sink))
}

impl Simulator {
    /// Builds a run from a resolved scenario; errors name the offending key.
    pub fn new(mut scenario: Scenario) -> Result<Simulator, String> {
        scenario.validate()?;
        let node = |i: u32| NodeId(i);
        // The link configurations become links and are not kept (a link direction's is
        // some 350 bytes: 140 MB for a 100 000-flow dumbbell's 400 000 directions).
        let link_cfgs = std::mem::take(&mut scenario.links);
        let mut links = Vec::with_capacity(link_cfgs.len());
        let mut link_names = Vec::with_capacity(link_cfgs.len());
        let mut monitored = Vec::new();
        let mut external = false;
        // Every link's discipline shares these two per-flow tables (made once: made per link,
        // the fids were 40 002 x 10 000 reads at 10 000 flows, half of the set-up).
        let priorities: std::sync::Arc<[u8]> = scenario.flows.iter().map(|f| f.priority).collect();
        let fids: std::sync::Arc<[u32]> = (scenario.flows.iter().enumerate())
            .map(|(i, f)| f.fid.unwrap_or(i as u32))
            .collect();
        for l in &link_cfgs {
            let name = format!(
                "{}->{}",
                scenario.nodes[l.from as usize], scenario.nodes[l.to as usize]
            );
            let mut link = build_link(
                l,
                &name,
                links.len() as u32,
                &scenario,
                (&priorities, &fids),
            )?;
            if scenario.run.ties == crate::scenario::Ties::Ns2 {
                // Same-time events as ns-2.35's double-valued clock orders them
                // (`sim/ns2_clock.rs`), with ns-2's bandwidth_ as the script gave it.
                link.keep_ns2_clock(l.rate_bps);
            }
            if l.monitor_flows {
                monitored.push(links.len());
            }
            external |= matches!(l.queue.discipline, Discipline::Custom { .. });
            links.push(link);
            link_names.push(name);
        }
        let tmix_reuse = tmix::Slots::reuse_allowed(&scenario, &link_cfgs);
        drop(link_cfgs);
        let mut dests = Vec::new();
        for f in &scenario.flows {
            dests.push(node(f.to));
            if f.kind != FlowKind::Udp {
                dests.push(node(f.from));
            }
        }
        let routes = match scenario.run.routing {
            crate::scenario::Routing::Ns2 => {
                Routes::build_ns2(scenario.nodes.len(), &links, &dests)?
            }
            r => Routes::build(
                scenario.nodes.len(),
                &links,
                &dests,
                r == crate::scenario::Routing::Ecmp,
            )?,
        };
        let seed = scenario.run.seed;
        let mut flows = Vec::with_capacity(scenario.flows.len());
        for (i, f) in scenario.flows.iter().enumerate() {
            let id = FlowId(i as u32);
            let (src, dst) = (node(f.from), node(f.to));
            let unreachable = |a: NodeId, b: NodeId| {
                format!(
                    "flow[{i}] ({}): no route from {} to {}",
                    f.name,
                    scenario.nodes[a.idx()],
                    scenario.nodes[b.idx()]
                )
            };
            if !routes.reaches(src, dst) {
                return Err(unreachable(src, dst));
            }
            let mut writer = None;
            let agent = match (&f.app, &f.tcp) {
                (AppConfig::Ftp { size_bytes, .. }, Some(t)) => {
                    if !routes.reaches(dst, src) {
                        return Err(unreachable(dst, src));
                    }
                    let (sender, sink) = tcp_agents(id, (src, dst), t, seed, &f.name, *size_bytes)
                        .map_err(|e| format!("flow[{i}].{e}"))?;
                    Agent::Tcp { sender, sink }
                }
                (AppConfig::Ftp { size_bytes, .. }, None) if f.kind == FlowKind::Tfrc => {
                    if !routes.reaches(dst, src) {
                        return Err(unreachable(dst, src));
                    }
                    let mut cfg = f.tfrc.as_deref().cloned().unwrap_or_default();
                    cfg.check().map_err(|e| format!("flow[{i}].tfrc.{e}"))?;
                    // An FTP of a given size writes that many bytes; an endless one, always.
                    let limit = size_bytes.map(|b| b as i64);
                    cfg.app_limited |= limit.is_some();
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    Agent::Tfrc(Box::new(crate::tfrc::TfrcConn::new(
                        cfg, rng, id, src, dst, limit,
                    )))
                }
                (AppConfig::Ftp { .. }, None) if f.kind == FlowKind::Rap => {
                    if !routes.reaches(dst, src) {
                        return Err(unreachable(dst, src));
                    }
                    let cfg = f.rap.as_deref().cloned().unwrap_or_default();
                    cfg.check().map_err(|e| format!("flow[{i}].rap.{e}"))?;
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    Agent::Rap(Box::new(crate::rap::RapConn::new(
                        cfg,
                        crate::rng::Uniform::Own(rng),
                        id,
                        src,
                        dst,
                    )))
                }
                (app, None) if f.kind == FlowKind::Udp => {
                    let Some(generator) = generator_for(app) else {
                        return Err(format!("flow[{i}]: app and flow kind do not match"));
                    };
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    Agent::Udp {
                        source: Box::new(UdpSource::new(
                            id,
                            src,
                            dst,
                            f.header_size,
                            generator,
                            rng,
                        )),
                    }
                }
                (AppConfig::Tmix { .. }, Some(_)) => Agent::Tmix,
                (app, Some(t)) => {
                    // A paced application writing into a TCP connection.
                    if !routes.reaches(dst, src) {
                        return Err(unreachable(dst, src));
                    }
                    let Some(generator) = generator_for(app) else {
                        return Err(format!("flow[{i}]: app and flow kind do not match"));
                    };
                    let (sender, sink) = tcp_agents(id, (src, dst), t, seed, &f.name, None)
                        .map_err(|e| format!("flow[{i}].{e}"))?;
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    let mut w = StreamWriter::new(generator, rng);
                    w.set_after_connect(matches!(
                        app,
                        AppConfig::Cbr {
                            after_connect: true,
                            ..
                        }
                    ));
                    if let AppConfig::Cbr {
                        restart_every_ps: Some(every),
                        interval_ps,
                        packet_size,
                        ..
                    } = *app
                    {
                        w.set_restart(every, interval_ps, packet_size);
                    }
                    writer = Some(Box::new(w));
                    Agent::Tcp { sender, sink }
                }
                _ => return Err(format!("flow[{i}]: app and flow kind do not match")),
            };
            let mut rng = RandomStream::named(seed, &format!("flow.{}.start", f.name));
            let start = f.app.start().sample(&mut rng);
            flows.push(Flow {
                agent,
                start: SimTime(start),
                rto_event: LazyTimer::default(),
                delack_event: LazyTimer::default(),
                pace_event: LazyTimer::default(),
                trace: TraceMask::from_names(&f.trace).expect("validated"),
                traced: [f64::NAN; 10],
                rto_held: None,
                role: Role::Own,
                delay: None,
                writer,
            });
        }
        let scenario_flows = flows.len();
        let full = two_way::build(&scenario, &mut flows)?;
        let mut tmix = Vec::new();
        let mut tmix_apps = Vec::new();
        let mut tmix_app_of = vec![u32::MAX; scenario_flows];
        // The connection vectors move out of the scenario into their application: read nowhere
        // else, they are kept once (seed 003's study runs replay millions).
        for (i, f) in scenario.flows.iter_mut().enumerate() {
            let (
                AppConfig::Tmix {
                    connections,
                    rtt_added,
                    fin_wait_ps,
                    ..
                },
                Some(t),
            ) = (&mut f.app, &f.tcp)
            else {
                continue;
            };
            let (src, dst) = (node(f.from), node(f.to));
            if !routes.reaches(dst, src) {
                return Err(format!("flow[{i}] ({}): no route back", f.name));
            }
            // With `rtt_added` (ns-2.35's delay box) a delay line holds r / 2 whatever the
            // path's delay: as if the path took nothing of r.
            let path_rtt = if *rtt_added {
                SimDuration(0)
            } else {
                SimDuration(
                    routes.path_delay(src, dst, FlowId(i as u32), &links).0
                        + routes.path_delay(dst, src, FlowId(i as u32), &links).0,
                )
            };
            tmix_app_of[i] = tmix_apps.len() as u32;
            tmix_apps.push(TmixApp::new(
                i,
                &f.name,
                (src, dst),
                t,
                path_rtt,
                tmix.len() as u32,
                fin_wait_ps.map(SimDuration),
            )?);
            let app = tmix_apps.last_mut().expect("just pushed");
            app.vectors = std::mem::take(&mut **connections);
            let count = app.vectors.len();
            for _ in 0..count {
                let c = tmix.len() as u32;
                // Slots taken as the connection starts, when they are reused; else its
                // own, whose endpoints are built as it starts (`sim/tmix.rs`).
                let mut halves = [tmix::NO_SLOT; 2];
                if !tmix_reuse {
                    for (side, half) in halves.iter_mut().enumerate() {
                        *half = FlowId(flows.len() as u32);
                        flows.push(tmix::idle_half(c, side as u8));
                    }
                }
                tmix.push(TmixConn::new(FlowId(i as u32), halves));
            }
        }

        let duration = SimTime(scenario.run.duration_ps);
        let mut queue = EventQueue::new();
        // Same-time events as ns-2.35's double-valued clock orders them (`sim/ns2_clock.rs`).
        // Only where every link computes ns-2's times (FIFO links: not a dequeue-time or
        // periodic discipline, nor a device queue): a link without them would meet the others'
        // events with times it does not have, and the run orders ties as by default instead.
        let ns2_clock = scenario.run.ties == crate::scenario::Ties::Ns2
            && links.iter().all(|l| l.has_ns2_clock());
        if ns2_clock {
            queue.order_as_ns2();
        } else {
            links.iter_mut().for_each(Link::drop_ns2_clock);
        }
        queue.push_timer(SimTime(scenario.run.warmup_ps), Event::Warmup);
        let mut sampler = None;
        let mut sample_interval = SimDuration::ZERO;
        if let Some(iv) = scenario.run.sample_interval_ps {
            let samples = (scenario.run.duration_ps / iv + 1) as usize;
            sampler = Some(Sampler::new(
                iv as f64 / PS_PER_S as f64,
                samples,
                scenario_flows, // Tmix half-connections are not sampled
                links.len(),
            ));
            if let Some(s) = sampler.as_mut() {
                for l in &links {
                    if let Some(ext) = l.external() {
                        s.declare_queue_columns(&ext.columns());
                    }
                }
            }
            sample_interval = SimDuration(iv);
            queue.push_timer(SimTime::ZERO, Event::Sample);
        }
        for (i, (f, cfg)) in flows[..scenario_flows]
            .iter()
            .zip(&scenario.flows)
            .enumerate()
        {
            let id = FlowId(i as u32);
            if f.start <= duration {
                queue.push_timer(f.start, Event::AppStart(id));
            }
            if let Some(stop) = cfg.app.stop_ps() {
                if SimTime(stop) <= duration {
                    queue.push_timer(SimTime(stop), Event::AppStop(id));
                }
            }
        }
        let nf = flows.len();
        let nl = links.len();
        let quick_start = quick_start_routers(&scenario, &mut links);
        if let Some(q) = scenario.quick_start.as_ref() {
            for flow in flows.iter_mut() {
                if let Agent::Tcp { sender, .. } = &mut flow.agent {
                    sender.use_quick_start(q.rate_function, None);
                }
            }
        }
        let traces = open_traces(&scenario, &flows, &tmix, &mut links)?;
        let has_monitor = !monitored.is_empty();
        for l in monitored {
            links[l].monitor_flows(nf);
        }
        let (guards, checker) = invariants::setup(&scenario.run);
        let external = external
            || scenario.flows.iter().any(|f| {
                f.tcp
                    .as_ref()
                    .is_some_and(|t| matches!(t.cc, crate::tcp::cc::CcConfig::External(_)))
            });
        // A failure recorded by an earlier simulation of this thread is not this one's.
        let _ = crate::tcp::cc::external::take_failure();
        let _ = crate::queue::external::take_failure();
        let paths = SourceRoutes::build(&routes, &links, &flow_ends(&scenario));
        let (flows, counters, monitor) = super::flow_table::tables(flows);
        Ok(Simulator {
            ns2_clock,
            ns2_script_uid: 0,
            ns2_rng: None,
            rap_first_sample: true,
            loss_monitors: Vec::new(),
            loss_monitor_of: Vec::new(),
            loss_delayed: Vec::new(),
            ns2_lingering: Vec::new(),
            incarnations: Vec::new(),
            quick_start,
            host_arrivals: Vec::new(),
            ns2_timers: if ns2_clock {
                vec![ns2_clock::Ns2Timers::default(); nf]
            } else {
                Vec::new()
            },
            external,
            scenario,
            now: SimTime::ZERO,
            duration,
            events: 0,
            queue,
            links: crate::net::Links::new(links),
            link_names,
            routes,
            paths,
            flows,
            counters,
            // Filled at the end of a warm-up (`on_warmup`); none without one.
            warm_flows: Vec::new(),
            warm_queues: Vec::new(),
            warm_flow_queues: if has_monitor {
                vec![None; nl]
            } else {
                Vec::new()
            },
            warm_sojourn: Vec::new(),
            packets_delivered: 0,
            next_packet_id: 0,
            scratch: Vec::with_capacity(64),
            sent_refs: Vec::with_capacity(64),
            pool: PacketPool::default(),
            held_drops: Vec::new(),
            sampler,
            sample_interval,
            tracer: Tracer::default(),
            cc_state: Tracer::default(),
            finished: false,
            scenario_flows,
            tmix_next_start: vec![None; tmix.len()],
            tmix_received_bytes: vec![0; scenario_flows],
            tmix_in_flight: vec![0; nf],
            tmix_slots: tmix::Slots::new(tmix_reuse, tmix_apps.len(), scenario_flows, nf),
            tmix_apps,
            tmix_app_of,
            delay_held: 0,
            tmix,
            tmix_acts: Vec::new(),
            full,
            tracing: traces.is_some(),
            checked_arrivals: traces.is_some() || checker.is_some(),
            hops_left: Vec::new(),
            ttl_on: false,
            traces,
            trace_error: None,
            monitor,
            watch_at: 0,
            guards,
            checker,
            stop: None,
        })
    }

    pub fn from_json(text: &str) -> Result<Simulator, String> {
        Simulator::new(Scenario::from_json(text)?)
    }

    /// [`Scenario::from_json_with_tmix`]'s run.
    pub fn from_json_with_tmix(
        text: &str,
        tmix: Vec<(usize, crate::scenario::TmixVectors)>,
    ) -> Result<Simulator, String> {
        Simulator::new(Scenario::from_json_with_tmix(text, tmix)?)
    }
}

/// A link direction with its discipline and loss model, each drawing from its own stream.
fn build_link(
    l: &LinkConfig,
    name: &str,
    index: u32,
    scenario: &Scenario,
    (flow_priority, flow_fid): (&std::sync::Arc<[u8]>, &std::sync::Arc<[u32]>),
) -> Result<Link, String> {
    let seed = scenario.run.seed;
    let rate = Rate::from_bps_f64(l.rate_bps).expect("validated");
    let rate = if l.tx_time_ns {
        rate.in_whole_ns()
    } else {
        rate
    };
    let delay = SimDuration(l.delay_ps);
    let q = &l.queue;
    let stream = |what: &str| RandomStream::named(seed, &format!("link.{name}.{what}"));
    let setup = QueueSetup {
        limit_packets: q.limit_packets,
        limit_bytes: q.limit_bytes,
        ns2: q.ns2,
        ecn: q.ecn,
        rate_bps: l.rate_bps,
        delay,
        rng: stream("queue"),
        flow_priority: flow_priority.clone(),
        flow_fid: flow_fid.clone(),
        cbq: if q.classes.is_empty() {
            None
        } else {
            let flows: Vec<&str> = scenario.flows.iter().map(|f| f.name.as_str()).collect();
            let tree = crate::queue::cbq::CbqTree::new(&q.classes, &flows)
                .map_err(|e| format!("link {name}: {e}"))?;
            Some(std::sync::Arc::new(tree))
        },
        diffserv: match &q.diffserv {
            None => None,
            Some(d) => {
                let node = |n: &str| {
                    scenario
                        .nodes
                        .iter()
                        .position(|x| x == n)
                        .map(|i| NodeId(i as u32))
                };
                let t = d
                    .build(&node)
                    .map_err(|e| format!("link {name}: queue.diffserv.{e}"))?;
                Some(std::sync::Arc::new(t))
            }
        },
        device: q.device.is_some(),
    };
    let queue = match &q.discipline {
        Discipline::Custom { class, params } => {
            let flows: Vec<String> = scenario.flows.iter().map(|f| f.name.clone()).collect();
            let mut ext = External::new(class, params, &setup, &flows)
                .map_err(|e| format!("link {name}: {e}"))?;
            ext.set_link(index);
            AnyQueue::External(Box::new(ext))
        }
        Discipline::Builtin(c) => c.build(&setup),
    };
    let mut link = Link::new(NodeId(l.from), NodeId(l.to), rate, delay, queue);
    if let Some(d) = &q.device {
        link.set_device(crate::net::device::DeviceParams {
            limit_packets: d.limit_packets,
            bql: d.bql.then(|| {
                let dql = crate::queue::bql::DqlParams::default();
                crate::queue::bql::DqlParams {
                    hold_time: d
                        .bql_hold_time_ps
                        .map_or(dql.hold_time, crate::time::SimDuration),
                    ..dql
                }
            }),
            ns3_run: d.ns3_run,
        });
    }
    match &l.loss {
        Some(LossConfig::Bernoulli { p }) => {
            link.set_loss(AnyLoss::Bernoulli(Bernoulli::new(*p, stream("loss"))));
        }
        Some(LossConfig::ByteBernoulli { p }) => {
            link.set_loss(AnyLoss::Bernoulli(Bernoulli::per_byte(*p, stream("loss"))));
        }
        Some(LossConfig::GilbertElliott {
            p_good_bad,
            p_bad_good,
            loss_good,
            loss_bad,
        }) => {
            link.set_loss(AnyLoss::GilbertElliott(GilbertElliott::new(
                *p_good_bad,
                *p_bad_good,
                *loss_good,
                *loss_bad,
                stream("loss"),
            )));
        }
        Some(LossConfig::Periodic {
            period,
            offset,
            burst,
            mark_ecn,
            delay_ps,
        }) => {
            link.set_loss(AnyLoss::Periodic(Periodic::new(*period, *offset, *burst)));
            link.set_loss_marks_ecn(*mark_ecn);
            link.set_loss_delay(SimDuration(*delay_ps));
        }
        Some(LossConfig::DropList {
            flow,
            packets,
            mark_ecn,
            delay_ps,
            acks,
            connection,
            counted,
        }) => {
            let mut m = if *counted {
                DropList::counting(FlowId(*flow), packets.clone(), *acks)
            } else {
                DropList::with_acks(FlowId(*flow), packets.clone(), *acks)
            };
            if *connection {
                // validated: the flow is a two-way connection's
                let peer = scenario.flows[*flow as usize]
                    .connection
                    .as_ref()
                    .map_or(*flow, |c| c.peer);
                m = m.of_connection(FlowId(peer));
            }
            link.set_loss(AnyLoss::DropList(m));
            link.set_loss_marks_ecn(*mark_ecn);
            link.set_loss_delay(SimDuration(*delay_ps));
        }
        None => {}
    }
    link.set_loss_at_entry(l.loss_at_entry);
    for m in &l.loss_behind {
        // Validated: deterministic models only, so no random stream to name.
        let (model, mark_ecn, delay_ps) = match m {
            LossConfig::DropList {
                flow,
                packets,
                mark_ecn,
                delay_ps,
                acks,
                ..
            } => (
                AnyLoss::DropList(DropList::counting(FlowId(*flow), packets.clone(), *acks)),
                *mark_ecn,
                *delay_ps,
            ),
            LossConfig::Periodic {
                period,
                offset,
                burst,
                mark_ecn,
                delay_ps,
            } => (
                AnyLoss::Periodic(Periodic::new(*period, *offset, *burst)),
                *mark_ecn,
                *delay_ps,
            ),
            _ => return Err("loss_behind: only drop_list and periodic models".into()),
        };
        link.add_loss_behind(model, mark_ecn, SimDuration(delay_ps));
    }
    Ok(link)
}

/// Opens the scenario's packet traces, labelling every flow's packets as ns-2 would.
fn open_traces(
    sc: &Scenario,
    flows: &[Flow],
    tmix: &[TmixConn],
    links: &mut [Link],
) -> Result<Option<Box<PacketTraces>>, String> {
    if sc.traces.is_empty() {
        return Ok(None);
    }
    // ns-2 numbers agents per node in the order they are attached: the ports a flow gives
    // (the ns-2 front end knows the script's order), else a flow's sender, then its
    // receiver, flow after flow.
    let mut next_port = vec![0u32; sc.nodes.len()];
    let mut port = |n: u32| {
        let p = next_port[n as usize];
        next_port[n as usize] += 1;
        p
    };
    let mut labels = Vec::with_capacity(flows.len());
    let mut frames = Vec::with_capacity(flows.len());
    let frame_info =
        |tcp: Option<&crate::scenario::TcpConfig>, syn: bool, header: u32, sp: u32, dp: u32| {
            let pcap_port = |p: u32| (1024 + p % 64000) as u16;
            match tcp {
                Some(t) => {
                    let window = t
                        .rcv_buffer_bytes
                        .unwrap_or(t.window as u64 * t.packet_size as u64);
                    FrameInfo {
                        tcp: true,
                        sport: pcap_port(sp),
                        dport: pcap_port(dp),
                        mss: t.packet_size,
                        header: t.header_size,
                        syn,
                        timestamps: t.timestamps,
                        sack: t.sink == SinkKind::Sack,
                        window_segments: t.window,
                        wscale: FrameInfo::scale_for(window),
                        full: None,
                    }
                }
                None => FrameInfo {
                    tcp: false,
                    sport: pcap_port(sp),
                    dport: pcap_port(dp),
                    mss: 0,
                    header,
                    syn: false,
                    timestamps: false,
                    sack: false,
                    window_segments: 0,
                    wscale: 0,
                    full: None,
                },
            }
        };
    // A two-way connection's flows share one pair of agents (ports), the acceptor's flow
    // with them swapped.
    let mut ports = vec![None; sc.flows.len()];
    for (i, f) in sc.flows.iter().enumerate() {
        if ports[i].is_none() {
            let (sp, dp) = match f.ports {
                Some([sp, dp]) => (sp, dp),
                None => (port(f.from), port(f.to)),
            };
            ports[i] = Some((sp, dp));
            if let Some(c) = &f.connection {
                ports[c.peer as usize] = Some((dp, sp));
            }
        }
    }
    for (i, f) in sc.flows.iter().enumerate() {
        let (sp, dp) = ports[i].expect("assigned");
        let data_type = match f.kind {
            FlowKind::Tcp => "tcp",
            FlowKind::Udp => crate::trace::packets::udp_type(&f.app),
            FlowKind::Tfrc => "tcpFriend",
            FlowKind::Rap => "rap_data",
        };
        let full = two_way::trace_seq(sc, i);
        // The reply direction of a connection whose acceptor only listens (sends no data),
        // or whose acceptor is ns-2's listening FullTcp agent (`ns2_full_tcp`), which labels
        // all it sends `ack` (FullTcpAgent::listen: type_ = PT_ACK), its data too.
        let listener = f.connection.as_ref().is_some_and(|c| !c.initiator)
            && (matches!(
                f.app,
                AppConfig::Ftp {
                    size_bytes: Some(0),
                    ..
                }
            ) || f.tcp.as_ref().is_some_and(|t| t.ns2_full_tcp));
        let (data_type, ack_type) = if listener {
            ("ack", "tcp")
        } else {
            (
                data_type,
                match f.kind {
                    FlowKind::Tfrc => "tcpFriendCtl",
                    FlowKind::Rap => "rap_ack",
                    _ => "ack",
                },
            )
        };
        labels.push(FlowLabel {
            fid: f.fid.unwrap_or(i as u32),
            sport: sp,
            dport: dp,
            data_type,
            ack_type,
            header: f.tcp.as_ref().map_or(f.header_size, |t| t.header_size),
            full: full.clone(),
            unnumbered: false,
        });
        let syn = f.tcp.as_ref().is_some_and(|t| t.syn);
        let mut frame = frame_info(f.tcp.as_ref(), syn, f.header_size, sp, dp);
        frame.full = full;
        frames.push(frame);
    }
    // Tmix half-connections: ports of their own, their application's flow id.
    for flow in &flows[sc.flows.len()..] {
        let (conn, side) = flow.tmix().expect("a Tmix half-connection");
        let owner = tmix[conn as usize].parent.idx();
        let of = &sc.flows[owner];
        let (a, b) = if side == 0 {
            (of.from, of.to)
        } else {
            (of.to, of.from)
        };
        let (sp, dp) = (port(a), port(b));
        labels.push(FlowLabel {
            fid: of.fid.unwrap_or(owner as u32),
            sport: sp,
            dport: dp,
            data_type: "tcp",
            ack_type: "ack",
            header: of.tcp.as_ref().map_or(0, |t| t.header_size),
            full: None,
            unnumbered: false,
        });
        let syn = side == 0 && of.tcp.as_ref().is_some_and(|t| t.syn);
        frames.push(frame_info(of.tcp.as_ref(), syn, of.header_size, sp, dp));
    }
    let ends: Vec<(u32, u32)> = links.iter().map(|l| (l.from.0, l.to.0)).collect();
    let mut specs = Vec::with_capacity(sc.traces.len());
    for t in &sc.traces {
        let pcap = t.format == TraceFormat::Pcap;
        let mut taps = Vec::new();
        let mut all = TraceEvent::Enqueue.bit()
            | TraceEvent::Dequeue.bit()
            | TraceEvent::Receive.bit()
            | TraceEvent::Drop.bit()
            | TraceEvent::Lost.bit();
        if !t.events.is_empty() {
            all = 0;
            for e in &t.events {
                all |= TraceEvent::named(e)
                    .ok_or_else(|| format!("trace event {e:?}: expected +, -, r, d or lost"))?
                    .bit();
            }
        }
        // pcap on a link: a frame as it starts its transmission.
        let on_link = if pcap { TraceEvent::Dequeue.bit() } else { all };
        if t.links.is_empty() && t.nodes.is_empty() {
            taps.extend((0..links.len()).map(|l| (l, on_link)));
        }
        taps.extend(t.links.iter().map(|&l| (l as usize, on_link)));
        for tap in taps.iter_mut() {
            if t.lost_untraced.contains(&(tap.0 as u32)) {
                tap.1 &= !TraceEvent::Lost.bit();
            }
            if t.ahead_of_loss.contains(&(tap.0 as u32)) && tap.1 & TraceEvent::Enqueue.bit() != 0 {
                tap.1 = tap.1 & !TraceEvent::Enqueue.bit() | TraceEvent::EnqueueAhead.bit();
            }
        }
        for &n in &t.nodes {
            for (l, &(from, to)) in ends.iter().enumerate() {
                // At a node: what leaves it (transmission start) and what reaches it.
                let mut ev = 0;
                if from == n {
                    ev |= TraceEvent::Dequeue.bit();
                }
                if to == n {
                    ev |= TraceEvent::Receive.bit();
                }
                if ev != 0 {
                    taps.push((l, ev));
                }
            }
        }
        specs.push(TraceSpec {
            pcap,
            tcp_header: t.tcp_header,
            path: t.path.clone().into(),
            taps,
        });
    }
    let traces = PacketTraces::open(&specs, ends, labels, frames)?;
    for (l, link) in links.iter_mut().enumerate() {
        if traces.watches(l) {
            link.log_starts(true);
        }
    }
    Ok(Some(Box::new(traces)))
}

/// The packet generator of a UDP-style application; None for FTP and Tmix.
fn generator_for(app: &AppConfig) -> Option<Generator> {
    Some(match app {
        AppConfig::Cbr {
            interval_ps,
            packet_size,
            random,
            ..
        } => Generator::Cbr(Cbr {
            interval_ps: *interval_ps,
            payload: *packet_size,
            random: *random,
            ns2_interval: None,
            ns2_jitter: None,
        }),
        AppConfig::Onoff {
            interval_ps,
            packet_size,
            on,
            off,
            ..
        } => Generator::OnOff(OnOff::new(
            *interval_ps,
            *packet_size,
            on.clone(),
            off.clone(),
        )),
        AppConfig::Poisson {
            mean_interval_ps,
            packet_size,
            ..
        } => Generator::Poisson(Poisson {
            mean_interval_ps: *mean_interval_ps,
            payload: *packet_size,
        }),
        AppConfig::Trace { records, .. } => Generator::Trace(TraceReplay::new(records.clone())),
        AppConfig::Ftp { .. } | AppConfig::Tmix { .. } => return None,
    })
}

/// The scenario's Quick-Start routers (`net/quick_start.rs`), one agent per node that has
/// one; every link then stops requests for the simulator (a node without an agent breaks
/// them), and those out of a router keep their queue's utilisation.
fn quick_start_routers(
    scenario: &Scenario,
    links: &mut [Link],
) -> Option<Box<super::QuickStartNet>> {
    use crate::net::quick_start::{QsRouter, QsUtil};
    // Without routers a flow's request still crosses nodes that do not take part, which
    // break it: the links stop requests all the same.
    let requests = scenario
        .flows
        .iter()
        .any(|f| f.tcp.as_ref().is_some_and(|t| t.quick_start > 0));
    let none = crate::scenario::QuickStartConfig::default();
    let qs = match scenario.quick_start.as_ref() {
        Some(q) => q,
        None if requests => &none,
        None => return None,
    };
    let mut routers: Vec<Option<QsRouter>> = vec![None; scenario.nodes.len()];
    for r in &qs.routers {
        routers[r.node as usize] = Some(QsRouter::new(r.clone()));
    }
    for link in links.iter_mut() {
        let util = routers[link.from.idx()].as_ref().map(|r| {
            let c = &r.cfg;
            QsUtil::new(
                c.util_weight,
                crate::sched::ns2_seconds(SimTime(c.util_interval_ps)),
                c.util_records,
            )
        });
        link.keep_quick_start(util);
    }
    Some(Box::new(super::QuickStartNet {
        rates: qs.rate_function,
        routers,
    }))
}
