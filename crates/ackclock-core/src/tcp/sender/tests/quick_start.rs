//! Quick-Start at the sender (`sender/quick_start.rs`; ns-2.35's `TcpAgent::output`,
//! `processQuickStart`, `endQuickStart`, `send_much`).

use super::*;
use crate::net::quick_start::{QsOption, RateFunction};
use crate::tcp::params::QuickStartParams;

const MS: u64 = 1_000_000_000;

/// An ns-2 NewReno agent with a SYN (ns-2's `syn_`, `delay_growth_`), ns-2's timer (tick 10
/// ms), asking for 20 KB/s (encoded linearly: 2 units of 10 KB/s), with `n` segments to send.
fn qs_sender(n: u64, rtt_ms: u32) -> (TcpSender, Vec<Packet>, FlowCounters) {
    let mut cfg = ns2_tcp();
    cfg.window = 1000;
    cfg.syn = true;
    cfg.ns2_rtt_timer = true;
    cfg.quick_start = 20;
    let mut p = cfg.params();
    p.quick_start = Some(QuickStartParams {
        rate_kbytes: 20,
        rtt_ms,
        thresh: 4,
        recovery: true,
    });
    let cc = cfg.congestion_control().unwrap();
    let mut s = TcpSender::new(FlowId(0), NodeId(0), NodeId(1), &p, Recovery::NewReno, cc);
    s.use_quick_start(RateFunction::Linear, None);
    let (mut out, mut c) = (Vec::new(), FlowCounters::default());
    s.advance_to(n, SimTime(0), &mut out, &mut c);
    (s, out, c)
}

/// The ACK of the SYN, `rtt` after it left, carrying `report`.
fn syn_ack(report: Option<QsOption>) -> Packet {
    let mut a = ackp(1);
    a.set_quick_start(report);
    a
}

#[test]
fn the_first_segment_carries_the_request() {
    let (_, out, _) = qs_sender(80, 0);
    assert_eq!(out.len(), 1, "the SYN alone");
    // 20 KB/s = 20 480 B/s: (int) 20480 / 10240 = 2.
    assert_eq!(
        out[0].quick_start(),
        Some(QsOption {
            rate: 2,
            intact: true
        })
    );
}

#[test]
fn the_request_is_sized_by_the_data_with_qs_rtt() {
    // qs_request_mode_ 1, qs_rtt_ 1000 ms: 10 segments of 1040 bytes = 10 KB (int) per
    // second, below the 20 asked: 10 KB/s, 1 unit.
    let (_, out, _) = qs_sender(11, 1000);
    assert_eq!(out[0].quick_start().map(|o| o.rate), Some(1));
    // Fewer than qs_thresh_ (4) segments waiting: no request.
    let (_, out, _) = qs_sender(3, 1000);
    assert_eq!(out[0].quick_start(), None);
}

#[test]
fn an_approved_rate_sets_the_window_and_paces_it() {
    let (mut s, mut out, mut c) = qs_sender(80, 0);
    out.clear();
    let t = SimTime(1000 * MS);
    let report = QsOption {
        rate: 2,
        intact: true,
    };
    s.on_ack(t, &syn_ack(Some(report)), &mut out, &mut c);
    // processQuickStart: (int) (20480 B/s * 1.0 s / 1040 B) = 19 segments > windowInit_.
    assert_eq!(s.w.cwnd, 19.0);
    assert_eq!(out.len(), 1, "one segment, then the delayed-send timer");
    assert!(
        out[0].ecn & crate::packet::ecn::QS_WINDOW != 0,
        "sent at the approved rate"
    );
    // t_rtt_ = 100 ticks of 10 ms: 1.0 s / 19 later.
    let gap = SimDuration::from_secs_f64(1.0 / 19.0);
    assert_eq!(s.pace_deadline(), Some(t + gap));
    // An ACK meanwhile (a duplicate) sends nothing: the timer holds send_much.
    s.on_pace(SimTime(t.0 + gap.0 - 1), &mut out, &mut c);
    assert_eq!(out.len(), 1);
    s.on_pace(t + gap, &mut out, &mut c);
    assert_eq!(out.len(), 2, "the timer's send_much: the next segment");
    // The next new ACK ends Quick-Start (endQuickStart): no more pacing; cwnd stays (19
    // sent beyond the ACK would be more than the 2 sent), then opens by one.
    let t2 = SimTime(2100 * MS);
    s.on_ack(t2, &ackp(2), &mut out, &mut c);
    assert!(s.w.cwnd <= 20.0);
    assert!(!s.qs_holds() || s.pace_deadline().is_some());
}

#[test]
fn a_broken_or_missing_answer_leaves_the_initial_window() {
    for report in [
        None,
        Some(QsOption {
            rate: 2,
            intact: false,
        }),
    ] {
        let (mut s, mut out, mut c) = qs_sender(80, 0);
        out.clear();
        s.on_ack(SimTime(1000 * MS), &syn_ack(report), &mut out, &mut c);
        assert_eq!(s.w.cwnd, 2.0, "windowInit_ ({report:?})");
        assert_eq!(out.len(), 2);
        assert_eq!(s.pace_deadline(), None);
        assert!(out
            .iter()
            .all(|p| p.ecn & crate::packet::ecn::QS_WINDOW == 0));
    }
}
