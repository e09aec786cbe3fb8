//! IKRSimLib's Reno rules that differ from ns-2's (the `ikr` profile; IT++'s `tcp.cpp`, the
//! IKR TCP Library): `recovery_exit_growth` and `careful_after_fast_retransmit`.

use super::*;

/// A Reno sender on ns-2's defaults (window 100, no limited transmit) with `set` applied,
/// grown to cwnd 12.
fn grown_reno(set: impl FnOnce(&mut TcpConfig)) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    set(&mut cfg);
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    grow(&mut s, &mut out, &mut c, 12.0);
    (s, out, c)
}

/// `TCP_Sender::HandleACK` in fast recovery calls `FinishFastRecovery` (cwnd = ssthresh)
/// instead of the growth; ns-2's `RenoTcpAgent::recv` also opens cwnd on that ACK.
#[test]
fn the_ack_ending_recovery_opens_cwnd_only_with_recovery_exit_growth() {
    for exit_growth in [true, false] {
        let (mut s, mut out, mut c) = grown_reno(|cfg| cfg.recovery_exit_growth = exit_growth);
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        assert!(s.in_recovery);
        let ssthresh = s.w.ssthresh;
        s.on_ack(SimTime(1001), &ackp(s.una + 2), &mut out, &mut c);
        assert!(!s.in_recovery);
        if exit_growth {
            assert!(
                (s.w.cwnd - (ssthresh + 1.0 / ssthresh)).abs() < 1e-9,
                "{}",
                s.w.cwnd
            );
        } else {
            assert_eq!(s.w.cwnd, ssthresh);
        }
    }
}

/// With `bug_fix` and `careful_after_fast_retransmit` false, three duplicates of data sent
/// before the last fast retransmit start another (`IgnoreDupACKOnTORecovery` reads only the
/// point a timeout set); a timeout's point still holds them back.
#[test]
fn only_a_timeouts_recovery_point_holds_back_a_fast_retransmit_when_not_careful_after_one() {
    for careful in [true, false] {
        let (mut s, mut out, mut c) = grown_reno(|cfg| {
            cfg.bug_fix = true;
            cfg.careful_after_fast_retransmit = careful;
        });
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        s.on_ack(SimTime(1001), &ackp(s.una + 2), &mut out, &mut c);
        for _ in 0..3 {
            s.on_ack(SimTime(1002), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(
            c.fast_retransmits,
            if careful { 1 } else { 2 },
            "careful {careful}"
        );
        // After a timeout, duplicates of what was sent before it start nothing either way.
        s.on_timeout(SimTime(2000), &mut out, &mut c);
        let before = c.fast_retransmits;
        s.on_ack(SimTime(2001), &ackp(s.una + 1), &mut out, &mut c);
        for _ in 0..3 {
            s.on_ack(SimTime(2002), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, before, "careful {careful}");
    }
}

/// `ReduceSSThresh` with CarefulSSThreshReduction halves min(cwnd, flight): a sender whose
/// flight is below cwnd (after a timeout's go-back-N the segments resent count once) keeps
/// half the flight with `ssthresh_flight`, half of cwnd without.
#[test]
fn ssthresh_flight_halves_the_smaller_of_cwnd_and_the_flight() {
    for flight_rule in [false, true] {
        let (mut s, mut out, mut c) = grown_reno(|cfg| cfg.ssthresh_flight = flight_rule);
        // cwnd grows past what is outstanding: an application that stops sending.
        s.w.cwnd = 30.0;
        let flight = (s.maxseq - s.una) as f64;
        assert!(flight < 30.0, "flight {flight}");
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        let expected = if flight_rule { flight / 2.0 } else { 15.0 };
        assert_eq!(s.w.ssthresh, expected, "ssthresh_flight {flight_rule}");
    }
}
