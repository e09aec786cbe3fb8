//! [`Scenario::validate`]: what the engine relies on in a resolved scenario, each problem
//! reported with its key path.
//!
//! These are the scenario's rules, written once: the Python front end reads the user's words
//! into the document (names to indices, units to integers, profile defaults) and asks these
//! checks through the binding (`ackclock._core.check_scenario`, `python/ackclock/rules.py`),
//! which names the place back in the scenario's words. A message is one line,
//! `place: what was expected` (with what was given where the document still knows it).

use super::*;

impl Scenario {
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        Scenario::from_json_with_tmix(text, Vec::new())
    }

    /// [`Scenario::from_json`] of a document whose Tmix applications' connection vectors
    /// come apart from its text, as `(flow index, vectors)` (the binding reads them from the
    /// front end's arrays: seed 003's study runs hold millions of connections, whose text
    /// and parse were most of the memory a run took). Those flows' `connections` in the text
    /// are replaced.
    pub fn from_json_with_tmix(
        text: &str,
        tmix: Vec<(usize, TmixVectors)>,
    ) -> Result<Scenario, String> {
        let mut s = Scenario::parse(text)?;
        for (i, v) in tmix {
            match s.flows.get_mut(i).map(|f| &mut f.app) {
                Some(AppConfig::Tmix { connections, .. }) => **connections = v,
                _ => return Err(format!("flow[{i}].app: not a tmix application")),
            }
        }
        s.take_tcp_tables()?;
        s.validate()?;
        Ok(s)
    }

    fn parse(text: &str) -> Result<Scenario, String> {
        serde_json::from_str(text).map_err(|e| {
            // A mistake in a value names its place (`link[2].queue.max_p: ...`): serde_json's
            // position in the one-line document would only repeat it. A syntax error keeps it.
            let msg = e.to_string();
            let msg = match msg.rfind(" at line ") {
                Some(k) if e.is_data() && super::numbered::keyed(&msg[..k]) => &msg[..k],
                _ => &msg,
            };
            format!("resolved scenario: {msg}")
        })
    }

    /// Gives each flow that names a table of `tcp_tables` (`tcp_table`) its own copy of it as
    /// `tcp`, with the flow's own `ns2_boot_time_ps` if it gives one, and empties
    /// `tcp_tables`: what follows reads `FlowConfig::tcp` alone.
    fn take_tcp_tables(&mut self) -> Result<(), String> {
        let tables = std::mem::take(&mut self.tcp_tables);
        for (i, f) in self.flows.iter_mut().enumerate() {
            if let Some(k) = f.tcp_table.take() {
                if f.tcp.is_some() {
                    return Err(format!(
                        "flow[{i}].tcp_table: a flow gives its tcp parameters or a tcp_table, \
                         not both"
                    ));
                }
                let Some(t) = tables.get(k as usize) else {
                    return Err(format!(
                        "flow[{i}].tcp_table: expected an index below {} (the tcp_tables), \
                         got {k}",
                        tables.len()
                    ));
                };
                f.tcp = Some(t.clone());
            }
            if let Some(boot) = f.ns2_boot_time_ps.take() {
                let Some(t) = f.tcp.as_mut() else {
                    return Err(format!(
                        "flow[{i}].ns2_boot_time_ps: a TCP flow's, beside its tcp or tcp_table"
                    ));
                };
                t.ns2_boot_time_ps = boot;
            }
        }
        Ok(())
    }

    /// Checks everything the engine relies on; the first problem comes back with its path.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.nodes.len() as u32;
        if self.run.duration_ps == 0 {
            return Err("run.duration: expected a positive time".into());
        }
        if self.run.warmup_ps >= self.run.duration_ps {
            return Err(format!(
                "run.warmup: must be shorter than run.duration ({}), got {}",
                seconds(self.run.duration_ps),
                seconds(self.run.warmup_ps)
            ));
        }
        if self.run.sample_interval_ps == Some(0) {
            return Err("run.sample_interval: expected a positive time".into());
        }
        if let Some(iv) = self.run.sample_interval_ps {
            // Guard against time series that would not fit in memory.
            let samples = self.run.duration_ps / iv + 1;
            if samples > MAX_SAMPLES {
                return Err(format!(
                    "run.sample_interval: {} samples per series, more than {}; choose a \
                     longer interval",
                    grouped(samples),
                    grouped(MAX_SAMPLES)
                ));
            }
            let per_sample = (self.flows.len() + self.links.len()) as u64;
            let rows = samples.saturating_mul(per_sample);
            if rows > MAX_SAMPLE_ROWS {
                return Err(format!(
                    "run.sample_interval: {} samples x ({} flows + {} link directions) = {} \
                     time-series rows, more than {}; choose a longer interval",
                    grouped(samples),
                    self.flows.len(),
                    self.links.len(),
                    grouped(rows),
                    grouped(MAX_SAMPLE_ROWS)
                ));
            }
        }
        for (i, t) in self.traces.iter().enumerate() {
            if t.links.iter().any(|&l| l as usize >= self.links.len()) {
                return Err(format!("trace[{i}].links: link index out of range"));
            }
            if t.nodes.iter().any(|&x| x >= n) {
                return Err(format!("trace[{i}].nodes: node index out of range"));
            }
            if t.format == TraceFormat::Ns2 && !t.nodes.is_empty() {
                return Err(format!(
                    "trace[{i}].nodes: an ns2 trace records link directions; use links"
                ));
            }
            if t.path.is_empty() {
                return Err(format!("trace[{i}].file: must not be empty"));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (i, name) in self.nodes.iter().enumerate() {
            if !seen.insert(name.as_str()) {
                return Err(format!("node[{i}].name: duplicate node name {name:?}"));
            }
        }
        let mut dirs = std::collections::HashMap::new();
        if let Some(q) = &self.quick_start {
            let mut seen = std::collections::HashSet::new();
            for (i, r) in q.routers.iter().enumerate() {
                let p = format!("quick_start.routers[{i}]");
                if r.node as usize >= self.nodes.len() {
                    return Err(format!("{p}.node: node index out of range"));
                }
                if !seen.insert(r.node) {
                    return Err(format!("{p}.node: node {} has a router already", r.node));
                }
                let fraction = |x: f64| x.is_finite() && x >= 0.0;
                if !fraction(r.alloc_rate) || !fraction(r.threshold) {
                    return Err(format!(
                        "{p}: alloc_rate and threshold must be finite and not negative"
                    ));
                }
                if !(r.util_weight.is_finite() && r.util_weight >= 0.0) {
                    return Err(format!("{p}.util_weight: must be finite and not negative"));
                }
                if r.util_records > 1000 {
                    return Err(format!("{p}.util_records: at most 1000"));
                }
                if r.util_records > 0 && r.util_interval_ps == 0 {
                    return Err(format!("{p}.util_interval: must be positive"));
                }
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if l.from >= n || l.to >= n {
                return Err(format!("link[{i}]: node index out of range"));
            }
            if l.from == l.to {
                return Err(format!(
                    "link[{i}]: a link must join two different nodes, got from = to = {:?}",
                    self.nodes[l.from as usize]
                ));
            }
            if let Some(first) = dirs.insert((l.from, l.to), i) {
                return Err(format!(
                    "link[{i}]: duplicate link {}->{} (already given by link[{first}])",
                    self.nodes[l.from as usize], self.nodes[l.to as usize]
                ));
            }
            if crate::time::Rate::from_bps_f64(l.rate_bps).is_none() {
                return Err(format!(
                    "link[{i}].rate: must be a positive number of bit/s"
                ));
            }
            if l.queue.limit_packets.is_some() && l.queue.limit_bytes.is_some() {
                return Err(format!(
                    "link[{i}].queue: give limit or limit_bytes, not both"
                ));
            }
            validate_queue(&format!("link[{i}].queue"), &l.queue)?;
            for (k, m) in l.loss_behind.iter().enumerate() {
                let p = format!("link[{i}].loss_behind[{k}]");
                validate_loss(&p, m, &self.flows)?;
                if !matches!(m, LossConfig::DropList { .. } | LossConfig::Periodic { .. }) {
                    return Err(format!("{p}: only drop_list and periodic models"));
                }
                if l.loss.is_none() || !l.loss_at_entry {
                    return Err(format!(
                        "{p}: further loss models need a first one at the link's entry \
                         (loss, loss_at_entry)"
                    ));
                }
                if k >= 200 {
                    return Err(format!("{p}: at most 200 further loss models"));
                }
                if let LossConfig::DropList {
                    delay_ps, mark_ecn, ..
                }
                | LossConfig::Periodic {
                    delay_ps, mark_ecn, ..
                } = m
                {
                    if *delay_ps > 0 && *mark_ecn {
                        return Err(format!(
                            "{p}.delay_ps: a delaying loss model does not mark ECN"
                        ));
                    }
                }
            }
            if let Some(loss) = &l.loss {
                validate_loss(&format!("link[{i}].loss"), loss, &self.flows)?;
                if let LossConfig::DropList {
                    delay_ps, mark_ecn, ..
                }
                | LossConfig::Periodic {
                    delay_ps, mark_ecn, ..
                } = loss
                {
                    if *delay_ps > 0 && (*mark_ecn || !l.loss_at_entry) {
                        return Err(format!(
                            "link[{i}].loss.delay_ps: a delaying loss model must sit at the \
                             link's entry (loss_at_entry) and not mark ECN"
                        ));
                    }
                }
            }
        }
        let mut names = std::collections::HashSet::new();
        for (i, f) in self.flows.iter().enumerate() {
            if !names.insert(f.name.as_str()) {
                return Err(format!("flow[{i}].name: duplicate flow name {:?}", f.name));
            }
            if f.from >= n || f.to >= n {
                return Err(format!("flow[{i}]: node index out of range"));
            }
            if f.from == f.to {
                return Err(format!(
                    "flow[{i}]: from and to are the same node {:?}",
                    self.nodes[f.from as usize]
                ));
            }
            f.app.start().check(&format!("flow[{i}].app.start"))?;
            if let AppConfig::Onoff { on, off, .. } = &f.app {
                on.check(&format!("flow[{i}].app.on"))?;
                off.check(&format!("flow[{i}].app.off"))?;
            }
            if let Err(name) = crate::trace::tracer::TraceMask::from_names(&f.trace) {
                let names: Vec<String> = crate::trace::tracer::TRACEABLE
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect();
                return Err(format!(
                    "flow[{i}].trace: expected some of {}, got {name:?}",
                    names.join(", ")
                ));
            }
            if !f.trace.is_empty() && f.kind != FlowKind::Tcp {
                return Err(format!(
                    "flow[{i}].trace: only TCP flows have variables to trace"
                ));
            }
            if let Some(c) = &f.connection {
                self.validate_connection(i, f, c)?;
            }
            if f.tfrc.is_some() && f.kind != FlowKind::Tfrc {
                return Err(format!(
                    "flow[{i}].tfrc: only a tfrc flow takes tfrc parameters"
                ));
            }
            if f.rap.is_some() && f.kind != FlowKind::Rap {
                return Err(format!(
                    "flow[{i}].rap: only a rap flow takes rap parameters"
                ));
            }
            match (f.kind, &f.app, &f.tcp) {
                (FlowKind::Rap, _, Some(_)) => {
                    return Err(format!("flow[{i}].tcp: a rap flow takes no tcp parameters"))
                }
                (
                    FlowKind::Rap,
                    AppConfig::Ftp {
                        size_bytes: None, ..
                    },
                    None,
                ) => {
                    if let Some(r) = &f.rap {
                        r.check().map_err(|e| format!("flow[{i}].rap.{e}"))?;
                    }
                }
                (FlowKind::Rap, _, None) => {
                    return Err(format!(
                        "flow[{i}].app.kind: a rap flow sends from an \"ftp\" application's \
                         start to its stop, without a size"
                    ))
                }
                (FlowKind::Tfrc, _, Some(_)) => {
                    return Err(format!(
                        "flow[{i}].tcp: a tfrc flow takes no tcp parameters"
                    ))
                }
                (FlowKind::Tfrc, AppConfig::Ftp { .. }, None) => {
                    if let Some(t) = &f.tfrc {
                        t.check().map_err(|e| format!("flow[{i}].tfrc.{e}"))?;
                    }
                }
                (FlowKind::Tfrc, _, None) => {
                    return Err(format!(
                        "flow[{i}].app.kind: a tfrc flow sends what an \"ftp\" application gives it"
                    ))
                }
                (FlowKind::Tcp, AppConfig::Ftp { .. }, Some(t)) => validate_tcp(i, t)?,
                (FlowKind::Tcp, AppConfig::Tmix { connections, .. }, Some(t)) => {
                    validate_tcp(i, t)?;
                    connections
                        .check()
                        .map_err(|e| format!("flow[{i}].app.{e}"))?;
                }
                (FlowKind::Tcp, _, None) => return Err(format!("flow[{i}].tcp: missing")),
                // A paced application writing into the connection (CBR over TCP).
                (FlowKind::Tcp, AppConfig::Trace { .. }, Some(t)) => validate_tcp(i, t)?,
                (FlowKind::Tcp, _, Some(t)) => {
                    validate_tcp(i, t)?;
                    self.validate_paced(i, f)?;
                }
                (FlowKind::Udp, AppConfig::Ftp { .. } | AppConfig::Tmix { .. }, _) => {
                    return Err(format!(
                        "flow[{i}].app.kind: a UDP flow needs a cbr, onoff, poisson or trace app"
                    ))
                }
                (FlowKind::Udp, AppConfig::Trace { records, .. }, _) => {
                    if records.is_empty() {
                        return Err(format!("flow[{i}].app.file: the trace has no records"));
                    }
                    if records.windows(2).any(|w| w[1].0 < w[0].0) {
                        return Err(format!("flow[{i}].app.file: record times go backwards"));
                    }
                    if records.iter().any(|r| r.1 == 0) {
                        return Err(format!("flow[{i}].app.file: a record has size 0"));
                    }
                }
                (FlowKind::Udp, _, _) => self.validate_paced(i, f)?,
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// Checks flow `i`'s paced application (cbr, onoff, poisson: on a UDP flow, or writing
    /// into a TCP connection): a positive interval and packet size, and no more packets over
    /// the run than the engine's guard allows.
    fn validate_paced(&self, i: usize, f: &FlowConfig) -> Result<(), String> {
        let (iv, size) = match &f.app {
            AppConfig::Cbr {
                interval_ps,
                packet_size,
                ..
            }
            | AppConfig::Onoff {
                interval_ps,
                packet_size,
                ..
            } => (*interval_ps, *packet_size),
            AppConfig::Poisson {
                mean_interval_ps,
                packet_size,
                ..
            } => (*mean_interval_ps, *packet_size),
            _ => return Ok(()),
        };
        if size == 0 {
            return Err(format!(
                "flow[{i}].app.packet_size: expected a positive size, got 0"
            ));
        }
        if matches!(
            f.app,
            AppConfig::Cbr {
                after_connect: true,
                ..
            }
        ) && (f.kind != FlowKind::Tcp || f.connection.is_some())
        {
            return Err(format!(
                "flow[{i}].app.after_connect: only an application writing into a one-way TCP \
                 flow waits for its connection"
            ));
        }
        if let AppConfig::Cbr {
            after_connect,
            restart_every_ps: Some(every),
            ..
        } = f.app
        {
            if !after_connect {
                return Err(format!(
                    "flow[{i}].app.restart_every: an OnOffApplication's restarts count from \
                     its connection: needs after_connect = true"
                ));
            }
            if every == 0 {
                return Err(format!(
                    "flow[{i}].app.restart_every: expected a positive time, got 0"
                ));
            }
        }
        if iv == 0 {
            return Err(format!("flow[{i}].app.rate: must be positive and finite"));
        }
        // An application that starts after the run (the ns-2 front end starts it from the
        // script, at a time of its own) is bounded there, not here.
        let never =
            matches!(f.app.start(), Distribution::Constant(s) if *s >= self.run.duration_ps);
        let packets = self.run.duration_ps / iv;
        if packets > MAX_APP_PACKETS && !never {
            return Err(format!(
                "flow[{i}].app.rate: one packet every {} ps is {} packets over run.duration, \
                 more than {}; lower the rate",
                grouped(iv),
                grouped(packets),
                grouped(MAX_APP_PACKETS)
            ));
        }
        Ok(())
    }

    /// Checks that flow `i` and its peer form one two-way connection.
    fn validate_connection(
        &self,
        i: usize,
        f: &FlowConfig,
        c: &ConnectionConfig,
    ) -> Result<(), String> {
        let p = format!("flow[{i}].connection");
        let Some(peer) = self.flows.get(c.peer as usize) else {
            return Err(format!("{p}.peer: flow index out of range"));
        };
        let Some(pc) = &peer.connection else {
            return Err(format!(
                "{p}.peer: flow {} is not a connection's direction",
                c.peer
            ));
        };
        if pc.peer as usize != i || pc.initiator == c.initiator {
            return Err(format!(
                "{p}.peer: flows {i} and {} must name each other, one initiator, one acceptor",
                c.peer
            ));
        }
        if peer.from != f.to || peer.to != f.from {
            return Err(format!(
                "{p}.peer: the peer flow must run from {} to {}",
                f.to, f.from
            ));
        }
        if f.kind != FlowKind::Tcp || !matches!(f.app, AppConfig::Ftp { .. }) {
            return Err(format!(
                "flow[{i}].app: a connection's direction is a TCP ftp flow"
            ));
        }
        if c.initiator && c.exchange == crate::tcp::full::Exchange::RequestResponse {
            if let AppConfig::Ftp {
                size_bytes: None, ..
            } = f.app
            {
                return Err(format!(
                    "flow[{i}].app.size: a request-response exchange needs a finite request: \
                     give size, or exchange = \"concurrent\""
                ));
            }
        }
        let (Some(t), Some(pt)) = (&f.tcp, &peer.tcp) else {
            return Err(format!("flow[{i}].tcp: missing"));
        };
        if !t.syn {
            return Err(format!(
                "flow[{i}].syn: a two-way connection opens with a handshake"
            ));
        }
        if t.rcv_buffer_bytes.is_some() {
            return Err(format!(
                "flow[{i}].rcv_buffer: not supported on two-way connections yet"
            ));
        }
        if t.packet_size != pt.packet_size || t.header_size != pt.header_size {
            return Err(format!(
                "flow[{i}].packet_size: both directions of a connection use the same segments"
            ));
        }
        Ok(())
    }
}

/// A count with its thousands grouped, for messages: `50,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A time in picoseconds as seconds, for messages: `10s`, `0.5s`.
fn seconds(ps: u64) -> String {
    format!("{}s", ps as f64 / 1e12)
}

fn probability(path: &str, key: &str, x: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&x) {
        Ok(())
    } else {
        Err(format!(
            "{path}.{key}: expected a probability in [0, 1], got {x}"
        ))
    }
}

fn validate_loss(p: &str, loss: &LossConfig, flows: &[FlowConfig]) -> Result<(), String> {
    match loss {
        LossConfig::Bernoulli { p: x } | LossConfig::ByteBernoulli { p: x } => {
            probability(p, "p", *x)
        }
        LossConfig::DropList {
            flow,
            packets,
            acks,
            connection,
            ..
        } => {
            if *flow as usize >= flows.len() {
                return Err(format!("{p}.flow: flow index out of range"));
            }
            if *connection && (*acks || flows[*flow as usize].connection.is_none()) {
                return Err(format!(
                    "{p}.connection: needs a two-way connection's flow, and not acks"
                ));
            }
            // `Packet::nth` counts a flow's transmissions in 32 bits.
            if let Some(n) = packets.iter().find(|&&n| n > u32::MAX as u64) {
                return Err(format!(
                    "{p}.packets: {n} is above the largest transmission number, {}",
                    u32::MAX
                ));
            }
            Ok(())
        }
        LossConfig::GilbertElliott {
            p_good_bad,
            p_bad_good,
            loss_good,
            loss_bad,
        } => {
            probability(p, "p_good_bad", *p_good_bad)?;
            probability(p, "p_bad_good", *p_bad_good)?;
            probability(p, "loss_good", *loss_good)?;
            probability(p, "loss_bad", *loss_bad)
        }
        LossConfig::Periodic {
            period,
            offset,
            burst,
            ..
        } => {
            if *period == 0 {
                return Err(format!("{p}.period: must be positive"));
            }
            if offset >= period {
                return Err(format!("{p}.offset: must be smaller than period"));
            }
            if *burst == 0 {
                return Err(format!("{p}.burst: must be at least 1"));
            }
            if offset.saturating_add(*burst) > *period {
                return Err(format!(
                    "{p}.burst: offset + burst must not exceed period ({period})"
                ));
            }
            Ok(())
        }
    }
}

/// The queue's own rules; its discipline's parameters were checked when the document was
/// read (`QueueConfig`: scenario/queue.rs).
fn validate_queue(p: &str, q: &QueueConfig) -> Result<(), String> {
    let kind = match &q.discipline {
        Discipline::Custom { class, .. } => {
            if !class.contains(':') {
                return Err(format!(
                    "{p}.custom: expected \"module:Class\", got {class:?}"
                ));
            }
            if q.device.is_some() {
                return Err(format!(
                    "{p}.device_limit: a device queue goes below a built-in queue discipline \
                     that holds its packets; not below {class}, written in Python (not \
                     supported yet)"
                ));
            }
            return Ok(());
        }
        Discipline::Builtin(c) => c.kind(),
    };
    if let Some(d) = &q.device {
        let info = kind.info();
        if info.service != crate::queue::Service::Dequeue && !info.device {
            return Err(format!(
                "{p}.device_limit: a device queue goes below a queue discipline that holds its \
                 packets (or red), not below {} (a FIFO at the line)",
                kind.name()
            ));
        }
        if d.limit_packets == 0 {
            return Err(format!("{p}.device_limit: must be at least 1 packet"));
        }
    }
    kind.check_link(q.limit_packets, q.limit_bytes, q.ecn)
        .map_err(|e| format!("{p}.{e}"))
}

fn validate_tcp(i: usize, t: &TcpConfig) -> Result<(), String> {
    let p = format!("flow[{i}]");
    // variant, sink, window_unit, hystart and rto_rule are enums: their names were read once,
    // when the document was.
    if let Err(e) = t.congestion_control() {
        return Err(format!("{p}.{e}"));
    }
    // Without SACK blocks ns-2's Sack1 still runs (Sack1TcpAgent::recv counts a duplicate
    // only when ScoreBoardRQ::UpdateScoreBoard changed the board, so losses wait for the
    // timer); the RFC 6675, PRR and RACK recoveries are defined on SACK information only.
    if t.variant == Recovery::Sack
        && t.sink != SinkKind::Sack
        && (t.rack || t.rfc6675_recovery || t.prr)
    {
        return Err(format!(
            "{p}.sink: the sack variant with rack, rfc6675_recovery or prr needs sink = \"sack\", \
             got {:?}",
            t.sink.name()
        ));
    }
    let rfc793_adds = t.rfc793_fast_retransmit
        || t.rfc793_slow_start
        || t.rfc793_jacobson_rto
        || !t.rfc793_karn
        || !t.rfc793_backoff;
    if rfc793_adds && t.variant != Recovery::Rfc793 {
        return Err(format!(
            "{p}: rfc793_fast_retransmit, rfc793_slow_start, rfc793_jacobson_rto, rfc793_karn \
             and rfc793_backoff are the rfc793 variant's (variant = \"{}\")",
            t.variant.name()
        ));
    }
    if t.rcv_buffer_bytes == Some(0) {
        return Err(format!("{p}.rcv_buffer: must be at least one byte"));
    }
    if t.app_read_rate_bps
        .is_some_and(|r| !(r > 0.0 && r.is_finite()))
    {
        return Err(format!("{p}.read_rate: must be a positive rate"));
    }
    if t.app_read_rate_bps.is_some() && t.rcv_buffer_bytes.is_none() {
        return Err(format!("{p}.read_rate: needs a rcv_buffer to fill"));
    }
    if t.segs_per_ack == 0 {
        return Err(format!("{p}.segs_per_ack: must be positive"));
    }
    if t.packet_size == 0 {
        return Err(format!("{p}.packet_size: must be positive"));
    }
    if t.window == 0 || t.window > 1 << 24 {
        return Err(format!(
            "{p}.window: must be between 1 and 16777216 packets"
        ));
    }
    if t.window_init == 0 {
        return Err(format!("{p}.window_init: must be positive"));
    }
    if t.dupack_threshold == 0 {
        return Err(format!("{p}.dupack_threshold: must be positive"));
    }
    if t.min_rto_ps > t.max_rto_ps {
        return Err(format!(
            "{p}.min_rto: larger than max_rto ({}), got {}",
            seconds(t.max_rto_ps),
            seconds(t.min_rto_ps)
        ));
    }
    if t.max_rto_ps == 0 || t.initial_rto_ps == 0 {
        return Err(format!("{p}: max_rto and initial_rto must be positive"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{grouped, seconds};

    #[test]
    fn messages_write_counts_grouped_and_times_in_seconds() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(10_000_000_000), "10,000,000,000");
        assert_eq!(seconds(10_000_000_000_000), "10s");
        assert_eq!(seconds(500_000_000_000), "0.5s");
    }
}
