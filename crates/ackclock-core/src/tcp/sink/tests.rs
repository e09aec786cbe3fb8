//! The sink's unit tests (split from sink.rs by job: the ns-2 sink's ACK rules, Linux's
//! quick and compressed ACKs, its SACK list, the layout of the hot fields).

mod tests_support {
    use super::super::*;

    pub(super) fn data(seq: u64) -> Packet {
        Packet {
            id: 0,
            flow: FlowId(0),
            kind: PacketKind::TcpData,
            flags: 0,
            src: NodeId(0),
            dst: NodeId(1),
            size: 1040,
            seq,
            ack: 0,
            sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: seq as u32 + 1,
            rwnd: 0,
            ecn: 0,
        }
    }
}

mod ns2_and_rfc {
    use super::super::*;
    use super::tests_support::data;

    fn delack_sink() -> TcpSink {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Delack;
        cfg.window = 32;
        cfg.ack_delay_ps = 100;
        TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params())
    }

    /// `TcpSink::reset` / `DelAckSink::reset` (ns2_reset): what arrived is forgotten, the
    /// held ACK is cancelled, and the next segment 0 is in order again.
    #[test]
    fn a_reset_sink_starts_over_from_segment_0() {
        let mut s = delack_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        for seq in [0, 1, 2, 4, 5] {
            s.on_data(SimTime(seq), &data(seq), &mut out, &mut c);
        }
        assert_eq!(s.rcv_nxt, 3);
        out.clear();
        assert_eq!(s.ns2_reset(), None);
        assert_eq!((s.rcv_nxt, s.deadline()), (0, None));
        s.on_data(SimTime(10), &data(0), &mut out, &mut c);
        s.on_data(SimTime(11), &data(1), &mut out, &mut c);
        s.on_data(SimTime(12), &data(3), &mut out, &mut c);
        // 4 and 5 of the old connection are no longer held: 3 leaves a hole at 2 only.
        assert_eq!(s.rcv_nxt, 2);
        assert_eq!(out.last().map(|a| a.ack), Some(2));
    }

    /// ns-2.35's TCPSink `ecn_syn_` (`TcpSink::ack`): the ACK of segment 0 is ECT, later ACKs
    /// are not; without it none is.
    #[test]
    fn ecn_syn_makes_the_ack_of_segment_0_ect() {
        use crate::packet::ecn;
        for on in [false, true] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.ecn = true;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            if on {
                s.set_ecn_syn();
            }
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            s.on_data(SimTime(0), &data(0), &mut out, &mut c);
            s.on_data(SimTime(1), &data(1), &mut out, &mut c);
            let ect: Vec<bool> = out.iter().map(|a| a.ecn & ecn::ECT != 0).collect();
            assert_eq!(ect, [on, false]);
        }
    }

    /// `syn_option_bytes` (ns-3.44's SYN options, `TcpSocketBase::SendEmptyPacket`): the ACK
    /// of a SYN, the SYN-ACK, carries them above `ack_size`; later ACKs do not, and without a
    /// SYN segment 0 is data whose ACK has none.
    #[test]
    fn syn_options_enlarge_the_syn_ack_only() {
        for syn in [true, false] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.syn = syn;
            cfg.syn_option_bytes = 4;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            for seq in 0..3 {
                s.on_data(SimTime(seq), &data(seq), &mut out, &mut c);
            }
            let sizes: Vec<u32> = out.iter().map(|a| a.size).collect();
            let first = cfg.ack_size + if syn { 4 } else { 0 };
            assert_eq!(sizes, [first, cfg.ack_size, cfg.ack_size], "syn {syn}");
        }
    }

    /// RFC 3168 6.1.3: ECN-Echo until a CWR segment; ns-2.35's `TcpSink::ack` (`ns2_ecn`)
    /// stops on any segment with the congestion-action mark (a timeout's reduction too).
    #[test]
    fn ecn_echo_ends_on_cwr_or_under_ns2_on_a_congestion_action() {
        use crate::packet::ecn;
        for rule in [
            crate::tcp::sender::Ns2Ecn::Off,
            crate::tcp::sender::Ns2Ecn::Ns2,
        ] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.ecn = true;
            cfg.ns2_ecn = rule;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            let seg = |seq, bits| Packet {
                ecn: ecn::ECT | bits,
                ..data(seq)
            };
            s.on_data(SimTime(0), &seg(0, ecn::CE), &mut out, &mut c);
            s.on_data(SimTime(1), &seg(1, ecn::CONG_ACTION), &mut out, &mut c);
            s.on_data(SimTime(2), &seg(2, ecn::CWR), &mut out, &mut c);
            let echoes: Vec<bool> = out.iter().map(|a| a.ecn & ecn::ECE != 0).collect();
            let ns2 = rule != crate::tcp::sender::Ns2Ecn::Off;
            assert_eq!(echoes, [true, !ns2, false], "{rule:?}");
        }
    }

    /// DCTCP's receiver (RFC 8257 3.2): a change of CE state with an ACK held sends one at
    /// once with the old state. Linux's (and the engine's) acknowledges everything before the
    /// segment; ns-3.44's `TcpDctcp::CeState0to1` only up to where the previous segment began
    /// (`m_priorRcvNxt`), which with delayed ACKs repeats the last ACK sent.
    #[test]
    fn dctcp_ce_change_acks_up_to_the_previous_segment_under_ns3() {
        use crate::packet::ecn;
        for ns3 in [false, true] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.sink = SinkKind::Delack;
            cfg.window = 32;
            cfg.ack_delay_ps = 1000;
            let mut p = cfg.params();
            p.ecn_per_segment = true;
            p.ns3_dctcp_ack = ns3;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &p);
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            let seg = |seq, bits| Packet {
                ecn: ecn::ECT | bits,
                ..data(seq)
            };
            s.on_data(SimTime(0), &seg(0, 0), &mut out, &mut c);
            s.on_data(SimTime(1), &seg(1, 0), &mut out, &mut c); // ACK 2
            s.on_data(SimTime(2), &seg(2, 0), &mut out, &mut c); // held
            s.on_data(SimTime(3), &seg(3, ecn::CE), &mut out, &mut c); // CE: 0 -> 1
            let acks: Vec<(u64, bool)> =
                out.iter().map(|a| (a.ack, a.ecn & ecn::ECE != 0)).collect();
            let prior = if ns3 { 2 } else { 3 };
            assert_eq!(acks[..2], [(2, false), (prior, false)], "ns3 {ns3}");
            // The held segment and the CE one: the next ACK covers both, with ECE.
            s.on_data(SimTime(4), &seg(4, ecn::CE), &mut out, &mut c);
            let last = out.last().unwrap();
            assert_eq!((last.ack, last.ecn & ecn::ECE != 0), (5, true));
        }
    }

    /// ns-2.35's FullTcpAgent (`ns2_full_tcp`): a held ACK leaves at the next multiple of
    /// `interval_` (its delayed-ACK timer ticks from time 0 on), not `interval_` after the
    /// segment; `segsperack_` in-order segments still send it at once.
    #[test]
    fn full_tcp_holds_an_ack_until_the_next_tick() {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Delack;
        cfg.window = 32;
        cfg.ack_delay_ps = 100;
        cfg.ns2_full_tcp = true;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(230), &data(0), &mut out, &mut c);
        assert!(out.is_empty());
        assert_eq!(s.deadline(), Some(SimTime(300)));
        s.on_timer(SimTime(300), &mut out, &mut c);
        assert_eq!(out.len(), 1);
        s.on_data(SimTime(400), &data(1), &mut out, &mut c); // on a tick: the next one
        assert_eq!(s.deadline(), Some(SimTime(500)));
        s.on_data(SimTime(410), &data(2), &mut out, &mut c);
        assert_eq!((out.len(), out[1].ack), (2, 3));
        assert_eq!(s.deadline(), None);
    }

    /// FullTcpAgent::need_send counts bytes: with segsperack_ 1 a full segment is
    /// acknowledged at once, a short one (a part of a segment given, `tcp/sender/stream.rs`)
    /// waits for the tick, and a second short one that brings the bytes held to a full
    /// segment's sends the ACK.
    #[test]
    fn full_tcp_counts_the_bytes_of_short_segments() {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Delack;
        cfg.window = 32;
        cfg.ack_delay_ps = 100;
        cfg.segs_per_ack = 1;
        cfg.ns2_full_tcp = true;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(10), &data(0), &mut out, &mut c);
        assert_eq!(out.len(), 1, "a full segment: at once");
        let short = |seq: u64, payload: u32| Packet {
            size: 40 + payload,
            ..data(seq)
        };
        s.on_data(SimTime(20), &short(1, 600), &mut out, &mut c);
        assert_eq!((out.len(), s.deadline()), (1, Some(SimTime(100))));
        s.on_data(SimTime(30), &short(2, 400), &mut out, &mut c);
        assert_eq!(
            (out.len(), out[1].ack),
            (2, 3),
            "600 + 400 bytes: a segment's worth"
        );
        assert_eq!(s.deadline(), None);
    }

    #[test]
    fn acks_every_second_in_order_segment() {
        let mut s = delack_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c);
        assert!(out.is_empty());
        assert_eq!(s.deadline(), Some(SimTime(100)));
        s.on_data(SimTime(10), &data(1), &mut out, &mut c);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ack, 2);
        assert_eq!(s.deadline(), None);
    }

    #[test]
    fn rfc7323_echo_follows_the_segments_at_the_acknowledged_edge() {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.ts_echo_rfc7323 = true;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        for seq in 0..100u64 {
            let mut d = data(seq);
            d.sent_at = SimTime(seq * 1000);
            s.on_data(SimTime(seq * 1000 + 500), &d, &mut out, &mut c);
        }
        // In order, every ACK echoes the segment it acknowledges, not the first one.
        assert_eq!(out.last().unwrap().ts_echo, SimTime(99_000));
        // Out of order: the ACKs keep echoing the last in-order segment (RFC 7323 4.3).
        let mut late = data(101);
        late.sent_at = SimTime(200_000);
        s.on_data(SimTime(200_500), &late, &mut out, &mut c);
        assert_eq!(out.last().unwrap().ts_echo, SimTime(99_000));
    }

    #[test]
    fn timer_flushes_a_lone_segment() {
        let mut s = delack_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c);
        s.on_timer(SimTime(100), &mut out, &mut c);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ack, 1);
    }

    #[test]
    fn out_of_order_and_gap_filling_segments_are_acked_at_once() {
        let mut s = delack_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c);
        s.on_data(SimTime(1), &data(2), &mut out, &mut c); // hole at 1
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ack, 1);
        s.on_data(SimTime(2), &data(1), &mut out, &mut c); // fills the hole
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].ack, 3);
        assert_eq!(c.bytes_delivered, 3000);
    }

    #[test]
    fn sack_blocks_lead_with_the_latest_arrival_and_repeat_recent_ones() {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Sack;
        cfg.window = 64;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        for seq in [0, 1, 3, 4, 7, 9, 10] {
            s.on_data(SimTime(seq), &data(seq), &mut out, &mut c);
        }
        let last = out.last().unwrap();
        assert_eq!(last.ack, 2);
        let blocks: Vec<(u64, u64)> = last.sack.iter(last.ack).collect();
        assert_eq!(blocks, vec![(9, 11), (7, 8), (3, 5)]);
        // Filling the first hole moves the cumulative ACK; reported blocks stay consistent.
        s.on_data(SimTime(20), &data(2), &mut out, &mut c);
        let last = out.last().unwrap();
        assert_eq!(last.ack, 5);
        let blocks: Vec<(u64, u64)> = last.sack.iter(last.ack).collect();
        assert_eq!(blocks, vec![(9, 11), (7, 8)]);
    }

    #[test]
    fn the_syn_waits_like_data_only_with_delack_syn() {
        for (delack_syn, waits) in [(true, true), (false, false)] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.sink = SinkKind::Delack;
            cfg.window = 32;
            cfg.syn = true;
            cfg.delack_syn = delack_syn;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            s.on_data(SimTime(0), &data(0), &mut out, &mut c);
            assert_eq!(out.is_empty(), waits, "delack_syn {delack_syn}");
            // Data after it is delayed either way: every second segment.
            out.clear();
            s.on_data(SimTime(10), &data(1), &mut out, &mut c);
            s.on_data(SimTime(20), &data(2), &mut out, &mut c);
            assert_eq!(out.len(), 1, "delack_syn {delack_syn}");
        }
    }

    /// ns-2.35's DelAckSink::recv delays a segment when, once recorded, it is the cumulative
    /// ACK point and the highest seen (`seqno() == acker_->Seqno()`, not below `Maxseen()`):
    /// a repeat of the last in-order segment waits too. Without `delack_repeat` it is
    /// acknowledged at once; a hole-filler or a repeat below others is, either way.
    #[test]
    fn a_repeat_of_the_last_in_order_segment_waits_only_with_delack_repeat() {
        for (repeat, waits) in [(true, true), (false, false)] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.sink = SinkKind::Delack;
            cfg.window = 32;
            cfg.delack_repeat = repeat;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            for k in 0..4 {
                s.on_data(SimTime(10 * k), &data(k), &mut out, &mut c);
            }
            if let Some(d) = s.deadline() {
                s.on_timer(d, &mut out, &mut c);
            }
            assert_eq!(out.last().map(|p| p.ack), Some(4));
            out.clear();
            let t = SimTime(1_000_000_000_000);
            s.on_data(t, &data(3), &mut out, &mut c);
            assert_eq!(out.is_empty(), waits, "delack_repeat {repeat}");
            assert_eq!(s.deadline().is_some(), waits);
            // With the rule the next new segment leaves with it: one ACK, of segment 4.
            s.on_data(t + SimDuration(10), &data(4), &mut out, &mut c);
            // Without the rule the repeat left alone, and segment 4 waits in turn.
            assert_eq!(out.len(), 1);
            assert_eq!(out[0].ack, if waits { 5 } else { 4 });
            // A repeat below a segment held above a hole is acknowledged at once.
            out.clear();
            s.on_data(t + SimDuration(20), &data(6), &mut out, &mut c);
            s.on_data(t + SimDuration(30), &data(4), &mut out, &mut c);
            assert_eq!(out.len(), 2, "delack_repeat {repeat}");
        }
    }

    /// RFC 5681 4.2 acknowledges at once a segment that fills part of a hole; ns-2.35's
    /// DelAckSink::recv does so only with `RFC2581_immediate_ack_` (its default): false, the
    /// segment that leaves the cumulative ACK at itself waits for the timer even with more held
    /// above it (`delack_gap_fill`).
    #[test]
    fn a_segment_filling_part_of_a_hole_waits_only_with_delack_gap_fill() {
        for (gap_fill, waits) in [(true, true), (false, false)] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.sink = SinkKind::Delack;
            cfg.window = 32;
            cfg.delack_gap_fill = gap_fill;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            for k in 0..2 {
                s.on_data(SimTime(10 * k), &data(k), &mut out, &mut c);
            }
            assert_eq!(out.last().map(|p| p.ack), Some(2));
            out.clear();
            // Segment 5 above a hole: a duplicate ACK at once, under both rules.
            s.on_data(SimTime(100), &data(5), &mut out, &mut c);
            assert_eq!(out.len(), 1);
            out.clear();
            // Segment 2 moves the cumulative ACK to itself; 3 and 4 are still missing.
            s.on_data(SimTime(110), &data(2), &mut out, &mut c);
            assert_eq!(out.is_empty(), waits, "delack_gap_fill {gap_fill}");
            if let Some(d) = s.deadline() {
                s.on_timer(d, &mut out, &mut c);
            }
            assert_eq!(out.last().map(|p| p.ack), Some(3));
        }
    }

    /// IKRSimLib's receiver (`TCP_Receiver::ReceiveDataPacket`): a segment filling part of a
    /// hole waits (`delack_gap_fill`), but a duplicate of one already received, ending at or
    /// below the next expected byte, is out of order and acknowledged at once
    /// (`delack_dup_at_once`); ns-2's rule lets it wait too.
    #[test]
    fn a_duplicate_is_acknowledged_at_once_only_with_delack_dup_at_once() {
        for (dup_at_once, waits) in [(true, false), (false, true)] {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.sink = SinkKind::Delack;
            cfg.window = 32;
            cfg.delack_gap_fill = true;
            cfg.delack_dup_at_once = dup_at_once;
            let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            for k in 0..2 {
                s.on_data(SimTime(10 * k), &data(k), &mut out, &mut c);
            }
            s.on_data(SimTime(100), &data(4), &mut out, &mut c);
            // Segment 2 fills part of the hole: it waits under both.
            out.clear();
            s.on_data(SimTime(110), &data(2), &mut out, &mut c);
            assert!(out.is_empty(), "delack_dup_at_once {dup_at_once}");
            if let Some(d) = s.deadline() {
                s.on_timer(d, &mut out, &mut c);
            }
            out.clear();
            // A second copy of segment 2 (a go-back-N resend).
            s.on_data(SimTime(200), &data(2), &mut out, &mut c);
            assert_eq!(out.is_empty(), waits, "delack_dup_at_once {dup_at_once}");
        }
    }

    #[test]
    fn the_first_quick_acks_data_segments_are_acknowledged_at_once() {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Delack;
        cfg.window = 64;
        cfg.syn = true;
        cfg.delack_syn = false;
        cfg.quick_acks = 4;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        for seq in 0..9u64 {
            s.on_data(SimTime(seq * 10), &data(seq), &mut out, &mut c);
        }
        // The SYN and data 1-4 one ACK each; then every second segment: 6, 8.
        let acks: Vec<u64> = out.iter().map(|p| p.ack).collect();
        assert_eq!(acks, vec![1, 2, 3, 4, 5, 7, 9]);
    }
}

mod linux_tests {
    use super::super::*;
    use super::tests_support::data;

    const MS: u64 = 1_000_000_000;

    fn linux_sink() -> TcpSink {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Sack;
        cfg.delayed_ack = true;
        cfg.window = 64;
        cfg.syn = true;
        cfg.delack_syn = false;
        cfg.ack_delay_ps = 40 * MS;
        cfg.adaptive_ack_delay = true;
        cfg.sack_compression = true;
        TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params())
    }

    #[test]
    fn a_lone_segment_per_round_trip_waits_longer_each_time_up_to_the_rtt() {
        // tcp_delack_timer_handler doubles ato; tcp_send_delayed_ack bounds it by the
        // handshake's RTT (100 ms here).
        let mut s = linux_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c); // the SYN
        let mut waits = Vec::new();
        for k in 1..6u64 {
            let t = SimTime(k * 100 * MS);
            s.on_data(t, &data(k), &mut out, &mut c);
            let d = s.deadline().unwrap();
            waits.push((d.0 - t.0) / MS);
            s.on_timer(d, &mut out, &mut c);
        }
        assert_eq!(waits, vec![40, 80, 100, 100, 100]);
    }

    #[test]
    fn a_lone_pushed_segment_is_acknowledged_at_once() {
        // tcp_measure_rcv_mss marks a segment with PSH ICSK_ACK_PUSHED and tcp_cleanup_rbuf
        // acknowledges it once the application has read it: no delayed-ACK wait. The same
        // lone segment without PSH waits for the timer.
        for (flags, at_once) in [(tcp_flags::PSH, true), (0, false)] {
            let mut s = linux_sink();
            let (mut out, mut c) = (Vec::new(), FlowCounters::default());
            s.on_data(SimTime(0), &data(0), &mut out, &mut c); // the SYN
                                                               // Forty segments 0.1 ms apart use up the quick ACKs; none is left waiting.
            for k in 1..41u64 {
                s.on_data(SimTime(100 * MS + k * MS / 10), &data(k), &mut out, &mut c);
            }
            assert_eq!((s.quick_left, s.deadline()), (0, None));
            out.clear();
            let mut seg = data(41);
            seg.flags = flags;
            s.on_data(SimTime(150 * MS), &seg, &mut out, &mut c);
            assert_eq!(out.len(), usize::from(at_once), "flags {flags}");
            assert_eq!(s.deadline().is_some(), !at_once);
        }
    }

    #[test]
    fn duplicate_acks_after_the_third_are_compressed() {
        let mut s = linux_sink();
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c);
        s.on_data(SimTime(100 * MS), &data(1), &mut out, &mut c);
        s.on_timer(s.deadline().unwrap(), &mut out, &mut c);
        out.clear();
        // Segment 2 is lost; 3..10 arrive 0.1 ms apart.
        let t0 = 300 * MS;
        for k in 3..11u64 {
            s.on_data(SimTime(t0 + (k - 3) * MS / 10), &data(k), &mut out, &mut c);
        }
        assert_eq!(out.len(), 3, "three duplicate ACKs at once");
        // The rest wait min(1 ms, 100 ms / 20) from the fourth's arrival: one ACK for five.
        let d = s.deadline().unwrap();
        assert_eq!(d, SimTime(t0 + 3 * MS / 10 + MS));
        s.on_timer(d, &mut out, &mut c);
        assert_eq!(out.len(), 4);
        let blocks: Vec<(u64, u64)> = out[3].sack.iter(out[3].ack).collect();
        assert_eq!((out[3].ack, blocks[0]), (2, (3, 11)));
        // The retransmission filling the hole is acknowledged at once (below).
        s.on_data(SimTime(t0 + 50 * MS), &data(2), &mut out, &mut c);
        assert_eq!(out.len(), 5);
        assert_eq!(out[4].ack, 11);
    }
}

mod linux_list_tests {
    use super::super::*;
    use super::tests_support::data;

    const MS: u64 = 1_000_000_000;

    #[test]
    fn every_block_made_while_compressing_is_reported() {
        // tcp_sack_new_ofo_skb: a new block with two or more listed sends the compressed ACK
        // first, so that no block goes unreported when ACKs carry three.
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.sink = SinkKind::Sack;
        cfg.delayed_ack = true;
        cfg.window = 64;
        cfg.syn = true;
        cfg.delack_syn = false;
        cfg.ack_delay_ps = 40 * MS;
        cfg.sack_compression = true;
        let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
        let (mut out, mut c) = (Vec::new(), FlowCounters::default());
        s.on_data(SimTime(0), &data(0), &mut out, &mut c);
        s.on_data(SimTime(100 * MS), &data(1), &mut out, &mut c);
        s.on_timer(s.deadline().unwrap(), &mut out, &mut c);
        // Segment 2 lost, then every other segment from 7: holes at 2, 6, 8, 10, 12.
        let arrivals = [3u64, 4, 5, 7, 9, 11, 13];
        for (k, &q) in arrivals.iter().enumerate() {
            s.on_data(
                SimTime(300 * MS + k as u64 * MS / 10),
                &data(q),
                &mut out,
                &mut c,
            );
        }
        while let Some(d) = s.deadline() {
            s.on_timer(d, &mut out, &mut c);
        }
        let mut seen: Vec<(u64, u64)> = out.iter().flat_map(|p| p.sack.iter(p.ack)).collect();
        seen.sort();
        seen.dedup();
        for b in [(3, 6), (7, 8), (9, 10), (11, 12), (13, 14)] {
            assert!(seen.contains(&b), "block {b:?} never reported: {seen:?}");
        }
        // Arrivals that grow the front block are compressed: one ACK for three.
        let before = out.len();
        for q in 14..17u64 {
            s.on_data(SimTime(400 * MS + q * MS / 10), &data(q), &mut out, &mut c);
        }
        s.on_timer(s.deadline().unwrap(), &mut out, &mut c);
        assert_eq!(out.len(), before + 1);
        assert_eq!(out.last().unwrap().sack.iter(2).next(), Some((13, 17)));
    }
}

mod layout_tests {
    use super::super::*;
    use std::mem::{align_of, offset_of, size_of};

    #[test]
    fn what_every_segment_touches_comes_first() {
        assert_eq!(align_of::<TcpSink>(), 64);
        let hot_end = offset_of!(TcpSink, sack) + 1;
        assert!(hot_end <= 3 * 64, "hot fields end at {hot_end}");
        assert!(offset_of!(TcpSink, ranges) >= offset_of!(TcpSink, sack));
        assert!(size_of::<TcpSink>() <= 4 * 64);
    }
}

mod plain_path {
    use super::super::*;
    use super::tests_support::data;

    /// The plain sink's path (`on_data_with::<true>`, `ack_with::<true>`, `deadline`) answers
    /// what the general one does: one script of segments (in order, a hole and its repair,
    /// duplicates, CE marks and a CWR, timer expiries) given to a sink on each path leaves
    /// the same ACKs, counters, deadlines and every field of the sink, for each plain sink
    /// (ACK every segment, delayed ACKs, ns-2's and RFC 7323's echo, SACK with and without
    /// delayed ACKs, ns-2's DelAck rules, a SYN).
    #[test]
    fn the_plain_receive_path_answers_as_the_general_one_does() {
        let with = |edit: &dyn Fn(&mut crate::scenario::TcpConfig)| {
            let mut cfg = crate::fixtures::ns2_tcp();
            cfg.window = 64;
            cfg.ack_delay_ps = 1_000;
            edit(&mut cfg);
            cfg
        };
        for (name, cfg) in [
            ("ack-every", with(&|_| {})),
            ("delack", with(&|c| c.sink = SinkKind::Delack)),
            ("sack", with(&|c| c.sink = SinkKind::Sack)),
            (
                "sack, delayed",
                with(&|c| {
                    c.sink = SinkKind::Sack;
                    c.delayed_ack = true;
                }),
            ),
            (
                "delack, ns-2's rules",
                with(&|c| {
                    c.sink = SinkKind::Delack;
                    c.delack_repeat = true;
                    c.delack_gap_fill = true;
                }),
            ),
            (
                "rfc 7323, syn",
                with(&|c| {
                    c.ts_echo_rfc7323 = true;
                    c.syn = true;
                }),
            ),
        ] {
            let run = |plain: bool| {
                let mut s = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
                assert!(s.plain, "{name}: this sink is plain");
                s.plain = plain;
                let (mut out, mut c) = (Vec::new(), FlowCounters::default());
                let mut deadlines = Vec::new();
                let order = [
                    0, 1, 2, 3, 5, 6, 7, 4, 8, 8, 9, 11, 13, 10, 12, 14, 15, 15, 16,
                ];
                for (k, &seq) in order.iter().enumerate() {
                    let now = SimTime(10_000 * (k as u64 + 1));
                    if let Some(t) = s.deadline().filter(|&t| t <= now) {
                        s.on_timer(t, &mut out, &mut c);
                    }
                    let mut p = data(seq);
                    p.sent_at = SimTime(now.0 - 3_000 - seq);
                    p.ecn = match k {
                        6 | 7 => crate::packet::ecn::CE,
                        9 => crate::packet::ecn::CWR,
                        _ => 0,
                    };
                    s.on_data(now, &p, &mut out, &mut c);
                    deadlines.push(s.deadline());
                }
                s.plain = true; // the one field that differs by design
                (format!("{out:?}"), c, deadlines, format!("{s:?}"))
            };
            let (plain, general) = (run(true), run(false));
            assert!(plain.1.acks_sent >= 8, "{name}: {:?}", plain.1);
            assert_eq!(plain.1, general.1, "{name}: counters");
            assert_eq!(plain.0, general.0, "{name}: ACKs");
            assert_eq!(plain.2, general.2, "{name}: deadlines");
            assert_eq!(plain.3, general.3, "{name}: the sink");
        }
    }

    /// DCTCP's echo, flow control and Linux's ACK timing make a sink not plain.
    #[test]
    fn plain_only_without_the_rarer_receive_parts() {
        let not_plain = |edit: &dyn Fn(&mut crate::scenario::TcpConfig)| {
            let mut cfg = crate::fixtures::ns2_tcp();
            edit(&mut cfg);
            !TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params()).plain
        };
        assert!(!not_plain(&|_| {}));
        assert!(not_plain(&|c| c.cc = "dctcp".parse().unwrap()));
        assert!(not_plain(&|c| c.rcv_buffer_bytes = Some(64_000)));
        assert!(not_plain(&|c| {
            c.sink = SinkKind::Delack;
            c.adaptive_ack_delay = true;
        }));
    }
}
