//! ns-2.35's F-RTO (`sender/frto.rs`): what the first two ACKs after a timeout decide.

use super::*;

/// A sender of `variant` with F-RTO `mode` under ns-2's timer, cwnd opened to 10 segments
/// (congestion avoidance from 8 on) and then timed out: ssthresh 5, cwnd 1, the first
/// unacknowledged segment resent.
fn timed_out(variant: Recovery, mode: Ns2Frto) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 100;
    cfg.limited_transmit = false;
    cfg.ns2_rtt_timer = true;
    cfg.ns2_frto = mode;
    cfg.initial_ssthresh = Some(8);
    let (mut s, mut out, mut c) = sender_with(&cfg, variant);
    grow(&mut s, &mut out, &mut c, 10.0);
    let deadline = s.rto_deadline().expect("data outstanding");
    s.on_timeout(deadline, &mut out, &mut c);
    assert_eq!((s.w.cwnd, s.w.ssthresh, out.len()), (1.0, 5.0, 1));
    assert_eq!(out[0].seq, s.una);
    out.clear();
    (s, out, c)
}

#[test]
fn two_new_acks_after_a_timeout_make_it_spurious_and_restore_the_window() {
    for variant in [
        Recovery::Tahoe,
        Recovery::Reno,
        Recovery::NewReno,
        Recovery::Sack,
    ] {
        let (mut s, mut out, mut c) = timed_out(variant, Ns2Frto::Frto);
        let recover = s.maxseq;
        // The first new ACK (the original of the resent segment arrived): the next two
        // segments are new ones, past what was sent before the timeout (F-RTO step 2b).
        s.on_ack(SimTime(10_000_000), &ackp(s.una + 1), &mut out, &mut c);
        let seqs: Vec<u64> = out.iter().map(|p| p.seq).collect();
        assert_eq!(seqs, vec![recover, recover + 1], "{variant:?}");
        assert_eq!(s.frto.state, 2);
        out.clear();
        // The second: spurious. cwnd = t_seqno_ - prev_highest_ack_, ssthresh back to
        // pipe_prev_ (the window before the timeout, 10).
        let prev = s.una;
        s.on_ack(SimTime(10_000_001), &ackp(s.una + 1), &mut out, &mut c);
        assert_eq!(s.frto.state, 0);
        assert_eq!(s.w.ssthresh, 10.0, "{variant:?}");
        assert_eq!(s.w.cwnd, (recover + 2 + 1 - prev) as f64, "{variant:?}");
        assert_eq!(s.recover, Some(s.una - 1));
    }
}

#[test]
fn a_duplicate_ack_after_the_first_new_ack_makes_the_timeout_real() {
    for variant in [Recovery::Tahoe, Recovery::Reno, Recovery::NewReno] {
        let (mut s, mut out, mut c) = timed_out(variant, Ns2Frto::Frto);
        s.on_ack(SimTime(10_000_000), &ackp(s.una + 1), &mut out, &mut c);
        out.clear();
        // recv_frto_helper: back to the first unacknowledged segment with cwnd = frto_ (2),
        // the duplicate not counted.
        s.on_ack(SimTime(10_000_001), &ackp(s.una), &mut out, &mut c);
        assert_eq!(
            (s.frto.state, s.dupacks, s.w.cwnd),
            (0, 0, 2.0),
            "{variant:?}"
        );
        let seqs: Vec<u64> = out.iter().map(|p| p.seq).collect();
        assert_eq!(seqs, vec![s.una, s.una + 1], "{variant:?}");
        assert_eq!(s.w.ssthresh, 5.0);
    }
}

#[test]
fn sack_duplicates_decide_with_sfrto_only() {
    // Sack1TcpAgent::recv never calls recv_frto_helper: with frto_enabled_ alone a SACK
    // duplicate changes nothing; with sfrto_enabled_ one that SACKs only data sent before the
    // timeout makes it spurious.
    for (mode, state, ssthresh) in [(Ns2Frto::Frto, 2, 5.0), (Ns2Frto::Sfrto, 0, 10.0)] {
        let (mut s, mut out, mut c) = timed_out(Recovery::Sack, mode);
        s.on_ack(SimTime(10_000_000), &ackp(s.una + 1), &mut out, &mut c);
        let mut a = ackp(s.una);
        a.sack.push(s.una, s.una + 2, s.una + 3);
        s.on_ack(SimTime(10_000_001), &a, &mut out, &mut c);
        assert_eq!((s.frto.state, s.w.ssthresh), (state, ssthresh), "{mode:?}");
    }
}

#[test]
fn off_goes_back_n_after_a_timeout() {
    let (mut s, mut out, mut c) = timed_out(Recovery::Reno, Ns2Frto::Off);
    let una = s.una;
    s.on_ack(SimTime(10_000_000), &ackp(una + 1), &mut out, &mut c);
    let seqs: Vec<u64> = out.iter().map(|p| p.seq).collect();
    assert_eq!(seqs, vec![una + 1, una + 2]);
}

#[test]
fn ts_reset_rto_ends_the_backoff_on_every_timestamp_sample() {
    // TcpAgent::newack: with timestamps the ACK of the timeout's retransmission gives a
    // sample; only ts_resetRTO_ ends the backoff then (the timed segment, sent after the
    // retransmission, is not yet covered).
    for (reset, backoff) in [(false, 2), (true, 1)] {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.ns2_rtt_timer = true;
        cfg.timestamps = true;
        cfg.ts_reset_rto = reset;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        grow(&mut s, &mut out, &mut c, 6.0);
        let deadline = s.rto_deadline().expect("data outstanding");
        s.on_timeout(deadline, &mut out, &mut c);
        assert_eq!(s.rtt.backoff, 2);
        let mut a = ackp(s.una + 1);
        a.ts_echo = deadline;
        s.on_ack(SimTime(deadline.0 + 50_000_000_000), &a, &mut out, &mut c);
        assert_eq!(s.rtt.backoff, backoff, "ts_reset_rto {reset}");
    }
}

#[test]
fn syn_max_sends_abandons_the_connection_after_the_last_syn() {
    // TcpAgent::output with max_connects_ 2: the SYN goes twice; the third time curseq_ = 0
    // and the timer is set 10000 s on, nothing sent.
    let mut cfg = ns2_tcp();
    cfg.syn = true;
    cfg.ns2_rtt_timer = true;
    cfg.syn_max_sends = 2;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    s.start(SimTime(0), &mut out, &mut c);
    assert_eq!(out.len(), 1);
    for sent in [2, 2] {
        let deadline = s.rto_deadline().expect("SYN outstanding");
        s.on_timeout(deadline, &mut out, &mut c);
        assert_eq!(out.len(), sent);
    }
    let last = s.rto_deadline().expect("timer set");
    assert!(last.0 > 10_000 * crate::time::PS_PER_S);
    assert_eq!(s.app_limit, 0);
}

/// `syn_option_bytes` (ns-3.44's window scale and SACK-permitted on a SYN,
/// `TcpSocketBase::SendEmptyPacket`): the SYN carries them above `header_size`, its
/// retransmission too; data segments do not.
#[test]
fn syn_options_enlarge_the_syn_only() {
    let mut cfg = ns2_tcp();
    cfg.syn = true;
    cfg.syn_option_bytes = 4;
    let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
    s.start(SimTime(0), &mut out, &mut c);
    let deadline = s.rto_deadline().expect("SYN outstanding");
    s.on_timeout(deadline, &mut out, &mut c);
    assert_eq!(out.len(), 2);
    s.on_ack(deadline, &ackp(1), &mut out, &mut c);
    let sizes: Vec<(u64, u32)> = out.iter().map(|p| (p.seq, p.size)).collect();
    let (syn, data) = (cfg.header_size + 4, cfg.packet_size + cfg.header_size);
    assert_eq!(sizes[..2], [(0, syn), (0, syn)]);
    assert!(
        sizes.len() > 2
            && sizes[2..]
                .iter()
                .all(|&(seq, size)| seq > 0 && size == data)
    );
}

/// `handshake_ack` (ns-3.44's `TcpSocketBase::ProcessSynSent`: `SendEmptyPacket(ACK)`, then
/// `SendPendingData`): the SYN-ACK is answered with an empty ACK of `header_size` bytes,
/// flagged ACK, ahead of the first data segments; without it the data come alone.
#[test]
fn handshake_ack_precedes_the_first_data() {
    for on in [false, true] {
        let mut cfg = ns2_tcp();
        cfg.syn = true;
        cfg.handshake_ack = on;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        out.clear();
        s.on_ack(SimTime(1), &ackp(1), &mut out, &mut c);
        let first = out.first().expect("something sent");
        if on {
            assert_eq!(
                (first.seq, first.size, first.flags),
                (0, cfg.header_size, crate::packet::tcp_flags::ACK)
            );
            assert!(out[1..].iter().all(|p| p.seq > 0 && p.flags == 0));
        } else {
            assert!(out.iter().all(|p| p.seq > 0 && p.flags == 0));
        }
        assert_eq!(
            c.packets_sent as usize,
            1 + out.len(),
            "the SYN and all of these"
        );
    }
}
