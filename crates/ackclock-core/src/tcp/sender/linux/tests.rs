use super::super::Recovery;
use super::*;
use crate::fixtures::ns2_tcp;
use crate::ids::{FlowId, NodeId};
use crate::packet::{PacketKind, SackBlocks};

const MS: u64 = 1_000_000_000;

fn ms(t: u64) -> SimTime {
    SimTime(t * MS)
}

/// A SACK sender over a 100-segment window that sends `init` segments at 0, with Linux's
/// recovery (`rack`) or ns-2's with PRR, and Linux's RTO rule.
fn sender(rack: bool, init: u32) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.window_init = init;
    cfg.prr = true;
    cfg.rack = rack;
    cfg.rto_rule = "linux".parse().unwrap();
    cfg.initial_rto_ps = 1000 * MS;
    let cc = cfg.congestion_control().unwrap();
    let mut s = TcpSender::new(
        FlowId(0),
        NodeId(0),
        NodeId(1),
        &cfg.params(),
        Recovery::Sack,
        cc,
    );
    let (mut out, mut c) = (Vec::new(), FlowCounters::default());
    s.start(SimTime::ZERO, &mut out, &mut c);
    (s, out, c)
}

fn ack(una: u64, sacks: &[(u64, u64)]) -> Packet {
    let mut sack = SackBlocks::NONE;
    for &(a, b) in sacks {
        sack.push(una, a, b);
    }
    Packet {
        id: 0,
        flow: FlowId(0),
        kind: PacketKind::TcpAck,
        flags: 0,
        src: NodeId(1),
        dst: NodeId(0),
        size: 40,
        seq: 0,
        ack: una,
        sent_at: SimTime::ZERO,
        ts_echo: SimTime::ZERO,
        retransmit: false,
        sack,
        nth: 0,
        rwnd: 0,
        ecn: 0,
    }
}

fn seqs(out: &[Packet]) -> Vec<u64> {
    out.iter().map(|p| p.seq).collect()
}

/// A Reno sender counting bytes, in congestion avoidance at cwnd 2, whole segments or not.
fn integer_sender(integer: bool) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.window_init = 2;
    cfg.initial_ssthresh = Some(2);
    cfg.prr = true;
    cfg.rack = true;
    cfg.window_unit = "bytes".parse().unwrap();
    cfg.integer_cwnd = integer;
    let cc = cfg.congestion_control().unwrap();
    let mut s = TcpSender::new(
        FlowId(0),
        NodeId(0),
        NodeId(1),
        &cfg.params(),
        Recovery::Sack,
        cc,
    );
    let (mut out, mut c) = (Vec::new(), FlowCounters::default());
    s.start(SimTime::ZERO, &mut out, &mut c);
    (s, out, c)
}

#[test]
fn whole_segments_grow_by_one_per_window_acknowledged() {
    // tcp_cong_avoid_ai: at snd_cwnd 2, two segments acknowledged make 3; growth per
    // byte on a window that grows with each ACK (2 + 1/2 + 1/2.5) stays below 3.
    for (integer, want) in [(true, 3.0), (false, 2.9)] {
        let (mut s, mut out, mut c) = integer_sender(integer);
        for a in 1..3u64 {
            s.on_ack(ms(100 * a), &ack(a, &[]), &mut out, &mut c);
        }
        assert!(
            (s.w.cwnd - want).abs() < 1e-9,
            "integer {integer}: {}",
            s.w.cwnd
        );
    }
}

#[test]
fn a_loss_reduces_whole_segments() {
    // tcp_reno_ssthresh: max(snd_cwnd >> 1, 2); snd_cwnd 5 (5.7 here: 0.7 of a segment
    // counted toward the next) leaves 2, not 2.85.
    for (integer, want) in [(true, 2.0), (false, 2.85)] {
        let (mut s, _, _) = integer_sender(integer);
        s.w.cwnd = 5.7;
        s.reduce_window();
        assert!(
            (s.w.ssthresh - want).abs() < 1e-9,
            "integer {integer}: {}",
            s.w.ssthresh
        );
    }
}

#[test]
fn after_a_timeout_sacked_segments_are_not_sent_again() {
    // tcp_timeout_mark_lost marks only what is not SACKed; ns-2's rule goes back N.
    for rack in [false, true] {
        let (mut s, mut out, mut c) = sender(rack, 20);
        // 5 and 6 arrive, nothing else: too little for recovery before the timeout.
        s.on_ack(ms(100), &ack(0, &[(5, 7)]), &mut out, &mut c);
        while c.timeouts == 0 {
            out.clear();
            s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
        }
        // The receiver acknowledges each retransmission as it comes, 5..7 held.
        let mut t = 2000;
        for _ in 0..40 {
            let Some(p) = out.iter().map(|p| p.seq).filter(|&q| q >= s.una).min() else {
                break;
            };
            let una = if p + 1 == 5 { 7 } else { p + 1 };
            t += 10;
            s.on_ack(ms(t), &ack(una, &[]), &mut out, &mut c);
            if s.una >= 20 {
                break;
            }
        }
        let resent = seqs(&out);
        assert_eq!(
            resent.contains(&5) || resent.contains(&6),
            !rack,
            "rack {rack}: {resent:?}"
        );
    }
}

#[test]
fn a_repeated_timeout_keeps_ssthresh() {
    // tcp_enter_loss reduces ssthresh once per window: a second timeout without progress
    // keeps it (RFC 5681 and the old rule recompute it from cwnd = 1: 2 segments).
    for (rack, keeps) in [(false, false), (true, true)] {
        let (mut s, mut out, mut c) = sender(rack, 20);
        // (Linux probes the tail first, at the same moment, without an RTT sample.)
        while c.timeouts == 0 {
            s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
        }
        let first = s.w.ssthresh;
        assert_eq!(first, 10.0);
        s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
        assert_eq!(c.timeouts, 2);
        assert_eq!(
            s.w.ssthresh == first,
            keeps,
            "rack {rack}: {}",
            s.w.ssthresh
        );
    }
}

#[test]
fn a_lost_retransmission_is_found_by_rack_without_a_timeout() {
    // RFC 8985: segment 0 and its retransmission are lost; segments sent after the
    // retransmission are SACKed, and one RACK.rtt after it was sent 0 goes a third time.
    for rack in [false, true] {
        let (mut s, mut out, mut c) = sender(rack, 20);
        let mut t = 100;
        for k in 1..20 {
            s.on_ack(ms(t), &ack(0, &[(1, 1 + k)]), &mut out, &mut c);
            t += 1;
        }
        let first_rtx = out.iter().filter(|p| p.seq == 0).count();
        assert_eq!(
            first_rtx, 2,
            "rack {rack}: the original and one retransmission"
        );
        // The retransmission is lost; what recovery sent after it is SACKed 100 ms on.
        let top = s.maxseq;
        t += 100;
        for k in 21..=top {
            s.on_ack(ms(t), &ack(0, &[(1, k)]), &mut out, &mut c);
            t += 1;
        }
        let sends = out.iter().filter(|p| p.seq == 0).count();
        assert_eq!(
            (sends, c.timeouts),
            if rack { (3, 0) } else { (2, 0) },
            "rack {rack}"
        );
    }
}

#[test]
fn a_sack_flow_may_start_recovery_again_as_soon_as_the_last_one_ends() {
    // Linux holds only non-SACK flows at high_seq (tcp_is_non_sack_preventing_reopen):
    // the ACK that ends one recovery may start the next; RFC 6582's gate waits for an RTO.
    for rack in [false, true] {
        let (mut s, mut out, mut c) = sender(rack, 20);
        let mut t = 100;
        for k in 1..20 {
            s.on_ack(ms(t), &ack(0, &[(1, 1 + k)]), &mut out, &mut c);
            t += 1;
        }
        assert_eq!(c.fast_retransmits, 1);
        // The retransmission of 0 arrives, and with it everything sent before recovery
        // began (up to high_seq, RFC 6582's `recover`); the first segment sent in
        // recovery is lost, the rest SACKed.
        let h = match s.linux.as_ref() {
            Some(l) => l.high_seq,
            None => s.recover.unwrap(),
        };
        let top = s.maxseq;
        assert!(top >= h + 4, "{h} {top}");
        t += 100;
        s.on_ack(ms(t), &ack(h, &[(h + 1, top)]), &mut out, &mut c);
        assert_eq!(c.fast_retransmits, if rack { 2 } else { 1 }, "rack {rack}");
    }
}

#[test]
fn retransmissions_in_recovery_wait_for_pacing() {
    // tcp_xmit_retransmit_queue stops at tcp_pacing_check: a paced flow's retransmissions
    // leave at the pacing rate; ns-2's SACK recovery (sack_send_one) sends them at once.
    for rack in [false, true] {
        let (mut s, mut out, mut c) = sender(rack, 20);
        s.pacing_rate = 100.0; // segments per second: 10 ms apart
                               // 0..4 are lost, 5..19 SACKed one by one at 100 ms (after the RTT, RACK's too).
        for k in 6..=20 {
            s.on_ack(ms(100), &ack(0, &[(5, k)]), &mut out, &mut c);
        }
        while let Some(d) = s.pace_deadline().filter(|&d| d < ms(400)) {
            s.on_pace(d, &mut out, &mut c);
        }
        let times: Vec<u64> = out
            .iter()
            .filter(|p| p.retransmit)
            .map(|p| p.sent_at.0)
            .collect();
        assert!(times.len() >= 3, "rack {rack}: {times:?}");
        let closest = times.windows(2).map(|w| w[1] - w[0]).min().unwrap();
        if rack {
            assert!(closest >= 10 * MS, "rack: {times:?}");
        } else {
            assert_eq!(closest, 0, "ns-2's rule: {times:?}");
        }
    }
}

#[test]
fn a_tail_loss_is_probed_before_the_timeout() {
    // RFC 8985 7 (tcp_schedule_loss_probe): the last segment of a transfer is lost; a
    // probe 2 SRTT + 2 ms after the last ACK resends it, instead of the RTO.
    for rack in [false, true] {
        let (mut s, mut out, mut c) = sender(rack, 10);
        s.set_transfer(10 * 1000);
        s.start(SimTime::ZERO, &mut out, &mut c);
        out.clear();
        // RTT 100 ms; all but the last two segments acknowledged.
        for k in 1..9 {
            s.on_ack(ms(100 + k), &ack(k, &[]), &mut out, &mut c);
        }
        let at = s.rto_deadline().unwrap();
        s.on_timeout(at, &mut out, &mut c);
        // The probe resends the last segment; ns-2's timeout goes back to the first.
        assert_eq!(seqs(&out), vec![if rack { 9 } else { 8 }], "rack {rack}");
        if rack {
            assert_eq!(c.timeouts, 0);
            let srtt = s.rtt.srtt;
            assert_eq!(at.0, ms(108).0 + 2 * srtt + 2 * MS);
        } else {
            assert_eq!(c.timeouts, 1);
        }
    }
}

/// A Linux sender of 20 segments with an RTT sample (segment 0 acknowledged at 100 ms),
/// taken through its first timeout (the tail probe goes first); what it sent since.
fn timed_out() -> (TcpSender, Vec<Packet>, FlowCounters) {
    let (mut s, mut out, mut c) = sender(true, 20);
    s.on_ack(ms(100), &ack(1, &[]), &mut out, &mut c);
    while c.timeouts == 0 {
        s.on_timeout(s.rto_deadline().unwrap(), &mut out, &mut c);
    }
    out.clear();
    (s, out, c)
}

fn echoing(mut p: Packet, echo: SimTime) -> Packet {
    p.ts_echo = echo;
    p
}

#[test]
fn a_timeout_found_spurious_by_the_echoed_timestamp_is_undone() {
    // tcp_try_undo_loss / tcp_packet_delayed: the first ACK after the timeout (for the
    // resent segment 1) echoes a timestamp older than the first retransmission, so the
    // original arrived: cwnd back through congestion control's undo_cwnd (Reno:
    // max(cwnd, prior_cwnd)), ssthresh to prior_ssthresh (tcp_current_ssthresh: at least
    // 3/4 of cwnd). An echo of the retransmission itself undoes nothing (F-RTO goes on).
    for (echo_original, undone) in [(true, true), (false, false)] {
        let (mut s, mut out, mut c) = timed_out();
        let l = s.linux.as_ref().unwrap();
        let (prior_cwnd, prior_ssthresh) = (l.prior_cwnd, l.prior_ssthresh);
        let reduced = s.w.ssthresh;
        assert!(reduced < prior_ssthresh && s.w.cwnd < prior_cwnd);
        let stamp = l.retrans_stamp.unwrap();
        let echo = if echo_original {
            SimTime(stamp.0 - 1)
        } else {
            stamp
        };
        let t = stamp + SimDuration::from_millis(100);
        s.on_ack(t, &echoing(ack(2, &[]), echo), &mut out, &mut c);
        let l = s.linux.as_ref().unwrap();
        assert_eq!(l.undos, undone as u64, "echo original {echo_original}");
        if undone {
            assert!(s.w.cwnd >= prior_cwnd, "{} < {prior_cwnd}", s.w.cwnd);
            assert_eq!(s.w.ssthresh, prior_ssthresh);
        } else {
            assert_eq!(s.w.ssthresh, reduced);
            assert_eq!(l.state, CaState::Loss);
        }
    }
}

#[test]
fn after_a_timeout_f_rto_sends_new_data_before_resending() {
    // RFC 5682 3.1 (tcp_process_loss): the first ACK after the timeout advances the
    // cumulative ACK: new data goes (step 2b), not the segments marked lost; an ACK then
    // showing a hole (SACK of the new data) proves the loss real (3a): they are resent.
    let (mut s, mut out, mut c) = timed_out();
    let top = s.maxseq;
    let t = s.linux.as_ref().unwrap().retrans_stamp.unwrap() + SimDuration::from_millis(100);
    // The retransmission of 1 arrives (the ACK echoes it: not spurious).
    s.on_ack(t, &echoing(ack(2, &[]), t), &mut out, &mut c);
    assert!(
        !out.is_empty() && out.iter().all(|p| p.seq >= top),
        "{:?}",
        seqs(&out)
    );
    assert!(s.linux.as_ref().unwrap().frto);
    out.clear();
    s.on_ack(
        t + SimDuration::from_millis(1),
        &echoing(ack(2, &[(top, top + 1)]), t),
        &mut out,
        &mut c,
    );
    assert!(!s.linux.as_ref().unwrap().frto);
    assert_eq!(seqs(&out).first(), Some(&2), "{:?}", seqs(&out));
    assert_eq!(s.linux.as_ref().unwrap().undos, 0);
}

#[test]
fn f_rto_undoes_a_timeout_when_data_never_resent_is_acknowledged() {
    // Step 3b (FLAG_ORIG_SACK_ACKED): after step 2b the next ACK covers segments 2.. sent
    // once before the timeout: the originals were only late. No timestamps here.
    let (mut s, mut out, mut c) = timed_out();
    let prior_cwnd = s.linux.as_ref().unwrap().prior_cwnd;
    let t = s.linux.as_ref().unwrap().retrans_stamp.unwrap() + SimDuration::from_millis(100);
    s.on_ack(t, &ack(2, &[]), &mut out, &mut c);
    assert_eq!(s.linux.as_ref().unwrap().undos, 0);
    let top = s.linux.as_ref().unwrap().high_seq;
    s.on_ack(
        t + SimDuration::from_millis(1),
        &ack(top, &[]),
        &mut out,
        &mut c,
    );
    let l = s.linux.as_ref().unwrap();
    assert_eq!((l.undos, l.state), (1, CaState::Open));
    assert!(s.w.cwnd >= prior_cwnd);
}
