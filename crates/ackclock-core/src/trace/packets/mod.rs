//! Packet traces streamed to disk while the run goes: ns-2 trace files and pcap captures.
//!
//! The simulator reports four things on a traced link: a packet offered to the queue (`+`),
//! dropped (`d`), starting its transmission (`-`) and reaching the far node (`r`). A FIFO
//! link knows a packet's transmission start when it accepts it, possibly in the future, so
//! such starts wait in a small heap and are written once the clock has reached them; every
//! file is therefore in time order, and memory is bounded by the packets queued on traced
//! links. Files are written under a temporary name and renamed when the run ends, so an
//! interrupted run never leaves a truncated file under the final name.

pub mod ns2;
pub mod pcap;

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, TsResolution};

use crate::packet::Packet;
use crate::tcp::sender::events::AgentEvent;
use crate::time::SimTime;
pub use ns2::{FlowLabel, TraceEvent};
pub use pcap::FrameInfo;

/// TCP byte sequence numbers of one direction of a two-way connection (`tcp/full.rs`),
/// whose segments the simulation numbers 0, 1, 2...: segment 0 is the SYN at byte 0,
/// segments 1..=n carry `bytes` payload bytes (all full but the last), the FIN follows and
/// takes one sequence number too (RFC 9293 section 3.4). `bytes` None: endless, all full.
/// `iss`: the initial sequence number, the SYN's (0 unless ns-2's `iss_` says otherwise).
/// `msgs`: a byte stream of messages (ns-2's FullTcp given parts of segments,
/// `tcp/sender/stream.rs`), each message starting a new segment: per message, one past its
/// last segment and the sequence bytes up to its end (a FIN's empty message counts 1); it
/// numbers the segments it covers, whole segments of `mss` follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeqBytes {
    pub mss: u32,
    pub bytes: Option<u64>,
    pub iss: u32,
    pub msgs: Vec<(u64, u64)>,
}

impl SeqBytes {
    /// The sequence number of segment `n`'s first byte (modulo 2^32, as on the wire).
    pub fn byte(&self, n: u64) -> u32 {
        if n == 0 {
            return self.iss;
        }
        let mss = self.mss as u64;
        if let Some(&(last_end, last_bytes)) = self.msgs.last() {
            let b = if n >= last_end {
                1 + last_bytes + (n - last_end) * mss
            } else {
                let i = self.msgs.partition_point(|&(end, _)| end <= n);
                let (start, before) = if i == 0 { (1, 0) } else { self.msgs[i - 1] };
                1 + (before + (n - start) * mss).min(self.msgs[i].1)
            };
            return (b as u32).wrapping_add(self.iss);
        }
        let b = match self.bytes {
            None => 1 + (n - 1) * mss,
            Some(total) => {
                let fin = 1 + total.div_ceil(mss);
                1 + ((n - 1) * mss).min(total) + u64::from(n > fin)
            }
        };
        (b as u32).wrapping_add(self.iss)
    }
}

/// Both directions' numbering, as a flow of a two-way connection sees them: `own` numbers
/// its data segments (and its receiver's ACKs), `peer` the reverse direction (the ACKs its
/// data carry, the sequence number of its receiver's pure ACKs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullSeq {
    pub own: SeqBytes,
    pub peer: SeqBytes,
}

/// Where a trace records: ns-2 lines on its links, or pcap frames on its links (as they
/// start transmission) or at a node (leaving it and arriving at it).
enum Sink {
    Ns2 {
        out: BufWriter<File>,
        line: Vec<u8>,
        /// ns-2's `Trace set show_tcphdr_ 1`: ackno, flags, hlen, SACK blocks appended.
        tcp_header: bool,
        /// Times as ns-2 writes them into a nam trace: `%.15g` of its double clock
        /// ([`PacketTraces::use_ns2_double_times`]), not rounded to the microsecond.
        double_times: bool,
    },
    Pcap {
        out: PcapWriter<BufWriter<File>>,
    },
}

struct Writer {
    sink: Sink,
    tmp: PathBuf,
    path: PathBuf,
}

/// A transmission start not yet reached by the clock.
#[derive(Clone, Copy, Debug)]
struct Pending {
    at: SimTime,
    /// `at` on ns-2's double clock.
    at2: f64,
    order: u64,
    link: u32,
    pkt: Packet,
}

impl PartialEq for Pending {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.order) == (o.at, o.order)
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Pending {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at, self.order).cmp(&(o.at, o.order))
    }
}

/// Where a TCP agent writes its `E` lines (ns-2.35 `TcpAgent::trace_event`): the trace,
/// the agent's node (`addr()`) and its peer's (`daddr()`).
#[derive(Clone, Copy, Debug)]
struct AgentEventTap {
    writer: u16,
    node: u32,
    peer: u32,
}

/// One trace's wish on a link: which events it records there.
#[derive(Clone, Copy, Debug)]
struct Tap {
    writer: u16,
    events: u8,
}

/// A trace as the scenario asks for it, with link directions already resolved.
#[derive(Clone, Debug)]
pub struct TraceSpec {
    pub pcap: bool,
    /// ns-2 traces: append the TCP header fields (ns-2 `show_tcphdr_`).
    pub tcp_header: bool,
    pub path: PathBuf,
    /// (link index, event bits of [`TraceEvent::bit`]).
    pub taps: Vec<(usize, u8)>,
}

pub struct PacketTraces {
    writers: Vec<Writer>,
    taps: Vec<Vec<Tap>>,
    ends: Vec<(u32, u32)>,
    labels: Vec<FlowLabel>,
    frames: Vec<FrameInfo>,
    pending: BinaryHeap<Reverse<Pending>>,
    order: u64,
    /// Per flow: the ns-2 trace its agent's events go to (`$ns eventtrace-all`).
    agent_events: Vec<Option<AgentEventTap>>,
    /// The first write error; the run goes on and reports it at the end.
    error: Option<String>,
}

impl PacketTraces {
    /// A direction of a two-way connection learns its size in the run (its application
    /// closed it: `tcp/full.rs`, `FullConn::app_close`): flow `flow` carries `bytes`
    /// payload bytes and then its FIN, which its own packets and the acknowledgements of
    /// flow `peer` (the reverse direction) number from now on.
    pub fn set_full_bytes(&mut self, flow: usize, peer: usize, bytes: u64) {
        for (f, own) in [(flow, true), (peer, false)] {
            let label = self.labels.get_mut(f).and_then(|l| l.full.as_mut());
            let frame = self.frames.get_mut(f).and_then(|l| l.full.as_mut());
            for fs in label.into_iter().chain(frame) {
                if own {
                    fs.own.bytes = Some(bytes);
                } else {
                    fs.peer.bytes = Some(bytes);
                }
            }
        }
    }

    /// A direction of a two-way connection is a byte stream of messages (`SeqBytes::msgs`):
    /// flow `flow`'s packets and the acknowledgements of flow `peer` number its bytes by
    /// `table` from now on.
    pub fn set_full_messages(&mut self, flow: usize, peer: usize, table: &[(u64, u64)]) {
        for (f, own) in [(flow, true), (peer, false)] {
            let label = self.labels.get_mut(f).and_then(|l| l.full.as_mut());
            let frame = self.frames.get_mut(f).and_then(|l| l.full.as_mut());
            for fs in label.into_iter().chain(frame) {
                let side = if own { &mut fs.own } else { &mut fs.peer };
                side.msgs.clear();
                side.msgs.extend_from_slice(table);
            }
        }
    }

    /// A direction of a two-way connection starts its numbering at `iss` (ns-2's `iss_` of
    /// the agent that sends flow `flow`): its own packets and the acknowledgements of flow
    /// `peer` (the reverse direction) count from there.
    pub fn set_full_iss(&mut self, flow: usize, peer: usize, iss: u32) {
        for (f, own) in [(flow, true), (peer, false)] {
            let label = self.labels.get_mut(f).and_then(|l| l.full.as_mut());
            let frame = self.frames.get_mut(f).and_then(|l| l.full.as_mut());
            for fs in label.into_iter().chain(frame) {
                if own {
                    fs.own.iss = iss;
                } else {
                    fs.peer.iss = iss;
                }
            }
        }
    }

    /// Flow `flow`'s data packets bear ns-2's type `ty` in ns-2 traces from now on (a host
    /// flow's: `ping`, `udp`, `message`; `sim/host_datagrams.rs`).
    pub fn set_data_type(&mut self, flow: usize, ty: &'static str) {
        if let Some(label) = self.labels.get_mut(flow) {
            label.data_type = ty;
        }
    }

    /// Flow `flow`'s data packets print sequence number 0 from now on
    /// ([`ns2::FlowLabel::unnumbered`]).
    pub fn set_unnumbered(&mut self, flow: usize) {
        if let Some(label) = self.labels.get_mut(flow) {
            label.unnumbered = true;
        }
    }

    /// Opens every trace's temporary file.
    pub fn open(
        specs: &[TraceSpec],
        ends: Vec<(u32, u32)>,
        labels: Vec<FlowLabel>,
        frames: Vec<FrameInfo>,
    ) -> Result<PacketTraces, String> {
        let mut taps = vec![Vec::new(); ends.len()];
        let mut writers = Vec::with_capacity(specs.len());
        for (w, s) in specs.iter().enumerate() {
            let mut tmp = s.path.clone().into_os_string();
            tmp.push(".part");
            let tmp = PathBuf::from(tmp);
            let file = File::create(&tmp)
                .map_err(|e| format!("trace[{w}].file: cannot write {}: {e}", s.path.display()))?;
            let out = BufWriter::with_capacity(1 << 16, file);
            let sink = if s.pcap {
                let header = PcapHeader {
                    datalink: DataLink::ETHERNET,
                    ts_resolution: TsResolution::NanoSecond,
                    snaplen: 65535,
                    ..PcapHeader::default()
                };
                Sink::Pcap {
                    out: PcapWriter::with_header(out, header)
                        .map_err(|e| format!("trace[{w}].file: {e}"))?,
                }
            } else {
                Sink::Ns2 {
                    out,
                    line: Vec::with_capacity(128),
                    tcp_header: s.tcp_header,
                    double_times: false,
                }
            };
            for &(l, events) in &s.taps {
                taps[l].push(Tap {
                    writer: w as u16,
                    events,
                });
            }
            writers.push(Writer {
                sink,
                tmp,
                path: s.path.clone(),
            });
        }
        Ok(PacketTraces {
            writers,
            taps,
            ends,
            labels,
            frames,
            pending: BinaryHeap::new(),
            order: 0,
            agent_events: Vec::new(),
            error: None,
        })
    }

    /// Whether any trace watches link `l`.
    #[inline]
    pub fn watches(&self, l: usize) -> bool {
        !self.taps[l].is_empty()
    }

    /// Records `ev` of `pkt` on link `l` at `t` (`t2` on ns-2's double clock), after the
    /// transmission starts due before then. Starts at `t` itself come after the events of
    /// `t`, as in ns-2, where the arrival that triggers a tie was usually scheduled first.
    pub fn record(&mut self, t: SimTime, t2: f64, l: usize, ev: TraceEvent, pkt: &Packet) {
        if self.taps[l].is_empty() {
            return;
        }
        self.flush_before(t);
        self.write(t, t2, l, ev, pkt);
    }

    /// A transmission start on link `l` at `at` (not before the current time `now`, which is
    /// `now2` on ns-2's double clock).
    pub fn dequeue(&mut self, now: SimTime, now2: f64, at: SimTime, l: usize, pkt: &Packet) {
        if self.taps[l].is_empty() {
            return;
        }
        if at <= now {
            self.record(now, now2, l, TraceEvent::Dequeue, pkt);
            return;
        }
        self.order += 1;
        self.pending.push(Reverse(Pending {
            at,
            at2: crate::sched::ns2_seconds(at),
            order: self.order,
            link: l as u32,
            pkt: *pkt,
        }));
    }

    /// Writes trace `w`'s times as ns-2 writes a nam trace's (`%.15g` of its double clock,
    /// trace/trace.cc `Trace::format` with a nam channel) instead of rounded to the
    /// microsecond as in its packet trace.
    pub fn use_ns2_double_times(&mut self, w: usize) -> bool {
        match self.writers.get_mut(w).map(|x| &mut x.sink) {
            Some(Sink::Ns2 { double_times, .. }) => {
                *double_times = true;
                true
            }
            _ => false,
        }
    }

    /// Flow `flow`'s agent (at node `node`, its peer at `peer`) writes its events into ns-2
    /// trace `writer`. False if that trace is not an ns-2 trace.
    pub fn trace_agent_events(&mut self, flow: usize, writer: usize, node: u32, peer: u32) -> bool {
        if !matches!(
            self.writers.get(writer).map(|w| &w.sink),
            Some(Sink::Ns2 { .. })
        ) {
            return false;
        }
        if self.agent_events.len() <= flow {
            self.agent_events.resize(flow + 1, None);
        }
        self.agent_events[flow] = Some(AgentEventTap {
            writer: writer as u16,
            node,
            peer,
        });
        true
    }

    /// Writes flow `flow`'s agent events of time `t` (ns-2.35 `TcpAgent::trace_event`:
    /// `E time addr daddr TCP type fid t_seqno_ int(cwnd_)`), after the transmission starts
    /// due before then.
    pub fn agent_events(&mut self, t: SimTime, flow: usize, events: &[AgentEvent]) {
        let Some(Some(tap)) = self.agent_events.get(flow).copied() else {
            return;
        };
        self.flush_before(t);
        let label = &self.labels[flow];
        let w = &mut self.writers[tap.writer as usize];
        let Sink::Ns2 { out, line, .. } = &mut w.sink else {
            return;
        };
        for e in events {
            line.clear();
            // A two-way connection's t_seqno_ counts bytes (FullTcpAgent).
            let seqno = match &label.full {
                Some(fs) => fs.own.byte(e.next_seg) as i64,
                None => e.next_seg as i64,
            };
            line.extend_from_slice(b"E ");
            ns2::write_time(line, t);
            let rest = format!(
                " {} {} TCP {} {} {} {}\n",
                tap.node,
                tap.peer,
                e.kind.name(),
                label.fid,
                seqno,
                e.cwnd
            );
            line.extend_from_slice(rest.as_bytes());
            if let Err(e) = out.write_all(line) {
                self.error
                    .get_or_insert(format!("{}: {e}", w.path.display()));
                return;
            }
        }
    }

    fn flush_before(&mut self, t: SimTime) {
        while let Some(Reverse(p)) = self.pending.peek() {
            if p.at >= t {
                break;
            }
            let Reverse(p) = self.pending.pop().expect("peeked");
            self.write(p.at, p.at2, p.link as usize, TraceEvent::Dequeue, &p.pkt);
        }
    }

    fn flush_until(&mut self, t: SimTime) {
        while let Some(Reverse(p)) = self.pending.peek() {
            if p.at > t {
                break;
            }
            let Reverse(p) = self.pending.pop().expect("peeked");
            self.write(p.at, p.at2, p.link as usize, TraceEvent::Dequeue, &p.pkt);
        }
    }

    fn write(&mut self, t: SimTime, t2: f64, l: usize, ev: TraceEvent, pkt: &Packet) {
        let (from, to) = self.ends[l];
        let f = pkt.flow.idx();
        for tap in &self.taps[l] {
            if tap.events & ev.bit() == 0 {
                continue;
            }
            let w = &mut self.writers[tap.writer as usize];
            let res = match &mut w.sink {
                Sink::Ns2 {
                    out,
                    line,
                    tcp_header,
                    double_times,
                } => {
                    line.clear();
                    let time = if *double_times {
                        ns2::Time::Double(t2)
                    } else {
                        ns2::Time::Exact(t)
                    };
                    ns2::write_line(line, ev, time, from, to, pkt, &self.labels[f], *tcp_header)
                        .and_then(|_| out.write_all(line))
                        .map_err(|e| e.to_string())
                }
                Sink::Pcap { out } => {
                    let mut buf = [0u8; pcap::MAX_HEADERS];
                    let (cap, len) = pcap::frame(&mut buf, pkt, &self.frames[f], t);
                    let ts = Duration::from_nanos(t.0 / 1000);
                    out.write_packet(&PcapPacket::new(ts, len, &buf[..cap]))
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                }
            };
            if let Err(e) = res {
                if self.error.is_none() {
                    self.error = Some(format!("{}: {e}", w.path.display()));
                }
            }
        }
    }

    /// Writes the starts due by `now` and pushes buffered lines to the files, so that a
    /// reader sees everything up to `now` (the ns-2 front end copies them to Tcl channels).
    pub fn flush(&mut self, now: SimTime) -> Result<(), String> {
        self.flush_until(now);
        for w in &mut self.writers {
            let res = match &mut w.sink {
                Sink::Ns2 { out, .. } => out.flush(),
                Sink::Pcap { .. } => Ok(()),
            };
            if let Err(e) = res {
                self.error
                    .get_or_insert(format!("{}: {e}", w.path.display()));
            }
        }
        match &self.error {
            Some(e) => Err(format!("packet trace: {e}")),
            None => Ok(()),
        }
    }

    /// Writes the starts due by `end`, closes every file and gives it its final name.
    pub fn finish(&mut self, end: SimTime) -> Result<(), String> {
        self.flush_until(end);
        self.pending.clear();
        for w in self.writers.drain(..) {
            let flushed = match w.sink {
                Sink::Ns2 { mut out, .. } => out.flush(),
                Sink::Pcap { out } => out.into_writer().flush(),
            };
            if let Err(e) = flushed {
                self.error
                    .get_or_insert(format!("{}: {e}", w.path.display()));
            }
            if self.error.is_none() {
                if let Err(e) = std::fs::rename(&w.tmp, &w.path) {
                    self.error = Some(format!("{}: {e}", w.path.display()));
                }
            } else {
                let _ = std::fs::remove_file(&w.tmp);
            }
        }
        match self.error.take() {
            Some(e) => Err(format!("packet trace: {e}")),
            None => Ok(()),
        }
    }
}

/// ns-2's name for the data packets of a UDP application.
pub fn udp_type(app: &crate::scenario::AppConfig) -> &'static str {
    use crate::scenario::AppConfig;
    match app {
        AppConfig::Cbr { .. } => "cbr",
        AppConfig::Onoff {
            on: crate::scenario::Distribution::Pareto(..),
            ..
        } => "pareto",
        AppConfig::Onoff { .. } => "exp",
        _ => "udp",
    }
}

#[cfg(test)]
mod seq_bytes_tests {
    use super::SeqBytes;

    #[test]
    fn messages_number_bytes_from_their_own_first_segment() {
        // SYN (segment 0), a message of 250 bytes in segments 1..=3, one of 10 bytes
        // (segment 4), the FIN (segment 5), with iss 0.
        let s = SeqBytes {
            mss: 100,
            bytes: None,
            iss: 0,
            msgs: vec![(4, 250), (5, 260), (6, 261)],
        };
        let got: Vec<u32> = (0..8).map(|n| s.byte(n)).collect();
        assert_eq!(got, vec![0, 1, 101, 201, 251, 261, 262, 362]);
    }
}
