use super::*;
use crate::fixtures::ns2_tcp;
use crate::scenario::TcpConfig;

pub(super) fn ackp(ack: u64) -> Packet {
    Packet {
        id: 0,
        flow: FlowId(0),
        kind: PacketKind::TcpAck,
        flags: 0,
        src: NodeId(1),
        dst: NodeId(0),
        size: 40,
        seq: 0,
        ack,
        sent_at: SimTime::ZERO,
        ts_echo: SimTime::ZERO,
        retransmit: false,
        sack: SackBlocks::NONE,
        nth: 0,
        rwnd: 0,
        ecn: 0,
    }
}

fn sender(variant: Recovery, window: u32) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = window;
    cfg.limited_transmit = false;
    sender_with(&cfg, variant)
}

pub(super) fn sender_with(
    cfg: &TcpConfig,
    variant: Recovery,
) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let cc = cfg.congestion_control().unwrap();
    let s = TcpSender::new(FlowId(0), NodeId(0), NodeId(1), &cfg.params(), variant, cc);
    (s, Vec::new(), FlowCounters::default())
}

/// Opens cwnd to `cwnd` by acknowledging segments one by one, 1 ps apart; returns the time
/// of the next ACK.
pub(super) fn grow(
    s: &mut TcpSender,
    out: &mut Vec<Packet>,
    c: &mut FlowCounters,
    cwnd: f64,
) -> u64 {
    s.start(SimTime(0), out, c);
    let mut t = 1;
    while s.w.cwnd < cwnd {
        s.on_ack(SimTime(t), &ackp(s.una + 1), out, c);
        t += 1;
    }
    out.clear();
    t
}

#[test]
fn fast_retransmit_halves_cwnd_exactly_and_truncates_ssthresh() {
    let (mut s, mut out, mut c) = sender(Recovery::Reno, 100);
    s.w.ssthresh = 5.0; // congestion avoidance from 5 segments on: fractional cwnd
    grow(&mut s, &mut out, &mut c, 9.3);
    let w = s.w.cwnd;
    for _ in 0..3 {
        s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
    }
    assert_eq!(c.fast_retransmits, 1);
    assert_eq!(
        out[0].seq, s.una,
        "the first unacknowledged segment is resent"
    );
    assert_eq!(s.w.cwnd, w / 2.0);
    assert_eq!(s.w.ssthresh, (w / 2.0).floor());
    assert!(s.in_recovery);
    // Each further duplicate inflates the window by one segment, not cwnd.
    s.on_ack(SimTime(1001), &ackp(s.una), &mut out, &mut c);
    assert_eq!(s.dupwnd, 4.0);
    assert_eq!(s.w.cwnd, w / 2.0);
    // A new ACK ends recovery and removes the inflation.
    s.on_ack(SimTime(1002), &ackp(s.una + 1), &mut out, &mut c);
    assert!(!s.in_recovery);
    assert_eq!(s.dupwnd, 0.0);
}

/// ns-2's `noFastRetrans_` (`TcpAgent::recv`): Tahoe counts the duplicates but starts no
/// fast retransmit at the threshold; the timeout recovers. Reno's `recv` never reads it.
#[test]
fn no_fast_retransmit_leaves_tahoe_to_its_timeout() {
    for (variant, retransmits) in [(Recovery::Tahoe, 0), (Recovery::Reno, 1)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.no_fast_retransmit = true;
        let (mut s, mut out, mut c) = sender_with(&cfg, variant);
        grow(&mut s, &mut out, &mut c, 8.0);
        let cwnd = s.w.cwnd;
        for i in 0..5 {
            s.on_ack(SimTime(1000 + i), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, retransmits, "{variant:?}");
        if variant == Recovery::Tahoe {
            assert_eq!((s.dupacks, s.w.cwnd, s.in_recovery), (5, cwnd, false));
            assert!(out.is_empty(), "nothing resent, nothing new");
            let rto = s.rto_deadline().expect("the timer runs");
            s.on_timeout(rto, &mut out, &mut c);
            assert_eq!(out.first().map(|p| p.seq), Some(s.una));
            assert_eq!(s.w.cwnd, 1.0);
        }
    }
}

/// ns-2 `bugFix_` (tcp.cc `TcpAgent::dupack_action`, tcp-reno.cc's): after a recovery
/// ends, three duplicate ACKs for data sent before it start a second fast retransmit
/// only with the check off, and with ECN the check holds whatever `bug_fix` says.
#[test]
fn bug_fix_off_allows_a_second_fast_retransmit_in_one_window() {
    for (bug_fix, ecn, expected) in [(true, false, 1), (false, false, 2), (false, true, 1)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.bug_fix = bug_fix;
        cfg.ecn = ecn;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        grow(&mut s, &mut out, &mut c, 12.0);
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, 1);
        // A partial ACK ends Reno's recovery; the next loss is of the same window.
        s.on_ack(SimTime(1001), &ackp(s.una + 2), &mut out, &mut c);
        assert!(!s.in_recovery);
        assert!(s.recover.is_some_and(|r| s.una <= r));
        for _ in 0..3 {
            s.on_ack(SimTime(1002), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, expected, "bug_fix {bug_fix} ecn {ecn}");
    }
}

/// ns-2's `TcpAgent::output` adds the headers to every segment but seqno 0: without a
/// SYN, segment 0 (and its retransmission) is `packet_size` bytes on the wire.
#[test]
fn bare_first_segment_without_syn() {
    for (syn, bare, first) in [(false, true, 1000), (false, false, 1040), (true, true, 40)] {
        let mut cfg = ns2_tcp();
        cfg.syn = syn;
        cfg.bare_first_segment = bare;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        assert_eq!(out[0].size, first, "syn {syn} bare {bare}");
        if !syn {
            assert_eq!(out[1].size, 1040);
        }
    }
}

/// ns-2 `precisionReduce_ false` (`TcpAgent::slowdown`'s integer branch): fast
/// retransmit leaves cwnd at the whole half, not the fractional one.
#[test]
fn whole_reduction_without_precision_reduce() {
    for (precise, expected) in [(true, 9.3 / 2.0), (false, 4.0)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.precision_reduce = precise;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.w.ssthresh = 5.0;
        grow(&mut s, &mut out, &mut c, 9.3);
        let w = s.w.cwnd;
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        let expected = if precise { w / 2.0 } else { expected };
        assert_eq!(s.w.cwnd, expected, "precise {precise}");
        assert_eq!(s.w.ssthresh, 4.0);
    }
}

/// A SACK sender over a 100-segment receive window, opened to a 20-segment cwnd.
fn sack_sender_at_20(prr: bool, rto_rule: &str) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.prr = prr;
    cfg.rto_rule = rto_rule.parse().unwrap();
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
    grow(&mut s, &mut out, &mut c, 20.0);
    (s, out, c)
}

/// One loss in a flight of `flight` segments, then a SACKed duplicate ACK per segment
/// that arrives after it; returns the segments sent after each duplicate from the fast
/// retransmit on, and the sender.
fn one_loss_with_sack(prr: bool) -> (Vec<usize>, TcpSender) {
    let (mut s, mut out, mut c) = sack_sender_at_20(prr, "rfc6298");
    let (una, flight) = (s.una, s.maxseq - s.una);
    let mut sent = Vec::new();
    for i in 1..flight {
        let mut a = ackp(una);
        a.sack.push(una, una + 1, una + 1 + i);
        out.clear();
        s.on_ack(SimTime(10_000 + i), &a, &mut out, &mut c);
        if s.in_recovery {
            sent.push(out.len());
        }
    }
    (sent, s)
}

#[test]
fn prr_spreads_recovery_sends_over_the_round_trip() {
    // RFC 6937: with ssthresh = RecoverFS / 2, one segment per two delivered, from the
    // start; ns-2's pipe rule waits until half the flight has been acknowledged.
    let (prr, s) = one_loss_with_sack(true);
    let (ns2, _) = one_loss_with_sack(false);
    let flight = (s.maxseq - s.una) as usize;
    assert!(flight >= 20, "{flight}");
    let early = |v: &[usize]| v[1..7].iter().sum::<usize>();
    assert_eq!(early(&ns2), 0, "{ns2:?}");
    assert_eq!(early(&prr), 3, "{prr:?}");
    // In all, about ssthresh segments (the fast retransmission included) for the flight.
    let total: usize = prr.iter().sum();
    let ssthresh = s.w.ssthresh as usize;
    assert!(
        total.abs_diff(ssthresh) <= 1,
        "{total} vs ssthresh {ssthresh}: {prr:?}"
    );
}

#[test]
fn prr_counts_what_the_ack_starting_recovery_delivered() {
    // RFC 6937 3.1 runs its step on that ACK too: here the third duplicate SACKs four new
    // segments (the ACKs between were lost), so prr_delivered is 4 and
    // sndcnt = ceil(4 ssthresh / RecoverFS), the fast retransmission first.
    let (mut s, mut out, mut c) = sack_sender_at_20(true, "rfc6298");
    let una = s.una;
    for (i, end) in [una + 2, una + 3, una + 7].into_iter().enumerate() {
        let mut a = ackp(una);
        a.sack.push(una, una + 1, end);
        out.clear();
        s.on_ack(SimTime(10_000 + i as u64), &a, &mut out, &mut c);
    }
    assert!(s.in_recovery);
    let p = s.prr.unwrap();
    let due = (4.0 * s.w.ssthresh / p.recover_fs as f64).ceil() as usize;
    assert_eq!(p.delivered, 4);
    assert!(due > 1);
    assert_eq!(out.len(), due);
    assert_eq!(out[0].seq, una, "the fast retransmission goes first");
}

#[test]
fn a_linux_timeout_during_recovery_keeps_its_ssthresh() {
    // Linux's tcp_enter_loss keeps the ssthresh fast recovery set in this window; with
    // PRR's small cwnd after heavy loss, recomputing it would take it to 2 segments.
    for (rule, keeps) in [("linux", true), ("rfc6298", false)] {
        let (mut s, mut out, mut c) = sack_sender_at_20(true, rule);
        let (una, maxseq) = (s.una, s.maxseq);
        // Everything lost but the last four segments.
        for i in 0..4 {
            let mut a = ackp(una);
            a.sack.push(una, maxseq - 4, maxseq - 3 + i);
            s.on_ack(SimTime(10_000 + i), &a, &mut out, &mut c);
        }
        assert!(s.in_recovery && s.w.cwnd < s.w.ssthresh);
        let ssthresh = s.w.ssthresh;
        s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
        assert_eq!(s.w.ssthresh == ssthresh, keeps, "{rule}: {}", s.w.ssthresh);
        assert_eq!(s.w.cwnd, 1.0);
    }
}

#[test]
fn with_cwnd_validation_a_window_the_receiver_limits_stops_growing() {
    // A 10-segment receive window: the flight never exceeds 10. Without validation cwnd
    // grows on every ACK regardless; with it, slow start stops at twice the largest flight.
    for (validate, bound) in [(false, None), (true, Some(20.0))] {
        let mut cfg = ns2_tcp();
        cfg.window = 10;
        cfg.limited_transmit = false;
        cfg.cwnd_validation = validate;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        for t in 1..400 {
            s.on_ack(SimTime(t), &ackp(s.una + 1), &mut out, &mut c);
        }
        assert!(s.maxseq - s.una <= 10);
        match bound {
            Some(b) => assert_eq!(s.w.cwnd, b, "validated"),
            None => assert!(s.w.cwnd > 300.0, "{}", s.w.cwnd),
        }
    }
}

/// ns-3.44's m_isCwndLimited (TcpSocketBase::SendDataPacket): after each data segment,
/// limited = cwnd < flight + 1 segment; TcpLinuxReno (and TcpCubic) grow only while it holds.
/// With a 10-segment receive window, cwnd grows while the sender fills it (cwnd <= 10: each
/// send leaves no segment unused) and stops at 11, the first window that leaves one: in slow
/// start for TcpCubic, whose `IncreaseWindow` checks `m_isCwndLimited` first, in congestion
/// avoidance only for TcpLinuxReno (its `SlowStart` does not check it, so it grows on);
/// TcpNewReno, which ns-3 does not gate, and the parameter off grow on every ACK.
#[test]
fn ns3_cwnd_limited_stops_growth_once_a_segment_of_cwnd_is_unused() {
    for (cc, on, ssthresh, stops) in [
        ("TcpLinuxReno", true, 2, true),
        ("TcpLinuxReno", true, 1000, false),
        ("cubic", true, 1000, true),
        ("TcpNewReno", true, 2, false),
        ("TcpLinuxReno", false, 2, false),
    ] {
        let mut cfg = ns2_tcp();
        cfg.window = 10;
        cfg.window_init = 2;
        cfg.initial_ssthresh = Some(ssthresh);
        cfg.limited_transmit = false;
        cfg.cc = cc.parse().unwrap();
        cfg.ns3_cwnd_limited = on;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        for t in 1..400 {
            s.on_ack(SimTime(t), &ackp(s.una + 1), &mut out, &mut c);
        }
        assert!(s.maxseq - s.una <= 10);
        if stops {
            assert!(s.w.cwnd >= 11.0 && s.w.cwnd < 11.1, "{cc}: {}", s.w.cwnd);
        } else {
            assert!(s.w.cwnd > 20.0, "{cc} {on} {ssthresh}: {}", s.w.cwnd);
        }
    }
}

#[test]
fn tahoe_and_timeouts_restart_from_one_segment() {
    let (mut s, mut out, mut c) = sender(Recovery::Tahoe, 100);
    grow(&mut s, &mut out, &mut c, 12.0);
    for _ in 0..3 {
        s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
    }
    assert_eq!(s.w.cwnd, 1.0);
    assert_eq!(s.w.ssthresh, 6.0);
    assert_eq!(s.nxt, s.una + 1, "go back N: only the lost segment fits");
    let (mut r, mut out, mut c) = sender(Recovery::Reno, 100);
    grow(&mut r, &mut out, &mut c, 12.0);
    let deadline = r.rto_deadline().unwrap();
    r.on_timeout(deadline, &mut out, &mut c);
    assert_eq!((r.w.cwnd, r.w.ssthresh, r.rtt.backoff), (1.0, 6.0, 2));
    assert_eq!(c.timeouts, 1);
}

#[test]
fn max_burst_caps_what_one_ack_releases() {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.max_burst = 4;
    let cc = cfg.congestion_control().unwrap();
    let mut s = TcpSender::new(
        FlowId(0),
        NodeId(0),
        NodeId(1),
        &cfg.params(),
        Recovery::Reno,
        cc,
    );
    let (mut out, mut c) = (Vec::new(), FlowCounters::default());
    s.w.cwnd = 40.0;
    s.start(SimTime(0), &mut out, &mut c);
    assert_eq!(out.len(), 4, "the first burst is capped too");
    out.clear();
    // A stretch ACK for all four opens room for many more; only four go.
    s.on_ack(SimTime(1), &ackp(4), &mut out, &mut c);
    assert_eq!(out.len(), 4);
}

/// ns-2.35's `aggressive_maxburst_` (`old_ack_sends`): an ACK below the highest acknowledged
/// sends another burst of at most `maxburst_` (`TcpAgent::recv`'s `valid_ack ||
/// aggressive_maxburst_`); without it, such an ACK sends nothing.
#[test]
fn an_old_ack_sends_another_burst_only_with_old_ack_sends() {
    for (variant, on) in [
        (Recovery::Tahoe, true),
        (Recovery::Reno, true),
        (Recovery::NewReno, true),
        (Recovery::Reno, false),
    ] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.max_burst = 3;
        cfg.old_ack_sends = on;
        let (mut s, mut out, mut c) = sender_with(&cfg, variant);
        s.w.cwnd = 40.0;
        s.start(SimTime(0), &mut out, &mut c);
        s.on_ack(SimTime(1), &ackp(3), &mut out, &mut c);
        s.on_ack(SimTime(2), &ackp(6), &mut out, &mut c);
        out.clear();
        let (cwnd, una) = (s.w.cwnd, s.una);
        // ACK 3 again, below the 6 already acknowledged.
        s.on_ack(SimTime(3), &ackp(3), &mut out, &mut c);
        assert_eq!(out.len(), if on { 3 } else { 0 }, "{variant:?} {on}");
        assert_eq!((s.w.cwnd, s.una, s.dupacks), (cwnd, una, 0));
    }
}

/// ns-3's `SndBufSize` (`snd_buffer`): a bulk sender that stops still sends what its full
/// buffer holds, up to the buffer past the first unacknowledged segment; without it, nothing
/// new after the stop.
#[test]
fn a_stopped_bulk_sender_drains_its_send_buffer() {
    // The ACK of 3 segments lets 3 more out before the stop (maxseq 13).
    for (buffer, last) in [(None, 13u64), (Some(30 * 1000u64), 3 + 30)] {
        let mut cfg = ns2_tcp();
        cfg.window = 10;
        cfg.packet_size = 1000;
        cfg.snd_buffer_bytes = buffer;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::NewReno);
        s.w.cwnd = 10.0;
        s.start(SimTime(0), &mut out, &mut c);
        assert_eq!(s.maxseq, 10, "the window's 10 segments");
        s.on_ack(SimTime(1), &ackp(3), &mut out, &mut c);
        s.stop();
        // Acknowledge everything, segment by segment, and see how far the sender goes.
        let mut t = 2;
        while s.una < s.maxseq {
            s.on_ack(SimTime(t), &ackp(s.una + 1), &mut out, &mut c);
            t += 1;
        }
        assert_eq!(s.maxseq, last, "{buffer:?}");
    }
}

/// ns-3's `TcpSocketBase::Send` against `TcpTxBuffer::Available` (`snd_buffer`): a paced
/// application's write that does not fit in the buffer's room (its size less the bytes from
/// SND.UNA to the last written) fails and adds nothing; the room an ACK frees takes the
/// next; without a buffer every write is taken.
#[test]
fn a_write_into_a_full_send_buffer_fails() {
    for buffer in [None, Some(5 * 1000 + 500u64)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.packet_size = 1000;
        cfg.snd_buffer_bytes = buffer;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::NewReno);
        s.w.cwnd = 2.0;
        let taken: Vec<bool> = (0..7)
            .map(|i| s.write(SimTime(i), 1000, &mut out, &mut c))
            .collect();
        let full = buffer.is_some();
        // 5500 bytes hold five 1000-byte writes; the sixth and seventh fail.
        assert_eq!(
            taken,
            [true, true, true, true, true, !full, !full],
            "{buffer:?}"
        );
        assert_eq!(s.maxseq, 2, "cwnd 2 lets two segments out");
        // Two segments acknowledged: 2000 bytes of room, two more writes, the third fails.
        s.on_ack(SimTime(10), &ackp(2), &mut out, &mut c);
        let more: Vec<bool> = (0..3)
            .map(|i| s.write(SimTime(11 + i), 1000, &mut out, &mut c))
            .collect();
        assert_eq!(more, [true, true, !full], "{buffer:?}");
    }
}

/// RFC 3390 section 1's table (4 segments up to 1095 bytes, 4380 bytes below 2190, else 2
/// segments), as ns-2.35's `TcpAgent::initial_window` reads it with windowInitOption_ 2:
/// the middle row as 3 segments.
#[test]
fn window_init_for_size_follows_rfc_3390() {
    for (size, iw) in [
        (536, 4),
        (1000, 4),
        (1095, 4),
        (1096, 3),
        (1500, 3),
        (2189, 3),
    ] {
        assert_eq!(window_init_for_size(size), iw, "{size} bytes");
    }
    assert_eq!(window_init_for_size(2190), 2);
    assert_eq!(window_init_for_size(9000), 2);
}

/// A SYN lost, then acknowledged after the timeout: the window the connection opens with
/// (ns-2.35's `TcpAgent::timeout` with nothing acknowledged, then `recv` setting cwnd_ to
/// `initial_window()` on the SYN's ACK).
#[test]
fn a_lost_syn_changes_the_initial_window_as_ns2_does() {
    // (by size, window_init, first_loss, packet_size) -> the window after the SYN's ACK,
    // without and with the loss.
    for (by_size, init, first_loss, size, fresh, after_loss) in [
        (false, 4, FirstLoss::BugfixSs, 1000, 4.0, 1.0),
        (false, 4, FirstLoss::Plain, 1000, 4.0, 4.0),
        (false, 4, FirstLoss::Off, 1000, 4.0, 4.0),
        (false, 1, FirstLoss::BugfixSs, 1000, 1.0, 1.0),
        (true, 2, FirstLoss::BugfixSs, 1000, 4.0, 2.0),
        (true, 2, FirstLoss::BugfixSs, 1500, 3.0, 2.0),
        (true, 6, FirstLoss::Plain, 2500, 2.0, 6.0),
    ] {
        for lose in [false, true] {
            let mut cfg = ns2_tcp();
            cfg.syn = true;
            cfg.window_init = init;
            cfg.window_init_by_size = by_size;
            cfg.ns2_first_loss = first_loss;
            cfg.packet_size = size;
            let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
            s.start(SimTime(0), &mut out, &mut c);
            assert_eq!(s.w.cwnd, 1.0);
            if lose {
                s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
            }
            s.on_ack(SimTime(5_000_000_000_000), &ackp(1), &mut out, &mut c);
            let want = if lose { after_loss } else { fresh };
            assert_eq!(
                s.w.cwnd, want,
                "{by_size} {init} {first_loss:?} {size} lost {lose}"
            );
        }
    }
}

/// ns-2.35's `dupack_action`s with bug_fix_: `recover_` starts at 0, so three duplicate
/// ACKs for the first data segment after the SYN start fast retransmit only with
/// bugfix_ss_; the engine's `off` always allows it; without a SYN, segment 0's loss waits
/// for the timer under ns-2's rules.
#[test]
fn first_segment_fast_retransmit_follows_bugfix_ss() {
    for (syn, first_loss, expected) in [
        (true, FirstLoss::BugfixSs, 1),
        (true, FirstLoss::Plain, 0),
        (true, FirstLoss::Off, 1),
        (false, FirstLoss::BugfixSs, 0),
        (false, FirstLoss::Plain, 0),
        (false, FirstLoss::Off, 1),
    ] {
        let mut cfg = ns2_tcp();
        cfg.syn = syn;
        cfg.window = 100;
        cfg.window_init = 6;
        cfg.limited_transmit = false;
        cfg.ns2_first_loss = first_loss;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        let first = if syn {
            s.on_ack(SimTime(1), &ackp(1), &mut out, &mut c); // the SYN's ACK
            1
        } else {
            0
        };
        assert!(s.maxseq >= first + 4);
        for _ in 0..3 {
            s.on_ack(SimTime(2), &ackp(first), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, expected, "syn {syn} {first_loss:?}");
    }
}

/// ns-2.35's Sack1TcpAgent::recv sets `recover_ = 0` on the ACK that ends fast recovery:
/// three duplicates of that very ACK start another fast retransmit (`dupack_action`'s
/// `highest_ack_ > recover_`), where a sender that keeps its recovery point waits for an
/// ACK beyond it (RFC 6582's careful variant, ns-2's `bugFix_`).
#[test]
fn sack1_forgets_its_recovery_point_when_recovery_ends() {
    for clears in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.sack_exit_clears_recover = clears;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        grow(&mut s, &mut out, &mut c, 20.0);
        let dupacks = |s: &mut TcpSender, out: &mut Vec<Packet>, c: &mut FlowCounters, t| {
            let una = s.una;
            for i in 0..3 {
                let mut a = ackp(una);
                a.sack.push(una, una + 1, una + 2 + i);
                s.on_ack(SimTime(t + i), &a, out, c);
            }
        };
        dupacks(&mut s, &mut out, &mut c, 10_000);
        assert!(s.in_recovery);
        let recover = s.recover.unwrap();
        // Everything sent before recovery is acknowledged: recovery ends.
        s.on_ack(SimTime(20_000), &ackp(recover), &mut out, &mut c);
        assert!(!s.in_recovery && s.maxseq > s.una);
        assert_eq!(s.recover, if clears { None } else { Some(recover) });
        // The first segment after it is lost too.
        dupacks(&mut s, &mut out, &mut c, 30_000);
        assert_eq!(c.fast_retransmits, if clears { 2 } else { 1 }, "{clears}");
        assert_eq!(s.in_recovery, clears);
    }
}

#[test]
fn rfc6675_recovery_restarts_the_timer_on_the_first_partial_ack_only() {
    // ns-3.44: the fast retransmission goes out through SendDataPacket, which leaves a running
    // timer alone, and ProcessAck calls NewAck(ack, m_isFirstPartialAck); ns-2's Sack1
    // restarts it on entry and on every partial ACK.
    for rfc in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.rfc6675_recovery = rfc;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        grow(&mut s, &mut out, &mut c, 20.0);
        let una = s.una;
        assert!(s.maxseq > una + 10);
        let before = s.rto_deadline();
        // Segments una and una + 1 lost; the duplicates SACK una + 2 onward.
        for i in 0..3 {
            let mut a = ackp(una);
            a.sack.push(una, una + 2, una + 3 + i);
            s.on_ack(SimTime(10_000 + i), &a, &mut out, &mut c);
        }
        assert!(s.in_recovery);
        assert_eq!(s.rto_deadline() == before, rfc, "rfc6675 {rfc}: entry");
        // The resent una arrives: the first partial ACK.
        let mut a = ackp(una + 1);
        a.sack.push(una + 1, una + 2, una + 6);
        s.on_ack(SimTime(20_000), &a, &mut out, &mut c);
        let first = s.rto_deadline();
        assert_ne!(
            first, before,
            "rfc6675 {rfc}: the first partial ACK restarts it"
        );
        // The resent una + 1 arrives: a second partial ACK, up to the SACKed segments.
        s.on_ack(SimTime(30_000), &ackp(una + 6), &mut out, &mut c);
        assert!(s.in_recovery);
        assert_eq!(
            s.rto_deadline() == first,
            rfc,
            "rfc6675 {rfc}: second partial ACK"
        );
    }
}

fn at_ms(ms: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(ms)
}

#[test]
fn ns2_idle_timer_runs_on_and_closes_cwnd_to_one_without_backoff() {
    // ns-2.35's TcpAgent::newtimer restarts the timer on every new ACK, all acknowledged or
    // not; TcpAgent::timeout with nothing outstanding (restart_bugfix_) closes cwnd_ to one
    // segment, keeps ssthresh_ and restarts the timer without backing it off.
    for idle in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.idle_rtx_timer = idle;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.advance_to(2, SimTime(0), &mut out, &mut c);
        assert_eq!(out.len(), 2);
        s.on_ack(at_ms(50), &ackp(1), &mut out, &mut c);
        let t = at_ms(60);
        s.on_ack(t, &ackp(2), &mut out, &mut c);
        assert_eq!(s.seqs(), (2, 2, 2));
        let (cwnd, ssthresh) = (s.w.cwnd, s.w.ssthresh);
        assert!(cwnd > 2.0);
        if !idle {
            assert_eq!(
                s.rto_deadline(),
                None,
                "RFC 6298 5.2: all acknowledged, timer off"
            );
            continue;
        }
        let rto = s.rtt.rto();
        let deadline = s.rto_deadline().expect("the timer runs on");
        assert_eq!(deadline, t + rto);
        s.on_timeout(deadline, &mut out, &mut c);
        assert_eq!((s.w.cwnd, s.w.ssthresh), (1.0, ssthresh));
        assert_eq!(c.timeouts, 0, "ns-2's nrexmit_ counts no idle expiry");
        assert_eq!(s.rtt.rto(), rto, "no backoff");
        assert_eq!(s.rto_deadline(), Some(deadline + rto));
        // New data goes out at the closed window, and the timer, pending since the idle
        // expiry, starts again from the send: TcpAgent::output sets it whenever nothing was
        // outstanding (`force_set_rtx_timer`, highest_ack_ == maxseq_), else only when none
        // is pending. An FTP started again after stop would otherwise time out at the old
        // deadline, 0.1 s after its first segment here.
        out.clear();
        let send = deadline + SimDuration::from_millis(100);
        s.advance_to(4, send, &mut out, &mut c);
        assert_eq!(out.len(), 1);
        assert_eq!(s.rto_deadline(), Some(send + rto));
        // Its ACK sends the next with nothing outstanding (the timer restarts once more);
        // a segment sent while that one is outstanding leaves the timer.
        s.on_ack(
            send + SimDuration::from_millis(50),
            &ackp(3),
            &mut out,
            &mut c,
        );
        let restarted = s.rto_deadline();
        s.advance_to(6, send + SimDuration::from_millis(60), &mut out, &mut c);
        assert_eq!(s.rto_deadline(), restarted);
    }
}

#[test]
fn control_increase_opens_cwnd_only_while_window_limited() {
    // ns-2.35's TcpAgent::recv_newack_helper with control_increase_: opencwnd() only if
    // network_limited(), t_seqno_ > prev_highest_ack_ + window().
    for control in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.control_increase = control;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        // One segment outstanding at a time, with a window of two: not window-limited.
        s.advance_to(1, SimTime(0), &mut out, &mut c);
        s.on_ack(at_ms(50), &ackp(1), &mut out, &mut c);
        assert_eq!(s.w.cwnd, if control { 2.0 } else { 3.0 });
        // A full window outstanding: the ACK opens it.
        let w = s.w.cwnd as u64;
        s.advance_to(1 + w, at_ms(60), &mut out, &mut c);
        assert_eq!(s.seqs().1, 1 + w);
        let before = s.w.cwnd;
        s.on_ack(at_ms(100), &ackp(2), &mut out, &mut c);
        assert_eq!(s.w.cwnd, before + 1.0);
    }
}

/// ns-2.35's `awnd_` (TcpAgent::reset, TcpAgent::newack): windowInit_ / 2, then on each new
/// ACK awnd = (1 - 0.002) awnd + 0.002 cwnd, cwnd as it was before the ACK; duplicates and
/// NewReno's partial ACKs (`partialnewack`) leave it.
#[test]
fn ns2_awnd_averages_cwnd_before_each_new_ack() {
    let mut cfg = ns2_tcp();
    cfg.limited_transmit = false;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::NewReno);
    let mut want = cfg.window_init as f64 / 2.0;
    assert_eq!(s.ns2_awnd(), want);
    s.start(SimTime(0), &mut out, &mut c);
    for t in 1..40 {
        let cwnd = s.w.cwnd;
        s.on_ack(SimTime(t), &ackp(s.una + 1), &mut out, &mut c);
        want = want * (1.0 - 0.002) + 0.002 * cwnd;
        assert_eq!(s.ns2_awnd(), want, "ACK {t}");
    }
    for _ in 0..3 {
        s.on_ack(SimTime(100), &ackp(s.una), &mut out, &mut c);
    }
    assert!(s.in_recovery);
    assert_eq!(s.ns2_awnd(), want);
    let recover = s.recover.unwrap();
    s.on_ack(SimTime(101), &ackp(s.una + 1), &mut out, &mut c);
    assert!(s.in_recovery, "a partial ACK");
    assert_eq!(s.ns2_awnd(), want);
    let cwnd = s.w.cwnd;
    s.on_ack(SimTime(102), &ackp(recover), &mut out, &mut c);
    assert!(!s.in_recovery);
    assert_eq!(s.ns2_awnd(), want * (1.0 - 0.002) + 0.002 * cwnd);
}

#[test]
fn ns2_first_decrease_halves_first_then_keeps_decrease_of_the_window() {
    // ns-2.35's TcpAgent::slowdown with decrease_num_ 0.75: the first reduction (and one
    // in slow start, and a timeout's ssthresh) take half the window, later ones 0.75 of it;
    // without the rule every reduction keeps 0.75.
    for rule in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.cc = crate::tcp::cc::CcConfig::parse(
            "reno",
            &[("decrease".to_string(), 0.75)].into_iter().collect(),
        )
        .unwrap();
        cfg.ns2_first_decrease = rule;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.w.ssthresh = 5.0;
        grow(&mut s, &mut out, &mut c, 12.3);
        let fast_retransmit = |s: &mut TcpSender, out: &mut Vec<Packet>, c: &mut FlowCounters| {
            let w = s.w.cwnd;
            for _ in 0..3 {
                s.on_ack(SimTime(10_000), &ackp(s.una), out, c);
            }
            s.on_ack(SimTime(10_001), &ackp(s.maxseq), out, c);
            w
        };
        let w = fast_retransmit(&mut s, &mut out, &mut c);
        let first = if rule { w / 2.0 } else { 0.75 * w };
        assert_eq!(s.w.ssthresh, first.floor());
        // Congestion avoidance again, then a second loss: 0.75 of the window either way.
        while s.w.cwnd < 12.0 {
            let next = s.una + 1;
            s.advance_to(next + 20, SimTime(20_000), &mut out, &mut c);
            s.on_ack(SimTime(20_000), &ackp(next), &mut out, &mut c);
        }
        assert!(s.w.cwnd >= s.w.ssthresh);
        let w = fast_retransmit(&mut s, &mut out, &mut c);
        assert_eq!(s.w.ssthresh, (0.75 * w).floor());
        // A timeout's ssthresh is half the window under the rule.
        let (w, una) = (s.w.cwnd.min(s.w.rwnd), s.una);
        s.advance_to(una + 30, SimTime(30_000), &mut out, &mut c);
        s.on_timeout(SimTime(40_000), &mut out, &mut c);
        let kept = if rule { w / 2.0 } else { 0.75 * w };
        assert_eq!(s.w.ssthresh, kept.floor().max(2.0));
    }
}

#[test]
fn newreno_exit_recovery_fix_takes_the_flight_plus_one_when_smaller() {
    // RFC 6582 3.2 step 3 option 1 (ns-2.35's exit_recovery_fix_): the full ACK sets cwnd to
    // min(ssthresh, outstanding + 1); without it cwnd stays at ssthresh (then opens as on
    // any new ACK).
    for fix in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.exit_recovery_fix = fix;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::NewReno);
        grow(&mut s, &mut out, &mut c, 20.0);
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        assert!(s.in_recovery);
        let (recover, ssthresh) = (s.recover.unwrap(), s.w.ssthresh);
        // Twelve more duplicates inflate the window to 25: five new segments go out.
        for _ in 0..12 {
            s.on_ack(SimTime(1001), &ackp(s.una), &mut out, &mut c);
        }
        assert_eq!(s.maxseq, recover + 5);
        s.on_ack(SimTime(1002), &ackp(recover), &mut out, &mut c);
        assert!(!s.in_recovery);
        // With the fix: min(10, 5 + 1) = 6, below ssthresh: slow start adds one.
        assert_eq!(ssthresh, 10.0);
        let want = if fix { 7.0 } else { 10.0 + 1.0 / 10.0 };
        assert_eq!(s.w.cwnd, want, "fix {fix}");
    }
}

#[test]
fn newreno_less_careful_retransmits_at_exactly_the_recovery_point() {
    // RFC 2582 section 6's Less Careful variant (ns-2.35's lessCareful_ with bugFix_):
    // three duplicates of exactly the last recovery point start a fast retransmit.
    for less in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.less_careful = less;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::NewReno);
        grow(&mut s, &mut out, &mut c, 12.0);
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        let recover = s.recover.unwrap();
        s.on_ack(SimTime(1001), &ackp(recover), &mut out, &mut c);
        assert!(!s.in_recovery);
        for _ in 0..3 {
            s.on_ack(SimTime(1002), &ackp(recover), &mut out, &mut c);
        }
        assert_eq!(
            c.fast_retransmits,
            if less { 2 } else { 1 },
            "less careful {less}"
        );
    }
}

#[test]
fn sack_dupack_threshold_grows_with_cwnd_by_numdupacks_frac() {
    // ns-2.35's TcpAgent::numdupacks: max(numdupacks_, (int) cwnd_ / numdupacksFrac_).
    for (fraction, cwnd, want) in [(0, 40.0, 3), (10, 40.0, 4), (10, 25.9, 3), (5, 40.0, 8)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.dupack_cwnd_fraction = fraction;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        grow(&mut s, &mut out, &mut c, cwnd);
        let una = s.una;
        let mut n = 0;
        while c.fast_retransmits == 0 {
            n += 1;
            let mut a = ackp(una);
            a.sack.push(una, una + 1, una + 1 + n);
            s.on_ack(SimTime(10_000 + n), &a, &mut out, &mut c);
        }
        assert_eq!(n, want, "fraction {fraction} cwnd {cwnd}");
    }
}

mod ecn;
mod events;
mod frto;
mod full_timeout;
mod ikr_rules;
mod pacing;
mod plain_paths;
mod qoption;
mod quick_start;
mod rbp;
mod reset;
mod sack1;
mod sack_full;

#[test]
fn max_cwnd_stops_the_window_growth() {
    // ns-2.35's TcpAgent::opencwnd: once its whole part is above maxcwnd_, cwnd_ is set to
    // maxcwnd_ (a fraction below the limit stays); 0 is no limit.
    for (limit, top) in [(0u32, 31.0), (6, 6.0)] {
        let mut cfg = ns2_tcp();
        cfg.window = 50;
        cfg.max_cwnd = limit;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        let mut peak: f64 = 0.0;
        for ack in 1..30u64 {
            // Always window-limited: a full window outstanding before each ACK.
            let w = s.w.cwnd as u64;
            s.advance_to(ack + w, at_ms(10 * ack), &mut out, &mut c);
            s.on_ack(at_ms(10 * ack + 5), &ackp(ack), &mut out, &mut c);
            peak = peak.max(s.w.cwnd);
        }
        assert_eq!(peak, top, "maxcwnd {limit}");
    }
}

#[test]
fn ns2_idle_timeout_without_slow_start_restart_keeps_the_window() {
    // ns-2.35's TcpAgent::timeout with slow_start_restart_ false and nothing outstanding: no
    // slowdown(), cwnd_ and ssthresh_ kept, the timer restarted without backoff.
    let mut cfg = ns2_tcp();
    cfg.idle_rtx_timer = true;
    cfg.idle_timeout_keeps_window = true;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    s.advance_to(2, SimTime(0), &mut out, &mut c);
    s.on_ack(at_ms(50), &ackp(1), &mut out, &mut c);
    let t = at_ms(60);
    s.on_ack(t, &ackp(2), &mut out, &mut c);
    let (cwnd, ssthresh) = (s.w.cwnd, s.w.ssthresh);
    assert!(cwnd > 2.0);
    let rto = s.rtt.rto();
    let deadline = s.rto_deadline().expect("the timer runs on");
    s.on_timeout(deadline, &mut out, &mut c);
    assert_eq!((s.w.cwnd, s.w.ssthresh), (cwnd, ssthresh));
    assert_eq!(c.timeouts, 0);
    assert_eq!(s.rto_deadline(), Some(deadline + rto));
    // The next data goes out at the kept window.
    out.clear();
    s.advance_to(
        10,
        deadline + SimDuration::from_millis(100),
        &mut out,
        &mut c,
    );
    assert_eq!(out.len(), cwnd as usize);
}

#[test]
fn reno_dupacks_always_inflate_after_a_blocked_fast_retransmit() {
    // ns-2.35's exitFastRetrans_ false (RenoTcpAgent::recv): three duplicates of exactly the
    // last recovery point start no fast retransmit (bug_fix), yet dupwnd_ = numdupacks_ and
    // each later duplicate adds one, sending new data; the next new ACK takes it back.
    for always in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.dupacks_always_inflate = always;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        grow(&mut s, &mut out, &mut c, 12.0);
        for _ in 0..3 {
            s.on_ack(SimTime(1000), &ackp(s.una), &mut out, &mut c);
        }
        let recover = s.recover.unwrap();
        s.on_ack(SimTime(1001), &ackp(recover), &mut out, &mut c);
        assert!(!s.in_recovery);
        let nxt = s.nxt;
        for _ in 0..4 {
            s.on_ack(SimTime(1002), &ackp(recover), &mut out, &mut c);
        }
        assert_eq!(c.fast_retransmits, 1, "no second fast retransmit");
        assert!(!s.in_recovery);
        assert_eq!(s.dupwnd, if always { 4.0 } else { 0.0 }, "always {always}");
        if always {
            assert!(s.nxt > nxt, "the inflated window sends new data");
        } else {
            assert_eq!(s.nxt, nxt);
        }
        s.on_ack(SimTime(1003), &ackp(recover + 1), &mut out, &mut c);
        assert_eq!(s.dupwnd, 0.0);
    }
}
