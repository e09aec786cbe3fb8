//! A flow as the simulator holds it: its agent, its role in the per-packet glue, its lazy
//! timers, and what is traced and integrated about it.

use super::host_datagrams::HostDatagrams;
use super::one_way::Detached;
use super::reset::Reincarnated;
use super::Simulator;
use crate::ids::FlowId;
use crate::monitor::FlowCounters;
use crate::packet::Packet;
use crate::packet_pool::{Outgoing, PacketRef};
use crate::tcp::{TcpSender, TcpSink};
use crate::time::{SimDuration, SimTime};
use crate::trace::tracer::TraceMask;
use crate::traffic::tmix::DelayLine;
use crate::traffic::{StreamWriter, UdpSource};

#[derive(Debug)]
pub(super) enum Agent {
    Tcp {
        sender: Box<TcpSender>,
        sink: Box<TcpSink>,
    },
    /// Boxed so that the enum, and the line of `Flow` it opens, stays small.
    Udp { source: Box<UdpSource> },
    /// A TFRC sender and its receiver (`sim/tfrc.rs`).
    Tfrc(Box<crate::tfrc::TfrcConn>),
    /// A RAP source and its receiver (`sim/rap.rs`).
    Rap(Box<crate::rap::RapConn>),
    /// A Tmix application: its connections run on internal half-connection flows.
    Tmix,
    /// A Tmix half-connection without endpoints: before its connection starts, and after it
    /// has closed (`sim/tmix.rs`).
    Idle,
}

// Laid out by hand, the fields every packet of the flow reads in the first cache line and its
// timers in the second (checked by `flow_layout_tests`): with many flows a flow has left the
// first-level cache between two of its packets, and Rust's own order spread them over four.
#[derive(Debug)]
#[repr(C, align(64))]
pub(super) struct Flow {
    pub(super) agent: Agent,
    /// Pending events of the sender's RTO timer and the sink's delayed-ACK timer.
    pub(super) rto_event: LazyTimer,
    /// What kind of agent the flow's packets come from and go to, beyond `agent`.
    pub(super) role: Role,
    pub(super) delack_event: LazyTimer,
    pub(super) pace_event: LazyTimer,
    /// Variables traced on every change (their last recorded values are `traced`).
    pub(super) trace: TraceMask,
    /// The RTO in force since `rto_since` (None before the flow's first event), for its
    /// time average.
    pub(super) rto_held: Option<(SimTime, u64)>,
    pub(super) start: SimTime,
    /// Tmix_DelayBox in front of the network (Tmix half-connections only).
    pub(super) delay: Option<Box<DelayLine>>,
    /// A paced application writing into this TCP flow (CBR, on-off or Poisson over TCP).
    pub(super) writer: Option<Box<StreamWriter>>,
    pub(super) traced: [f64; 10],
}

/// What kind of flow it is for the simulator's per-packet glue, beside its agent. Each kind
/// owns its part of `send_pooled`, `receive` and `count_drop`, and its application's start
/// and stop, behind [`Kind`]; `Role` dispatches to them with one `match` per hook (an enum,
/// no dynamic dispatch). Its variants hold the kinds' fields rather than the kinds
/// themselves: with a struct inside, the tag cannot share the struct's padding and `Role`
/// takes 12 bytes instead of 8, which moves the fields of `Flow` after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A one-way flow: its agent (TCP sender and sink, UDP source, TFRC, a Tmix application)
    /// is the whole story ([`OneWay`], `sim/one_way.rs`).
    Own,
    /// A Tmix half-connection: its connection and side ([`TmixHalf`], `sim/tmix.rs`).
    TmixHalf(u32, u8),
    /// A direction of a two-way TCP connection: its connection and side ([`TwoWay`],
    /// `sim/two_way.rs`).
    TwoWay(u32, u8),
    /// A one-way flow with an endpoint taken off its node during the run: which ones
    /// ([`Detached`], `sim/one_way.rs`).
    Detached(u8),
    /// A one-way TCP flow whose sender or sink was reset during the run: its index in the
    /// simulator's `incarnations` ([`Reincarnated`], `sim/reset.rs`).
    Reset(u32),
    /// Datagrams the host program sends one at a time and whose arrivals it takes
    /// ([`HostDatagrams`], `sim/host_datagrams.rs`): ns-2's agents whose `recv` calls back
    /// into the script.
    Host,
}

/// One-way flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OneWay;

/// A Tmix half-connection: its connection and the side whose data it carries. Its packets
/// are counted while in the network (`tmix_in_flight`, which decides when the connection's
/// endpoints can be freed) and may pass a delay line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TmixHalf {
    pub(super) conn: u32,
    pub(super) side: u8,
}

/// A direction of a two-way connection: the connection and the side whose data it carries.
/// Its packets get the connection's flags and piggy-backed acknowledgements as they leave,
/// and an arriving one goes to the connection's endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TwoWay {
    pub(super) conn: u32,
    pub(super) side: u8,
}

/// The simulator's per-packet hooks, one implementation per kind of flow.
pub(super) trait Kind: Copy {
    /// The flow's agent wrote the packet `r` into the pool (`later`: the rest of the same
    /// batch, still to go): it enters the network ([`Simulator::enter`]) or is held.
    fn send(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]);
    /// A packet of the flow reaches its destination (the flow monitor has counted it).
    fn receive(self, sim: &mut Simulator, pkt: &Packet);
    /// A packet of the flow was dropped or lost (the counters have counted it).
    fn dropped(self, sim: &mut Simulator, pkt: &Packet);
    /// The flow's application starts (`Event::AppStart`).
    fn start(self, sim: &mut Simulator, f: FlowId);
    /// The flow's application stops (`Event::AppStop`).
    fn stop(self, sim: &mut Simulator, f: FlowId);
}

impl Kind for Role {
    /// A one-way flow's packets (nearly all of them) take one test; the other roles go
    /// through [`Role::send_other`], out of line, so that the per-packet glue is not a
    /// jump table over every role.
    #[inline(always)]
    fn send(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]) {
        if let Role::Own = self {
            OneWay.send(sim, r, later)
        } else {
            self.send_other(sim, r, later)
        }
    }

    /// As [`Kind::send`]: a one-way flow's inline, the others' out of line.
    #[inline(always)]
    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        if let Role::Own = self {
            OneWay.receive(sim, pkt)
        } else {
            self.receive_other(sim, pkt)
        }
    }

    #[inline(always)]
    fn dropped(self, sim: &mut Simulator, pkt: &Packet) {
        match self {
            Role::Own => OneWay.dropped(sim, pkt),
            Role::TmixHalf(conn, side) => TmixHalf { conn, side }.dropped(sim, pkt),
            Role::TwoWay(conn, side) => TwoWay { conn, side }.dropped(sim, pkt),
            Role::Detached(ends) => Detached { ends }.dropped(sim, pkt),
            Role::Reset(i) => Reincarnated(i).dropped(sim, pkt),
            Role::Host => HostDatagrams.dropped(sim, pkt),
        }
    }

    fn start(self, sim: &mut Simulator, f: FlowId) {
        match self {
            Role::Own => OneWay.start(sim, f),
            Role::TmixHalf(conn, side) => TmixHalf { conn, side }.start(sim, f),
            Role::TwoWay(conn, side) => TwoWay { conn, side }.start(sim, f),
            Role::Detached(ends) => Detached { ends }.start(sim, f),
            Role::Reset(i) => Reincarnated(i).start(sim, f),
            Role::Host => HostDatagrams.start(sim, f),
        }
    }

    fn stop(self, sim: &mut Simulator, f: FlowId) {
        match self {
            Role::Own => OneWay.stop(sim, f),
            Role::TmixHalf(conn, side) => TmixHalf { conn, side }.stop(sim, f),
            Role::TwoWay(conn, side) => TwoWay { conn, side }.stop(sim, f),
            Role::Detached(ends) => Detached { ends }.stop(sim, f),
            Role::Reset(i) => Reincarnated(i).stop(sim, f),
            Role::Host => HostDatagrams.stop(sim, f),
        }
    }
}

impl Role {
    /// [`Kind::send`] for the roles other than [`Role::Own`].
    #[inline(never)]
    fn send_other(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]) {
        match self {
            Role::Own => OneWay.send(sim, r, later),
            Role::TmixHalf(conn, side) => TmixHalf { conn, side }.send(sim, r, later),
            Role::TwoWay(conn, side) => TwoWay { conn, side }.send(sim, r, later),
            Role::Detached(ends) => Detached { ends }.send(sim, r, later),
            Role::Reset(i) => Reincarnated(i).send(sim, r, later),
            Role::Host => HostDatagrams.send(sim, r, later),
        }
    }

    /// [`Kind::receive`] for the roles other than [`Role::Own`].
    #[inline(never)]
    fn receive_other(self, sim: &mut Simulator, pkt: &Packet) {
        match self {
            Role::Own => OneWay.receive(sim, pkt),
            Role::TmixHalf(conn, side) => TmixHalf { conn, side }.receive(sim, pkt),
            Role::TwoWay(conn, side) => TwoWay { conn, side }.receive(sim, pkt),
            Role::Detached(ends) => Detached { ends }.receive(sim, pkt),
            Role::Reset(i) => Reincarnated(i).receive(sim, pkt),
            Role::Host => HostDatagrams.receive(sim, pkt),
        }
    }
}

impl Flow {
    /// The Tmix connection and side of a half-connection.
    #[inline]
    pub(super) fn tmix(&self) -> Option<(u32, u8)> {
        match self.role {
            Role::TmixHalf(c, s) => Some((c, s)),
            _ => None,
        }
    }

    /// The two-way connection and side of a direction of one.
    #[inline]
    pub(super) fn full(&self) -> Option<(u32, u8)> {
        match self.role {
            Role::TwoWay(c, s) => Some((c, s)),
            _ => None,
        }
    }
}

/// The pending event behind a deadline-based timer. At most one tracked event exists; a
/// deadline that moves later costs nothing (the event re-arms when it fires), one that moves
/// earlier pushes a new event and leaves the old one to fire as stale.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LazyTimer {
    event_at: Option<SimTime>,
}

impl LazyTimer {
    /// Whether an event must be pushed at `deadline`; records it if so.
    #[inline]
    pub(super) fn needs_event(&mut self, deadline: Option<SimTime>) -> Option<SimTime> {
        let d = deadline?;
        if self.event_at.is_none_or(|t| d < t) {
            self.event_at = Some(d);
            return Some(d);
        }
        None
    }

    /// An event fired at `now`: whether it is the tracked one (then it is consumed).
    #[inline]
    pub(super) fn fired(&mut self, now: SimTime) -> bool {
        if self.event_at == Some(now) {
            self.event_at = None;
            true
        } else {
            false
        }
    }
}
/// Adds the RTO held since the last call to the flow's integral and holds `rto` from `now`.
#[inline]
pub(super) fn integrate_rto(
    held: &mut Option<(SimTime, u64)>,
    now: SimTime,
    rto: u64,
    c: &mut FlowCounters,
) {
    match *held {
        // Unchanged: the running segment goes on and is added when it ends (a flush or the
        // next change), which gives the same integer sums with less work per event.
        Some((_, value)) if value == rto => {}
        _ => {
            flush_rto(held, now, c);
            *held = Some((now, rto));
        }
    }
}

/// Adds the running RTO segment up to `now` to the counters and starts a new one there.
pub(super) fn flush_rto(held: &mut Option<(SimTime, u64)>, now: SimTime, c: &mut FlowCounters) {
    if let Some((since, value)) = held {
        let dt = now.0 - since.0;
        c.rto_area += dt as u128 * *value as u128;
        c.rto_time_ps += dt;
        *since = now;
    }
}

/// A UDP source's tick, or a paced application's write into its TCP flow; the next tick.
#[inline(always)]
pub(super) fn tick_agent(
    flow: &mut Flow,
    now: SimTime,
    out: &mut impl Outgoing,
    c: &mut FlowCounters,
) -> Option<SimTime> {
    match (&mut flow.agent, flow.writer.as_mut()) {
        (Agent::Udp { source }, _) => source.tick(now, out, c),
        (Agent::Tcp { sender, .. }, Some(w)) => {
            let (bytes, next) = w.next(now);
            if bytes > 0 {
                sender.write(now, bytes as u64, out, c);
            }
            next
        }
        _ => None,
    }
}

/// A TCP sender's variables in [`crate::trace::tracer::TRACEABLE`] order (windows in bytes with
/// byte-counted windows, times in seconds, the pacing rate in b/s).
pub(super) fn traceable_values(sender: &crate::tcp::TcpSender) -> [f64; 10] {
    let k = sender.window_scale();
    [
        sender.traced_cwnd() * k,
        sender.w.ssthresh * k,
        SimDuration(sender.rtt.last_sample).as_secs_f64(),
        SimDuration(sender.rtt.srtt).as_secs_f64(),
        SimDuration(sender.rtt.rttvar).as_secs_f64(),
        sender.rtt.rto().as_secs_f64(),
        sender.rtt.backoff as f64,
        (sender.w.cwnd + sender.dupwnd).min(sender.w.rwnd) * k,
        sender.flight() as f64 * k,
        sender.pacing_bps(),
    ]
}

#[cfg(test)]
mod flow_layout_tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// What every packet of a flow reads shares the first cache line, its timers the second.
    #[test]
    fn a_packet_reads_the_first_line() {
        assert_eq!(align_of::<Flow>(), 64);
        assert_eq!(size_of::<Role>(), 8);
        let end = |at: usize, size: usize| at + size;
        for (name, end) in [
            ("agent", end(offset_of!(Flow, agent), size_of::<Agent>())),
            (
                "rto_event",
                end(offset_of!(Flow, rto_event), size_of::<LazyTimer>()),
            ),
            ("role", end(offset_of!(Flow, role), size_of::<Role>())),
        ] {
            assert!(end <= 64, "{name} ends at {end}");
        }
        for (name, end) in [
            (
                "delack_event",
                end(offset_of!(Flow, delack_event), size_of::<LazyTimer>()),
            ),
            (
                "trace",
                end(offset_of!(Flow, trace), size_of::<TraceMask>()),
            ),
            (
                "rto_held",
                end(
                    offset_of!(Flow, rto_held),
                    size_of::<Option<(SimTime, u64)>>(),
                ),
            ),
        ] {
            assert!(end <= 128, "{name} ends at {end}");
        }
    }
}
