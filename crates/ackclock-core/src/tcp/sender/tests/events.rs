//! ns-2.35's event trace of FullTcp agents (`sender/events.rs`): which `trace_event` calls a
//! fast retransmit and a timeout make, in which order, with which t_seqno_ and cwnd_.

use super::*;
use crate::tcp::sender::events::{AgentEvent, AgentEventKind};

/// A sender of `variant` (FullTcp's with `full`, else a one-way agent's) opened to a
/// 10-segment cwnd in congestion avoidance, with its events collected.
fn at_10(variant: Recovery, full: bool) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.ns2_full_tcp = full;
    let (mut s, mut out, mut c) = sender_with(&cfg, variant);
    s.w.ssthresh = 8.0;
    grow(&mut s, &mut out, &mut c, 10.0);
    s.trace_events(true);
    (s, out, c)
}

fn full_at_10(variant: Recovery) -> (TcpSender, Vec<Packet>, FlowCounters) {
    at_10(variant, true)
}

fn one_way_at_10(variant: Recovery) -> (TcpSender, Vec<Packet>, FlowCounters) {
    at_10(variant, false)
}

fn taken(s: &mut TcpSender) -> Vec<(AgentEventKind, u64, i64)> {
    let mut events: Vec<AgentEvent> = Vec::new();
    s.take_events(&mut events);
    events
        .iter()
        .map(|e| (e.kind, e.next_seg, e.cwnd))
        .collect()
}

fn three_dups(s: &mut TcpSender, out: &mut Vec<Packet>, c: &mut FlowCounters) {
    let una = s.una;
    for i in 0..3 {
        s.on_ack(SimTime(10_000 + i), &ackp(una), out, c);
    }
}

#[test]
fn reno_traces_fast_retx_after_its_slowdown() {
    let (mut s, mut out, mut c) = full_at_10(Recovery::Reno);
    let nxt = s.nxt;
    assert!(!s.has_events());
    three_dups(&mut s, &mut out, &mut c);
    // FullTcpAgent::dupack_action: slowdown halves cwnd_ (not in slow start: no SLOW_START),
    // then fast_retransmit traces FAST_RETX with the halved window.
    let cwnd = (s.w.ssthresh) as i64;
    assert_eq!(taken(&mut s), vec![(AgentEventKind::FastRetx, nxt, cwnd)]);
}

#[test]
fn tahoe_traces_fast_retx_then_slow_start() {
    let (mut s, mut out, mut c) = full_at_10(Recovery::Tahoe);
    let (nxt, cwnd) = (s.nxt, s.w.cwnd as i64);
    three_dups(&mut s, &mut out, &mut c);
    // TahoeFullTcpAgent::dupack_action: FAST_RETX with cwnd_ before the cut, then slowdown's
    // SLOW_START at one segment, t_seqno_ not yet moved back.
    assert_eq!(
        taken(&mut s),
        vec![
            (AgentEventKind::FastRetx, nxt, cwnd),
            (AgentEventKind::SlowStart, nxt, 1)
        ]
    );
}

#[test]
fn a_timeout_traces_slow_start_before_going_back() {
    let (mut s, mut out, mut c) = full_at_10(Recovery::Reno);
    let nxt = s.nxt;
    let at = s.rto_deadline().unwrap();
    s.on_timeout(at, &mut out, &mut c);
    assert_eq!(taken(&mut s), vec![(AgentEventKind::SlowStart, nxt, 1)]);
    assert_eq!(s.nxt, s.una + 1);
}

#[test]
fn nothing_is_collected_without_the_trace() {
    let (mut s, mut out, mut c) = full_at_10(Recovery::Tahoe);
    s.trace_events(false);
    three_dups(&mut s, &mut out, &mut c);
    assert!(!s.has_events());
}

// --- the one-way agents (TcpAgent and its subclasses, tcp/tcp.cc) -------------------------

#[test]
fn one_way_agents_name_their_fast_retransmit_before_the_cut() {
    // TcpAgent::dupack_action (Tahoe): FAST_RETX, then slowdown's SLOW_START at one segment;
    // RenoTcpAgent's RENO_FAST_RETX and NewRenoTcpAgent's NEWRENO_FAST_RETX with cwnd_ before
    // the halving, which out of slow start traces nothing more.
    for (variant, kind) in [
        (Recovery::Reno, AgentEventKind::RenoFastRetx),
        (Recovery::NewReno, AgentEventKind::NewRenoFastRetx),
    ] {
        let (mut s, mut out, mut c) = one_way_at_10(variant);
        let (nxt, cwnd) = (s.nxt, s.w.cwnd as i64);
        three_dups(&mut s, &mut out, &mut c);
        assert_eq!(taken(&mut s), vec![(kind, nxt, cwnd)], "{variant:?}");
    }
    let (mut s, mut out, mut c) = one_way_at_10(Recovery::Tahoe);
    let (nxt, cwnd) = (s.nxt, s.w.cwnd as i64);
    three_dups(&mut s, &mut out, &mut c);
    assert_eq!(
        taken(&mut s),
        vec![
            (AgentEventKind::FastRetx, nxt, cwnd),
            (AgentEventKind::SlowStart, nxt, 1)
        ]
    );
}

#[test]
fn newreno_traces_each_duplicate_of_fast_recovery() {
    // NewRenoTcpAgent::recv: NEWRENO_FAST_RECOVERY on each duplicate past numdupacks_ that
    // inflates dupwnd_; cwnd_ itself stays halved.
    let (mut s, mut out, mut c) = one_way_at_10(Recovery::NewReno);
    three_dups(&mut s, &mut out, &mut c);
    taken(&mut s);
    let una = s.una;
    s.on_ack(SimTime(20_000), &ackp(una), &mut out, &mut c);
    let events = taken(&mut s);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, AgentEventKind::NewRenoFastRecovery);
    assert_eq!(events[0].2, s.w.cwnd as i64);
}

#[test]
fn a_one_way_timeout_traces_timeout_then_slow_start() {
    // TcpAgent::timeout: TIMEOUT before anything changes, then slowdown's SLOW_START at one
    // segment, both with t_seqno_ before reset_rtx_timer moves it back.
    let (mut s, mut out, mut c) = one_way_at_10(Recovery::Reno);
    let (nxt, cwnd) = (s.nxt, s.w.cwnd as i64);
    let at = s.rto_deadline().unwrap();
    s.on_timeout(at, &mut out, &mut c);
    assert_eq!(
        taken(&mut s),
        vec![
            (AgentEventKind::Timeout, nxt, cwnd),
            (AgentEventKind::SlowStart, nxt, 1)
        ]
    );
}

#[test]
fn sack1_traces_fast_recovery_before_the_cut() {
    let (mut s, mut out, mut c) = one_way_at_10(Recovery::Sack);
    let (una, nxt, cwnd) = (s.una, s.nxt, s.w.cwnd as i64);
    // Three duplicates, each SACKing one more segment above the hole.
    for i in 0..3u64 {
        let mut a = ackp(una);
        a.sack.push(una, una + 1, una + 2 + i);
        s.on_ack(SimTime(10_000 + i), &a, &mut out, &mut c);
    }
    assert_eq!(
        taken(&mut s),
        vec![(AgentEventKind::FastRecovery, nxt, cwnd)]
    );
}
