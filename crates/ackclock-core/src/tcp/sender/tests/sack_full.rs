//! ns-2.35's `SackFullTcpAgent` (tcp/tcp-full.cc) under `ns2_full_tcp` with SACK recovery
//! (`sack_full.rs`).

use super::*;

/// A FullTcp SACK sender over a 100-segment receive window, opened to a 20-segment cwnd.
fn full_sack_at_20() -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.ns2_full_tcp = true;
    cfg.sack_exit_clears_recover = false;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
    grow(&mut s, &mut out, &mut c, 20.0);
    (s, out, c)
}

/// A duplicate of `una` whose one block SACKs [una + 1, una + 1 + n).
fn dup(una: u64, n: u64) -> Packet {
    let mut a = ackp(una);
    a.sack.push(una, una + 1, una + 1 + n);
    a
}

#[test]
fn pipe_leaves_out_the_fast_retransmission_and_counts_every_duplicate() {
    let (mut s, mut out, mut c) = full_sack_at_20();
    let (una, flight) = (s.una, s.maxseq - s.una);
    for i in 1..=3 {
        s.on_ack(SimTime(10_000 + i), &dup(una, i), &mut out, &mut c);
    }
    // dupack_action: cwnd halved, the lost segment alone (pipe_ = flight - 3 SACKed = 17,
    // not below int(cwnd_) = 10), and the retransmission itself not in pipe_.
    assert_eq!(s.w.cwnd, 10.0);
    assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![una]);
    assert_eq!(s.pipe, flight as i64 - 3);
    out.clear();
    // Duplicates that SACK nothing new still take a segment off the pipe each (Sack1's
    // sender would not count them): the eighth brings it to 9 and one new segment leaves.
    let maxseq = s.maxseq;
    for i in 0..8 {
        s.on_ack(SimTime(20_000 + i), &dup(una, 3), &mut out, &mut c);
    }
    assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![maxseq]);
    assert_eq!(s.pipe, 10);
}

#[test]
fn partial_acks_keep_the_window_and_the_ack_ending_recovery_opens_it() {
    let (mut s, mut out, mut c) = full_sack_at_20();
    let una = s.una;
    // Segments una and una + 2 lost: the duplicates SACK una + 1, then una + 3 on.
    let two_holes = |n: u64| {
        let mut a = ackp(una);
        a.sack.push(una, una + 3, una + 3 + n);
        a.sack.push(una, una + 1, una + 2);
        a
    };
    for i in 1..=3 {
        s.on_ack(SimTime(10_000 + i), &two_holes(i), &mut out, &mut c);
    }
    let recover = s.recover.unwrap();
    assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![una]);
    out.clear();
    // pipe_ = 20 - 4 SACKed = 16: the seventh duplicate after brings it below 10, and the
    // next hole (una + 2, below the SACKed una + 3) leaves before new data (nxt_tseq).
    for i in 0..7 {
        s.on_ack(SimTime(20_000 + i), &two_holes(3), &mut out, &mut c);
    }
    assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![una + 2]);
    out.clear();
    // The partial ACK (una + 2): two segments off the pipe (recv and pack_action), so two
    // new ones leave; no window growth (open_cwnd_on_pack_ false).
    let maxseq = s.maxseq;
    let mut a = ackp(una + 2);
    a.sack.push(una + 2, una + 3, una + 6);
    s.on_ack(SimTime(30_000), &a, &mut out, &mut c);
    assert!(s.in_recovery);
    assert_eq!(s.w.cwnd, 10.0);
    assert_eq!(
        out.iter().map(|p| p.seq).collect::<Vec<_>>(),
        vec![maxseq, maxseq + 1]
    );
    // The ACK of all sent before recovery: pipe control ends and cwnd opens (ack_action,
    // opencwnd: congestion avoidance above ssthresh_ 10).
    s.on_ack(SimTime(40_000), &ackp(recover), &mut out, &mut c);
    assert!(!s.in_recovery);
    assert_eq!(s.w.cwnd, 10.1);
    assert_eq!(s.recover, Some(recover));
}
