//! ns-2.35's `QOption_` (`sender/qoption.rs`): the window an idle or application-limited
//! Tahoe sender keeps.

use super::*;

const MS: u64 = 1_000_000_000;

/// An ns-2 Tahoe agent (ns-2's timer, tick 10 ms, the timer running on when idle) with
/// `QOption_` `mode`, given `n` segments at time 0 and each ACKed 50 ms after it leaves.
fn tahoe_after(mode: Ns2Qoption, n: u64) -> (TcpSender, Vec<Packet>, FlowCounters, SimTime) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.ns2_rtt_timer = true;
    cfg.idle_rtx_timer = true;
    cfg.ns2_qoption = mode;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Tahoe);
    s.advance_to(n, SimTime(0), &mut out, &mut c);
    let mut t = 0;
    while s.una < n {
        t += 50;
        s.on_ack(at_ms(t), &ackp(s.una + 1), &mut out, &mut c);
    }
    out.clear();
    (s, out, c, at_ms(t))
}

#[test]
fn qoption_stops_the_timer_once_all_is_acknowledged() {
    // TcpAgent::recv_newack_helper: QOption_ && curseq_ == highest_ack_ + 1 cancels the timer,
    // which without it runs on (TcpAgent::newtimer).
    let (s, ..) = tahoe_after(Ns2Qoption::Rto, 12);
    assert_eq!(s.rto_deadline(), None);
    let (s, ..) = tahoe_after(Ns2Qoption::Off, 12);
    assert!(s.rto_deadline().is_some());
}

#[test]
fn qoption_halves_the_window_per_rto_idle() {
    // process_qoption_after_send: idle for k RTOs since the last segment sent:
    // slowdown(THREE_QUARTER_SSTHRESH), then k x slowdown(CWND_HALF_WITH_MIN).
    let (mut s, mut out, mut c, t) = tahoe_after(Ns2Qoption::Rto, 12);
    let (cwnd, ssthresh) = (s.w.cwnd, s.w.ssthresh);
    assert!(cwnd >= 8.0);
    let rto = s.rtt.ns2_qoption_clock(t).unwrap().1;
    assert!(rto >= 2);
    // Two RTOs and a half after the last segment left.
    let later = SimTime(t.0 + 5 * rto as u64 * 10 * MS / 2);
    let t_last = s.qoption.as_deref().unwrap().t_last;
    let idle = (s.rtt.ns2_qoption_clock(later).unwrap().0 - t_last) / rto;
    assert!(idle >= 2);
    s.advance_to(40, later, &mut out, &mut c);
    assert_eq!(s.w.ssthresh, ssthresh.max((3.0 * cwnd / 4.0).floor()));
    assert_eq!(s.w.cwnd, (cwnd / 2f64.powi(idle as i32)).max(1.0));
    // send_much takes `win = window()` again after each segment: the reduced window.
    assert_eq!(out.len(), s.w.cwnd as usize);
    // Without QOption_ the whole window goes.
    let (mut s, mut out, mut c, _) = tahoe_after(Ns2Qoption::Off, 12);
    s.advance_to(40, later, &mut out, &mut c);
    assert_eq!((s.w.cwnd, out.len()), (cwnd, cwnd as usize));
}

#[test]
fn qoption_takes_an_application_limited_window_half_way_down() {
    // process_qoption_after_send: the segment sent is the last the application gave, and the
    // window was last full an RTO ago: slowdown(CLOSE_CWND_HALF_WAY), cwnd half way down to
    // the largest flight used since (W_used). A 50-segment initial window, one segment given
    // per tick of 100 ms and none acknowledged; the RTO before any sample is rtxcur_init_ 3 s,
    // 30 ticks.
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.window_init = 50;
    cfg.timer_granularity_ps = 100 * MS;
    cfg.ns2_rtt_timer = true;
    cfg.idle_rtx_timer = true;
    cfg.ns2_qoption = Ns2Qoption::Rto;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Tahoe);
    assert_eq!(s.rtt.ns2_qoption_clock(SimTime(0)).unwrap().1, 30);
    let mut cut_at = None;
    for i in 0..40 {
        s.advance_to(i + 1, SimTime(i * 100 * MS), &mut out, &mut c);
        if s.w.cwnd < 50.0 {
            cut_at = Some(i);
            break;
        }
    }
    // At segment 30 (tick 30), 31 segments out: 31 + (50 - 31) / 2.
    assert_eq!(cut_at, Some(30));
    assert_eq!(s.w.cwnd, 40.5);
    assert!(s.w.ssthresh >= 37.0); // at least 3/4 of 50
}

#[test]
fn rtt_counting_counts_a_round_trip_per_timed_segment() {
    // rtt_counting times the segment sent when no round trip is being timed (W_timed);
    // process_qoption_after_ack counts a round trip when it is acknowledged.
    let (mut s, mut out, mut c, t) = tahoe_after(Ns2Qoption::RttCount, 12);
    assert!(!s.qoption.as_deref().unwrap().f_counting);
    s.advance_to(13, SimTime(t.0 + MS), &mut out, &mut c);
    let q = s.qoption.as_deref().unwrap();
    assert_eq!((q.f_counting, q.w_timed), (true, 12));
    let count = q.rtt_count;
    s.on_ack(SimTime(t.0 + 50 * MS), &ackp(13), &mut out, &mut c);
    let q = s.qoption.as_deref().unwrap();
    assert_eq!((q.f_counting, q.rtt_count), (false, count + 1));
}
