//! ns-2.35's RBP agents (`sender/rbp.rs`, tcp/tcp-rbp.cc): pacing after idle.

use super::*;

/// An ns-2 Reno/RBP agent (ns-2's timer, tick 100 ms, the timer running on when idle) that
/// sent `n` segments at time 0, each ACKed 200 ms after it left: all acknowledged, the
/// timer running.
fn reno_rbp_after(n: u64) -> (TcpSender, Vec<Packet>, FlowCounters, SimTime) {
    let mut cfg = ns2_tcp();
    cfg.window = 32;
    cfg.ns2_rtt_timer = true;
    cfg.timer_granularity_ps = 100 * MS;
    cfg.idle_rtx_timer = true;
    cfg.ns2_rbp = Ns2Rbp::Cwnd;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    s.advance_to(n, SimTime(0), &mut out, &mut c);
    let mut t = 0;
    while s.una < n {
        t += 200;
        s.on_ack(at_ms(t), &ackp(s.una + 1), &mut out, &mut c);
    }
    out.clear();
    (s, out, c, at_ms(t))
}

const MS: u64 = 1_000_000_000;

#[test]
fn an_idle_timeout_changes_nothing_and_stops_the_timer() {
    // RBPRenoTcpAgent::timeout: highest_ack_ == maxseq_ -> RBP_POSSIBLE and return, whatever
    // slow_start_restart_ says (TcpAgent::timeout would close cwnd to one).
    let (mut s, mut out, mut c, _) = reno_rbp_after(10);
    let (cwnd, ssthresh) = (s.w.cwnd, s.w.ssthresh);
    let at = s.rto_deadline().expect("the timer runs on while idle");
    s.on_timeout(at, &mut out, &mut c);
    assert_eq!((s.w.cwnd, s.w.ssthresh), (cwnd, ssthresh));
    assert_eq!(s.rto_deadline(), None);
    assert_eq!(c.timeouts, 0);
    assert!(out.is_empty());
}

#[test]
fn after_idle_the_scaled_window_is_paced_over_the_srtt() {
    let (mut s, mut out, mut c, t) = reno_rbp_after(10);
    let cwnd = s.w.cwnd;
    assert!(cwnd > 4.0);
    let at = s.rto_deadline().unwrap();
    s.on_timeout(at, &mut out, &mut c);
    // New data: RBPRenoTcpAgent::send_much paces int(0.75 cwnd + 0.5) segments (at least 2),
    // one now and one every t_srtt_ / 8 * tcp_tick_ / window() seconds.
    let later = SimTime(at.0 + 1000 * MS);
    s.advance_to(40, later, &mut out, &mut c);
    let paced = (0.75 * cwnd + 0.5).trunc().max(2.0);
    assert_eq!(s.w.cwnd, paced);
    assert_eq!(out.len(), 1);
    // t_srtt_ (ticks x 8) as ns-2 keeps it, in seconds.
    let srtt = s.rtt.ns2_srtt_secs();
    let eighths = srtt / 0.1 * 8.0;
    assert!(
        srtt >= 0.2 && (eighths - eighths.round()).abs() < 1e-9,
        "{srtt}"
    );
    let gap = srtt / paced;
    assert_eq!(s.rbp_stats(), Some((1, gap)));
    let mut when = later;
    for k in 1..paced as usize {
        let next = s.pace_deadline().expect("the pace timer");
        assert_eq!(next, when + SimDuration::from_secs_f64(gap));
        s.on_pace(next, &mut out, &mut c);
        assert_eq!(out.len(), k + 1);
        when = next;
    }
    // The window is out: paced_send_one sends nothing and sets no timer.
    let next = s.pace_deadline().unwrap();
    s.on_pace(next, &mut out, &mut c);
    assert_eq!(out.len(), paced as usize);
    assert_eq!(s.pace_deadline(), None);
    assert!(t < later);
}

#[test]
fn the_first_ack_ends_pacing_and_caps_cwnd_at_the_flight() {
    let (mut s, mut out, mut c, _) = reno_rbp_after(10);
    let at = s.rto_deadline().unwrap();
    s.on_timeout(at, &mut out, &mut c);
    let later = SimTime(at.0 + 1000 * MS);
    s.advance_to(40, later, &mut out, &mut c);
    let next = s.pace_deadline().unwrap();
    s.on_pace(next, &mut out, &mut c);
    assert_eq!(out.len(), 2);
    out.clear();
    // RBPRenoTcpAgent::recv on the ACK of the first paced segment: cwnd_ = maxseq_ -
    // last_ack_ (2), then Reno's recv opens it by 1/cwnd in congestion avoidance or 1 in
    // slow start, and the sliding window sends.
    let ack_at = SimTime(next.0 + 10 * MS);
    let before = s.pace_deadline();
    assert!(before.is_some());
    s.on_ack(ack_at, &ackp(s.una + 1), &mut out, &mut c);
    assert_eq!(s.pace_deadline(), None);
    let grown = if 2.0 < s.w.ssthresh { 3.0 } else { 2.5 };
    assert_eq!(s.w.cwnd, grown);
    // One segment outstanding, window floor(cwnd): the rest up to it leave at once.
    assert_eq!(out.len() as u64, grown as u64 - 1);
}
