use super::*;
use crate::queue::Backlog;
use crate::time::SimTime;

fn params() -> RedParams {
    RedParams {
        limit_packets: 100,
        min_thresh: 5.0,
        max_thresh: 15.0,
        q_weight: 0.002,
        max_p: 0.1,
        gentle: false,
        wait: true,
        bytes: false,
        queue_in_bytes: false,
        mean_pktsize: 1000,
        target_delay_s: 0.005,
        ecn: false,
        use_mark_p: true,
        mark_p: 0.1,
        mark_p_strict: false,
        cautious: 0,
        idle_pktsize: 100,
        ns1_compat: false,
        early_drop_target: false,
        hard_drop: true,
        idle_pow: false,
    }
}

fn red(p: RedParams) -> Red {
    Red::new(p, 10e6, 0.01, RandomStream::named(1, "red"))
}

fn arrival(now_s: f64, packets: u64, idle_since: Option<f64>) -> Arrival<'static> {
    let ps = |s: f64| SimTime((s * 1e12) as u64);
    Arrival {
        now: ps(now_s),
        backlog: Backlog {
            packets,
            bytes: packets * 1000,
        },
        size: 1000,
        pkt: &crate::packet::Packet::TEST,
        idle_since: idle_since.map(ps),
        busy_until: ps(now_s),
        idle_ns2: None,
    }
}

/// ns-2's `trace curq_` / `trace ave_`: a row per arrival that changed either, the
/// backlog it found and the average after it; nothing unless asked for.
#[test]
fn traced_variables_record_their_changes() {
    let mut r = red(params());
    r.admit(&arrival(0.0, 0, None));
    assert!(r.var_trace.is_none());
    *<Red as QueueDiscipline>::var_trace(&mut r).unwrap() = Some(Box::default());
    // An arrival to an empty queue with a zero average changes nothing.
    r.admit(&arrival(0.001, 0, None));
    r.admit(&arrival(0.002, 2, None));
    r.admit(&arrival(0.003, 2, None));
    let rows = &r.var_trace.as_ref().unwrap().rows;
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].0, rows[0].1), (SimTime(2_000_000_000), 2.0));
    assert!((rows[0].2 - 0.002 * 2.0).abs() < 1e-15);
    assert_eq!(rows[1].1, 2.0);
    assert!((rows[1].2 - r.avg()).abs() < 1e-15 && rows[1].2 > rows[0].2);
}

#[test]
fn average_follows_the_ewma() {
    let mut r = red(params());
    let mut expect = 0.0f64;
    for i in 0..50 {
        r.admit(&arrival(i as f64 * 1e-3, 3, None));
        expect = (1.0 - 0.002) * expect + 0.002 * 3.0;
    }
    assert!(
        (r.avg() - expect).abs() < 1e-12,
        "{} vs {}",
        r.avg(),
        expect
    );
}

#[test]
fn idle_time_decays_the_average_as_virtual_arrivals() {
    let mut r = red(params());
    r.avg = 10.0;
    // 10 Mb/s and 1000-byte packets: ptc = 1250/s; 40 ms idle = 50 virtual arrivals.
    r.admit(&arrival(1.04, 0, Some(1.0)));
    let expect = 10.0 * 0.998f64.powi(50) * 0.998;
    assert!((r.avg() - expect).abs() < 1e-9, "{} vs {}", r.avg(), expect);
}

/// ns-3's `RedQueueDisc::Estimator`: the idle decay as one power, m = int(ptc t) with t
/// in seconds; ns-2's m multiplications agree to the last bits or so.
#[test]
fn idle_pow_decays_as_one_power() {
    let mut r = red(RedParams {
        idle_pow: true,
        ..params()
    });
    r.avg = 10.0;
    r.admit(&arrival(1.04, 3, Some(1.0)));
    let expect = 10.0 * 0.998f64.powf(51.0) + 0.002 * 3.0;
    assert_eq!(r.avg(), expect);
    let mut ns2 = red(params());
    ns2.avg = 10.0;
    ns2.admit(&arrival(1.04, 3, Some(1.0)));
    assert!((ns2.avg() - expect).abs() < 1e-12);
}

fn held() -> Red {
    let mut r = red(RedParams {
        limit_packets: 3,
        q_weight: 0.5,
        min_thresh: 100.0,
        max_thresh: 200.0,
        ..params()
    });
    r.set_held();
    r
}

/// Above a device queue RED holds its packets in a FIFO of its limit, and its average
/// follows its own backlog, not the line's (`RedQueueDisc::DoEnqueue`).
#[test]
fn held_red_averages_its_own_packets_and_drops_at_its_limit() {
    let mut r = held();
    assert!(QueueDiscipline::holds(&r));
    assert!(!QueueDiscipline::holds(&red(params())));
    let mut dropped = Vec::new();
    let ms = |x: u64| SimTime(x * 1_000_000_000);
    for i in 0..4 {
        r.enqueue(ms(1), Packet::test_udp(i, 0, 1000), &mut dropped);
    }
    // Averages of 0, 1 and 2 packets found (w_q 0.5): 0, 0.5, 1.25, then 3 found and the
    // fourth dropped at the limit.
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0].id, 3);
    assert_eq!(r.avg(), 0.5 * 1.25 + 0.5 * 3.0);
    assert_eq!(r.backlog().packets, 3);
    let (at, first) = r.dequeue(ms(2), &mut dropped).unwrap();
    assert_eq!((at, first.id), (ms(1), 0));
    assert_eq!(r.limits(), (Some(3), None));
    let mut n = 0;
    r.for_each_packet(&mut |_| n += 1);
    assert_eq!(n, 2);
}

/// Its idle period starts when a dequeue finds it empty (`RedQueueDisc::DoDequeue`), not
/// when the line goes idle, and the next arrival decays the average by ptc t.
#[test]
fn held_red_is_idle_from_its_empty_dequeue() {
    let ms = |x: u64| SimTime(x * 1_000_000_000);
    let mut dropped = Vec::new();
    let mut r = held();
    r.enqueue(ms(0), Packet::test_udp(0, 0, 1000), &mut dropped);
    r.enqueue(ms(0), Packet::test_udp(1, 0, 1000), &mut dropped);
    assert_eq!(r.avg(), 0.5);
    r.dequeue(ms(1), &mut dropped).unwrap();
    r.dequeue(ms(1), &mut dropped).unwrap();
    // Emptied by a dequeue that found a packet: not idle yet.
    r.enqueue(ms(9), Packet::test_udp(2, 0, 1000), &mut dropped);
    assert_eq!(r.avg(), 0.25);
    r.dequeue(ms(10), &mut dropped).unwrap();
    assert!(r.dequeue(ms(10), &mut dropped).is_none());
    // 10 Mb/s and 1000-byte packets: ptc = 1250/s; idle 10 to 50 ms: 50 virtual arrivals.
    r.enqueue(ms(50), Packet::test_udp(3, 0, 1000), &mut dropped);
    assert_eq!(r.avg(), 0.25 * 0.5f64.powi(51));
    assert!(dropped.is_empty());
}

/// A mark above a device queue sets CE on the packet it keeps and is counted.
#[test]
fn held_red_marks_what_it_keeps() {
    let mut r = red(RedParams {
        ecn: true,
        hard_drop: false,
        min_thresh: 1.0,
        max_thresh: 1.0,
        q_weight: 1.0,
        ..params()
    });
    r.set_held();
    let mut dropped = Vec::new();
    for i in 0..3 {
        let mut p = Packet::test_udp(i, 0, 1000);
        p.ecn = crate::packet::ecn::ECT;
        r.enqueue(SimTime(i), p, &mut dropped);
    }
    assert!(dropped.is_empty());
    assert_eq!(
        QueueDiscipline::marks(&r),
        1,
        "the third finds 2 queued, above K = 1"
    );
    let ce: Vec<bool> = (0..3)
        .map(|_| r.dequeue(SimTime(9), &mut dropped).unwrap().1.ecn & crate::packet::ecn::CE != 0)
        .collect();
    assert_eq!(ce, [false, false, true]);
}

#[test]
fn base_probability_is_linear_between_the_thresholds() {
    let r = red(params());
    assert_eq!(r.base_probability(5.0), 0.0);
    assert!((r.base_probability(10.0) - 0.05).abs() < 1e-15);
    assert_eq!(r.base_probability(15.0), 1.0);
    let g = red(RedParams {
        gentle: true,
        ..params()
    });
    assert!((g.base_probability(15.0) - 0.1).abs() < 1e-15);
    // Gentle: halfway from max_th to 2 max_th is halfway from max_p to 1.
    assert!((g.base_probability(22.5) - 0.55).abs() < 1e-12);
    assert_eq!(g.base_probability(30.0), 1.0);
}

#[test]
fn uniform_spacing_with_and_without_wait() {
    let mut r = red(RedParams {
        wait: false,
        ..params()
    });
    r.count = 4;
    assert!((r.actual_probability(0.1, 1000) - 0.1 / 0.6).abs() < 1e-15);
    let mut w = red(params());
    w.count = 4;
    assert_eq!(w.actual_probability(0.1, 1000), 0.0);
    w.count = 15;
    assert!((w.actual_probability(0.1, 1000) - 0.1 / 0.5).abs() < 1e-15);
    w.count = 25;
    assert_eq!(w.actual_probability(0.1, 1000), 1.0);
}

#[test]
fn byte_mode_scales_by_packet_size() {
    let mut r = red(RedParams {
        wait: false,
        bytes: true,
        ..params()
    });
    r.count_bytes = 2500; // two whole mean-size packets
    let p = r.actual_probability(0.1, 500);
    assert!((p - 0.1 / 0.8 * 0.5).abs() < 1e-15, "{p}");
}

#[test]
fn drop_gaps_are_uniform_as_ns2_counts_them() {
    // A steady average of 10 packets: p_b = 0.05. Counting the arrival itself (ns-2
    // increments count before deciding), P(gap = c) = p_b / (1 - p_b) for c = 1 ..
    // 1/p_b - 1: uniform with mean 1 / (2 p_b), a drop frequency of 2 p_b.
    let mut r = red(RedParams {
        q_weight: 1.0,
        wait: false,
        ..params()
    });
    let mut drops = 0;
    let mut gaps = [0u32; 32];
    let mut last = 0usize;
    let n = 200_000;
    for i in 0..n {
        if r.admit(&arrival(i as f64 * 1e-4, 10, None)) == Verdict::Drop {
            drops += 1;
            gaps[(i - last).min(31)] += 1;
            last = i;
        }
    }
    let got = drops as f64 / n as f64;
    assert!((got - 0.1).abs() < 0.004, "{got}");
    assert_eq!(
        gaps[20..].iter().sum::<u32>(),
        0,
        "no gap beyond 1/p_b - 1: {gaps:?}"
    );
}

#[test]
fn early_drops_to_their_own_target_are_told_apart() {
    // REDQueue::enque: a DTYPE_UNFORCED drop goes to de_drop_, a forced one (the limit)
    // to the drop target as ever.
    let mut r = red(RedParams {
        q_weight: 1.0,
        wait: false,
        limit_packets: 12,
        early_drop_target: true,
        ..params()
    });
    let (mut early, mut forced) = (0, 0);
    for i in 0..2000 {
        match r.admit(&arrival(
            i as f64 * 1e-4,
            if i % 2 == 0 { 10 } else { 12 },
            None,
        )) {
            Verdict::EarlyDrop => early += 1,
            Verdict::Drop => forced += 1,
            _ => {}
        }
    }
    assert_eq!((early, forced), (r.early_drops, r.forced_drops));
    assert!(early > 10 && forced == 1000, "{early} {forced}");
}

#[test]
fn a_step_marker_without_hard_drop_marks_every_arrival_at_k_as_ns3() {
    // ns-3's RedQueueDisc with MinTh = MaxTh = K, QW 1, not gentle, UseEcn and UseHardDrop
    // false: DoEnqueue's DTYPE_FORCED comes before the m_old test, so the first arrival of
    // an episode at K is marked too; ns-2's DCTCP marker (mark_p 1) lets it through.
    let step = |hard_drop: bool, use_mark_p: bool| {
        red(RedParams {
            limit_packets: 1000,
            min_thresh: 65.0,
            max_thresh: 65.0,
            q_weight: 1.0,
            gentle: false,
            ecn: true,
            mark_p: 1.0,
            use_mark_p,
            hard_drop,
            ..params()
        })
    };
    let ect = |q: u64| {
        let mut a = arrival(0.0, q, None);
        a.pkt = &crate::packet::Packet::TEST_ECT;
        a
    };
    // The queue alternates 64, 65 at the arrivals (ns-3's pairs while it sits at K).
    let queue = [64, 65, 64, 65, 66, 64, 65];
    let mut ns3 = step(false, true);
    let got: Vec<Verdict> = queue.iter().map(|&q| ns3.admit(&ect(q))).collect();
    use Verdict::{Admit, Mark};
    assert_eq!(got, [Admit, Mark, Admit, Mark, Mark, Admit, Mark]);
    assert_eq!(ns3.marks, 4);
    let mut ns2 = step(true, true);
    let got: Vec<Verdict> = queue.iter().map(|&q| ns2.admit(&ect(q))).collect();
    assert_eq!(got, [Admit, Admit, Admit, Admit, Mark, Admit, Admit]);
    // A packet that is not ECN-capable is still dropped by the forced decision.
    assert_eq!(
        step(false, true).admit(&arrival(0.0, 70, None)),
        Verdict::Drop
    );
    // So is an ECN-capable one under hard_drop (ns-3's default) without use_mark_p.
    assert_eq!(step(true, false).admit(&ect(70)), Verdict::Drop);
    // And a full queue drops whatever the decision.
    let mut full = step(false, true);
    full.limit = 70.0;
    assert_eq!(full.admit(&ect(70)), Verdict::Drop);
}

#[test]
fn forced_drop_at_the_limit_and_marks_with_ecn() {
    let mut r = red(RedParams {
        limit_packets: 20,
        min_thresh: 50.0,
        max_thresh: 90.0,
        ..params()
    });
    assert_eq!(r.admit(&arrival(0.0, 19, None)), Verdict::Admit);
    assert_eq!(r.admit(&arrival(0.0, 20, None)), Verdict::Drop);
    let mut e = red(RedParams {
        q_weight: 1.0,
        wait: false,
        ecn: true,
        ..params()
    });
    let mut a = arrival(0.0, 8, None);
    a.pkt = &crate::packet::Packet::TEST_ECT;
    let mut marks = 0;
    for _ in 0..1000 {
        match e.admit(&a) {
            Verdict::Mark => marks += 1,
            Verdict::Drop | Verdict::EarlyDrop => {
                panic!("an ECN-capable packet below mark_p is marked, not dropped")
            }
            Verdict::Admit => {}
        }
    }
    assert!(marks > 10);
}

#[test]
fn automatic_parameters_follow_ns2() {
    let r = Red::new(
        RedParams {
            min_thresh: 0.0,
            max_thresh: 0.0,
            q_weight: -1.0,
            mean_pktsize: 500,
            queue_in_bytes: false,
            ..params()
        },
        10e6,
        0.029,
        RandomStream::named(1, "red"),
    );
    let ptc = 10e6 / 4000.0;
    let rtt = (3.0f64 * (0.029 + 1.0 / ptc)).max(0.1);
    let (qw, lo, hi) = r.resolved();
    assert!((qw - (1.0 - (-1.0 / (10.0 * rtt * ptc)).exp())).abs() < 1e-15);
    // target 5 ms x 2500 pkt/s / 2 = 6.25 > 5.
    assert!((lo - 6.25).abs() < 1e-12);
    assert!((hi - 18.75).abs() < 1e-12);
}

/// Adaptive RED inside RED: a queue held above the target band raises max_p by
/// min(0.01, max_p / 4) per 0.5 s, up to 0.5; one held below lowers it by 10% per 0.5 s.
#[test]
fn adaptive_red_moves_max_p_with_the_average() {
    use crate::queue::ared::{Ared, AredParams};
    let mut r = red(RedParams {
        q_weight: 0.5,
        limit_packets: 1000,
        ..params()
    });
    r.set_adaptive(Ared::new(AredParams::default(), 10e6, 1000));
    // Arrivals every 10 ms from 5 ms to 5.095 s, 13 packets queued (band [9, 11]).
    for i in 0..510 {
        r.admit(&arrival(0.005 + i as f64 * 0.01, 13, None));
    }
    // Changes at the first arrival after 0.5 s, then 0.5 s after each change: 10 of them.
    let mut expect = 0.1f64;
    for _ in 0..10 {
        expect += 0.01f64.min(expect / 4.0);
    }
    assert!(
        (r.max_p() - expect).abs() < 1e-12,
        "{} vs {expect}",
        r.max_p()
    );
    assert!((r.base_probability(10.0) - expect / 2.0).abs() < 1e-12);
}

#[test]
fn nonlinear_red_is_quadratic_between_the_thresholds() {
    let mut r = red(params());
    r.set_nonlinear(true);
    // Thresholds 5 and 15, max_p 0.1: halfway gives 1.5 x 0.25 x 0.1.
    assert!((r.base_probability(10.0) - 0.0375).abs() < 1e-15);
    assert!(
        (r.base_probability(15.0) - 1.0).abs() < 1e-15,
        "above max_th, not gentle"
    );
}
