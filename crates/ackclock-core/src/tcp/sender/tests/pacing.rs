//! The sender's pacing tests: its own pacing, Linux's first ten segments unpaced and TSO pieces
//! (split from tests.rs by job).

use super::*;

#[test]
fn pacing_holds_segments_back_until_their_time() {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.window_init = 10;
    cfg.pacing = true;
    cfg.timestamps = true;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    s.start(SimTime(0), &mut out, &mut c);
    assert_eq!(out.len(), 10, "no RTT yet: the initial window goes at once");
    out.clear();
    // 100 ms later the first ACK: srtt 0.1 s, cwnd 11, slow start (ssthresh infinite):
    // tcp_update_pacing_rate's 2 x cwnd 11 / 0.1 s = 220/s. One segment goes, the next
    // waits 1/220 s.
    let t = SimTime(100_000_000_000);
    let mut a = ackp(1);
    a.ts_echo = SimTime(0);
    s.on_ack(t, &a, &mut out, &mut c);
    assert_eq!(out.len(), 1, "one segment now, the next one paced");
    let gap = s.pace_deadline().unwrap().0 - t.0;
    assert!((gap as f64 - 1e12 / 220.0).abs() < 2.0, "{gap}");
    s.on_pace(s.pace_deadline().unwrap(), &mut out, &mut c);
    assert_eq!(out.len(), 2);
}

#[test]
fn linux_pacing_spares_the_first_ten_data_segments() {
    // tcp_update_skb_after_send paces only from the connection's eleventh data segment on:
    // with an initial window of 2, what the first ACK releases leaves at once from Linux's
    // sender (`rack`); without it (ns-3's rule) the second segment waits.
    for rack in [true, false] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.pacing = true;
        cfg.timestamps = true;
        cfg.prr = true;
        cfg.rack = rack;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        s.start(SimTime(0), &mut out, &mut c);
        assert_eq!(out.len(), 2);
        out.clear();
        let t = SimTime(100_000_000_000);
        let mut a = ackp(1);
        a.ts_echo = SimTime(0);
        s.on_ack(t, &a, &mut out, &mut c);
        if rack {
            assert_eq!(out.len(), 2, "cwnd 3, one in flight: two more, unpaced");
            assert_eq!(s.pace_deadline(), None);
        } else {
            assert_eq!(out.len(), 1, "the second one paced");
        }
    }
}

#[test]
fn linux_paced_segments_leave_in_tso_pieces() {
    // tcp_write_xmit sends a TSO piece of tcp_tso_autosize segments (at least 2) at once and
    // tcp_update_skb_after_send holds the next one back by the piece's length at the pacing
    // rate: after the first ten (unpaced) segments, an ACK in slow start (cwnd 11, srtt
    // 0.1 s: 2 x 11 / 0.1 = 220 segments/s) sends two segments at one instant and the next
    // may leave 2 / 220 s later. Without `psh` (no TSO pieces) one leaves, the next 1 / 220 s
    // later.
    for psh in [true, false] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.window_init = 10;
        cfg.pacing = true;
        cfg.timestamps = true;
        cfg.prr = true;
        cfg.rack = true;
        cfg.psh = psh;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        s.start(SimTime(0), &mut out, &mut c);
        assert_eq!(out.len(), 10);
        out.clear();
        let t = SimTime(100_000_000_000);
        let mut a = ackp(1);
        a.ts_echo = SimTime(0);
        s.on_ack(t, &a, &mut out, &mut c);
        let n = if psh { 2 } else { 1 };
        assert_eq!(out.len(), n, "psh {psh}");
        let gap = s.pace_deadline().unwrap().0 - t.0;
        assert!(
            (gap as f64 - n as f64 * 1e12 / 220.0).abs() < 2.0,
            "psh {psh}: {gap}"
        );
    }
}
