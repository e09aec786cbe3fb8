//! `TcpSender::ns2_reset` (ns-2.35's `TcpAgent::reset` during the run, `sender/reset.rs`).

use super::*;

fn reno(window: u32) -> (TcpConfig, TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = window;
    cfg.limited_transmit = false;
    let (s, out, c) = sender_with(&cfg, Recovery::Reno);
    (cfg, s, out, c)
}

fn fresh(cfg: &TcpConfig, variant: Recovery) -> Box<TcpSender> {
    Box::new(sender_with(cfg, variant).0)
}

#[test]
fn a_reset_starts_over_from_segment_0_with_ssthresh_from_the_window() {
    let (cfg, mut s, mut out, mut c) = reno(20);
    grow(&mut s, &mut out, &mut c, 8.0);
    s.set_ns2_window(12.0).unwrap();
    assert!(s.una > 0 && s.maxseq > s.una && s.rto_deadline().is_some());
    assert_eq!(s.ns2_reset_refusal(), None);
    s.ns2_reset(fresh(&cfg, Recovery::Reno));
    assert_eq!((s.una, s.nxt, s.maxseq), (0, 0, 0));
    assert_eq!(s.w.cwnd, cfg.window_init as f64);
    // ssthresh_ = int(wnd_): the window the script set during the run.
    assert_eq!(s.w.ssthresh, 12.0);
    assert_eq!(s.rto_deadline(), None, "cancel_timers");
    assert_eq!(s.app_limit(), 0, "curseq_ = 0: nothing to send");
    // producemore: the new connection sends from segment 0 within the kept window.
    s.advance_to(30, SimTime(500), &mut out, &mut c);
    assert_eq!(out.first().map(|p| p.seq), Some(0));
    assert!(s.rto_deadline().is_some());
}

#[test]
fn the_segment_timed_before_a_reset_gives_the_first_sample_after_it() {
    // rtt_active_ and rtt_ts_ survive TcpAgent::reset (only rtt_seq_ goes to -1): the first
    // new ACK of the new connection samples the time since the old timed segment left.
    let (cfg, mut s, mut out, mut c) = reno(20);
    grow(&mut s, &mut out, &mut c, 4.0);
    let (_, sent) = s.timed.expect("a segment is being timed");
    s.ns2_reset(fresh(&cfg, Recovery::Reno));
    assert_eq!(s.timed, Some((0, sent)));
    let t0 = SimTime(1_000_000_000_000);
    s.advance_to(4, t0, &mut out, &mut c);
    assert_eq!(
        s.timed,
        Some((0, sent)),
        "no new segment is timed meanwhile"
    );
    let samples = c.rtt_samples;
    let t1 = SimTime(1_050_000_000_000);
    s.on_ack(t1, &ackp(1), &mut out, &mut c);
    assert_eq!(c.rtt_samples, samples + 1);
    // 1.05 s from the old segment's departure, to the estimator's tick (10 ms).
    let want = t1.since(sent).0 as i64;
    assert!((s.rtt.last_sample as i64 - want).abs() <= 10_000_000_000);
    // The measurement ended; a segment the ACK let go is the one timed now.
    assert_eq!(s.timed.map(|(_, at)| at), Some(t1));
}

#[test]
fn a_sender_in_fast_recovery_is_not_reset() {
    let (_, mut s, mut out, mut c) = reno(100);
    grow(&mut s, &mut out, &mut c, 9.0);
    for _ in 0..3 {
        s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
    }
    assert!(s.in_recovery);
    assert!(s
        .ns2_reset_refusal()
        .is_some_and(|why| why.contains("fast recovery")));
}
