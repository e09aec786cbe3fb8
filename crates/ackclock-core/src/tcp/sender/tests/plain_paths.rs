//! The plain send and ACK paths (what a sender without the rarer parts takes) against the general
//! ones (split from tests.rs by job).

use super::*;

/// The plain sender's path (`send_window::<true>`, `emit_with::<true>`) sends what the general
/// one does: the same script of ACKs (slow start, congestion avoidance, three duplicates,
/// partial and full ACKs, a timeout and the go-back-N after it) given to a sender on each
/// path leaves the same segments, counters and window (with ECN, after an ECN-Echo's cut).
#[test]
fn the_plain_send_path_sends_what_the_general_one_does() {
    let mut reno_ecn = ns2_tcp();
    reno_ecn.ecn = true;
    let mut burst3 = ns2_tcp();
    burst3.max_burst = 3;
    for (cfg, variant) in [
        (ns2_tcp(), Recovery::Reno),
        (ns2_tcp(), Recovery::NewReno),
        (ns2_tcp(), Recovery::Tahoe),
        (reno_ecn, Recovery::NewReno),
        (burst3, Recovery::NewReno),
    ] {
        let run = |plain: bool| {
            let (mut s, mut out, mut c) = sender_with(&cfg, variant);
            assert!(s.plain, "{variant:?}: the ns-2 sender is plain");
            s.plain = plain;
            s.start(SimTime(0), &mut out, &mut c);
            let t = std::cell::Cell::new(1_000);
            let ack = |s: &mut TcpSender, out: &mut Vec<Packet>, c: &mut FlowCounters, n, ecn| {
                let mut a = ackp(n);
                a.ecn = ecn;
                t.set(t.get() + 1_000);
                s.on_ack(SimTime(t.get()), &a, out, c);
            };
            for i in 0..30 {
                let n = s.una + 1;
                let ece = if i == 20 { crate::packet::ecn::ECE } else { 0 };
                ack(&mut s, &mut out, &mut c, n, ece);
            }
            let hole = s.una;
            for _ in 0..4 {
                ack(&mut s, &mut out, &mut c, hole, 0); // three duplicates and one more
            }
            ack(&mut s, &mut out, &mut c, hole + 2, 0); // partial
            let n = s.maxseq;
            ack(&mut s, &mut out, &mut c, n, 0); // all of it
            for _ in 0..5 {
                let n = s.una + 2; // delayed ACKs
                ack(&mut s, &mut out, &mut c, n, 0);
            }
            t.set(t.get() + 10_000_000_000_000);
            s.on_timeout(SimTime(t.get()), &mut out, &mut c);
            for _ in 0..6 {
                let n = s.una + 1;
                ack(&mut s, &mut out, &mut c, n, 0);
            }
            let state = (
                s.una,
                s.nxt,
                s.maxseq,
                s.w.cwnd,
                s.w.ssthresh,
                s.rto_deadline(),
            );
            (format!("{out:?}"), c, format!("{state:?}"))
        };
        let (plain, general) = (run(true), run(false));
        assert!(
            plain.1.packets_sent > 40,
            "{variant:?}: {}",
            plain.1.packets_sent
        );
        assert_eq!(plain, general, "{variant:?}");
    }
}

/// A sender with any of the parts the plain path leaves out is not plain, and one that gains
/// a byte stream during the run stops being plain.
#[test]
fn plain_only_without_the_rarer_send_parts() {
    let (s, _, _) = sender_with(&ns2_tcp(), Recovery::Fack);
    assert!(!s.plain);
    let (s, _, _) = sender_with(&ns2_tcp(), Recovery::SackRh);
    assert!(!s.plain);
    let mut cfg = ns2_tcp();
    cfg.send_overhead_ps = SimDuration::from_millis(1).0;
    let (s, _, _) = sender_with(&cfg, Recovery::NewReno);
    assert!(!s.plain);
    let (mut s, _, _) = sender_with(&ns2_tcp(), Recovery::NewReno);
    assert!(s.plain);
    s.write_stream(10_000).unwrap();
    assert!(!s.plain && !s.plain_now());
}

/// The plain sender's ACK path (`process_ack::<true>`, `new_ack_with::<true>`) does what the
/// general one does: one script of ACKs (slow start, congestion avoidance, an ECN-Echo, three
/// duplicates with SACK blocks, partial and full ACKs, delayed ACKs, a timeout and the
/// go-back-N after it) given to a sender on each path leaves the same segments, counters and
/// every field of the sender (its whole `Debug` form: RTT estimate, `awnd`, timers, the
/// congestion control's state), for each plain sender (Reno, NewReno, Tahoe, ns-2's SACK,
/// timestamps, ECN, a congestion control with hooks, the timer restarted before the sample).
#[test]
fn the_plain_ack_path_leaves_the_sender_as_the_general_one_does() {
    let with = |edit: &dyn Fn(&mut TcpConfig)| {
        let mut cfg = ns2_tcp();
        edit(&mut cfg);
        cfg
    };
    for (cfg, variant) in [
        (ns2_tcp(), Recovery::Reno),
        (ns2_tcp(), Recovery::NewReno),
        (ns2_tcp(), Recovery::Tahoe),
        (ns2_tcp(), Recovery::Sack),
        (with(&|c| c.ecn = true), Recovery::NewReno),
        (with(&|c| c.timestamps = true), Recovery::NewReno),
        (
            with(&|c| c.cc = "cubic".parse().unwrap()),
            Recovery::NewReno,
        ),
        (with(&|c| c.cc = "vegas".parse().unwrap()), Recovery::Reno),
        (with(&|c| c.limited_transmit = true), Recovery::NewReno),
    ] {
        let run = |plain: bool| {
            let (mut s, mut out, mut c) = sender_with(&cfg, variant);
            assert!(s.plain, "{variant:?}: this sender is plain");
            s.plain = plain;
            s.start(SimTime(0), &mut out, &mut c);
            let t = std::cell::Cell::new(1_000_000);
            let ack = |s: &mut TcpSender,
                       out: &mut Vec<Packet>,
                       c: &mut FlowCounters,
                       n: u64,
                       ecn: u8,
                       sack: Option<(u64, u64)>| {
                let mut a = ackp(n);
                a.ecn = ecn;
                t.set(t.get() + 1_000_000);
                a.ts_echo = SimTime(t.get() - 500_000);
                a.sent_at = SimTime(t.get() - 200_000);
                if let Some((from, to)) = sack {
                    a.sack.push(n, from, to);
                }
                s.on_ack(SimTime(t.get()), &a, out, c);
            };
            for i in 0..30 {
                let n = s.una + 1;
                let ece = if i == 20 { crate::packet::ecn::ECE } else { 0 };
                ack(&mut s, &mut out, &mut c, n, ece, None);
            }
            let hole = s.una;
            for k in 0..4 {
                // three duplicates and one more, SACKing what arrived above the hole
                ack(
                    &mut s,
                    &mut out,
                    &mut c,
                    hole,
                    0,
                    Some((hole + 1, hole + 2 + k)),
                );
            }
            ack(&mut s, &mut out, &mut c, hole + 2, 0, None); // partial
            let n = s.maxseq;
            ack(&mut s, &mut out, &mut c, n, 0, None); // all of it
            for _ in 0..5 {
                let n = s.una + 2; // delayed ACKs
                ack(&mut s, &mut out, &mut c, n, 0, None);
            }
            t.set(t.get() + 10_000_000_000_000);
            s.on_timeout(SimTime(t.get()), &mut out, &mut c);
            for _ in 0..6 {
                let n = s.una + 1;
                ack(&mut s, &mut out, &mut c, n, 0, None);
            }
            s.plain = true; // the one field that differs by design
            (format!("{out:?}"), c, format!("{s:?}"))
        };
        let (plain, general) = (run(true), run(false));
        assert!(
            plain.1.packets_sent > 40 && plain.1.rtt_samples > 3,
            "{variant:?}: {:?}",
            plain.1
        );
        assert_eq!(plain.1, general.1, "{variant:?}: counters");
        assert_eq!(plain.0, general.0, "{variant:?}: segments");
        assert_eq!(plain.2, general.2, "{variant:?}: the sender");
    }
}
