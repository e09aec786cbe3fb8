//! ns-2.35's TCP event trace (`$ns eventtrace-all`): the `E` lines an agent writes at its
//! congestion events, `TcpAgent::trace_event` (tcp/tcp.cc) with the agent's `t_seqno_` and
//! `int(cwnd_)` at that moment. FullTcpAgent (tcp/tcp-full.cc) writes:
//!
//! - `FAST_RETX` in `fast_retransmit` (Reno's and NewReno's `dupack_action` after their
//!   `slowdown`, NewReno's `pack_action` on a partial ACK before `cwnd_ = ssthresh_`, Sack's
//!   `dupack_action`) and in Tahoe's `dupack_action` before its `slowdown`;
//! - `FAST_RECOVERY` in SackFullTcpAgent's `dupack_action`, before its `slowdown`;
//! - `SLOW_START` in `TcpAgent::slowdown` when the cut leaves `cwnd_` at 1 or came in slow
//!   start (`cwnd_ < ssthresh_` before it): timeouts (`timeout_action`), Tahoe's cuts to one
//!   segment, an idle restart (`foutput`'s `slowdown(CLOSE_CWND_INIT)`), ECN's halving.
//!
//! The one-way agents (tcp/tcp.cc and its subclasses) write:
//!
//! - `TIMEOUT` first in `TcpAgent::timeout` (Reno's, NewReno's and Sack1's call it);
//! - `FAST_RETX` in `TcpAgent::dupack_action` (Tahoe), `RENO_FAST_RETX` in
//!   `RenoTcpAgent::dupack_action`, `NEWRENO_FAST_RETX` in `NewRenoTcpAgent::dupack_action`
//!   and `FAST_RECOVERY` in `Sack1TcpAgent::dupack_action`, each before its `slowdown`;
//! - `NEWRENO_FAST_RECOVERY` in `NewRenoTcpAgent::recv` on each duplicate past `numdupacks_`
//!   that inflates `dupwnd_`;
//! - `SLOW_START` in `TcpAgent::slowdown` as above (their `cwnd_` is never inflated: Reno's
//!   duplicates count in `dupwnd_`).
//!
//! The sender only collects them (when its flow's agent has an event trace); the simulator
//! writes them into the packet trace before the packets the same event sends
//! (`trace/packets`).

use super::{Recovery, TcpSender};

/// The event types of `trace_event`'s calls in FullTcpAgent and the one-way agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentEventKind {
    FastRetx,
    FastRecovery,
    SlowStart,
    Timeout,
    RenoFastRetx,
    NewRenoFastRetx,
    NewRenoFastRecovery,
}

impl AgentEventKind {
    /// The name ns-2 writes.
    pub fn name(self) -> &'static str {
        match self {
            AgentEventKind::FastRetx => "FAST_RETX",
            AgentEventKind::FastRecovery => "FAST_RECOVERY",
            AgentEventKind::SlowStart => "SLOW_START",
            AgentEventKind::Timeout => "TIMEOUT",
            AgentEventKind::RenoFastRetx => "RENO_FAST_RETX",
            AgentEventKind::NewRenoFastRetx => "NEWRENO_FAST_RETX",
            AgentEventKind::NewRenoFastRecovery => "NEWRENO_FAST_RECOVERY",
        }
    }
}

/// One event: its type, `t_seqno_` (the next segment to send, as the sender numbers them)
/// and `int(cwnd_)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentEvent {
    pub kind: AgentEventKind,
    pub next_seg: u64,
    pub cwnd: i64,
}

impl TcpSender {
    /// Collects this sender's events from now on (the ns-2 front end's eventtrace).
    pub fn trace_events(&mut self, on: bool) {
        self.event_trace = on;
    }

    /// The events collected since the last call, oldest first.
    pub fn take_events(&mut self, into: &mut Vec<AgentEvent>) {
        into.append(&mut self.events);
    }

    /// Whether events wait to be taken.
    #[inline]
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// `trace_event(kind)` with cwnd_ as it is now (as a trace shows it: inflated by Reno's
    /// duplicates, `traced_cwnd`).
    #[cold]
    pub(super) fn event(&mut self, kind: AgentEventKind) {
        let cwnd = self.traced_cwnd();
        self.event_at(kind, cwnd);
    }

    /// `trace_event(kind)` with cwnd_ = `cwnd`.
    #[cold]
    pub(super) fn event_at(&mut self, kind: AgentEventKind, cwnd: f64) {
        if !self.event_trace {
            return;
        }
        self.events.push(AgentEvent {
            kind,
            next_seg: self.nxt,
            cwnd: cwnd as i64,
        });
    }

    /// The event a one-way agent's `dupack_action` traces before its fast retransmit's
    /// `slowdown`: its class's name for it.
    #[cold]
    pub(super) fn one_way_fast_retx_event(&mut self) {
        let kind = match self.recovery {
            Recovery::Tahoe | Recovery::Rfc793 => AgentEventKind::FastRetx,
            Recovery::Reno => AgentEventKind::RenoFastRetx,
            Recovery::NewReno => AgentEventKind::NewRenoFastRetx,
            Recovery::Sack => AgentEventKind::FastRecovery,
            // FackTcpAgent traces no event (the front end refuses its event trace).
            Recovery::Fack | Recovery::SackRh => return,
        };
        self.event(kind);
    }

    /// `TcpAgent::slowdown`'s `SLOW_START`: the cut from `before` (cwnd_, with ssthresh_
    /// `ssthresh_before`) to `after`.
    #[cold]
    pub(super) fn slowdown_event(&mut self, before: f64, ssthresh_before: f64, after: f64) {
        if self.event_trace && (after == 1.0 || before < ssthresh_before) {
            self.event_at(AgentEventKind::SlowStart, after);
        }
    }
}
