//! ns-2.35's one-way Sack1 under its timer (`ns2_rtt_timer`): the measurement a fast
//! retransmission ends, and the duplicates a timeout makes it ignore.

use super::*;

/// A Sack1 sender under ns-2's timer over a 100-segment window, opened to 20 segments.
fn ns2_sack1_at_20() -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.ns2_rtt_timer = true;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
    grow(&mut s, &mut out, &mut c, 20.0);
    (s, out, c)
}

/// Three duplicates of the cumulative ACK, each SACKing one more segment above it.
fn sacked_dupacks(s: &mut TcpSender, out: &mut Vec<Packet>, c: &mut FlowCounters, t: u64) {
    let una = s.una;
    for i in 0..3 {
        let mut a = ackp(una);
        a.sack.push(una, una + 1, una + 2 + i);
        s.on_ack(SimTime(t + i), &a, out, c);
    }
}

#[test]
fn sack1_fast_retransmit_ends_the_rtt_measurement() {
    // Sack1TcpAgent::dupack_action's reset_rtx_timer(1, 0): rtt_active_ = 0, so the ACK that
    // ends recovery takes no sample from a segment timed before the loss.
    let (mut s, mut out, mut c) = ns2_sack1_at_20();
    assert!(s.timed.is_some_and(|(seq, _)| seq < s.maxseq));
    sacked_dupacks(&mut s, &mut out, &mut c, 10_000);
    assert!(s.in_recovery);
    assert_eq!(c.fast_retransmits, 1);
    let maxseq = s.maxseq;
    // Only a segment sent after the fast retransmission is timed (TcpAgent::output).
    assert!(s.timed.is_none_or(|(seq, _)| seq >= maxseq));
}

#[test]
fn sack1_ignores_duplicates_after_a_timeout_until_a_new_ack() {
    // Sack1TcpAgent::recv: with timeout_ set (Sack1TcpAgent::timeout) a duplicate neither
    // counts nor fills the scoreboard; the next new ACK clears it.
    let (mut s, mut out, mut c) = ns2_sack1_at_20();
    let deadline = s.rto_deadline().expect("data outstanding");
    s.on_timeout(deadline, &mut out, &mut c);
    assert_eq!(c.timeouts, 1);
    out.clear();
    let t = deadline.0 + 1000;
    sacked_dupacks(&mut s, &mut out, &mut c, t);
    assert_eq!(
        (s.dupacks, c.fast_retransmits, s.in_recovery),
        (0, 0, false)
    );
    assert!(out.is_empty());
    // The retransmission's ACK ends the wait: duplicates count again.
    s.on_ack(SimTime(t + 10), &ackp(s.una + 1), &mut out, &mut c);
    sacked_dupacks(&mut s, &mut out, &mut c, t + 20);
    assert_eq!(s.dupacks, 3);
}

#[test]
fn sack1_partial_ack_sends_two_segments_and_restarts_the_timer_once() {
    // Sack1TcpAgent::recv with partial_ack_: partial_ack_action sends the next two segments
    // not SACKed (GetNextUnacked from next_pkt_), the pipe estimate unchanged; only the first
    // partial ACK of the series restarts the timer (firstpartial_).
    for partial in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.ns2_rtt_timer = true;
        cfg.sack_partial_ack = partial;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        grow(&mut s, &mut out, &mut c, 20.0);
        // Segments una, una + 2 and una + 4 lost; the rest SACKed.
        let una = s.una;
        for i in 0..3 {
            let mut a = ackp(una);
            a.sack.push(una, una + 1, una + 2);
            a.sack.push(una, una + 3, una + 4 + i);
            s.on_ack(SimTime(10_000 + i), &a, &mut out, &mut c);
        }
        assert!(s.in_recovery);
        out.clear();
        let pipe = s.pipe;
        let mut a = ackp(una + 2);
        a.sack.push(una + 2, una + 3, una + 7);
        s.on_ack(SimTime(20_000), &a, &mut out, &mut c);
        let deadline = s.rto_deadline();
        let seqs: Vec<u64> = out.iter().map(|p| p.seq).collect();
        if partial {
            assert_eq!(&seqs[..2], &[una + 2, una + 7], "holes first");
            assert_eq!(s.pipe - seqs.len() as i64 + 2, pipe);
        } else {
            assert_eq!(s.pipe - seqs.len() as i64, pipe - 2);
        }
        // A second partial ACK restarts the timer only without partial_ack_.
        out.clear();
        let mut a = ackp(una + 3);
        a.sack.push(una + 3, una + 4, una + 7);
        s.on_ack(SimTime(30_000), &a, &mut out, &mut c);
        assert_eq!(
            s.rto_deadline() == deadline,
            partial,
            "partial_ack_ {partial}"
        );
    }
}
