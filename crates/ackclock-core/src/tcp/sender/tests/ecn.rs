//! The sender's ECN tests: ns-2.35's ECN rules (`Ns2Ecn`) against RFC 3168 as the engine reads
//! it (split from tests.rs by job).

use super::*;

fn ece(ack: u64) -> Packet {
    Packet {
        ecn: crate::packet::ecn::ECE,
        ..ackp(ack)
    }
}

/// An ns-2 Reno sender under ECN rule `rule`, without limited transmit, grown to a window of 8.
fn ns2_reno_at_eight(rule: Ns2Ecn) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.ecn = true;
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.ns2_ecn = rule;
    cfg.ns2_first_loss = FirstLoss::BugfixSs;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    grow(&mut s, &mut out, &mut c, 8.0);
    (s, out, c)
}

/// ns-2.35's ECN rules (`Ns2Ecn`) against RFC 3168 as the engine reads it (`off`): after the
/// ECN negotiation's ACK, no ACK carrying ECN-Echo opens the window (`ns2`), except one that
/// follows another with `old_ecn` (`old_ecn_ && ecn_burst_`); under `off` only the reducing
/// ACK skips its growth.
#[test]
fn ns2_ecn_echo_acks_open_no_window() {
    for (rule, opened_by_second) in [
        (Ns2Ecn::Off, true),
        (Ns2Ecn::Ns2, false),
        (Ns2Ecn::OldEcn, true),
    ] {
        let mut cfg = ns2_tcp();
        cfg.ecn = true;
        cfg.window = 100;
        cfg.ns2_ecn = rule;
        cfg.ns2_first_loss = FirstLoss::BugfixSs;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        grow(&mut s, &mut out, &mut c, 8.0);
        let una = s.una;
        // The first ECN-Echo halves the window (8 -> 4) and opens nothing under any rule.
        s.on_ack(SimTime(100), &ece(una + 1), &mut out, &mut c);
        assert_eq!((s.w.cwnd, c.ecn_reductions), (4.0, 1), "{rule:?}");
        // A second one within the window: no reduction.
        s.on_ack(SimTime(101), &ece(una + 2), &mut out, &mut c);
        assert_eq!(c.ecn_reductions, 1);
        assert_eq!(s.w.cwnd > 4.0, opened_by_second, "{rule:?}");
        // An ACK without ECN-Echo ends the burst: old_ecn's next ECN-Echo opens nothing.
        s.on_ack(SimTime(102), &ackp(una + 3), &mut out, &mut c);
        let before = s.w.cwnd;
        s.on_ack(SimTime(103), &ece(una + 4), &mut out, &mut c);
        assert_eq!(
            s.w.cwnd > before,
            rule == Ns2Ecn::Off,
            "{rule:?} after a clean ACK"
        );
    }
}

/// ns-2.35: a third duplicate ACK after an ECN reduction retransmits without a second
/// reduction (the ECN branch of `RenoTcpAgent::dupack_action`); a timeout before the
/// reduction is recovered closes the window without halving ssthresh again.
#[test]
fn ns2_ecn_then_loss_reduces_once() {
    let (mut s, mut out, mut c) = ns2_reno_at_eight(Ns2Ecn::Ns2);
    let una = s.una;
    s.on_ack(SimTime(100), &ece(una + 1), &mut out, &mut c);
    let ssthresh = s.w.ssthresh;
    out.clear();
    for t in 0..3 {
        s.on_ack(SimTime(101 + t), &ackp(una + 1), &mut out, &mut c);
    }
    assert_eq!(c.fast_retransmits, 1);
    assert_eq!(out[0].seq, una + 1, "the hole, retransmitted");
    assert_eq!(
        (s.w.cwnd, s.w.ssthresh),
        (4.0, ssthresh),
        "no second reduction"
    );
    // Under `off` the loss is a new fast retransmit that halves the window again.
    let (mut s, mut out, mut c) = ns2_reno_at_eight(Ns2Ecn::Off);
    let una = s.una;
    s.on_ack(SimTime(100), &ece(una + 1), &mut out, &mut c);
    for t in 0..3 {
        s.on_ack(SimTime(101 + t), &ackp(una + 1), &mut out, &mut c);
    }
    assert_eq!((c.fast_retransmits, s.w.cwnd), (1, 2.0));
    // A timeout after an ECN reduction: ssthresh kept under ns-2's rule.
    let (mut s, mut out, mut c) = ns2_reno_at_eight(Ns2Ecn::Ns2);
    let una = s.una;
    s.on_ack(SimTime(100), &ece(una + 1), &mut out, &mut c);
    let ssthresh = s.w.ssthresh;
    s.on_timeout(SimTime(200), &mut out, &mut c);
    assert_eq!((s.w.cwnd, s.w.ssthresh), (1.0, ssthresh));
}

/// ns-2.35 at a window of one segment (`Ns2Ecn`): `TcpAgent::slowdown` halves cwnd_ with no
/// floor (half a segment: nothing is sent until the timer fires and `TcpAgent::timeout` raises
/// it to one); the second such ECN reduction in a row backs the timer off (`TcpAgent::ecn`'s
/// `ecn_backoff_`), and the ACK's RTT sample does not end that backoff while it carries
/// ECN-Echo (`TcpAgent::newack`); an ACK without ECN-Echo clears `ecn_backoff_`.
#[test]
fn ns2_ecn_at_a_window_of_one_waits_for_the_timer_and_backs_it_off() {
    let mut cfg = ns2_tcp();
    cfg.ecn = true;
    cfg.window = 100;
    cfg.ns2_ecn = Ns2Ecn::Ns2;
    cfg.idle_rtx_timer = true;
    cfg.ns2_rtt_timer = true;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Tahoe);
    s.start(SimTime(0), &mut out, &mut c);
    s.on_ack(SimTime(1), &ackp(1), &mut out, &mut c); // segment 0's ACK (`ect_` set)
    s.w.cwnd = 1.0;
    out.clear();
    let sent = s.maxseq;
    s.on_ack(SimTime(4), &ece(sent), &mut out, &mut c); // 1 -> 0.5, ecn_backoff_ set
    assert_eq!((s.w.cwnd, s.rtt.backoff), (0.5, 1));
    assert!(out.is_empty(), "a window of half a segment sends nothing");
    let at = s
        .rto_deadline()
        .expect("the timer runs with nothing outstanding");
    s.on_timeout(at, &mut out, &mut c);
    assert_eq!((s.w.cwnd, out.len()), (1.0, 1));
    // The second reduction at a window of one backs the timer off; the sample of the same
    // ACK does not end the backoff (it carries ECN-Echo).
    let sent = s.maxseq;
    s.on_ack(SimTime(at.0 + 10), &ece(sent), &mut out, &mut c);
    assert_eq!((s.w.cwnd, s.rtt.backoff), (0.5, 2));
    // An ACK without ECN-Echo ends it all: the next reduction at one sets it again only.
    let at = s.rto_deadline().unwrap();
    s.on_timeout(at, &mut out, &mut c);
    let sent = s.maxseq;
    s.on_ack(SimTime(at.0 + 10), &ackp(sent), &mut out, &mut c);
    assert_eq!(s.rtt.backoff, 1);
    let sent = s.maxseq;
    s.on_ack(SimTime(at.0 + 20), &ece(sent), &mut out, &mut c);
    assert_eq!(
        s.rtt.backoff, 1,
        "the first reduction at one after a clean ACK"
    );
    // Under `off` (RFC 3168) the window stays at one segment.
    cfg.ns2_ecn = Ns2Ecn::Off;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Tahoe);
    s.start(SimTime(0), &mut out, &mut c);
    s.on_ack(SimTime(1), &ackp(1), &mut out, &mut c);
    s.w.cwnd = 1.0;
    let sent = s.maxseq;
    s.on_ack(SimTime(4), &ece(sent), &mut out, &mut c);
    assert_eq!(s.w.cwnd, 1.0);
}

/// `RenoTcpAgent::windowd`: an ECN-Echo during fast recovery halves cwnd_ + dupwnd_ (ns-2.35
/// calls `ecn()` before the ACK ends the inflation).
#[test]
fn ns2_reno_ecn_in_recovery_halves_the_inflated_window() {
    let (mut s, mut out, mut c) = ns2_reno_at_eight(Ns2Ecn::Ns2);
    let una = s.una;
    for t in 0..3 {
        s.on_ack(SimTime(100 + t), &ackp(una), &mut out, &mut c);
    }
    assert_eq!((s.w.cwnd, s.dupwnd), (4.0, 3.0));
    let recover = s.recover.unwrap();
    s.on_ack(SimTime(200), &ece(recover + 1), &mut out, &mut c);
    assert_eq!(s.w.cwnd, 3.5, "(4 + 3) / 2");
}
