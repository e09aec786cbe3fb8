//! ns-2.35's `FullTcpAgent::timeout_action` (tcp/tcp-full.cc) under `ns2_full_tcp`: the
//! window its slowdown() halves.

use super::*;

/// A FullTcp sender (`variant`) over a `window`-segment receive window at a cwnd of 20, with
/// `dups` duplicate ACKs of its first unacknowledged segment, then its timer's expiry.
fn timeout_after_dups(variant: Recovery, window: u32, dups: u64) -> TcpSender {
    let mut cfg = ns2_tcp();
    cfg.window = window;
    cfg.limited_transmit = false;
    cfg.ns2_full_tcp = true;
    let (mut s, mut out, mut c) = sender_with(&cfg, variant);
    grow(&mut s, &mut out, &mut c, 20.0);
    let una = s.una;
    for i in 0..dups {
        s.on_ack(SimTime(10_000 + i), &ackp(una), &mut out, &mut c);
    }
    let deadline = s.rto_deadline().expect("data outstanding");
    s.on_timeout(deadline, &mut out, &mut c);
    s
}

#[test]
fn a_timeout_in_fast_recovery_halves_the_inflated_window() {
    // dupack_action: ssthresh_ 10, cwnd_ = ssthresh_ + 3; extra_ack: cwnd_++ on each of the
    // 12 duplicates past the threshold: 25. The timeout's slowdown() halves window(),
    // min(cwnd_, wnd_), inflation included: ssthresh_ 12 (the deflated window gave 5).
    for variant in [Recovery::Reno, Recovery::NewReno] {
        let s = timeout_after_dups(variant, 100, 15);
        assert_eq!((s.w.ssthresh, s.w.cwnd), (12.0, 1.0), "{variant:?}");
    }
    // Bounded by the receive window, wnd_ 22: 11.
    let s = timeout_after_dups(Recovery::NewReno, 22, 15);
    assert_eq!(s.w.ssthresh, 11.0);
    // Outside fast recovery the window is cwnd_ itself: 20 halved.
    let s = timeout_after_dups(Recovery::NewReno, 100, 0);
    assert_eq!(s.w.ssthresh, 10.0);
}
