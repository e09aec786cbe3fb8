//! UDP traffic sources and the null sink that counts what arrives.
//!
//! A source is one `UdpSource` (the ns-2 `Agent/UDP` with its application) whose `Generator`
//! decides when the next datagram leaves and how large it is: constant bit rate, on-off,
//! Poisson or a replayed trace, each in its own file. Random generators draw from the flow's
//! own stream (`flow.<name>.app`), so changing one flow never changes another's randomness.
//!
//! `tmix/` replays Tmix connection vectors over TCP half-connections (the TCP workload
//! generator; its endpoints live in `sim/tmix.rs`).

pub mod cbr;
pub mod ns2_onoff;
pub mod onoff;
pub mod poisson;
pub mod tmix;
pub mod trace_replay;

use crate::ids::{FlowId, NodeId};
use crate::monitor::FlowCounters;
use crate::packet::{Packet, PacketKind, SackBlocks};
use crate::packet_pool::Outgoing;
use crate::rng::RandomStream;
use crate::time::SimTime;

pub use cbr::Cbr;
pub use ns2_onoff::{Ns2Bursts, Ns2OnOff};
pub use onoff::OnOff;
pub use poisson::Poisson;
pub use trace_replay::TraceReplay;

/// When the next datagram goes and with what payload.
#[derive(Clone, Debug)]
pub enum Generator {
    Cbr(Cbr),
    OnOff(OnOff),
    Ns2OnOff(Ns2OnOff),
    Poisson(Poisson),
    Trace(TraceReplay),
}

impl Generator {
    /// The payload of the datagram sent now and the delay until the next one (None: done).
    #[inline]
    fn next_datagram(&mut self, rng: &mut RandomStream) -> (u32, Option<u64>) {
        match self {
            Generator::Cbr(g) => g.next_datagram(rng),
            Generator::OnOff(g) => g.next_datagram(rng),
            Generator::Ns2OnOff(g) => g.next_datagram(),
            Generator::Poisson(g) => g.next_datagram(rng),
            Generator::Trace(g) => g.next_datagram(),
        }
    }

    /// Delay from the start to the first datagram (a trace may start late).
    fn first_delay(&mut self) -> u64 {
        match self {
            Generator::Trace(g) => g.first_delay(),
            Generator::Ns2OnOff(g) => g.start(),
            _ => 0,
        }
    }
}

/// An application that writes into a TCP connection at its own pace (ns-3's `MyApp` or an
/// `OnOffApplication` over TCP): the same generators as UDP sources, each draw a write of
/// that many bytes instead of a datagram.
#[derive(Debug)]
pub struct StreamWriter {
    generator: Generator,
    rng: RandomStream,
    stopped: bool,
    /// The first write waits for the connection (`after_connect`); true until it is open.
    awaiting_connect: bool,
    /// ns-3's `OnOffApplication` restarts (`restart_every`), if on.
    restart: Option<Box<Restart>>,
}

/// An `OnOffApplication` with `OnTime` `every` and `OffTime` 0 (ns-3.44,
/// src/applications/model/onoff-application.cc): every `every` since it started sending,
/// `StopSending` cancels the pending write, adding the whole bits sent at the rate since the
/// last write (or start) to `m_residualBits` (`CancelEvents`: `bits.GetHigh()`), and
/// `StartSending` at the same instant schedules the next write after the packet's bits less
/// those (`ScheduleNextTx`, a time in whole nanoseconds). A write clears the residual
/// (`SendPacket`). A restart at the instant a write is due comes first (its event is older)
/// and finds the write pending: a whole interval's bits, of which ns-3's fixed-point product
/// keeps one less, so the write comes one bit time later.
#[derive(Clone, Copy, Debug)]
struct Restart {
    every: u64,
    interval: u64,
    packet_bits: u64,
    /// The next restart (`StopSending`).
    at: u64,
    /// `m_lastStartTime`: the last write or restart.
    last: u64,
}

impl StreamWriter {
    pub fn new(generator: Generator, rng: RandomStream) -> Self {
        StreamWriter {
            generator,
            rng,
            stopped: false,
            awaiting_connect: false,
            restart: None,
        }
    }

    /// Restarts every `every` ps as ns-3's `OnOffApplication` (the writer's packets of
    /// `packet_size` bytes every `interval` ps), counted from the connection's opening.
    pub fn set_restart(&mut self, every: u64, interval: u64, packet_size: u32) {
        self.restart = Some(Box::new(Restart {
            every,
            interval,
            packet_bits: packet_size as u64 * 8,
            at: u64::MAX,
            last: 0,
        }));
    }

    pub fn first_tick(&mut self, now: SimTime) -> SimTime {
        SimTime(now.0.saturating_add(self.generator.first_delay()))
    }

    /// The first write waits until the connection opens and comes one interval after it
    /// (ns-3's `OnOffApplication` over TCP, below).
    pub fn set_after_connect(&mut self, on: bool) {
        self.awaiting_connect = on;
    }

    /// Whether the first write still waits for the connection to open.
    #[inline]
    pub fn awaiting_connect(&self) -> bool {
        self.awaiting_connect
    }

    /// The connection opened at `now`: when the first write is due. ns-3.44's
    /// `OnOffApplication::ConnectionSucceeded` calls `ScheduleStartEvent` (the off time, 0 for
    /// an always-on application), whose `StartSending` calls `ScheduleNextTx`: the first
    /// `SendPacket` one packet time (size x 8 / rate) later.
    pub fn connected(&mut self, now: SimTime) -> SimTime {
        self.awaiting_connect = false;
        let gap = match &self.generator {
            Generator::Cbr(g) => g.interval_ps,
            _ => 0,
        };
        if let Some(r) = self.restart.as_mut() {
            r.at = now.0.saturating_add(r.every);
            r.last = now.0;
        }
        SimTime(now.0.saturating_add(gap))
    }

    /// The bytes written now and when the next write is due, unless stopped or done.
    pub fn next(&mut self, now: SimTime) -> (u32, Option<SimTime>) {
        if self.stopped {
            return (0, None);
        }
        let (bytes, next) = self.generator.next_datagram(&mut self.rng);
        let mut next = next.map(|d| now.0.saturating_add(d));
        if let (Some(r), Some(t)) = (self.restart.as_mut(), next.as_mut()) {
            r.last = now.0;
            let mut residual = 0u64;
            // A restart at the instant of the write comes first (its event was scheduled a
            // whole `every` before), and finds the write pending.
            while *t >= r.at {
                let since = (r.at - r.last) as u128;
                // bits = delta.To(Time::S) x rate in ns-3's 64.64 fixed point, which lands
                // just below a whole number (Time::To multiplies by the truncated inverse of
                // 10^9, `MulByInvert`): a whole number of bits counts one less (ns-3.44's
                // core library: 400 000 ns at 20 Mb/s is 7999 bits, 7999.999999999999).
                let scaled = since * r.packet_bits as u128;
                residual += (scaled.saturating_sub(1) / r.interval as u128) as u64;
                let left = r.packet_bits.saturating_sub(residual) as u128;
                let gap_ps = left * r.interval as u128 / r.packet_bits as u128;
                // Seconds(bits / rate) in ns-3's whole nanoseconds.
                let gap_ns = (gap_ps + 500) / 1000;
                *t = r.at + (gap_ns * 1000) as u64;
                r.last = r.at;
                r.at = r.at.saturating_add(r.every);
            }
        }
        (bytes, next.map(SimTime))
    }

    pub fn stop(&mut self) {
        self.stopped = true;
    }
}

#[derive(Clone, Debug)]
pub struct UdpSource {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    header: u32,
    generator: Generator,
    rng: RandomStream,
    next_seq: u64,
    stopped: bool,
    /// Send events scheduled and not yet run, and how many of them belong to a run of the
    /// application that was stopped since (they are skipped: ns-2's
    /// `TrafficGenerator::stop` cancels its timer).
    pending: u32,
    stale: u32,
    /// ns-2's UDP agent's `packetSize_` (0: none): a larger message is split into packets of
    /// this size and the rest ([`UdpSource::set_ns2_packet_size`]).
    ns2_packet_size: u32,
}

impl UdpSource {
    pub fn new(
        flow: FlowId,
        src: NodeId,
        dst: NodeId,
        header: u32,
        generator: Generator,
        rng: RandomStream,
    ) -> Self {
        UdpSource {
            flow,
            src,
            dst,
            header,
            generator,
            rng,
            next_seq: 0,
            stopped: false,
            pending: 0,
            stale: 0,
            ns2_packet_size: 0,
        }
    }

    /// The agent's own packet size (ns-2's `Agent/UDP` `packetSize_`, `size_`): from now on
    /// each message the application hands it goes out as ns-2.35's `UdpAgent::sendmsg`
    /// (apps/udp.cc) sends it: `nbytes / size_` packets of `size_` bytes, then one of the
    /// remainder `nbytes % size_` if that is not 0, each numbered; a message of 0 bytes sends
    /// nothing. False (nothing changed) if `size` is 0.
    pub fn set_ns2_packet_size(&mut self, size: u32) -> bool {
        if size == 0 {
            return false;
        }
        self.ns2_packet_size = size;
        true
    }

    /// When the application starts at `now`: the time of its first datagram.
    pub fn first_tick(&mut self, now: SimTime) -> SimTime {
        SimTime(now.0.saturating_add(self.generator.first_delay()))
    }

    /// The application starts again after a stop (ns-2's `CBR_Traffic::start`: it sends at
    /// once and keeps its interval); the send still scheduled by the run that was stopped
    /// will not send. False if it was not stopped.
    pub fn restart(&mut self) -> bool {
        if !self.stopped {
            return false;
        }
        self.stopped = false;
        self.stale = self.pending;
        true
    }

    /// A send event was scheduled (at the time `tick` or `first_tick` returned).
    #[inline]
    pub fn armed(&mut self) {
        self.pending += 1;
    }

    /// A send event runs: false if it belongs to a run that was stopped since.
    #[inline]
    pub fn fired(&mut self) -> bool {
        self.pending = self.pending.saturating_sub(1);
        if self.stale > 0 {
            self.stale -= 1;
            return false;
        }
        true
    }

    /// ns-2's interval between two sends as its double, if the source is a CBR that was
    /// given one (`cbr::Cbr::ns2_interval`; with jitter, the gap last drawn).
    #[inline]
    pub fn ns2_interval(&self) -> Option<f64> {
        match &self.generator {
            Generator::Cbr(g) => match &g.ns2_jitter {
                Some((_, gap)) => Some(*gap),
                None if !g.random => g.ns2_interval,
                None => None,
            },
            Generator::Ns2OnOff(g) => Some(g.gap()),
            _ => None,
        }
    }

    /// Makes an on-off source ns-2's (`ns2_onoff`): `interval` seconds between sends in a
    /// burst, bursts and silences drawn from ns-2's default generator `rng`; false for other
    /// sources.
    pub fn set_ns2_onoff(
        &mut self,
        interval: f64,
        bursts: Ns2Bursts,
        rng: crate::rng::ns2::Ns2Default,
    ) -> bool {
        match &self.generator {
            Generator::OnOff(g) if interval > 0.0 => {
                self.generator =
                    Generator::Ns2OnOff(Ns2OnOff::new(g.payload, interval, bursts, rng));
                true
            }
            _ => false,
        }
    }

    /// Gives a CBR without jitter ns-2's interval `seconds` (its double); false for other
    /// sources.
    pub fn set_ns2_interval(&mut self, seconds: f64) -> bool {
        match &mut self.generator {
            Generator::Cbr(g) if !g.random && seconds > 0.0 => {
                g.ns2_interval = Some(seconds);
                true
            }
            _ => false,
        }
    }

    /// Gives a CBR with jitter ns-2's interval `seconds` (its double) and ns-2's default
    /// generator `rng` to draw the jitter from (`cbr::Cbr::ns2_jitter`); false for other
    /// sources.
    pub fn set_ns2_jitter(&mut self, seconds: f64, rng: crate::rng::ns2::Ns2Default) -> bool {
        match &mut self.generator {
            Generator::Cbr(g) if g.random && seconds > 0.0 => {
                g.ns2_interval = Some(seconds);
                g.ns2_jitter = Some((rng, seconds));
                true
            }
            _ => false,
        }
    }

    /// Sends one datagram and returns when the next one is due, unless stopped or done.
    pub fn tick(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> Option<SimTime> {
        if self.stopped {
            return None;
        }
        let (payload, next) = self.generator.next_datagram(&mut self.rng);
        let max = self.ns2_packet_size;
        match payload.checked_div(max) {
            None => self.send(payload, now, out, c),
            Some(whole) => {
                // UdpAgent::sendmsg: whole packets of size_, then the rest, back to back.
                for _ in 0..whole {
                    self.send(max, now, out, c);
                }
                if payload % max > 0 {
                    self.send(payload % max, now, out, c);
                }
            }
        }
        next.map(|d| SimTime(now.0.saturating_add(d)))
    }

    /// One datagram of `payload` bytes (and the header) out now, numbered.
    #[inline]
    fn send(&mut self, payload: u32, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        let size = payload + self.header;
        c.packets_sent += 1;
        c.bytes_sent += size as u64;
        *out.place() = Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::Udp,
            flags: 0,
            src: self.src,
            dst: self.dst,
            size,
            seq: self.next_seq,
            ack: 0,
            sent_at: now,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: c.packets_sent as u32,
            rwnd: 0,
            ecn: 0,
        };
        self.next_seq += 1;
    }

    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Header bytes added to each payload.
    pub fn header(&self) -> u32 {
        self.header
    }
}

/// Counts what arrives (ns-2 `Agent/Null` with a loss monitor's counters).
pub fn null_sink_receive(pkt: &Packet, header: u32, c: &mut FlowCounters) {
    c.packets_received += 1;
    c.bytes_received += pkt.size as u64;
    c.bytes_delivered += (pkt.size - header) as u64;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cbr(payload: u32) -> UdpSource {
        let g = Generator::Cbr(Cbr {
            interval_ps: 1_000_000,
            payload,
            random: false,
            ns2_interval: None,
            ns2_jitter: None,
        });
        UdpSource::new(
            FlowId(0),
            NodeId(0),
            NodeId(1),
            0,
            g,
            RandomStream::named(1, "t"),
        )
    }

    fn sizes(src: &mut UdpSource) -> Vec<(u32, u64)> {
        let mut out: Vec<Packet> = Vec::new();
        let mut c = FlowCounters::default();
        src.tick(SimTime::ZERO, &mut out, &mut c);
        assert_eq!(c.packets_sent, out.len() as u64);
        out.iter().map(|p| (p.size, p.seq)).collect()
    }

    /// UdpAgent::sendmsg (ns-2.35 apps/udp.cc): a message larger than the agent's size_ goes
    /// as whole packets of size_ and the remainder, each with the next number.
    #[test]
    fn a_message_larger_than_the_agents_size_is_split_as_ns2_splits_it() {
        let mut src = cbr(5000);
        assert_eq!(sizes(&mut src), [(5000, 0)]);
        assert!(!src.set_ns2_packet_size(0));
        assert!(src.set_ns2_packet_size(1000));
        let five: Vec<(u32, u64)> = (1..6).map(|i| (1000, i)).collect();
        assert_eq!(sizes(&mut src), five);
        let mut src = cbr(2500);
        src.set_ns2_packet_size(1000);
        assert_eq!(sizes(&mut src), [(1000, 0), (1000, 1), (500, 2)]);
        let mut src = cbr(210);
        src.set_ns2_packet_size(1000);
        assert_eq!(sizes(&mut src), [(210, 0)]);
    }
}
