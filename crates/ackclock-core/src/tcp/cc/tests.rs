use super::*;

fn ack() -> AckEvent {
    AckEvent::one_segment(SimTime::ZERO, Some(SimDuration::from_millis(100)))
}

/// RFC 3742 section 2: above max_ssthresh, each ACK in slow start adds 1/K segment with
/// K = floor(cwnd / (0.5 max_ssthresh)); at or below it, one segment. The flow's
/// `max_ssthresh` is a TCP parameter: every algorithm that slow-starts like Reno honours it.
#[test]
fn every_reno_slow_start_is_limited_above_max_ssthresh() {
    for name in [
        "reno",
        "highspeed",
        "scalable",
        "bic",
        "cubic",
        "westwood",
        "westwood_original",
        "htcp",
    ] {
        let mut cc = AnyCc::by_name(name);
        let mut w = Window::new(80.0, f64::INFINITY, 1e9);
        w.max_ssthresh = 100.0;
        cc.cong_avoid(&mut w, ack());
        assert_eq!(w.cwnd, 81.0, "{name}: at or below max_ssthresh, +1 per ACK");
        w.cwnd = 400.0;
        cc.cong_avoid(&mut w, ack());
        // K = floor(400 / 50) = 8.
        assert!((w.cwnd - 400.125).abs() < 1e-12, "{name}: {}", w.cwnd);
        // One window of ACKs (a round trip) adds about max_ssthresh / 2 = 50 segments.
        w.cwnd = 400.0;
        for _ in 0..400 {
            cc.cong_avoid(&mut w, ack());
        }
        assert!((w.cwnd - 450.0).abs() < 1.5, "{name}: {}", w.cwnd);
        // max_ssthresh 0 turns it off: Reno's +1 per ACK.
        let mut cc = AnyCc::by_name(name);
        w.max_ssthresh = 0.0;
        w.cwnd = 400.0;
        cc.cong_avoid(&mut w, ack());
        assert_eq!(w.cwnd, 401.0, "{name}");
    }
}

/// The registry is consistent: unique names, every default inside its range, and every
/// algorithm builds with its defaults under the name it registered.
#[test]
fn every_registered_algorithm_builds_with_its_defaults() {
    for (i, info) in REGISTRY.iter().enumerate() {
        assert!(
            REGISTRY[..i].iter().all(|o| o.name != info.name),
            "{}",
            info.name
        );
        for (j, p) in info.params.iter().enumerate() {
            assert!(p.range.contains(p.default), "{}.{}", info.name, p.name);
            assert!(info.params[..j].iter().all(|o| o.name != p.name));
        }
        assert_eq!(AnyCc::by_name(info.name).name(), info.name);
        // Its typed parameters are its declaration, a field per parameter by its name.
        let (fields, params) = PARAM_SETS[i];
        let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
        assert_eq!(fields, names, "{}", info.name);
        assert_eq!(params.len(), names.len(), "{}", info.name);
        assert!(names.len() <= 64, "{}: Given's mask holds 64", info.name);
    }
    assert!(AnyCc::by_name("bbr").has_cong_control());
    assert!(!AnyCc::by_name("cubic").has_cong_control());
}

/// An algorithm whose `pkts_acked`, `in_ack_event` or `cwnd_event` changes its state or
/// the window must say so (`PKTS_ACKED`, `IN_ACK_EVENT`, `CWND_EVENT`): the sender calls
/// only the hooks it is told of.
#[test]
fn hook_flags_match_the_hooks() {
    for info in REGISTRY {
        let cc = AnyCc::by_name(info.name);
        let hooks = cc.hooks();
        let w0 = Window::new(20.0, 10.0, 1e9);
        let (mut a, mut w) = (cc.clone(), w0);
        for i in 1..=8u64 {
            let ms = |v: u64| Some(SimDuration::from_millis(v));
            let sample = AckSample {
                now: SimTime(i * 30 * crate::time::PS_PER_S / 1000),
                acked: i % 3 + 1,
                rtt: ms(40 + 7 * i),
                owd: ms(20 + 5 * i),
                echo: None,
                min_rtt: None,
            };
            a.pkts_acked(&mut w, &sample);
        }
        let changed = format!("{a:?}{w:?}") != format!("{cc:?}{w0:?}");
        assert!(
            !changed || hooks.pkts_acked,
            "{}: pkts_acked changes its state but PKTS_ACKED is false",
            info.name
        );
        let (mut a, mut w) = (cc.clone(), w0);
        for i in 1..=8u64 {
            let flags = AckFlags {
                now: SimTime(i * 30 * crate::time::PS_PER_S / 1000),
                acked: 2,
                ece: i % 2 == 0,
                una: 2 * i,
                sent: 2 * i + 10,
            };
            a.in_ack_event(&mut w, &flags);
        }
        let changed = format!("{a:?}{w:?}") != format!("{cc:?}{w0:?}");
        assert!(
            !changed || hooks.in_ack_event,
            "{}: in_ack_event changes its state but IN_ACK_EVENT is false",
            info.name
        );
        let (mut a, mut w) = (cc.clone(), w0);
        for ev in [CaEvent::TxStart, CaEvent::Loss, CaEvent::TxStart] {
            a.cwnd_event(&mut w, ev);
        }
        let changed = format!("{a:?}{w:?}") != format!("{cc:?}{w0:?}");
        assert!(
            !changed || hooks.cwnd_event,
            "{}: cwnd_event changes its state but CWND_EVENT is false",
            info.name
        );
    }
    let hooked = |name: &str| AnyCc::by_name(name).hooks();
    assert!(hooked("dctcp").in_ack_event && hooked("ledbat").pkts_acked);
    assert_eq!(hooked("reno"), CcHooks::default());
}

#[test]
fn parameters_are_checked_against_the_registry() {
    let setup = CcSetup::default();
    let given = |k: &str, v: f64| BTreeMap::from([(k.to_string(), v)]);
    let err = |name: &str, k: &str, v: f64| CcConfig::parse(name, &given(k, v)).unwrap_err();
    assert_eq!(
        err("cubic", "gamma", 1.0),
        "cc_params.gamma: not a parameter of cubic; expected beta, c, fast_convergence, \
         reno_friendly, linux_arith, cnt_clamp, max_increment, ns3_model, ns3_arith"
    );
    assert_eq!(
        err("westwood", "beta", 0.5),
        "cc_params.beta: not a parameter of westwood; expected ns3_model"
    );
    assert_eq!(
        err("reno", "beta", 0.5),
        "cc_params.beta: not a parameter of reno; expected increase, decrease, ns3_model, \
         ns2_linux, ns2_module, ns2_abc, ns2_max_burst"
    );
    assert_eq!(
        err("cubic", "beta", 1.5),
        "cc_params.beta: expected a number between 0 and 1 (exclusive), got 1.5"
    );
    assert_eq!(
        err("bbr", "start_phase", 2.5),
        "cc_params.start_phase: expected a whole number from 0 to 7, got 2.5"
    );
    assert!(CcConfig::parse("cubic", &given("beta", 0.8)).is_ok());
    // ns-3 class names are aliases: the algorithm's, written back as given.
    let cc: CcConfig = "TcpCubic".parse().unwrap();
    assert_eq!(cc.build(&setup).unwrap().name(), "cubic");
    assert_eq!((cc.name(), cc.info().unwrap().name), ("TcpCubic", "cubic"));
    // reno stands for TcpLinuxReno (its first class), which counts segments.
    let per_ack = |name: &str| name.parse::<CcConfig>().unwrap().ns3_per_ack();
    assert!(per_ack("TcpNewReno") && per_ack("westwood"));
    assert!(!per_ack("TcpLinuxReno") && !per_ack("reno") && !per_ack("cubic"));
    let gated = |name: &str| name.parse::<CcConfig>().unwrap().ns3_cwnd_gated();
    assert!(gated("reno") && gated("TcpLinuxReno") && !gated("TcpNewReno") && gated("cubic"));
    let ss = |name: &str| name.parse::<CcConfig>().unwrap().ns3_gates_slow_start();
    assert!(!ss("reno") && !ss("TcpLinuxReno") && !ss("TcpNewReno") && ss("cubic"));
    // Parameters given are kept as given and written back alone; the rest take the
    // defaults of the flow's profile when the algorithm is built.
    let cc = CcConfig::parse("scalable", &given("b", 0.25)).unwrap();
    assert_eq!(cc.given(), given("b", 0.25));
    let CcConfig::Scalable(c) = &cc else { panic!() };
    let ns3 = c.params.resolve(Some("ns3"));
    assert_eq!((ns3.a, ns3.b, ns3.legacy_window), (0.02, 0.25, 50.0));
    assert_eq!(c.params.resolve(None).legacy_window, 16.0);
    let unknown = "tahoe".parse::<CcConfig>().unwrap_err();
    assert!(
        unknown.starts_with("cc: unsupported congestion control \"tahoe\"; expected one of reno,")
    );
}

/// ns-3's classes with 1000-byte segments (`CcSetup::ns3_defaults`).
fn ns3_setup() -> CcSetup {
    CcSetup {
        mss: 1000.0,
        ns3_defaults: true,
        ..CcSetup::default()
    }
}

/// ns-3.44's `GetSsThresh` of `TcpHighSpeed`, `TcpScalable`, `TcpIllinois`, `TcpHtcp`,
/// `TcpVeno` and `TcpYeah` reads the `bytesInFlight` argument (tcp-highspeed.cc,
/// tcp-scalable.cc, tcp-illinois.cc, tcp-htcp.cc, tcp-veno.cc, tcp-yeah.cc), not cWnd: under
/// ns-3's class ([`Window::ns3_mss`] set) the threshold follows [`Window::flight`]; without
/// it (other profiles) the window as before.
#[test]
fn ns3_classes_take_ssthresh_from_the_bytes_in_flight() {
    let ns3 = ns3_setup();
    let build = |name: &str, setup: &CcSetup| {
        let cc: CcConfig = name.parse().unwrap();
        cc.build(setup).unwrap()
    };
    // cwnd 100.5 segments; 60.5 segments (60 500 bytes) in flight by the scoreboard.
    let mut w = Window::new(100.5, 1e9, 1e9);
    w.ns3_mss = 1000.0;
    w.flight = Some(60.5);
    for (name, want) in [
        // floor(60 x (1 - b(60))), b(60) = 0.44 (RFC 3649 appendix B's row w <= 118):
        // whole segments of the flight.
        ("TcpHighSpeed", 33.0),
        // floor(60 x (1 - 0.125)) = 52: no legacy-window branch in ns-3's rule.
        ("TcpScalable", 52.0),
        // beta 0.5 before any RTT (BetaBase): floor(0.5 x 60).
        ("TcpIllinois", 30.0),
        // DefaultBackoff 0.5: 30 250 bytes.
        ("TcpHtcp", 30.25),
        // m_diff 0 < beta: 4/5 of 60 500 bytes = 48 400.
        ("TcpVeno", 48.4),
        // reduction max(m_lastQ 0, 60 >> 3) = 7 segments from 60 500 bytes.
        ("TcpYeah", 53.5),
    ] {
        let mut cc = build(name, &ns3);
        assert_eq!(cc.ssthresh(&w, SimTime::ZERO), want, "{name}");
        // Other profiles (ns3_mss 0): the window, whatever is in flight.
        let mut plain = w;
        plain.ns3_mss = 0.0;
        let with_flight = build(name, &CcSetup::default()).ssthresh(&plain, SimTime::ZERO);
        plain.flight = None;
        let without = build(name, &CcSetup::default()).ssthresh(&plain, SimTime::ZERO);
        assert_eq!(with_flight, without, "{name}");
        assert!(with_flight >= 50.0, "{name}: {with_flight} from cwnd 100.5");
    }
    // Two segments at least.
    w.flight = Some(1.0);
    for name in [
        "TcpHighSpeed",
        "TcpScalable",
        "TcpIllinois",
        "TcpHtcp",
        "TcpVeno",
        "TcpYeah",
    ] {
        assert_eq!(build(name, &ns3).ssthresh(&w, SimTime::ZERO), 2.0, "{name}");
    }
}

/// ns-3.44's `TcpHighSpeed::CongestionAvoidance` (a(w) from RFC 3649 appendix B's table per
/// segment acknowledged, one whole segment per w of them) and `TcpScalable::
/// CongestionAvoidance` (one whole segment per min(w, AIFactor 50) segments acknowledged)
/// under ns-3's class; other profiles keep the fractional growth.
#[test]
fn ns3_highspeed_and_scalable_grow_in_whole_segments() {
    let ns3 = ns3_setup();
    let one = AckEvent::segments(1, true);
    for (name, acks_per_segment) in [
        // w 100: table row 2 (w <= 118), a(w) = 2: 50 segments acknowledged add one.
        ("TcpHighSpeed", 50),
        // min(100, 50) = 50 segments acknowledged add one.
        ("TcpScalable", 50),
    ] {
        let cc: CcConfig = name.parse().unwrap();
        let mut cc = cc.build(&ns3).unwrap();
        let mut w = Window::new(100.0, 50.0, 1e9);
        w.ns3_mss = 1000.0;
        for i in 1..acks_per_segment {
            cc.cong_avoid(&mut w, one);
            assert_eq!(w.cwnd, 100.0, "{name}: whole segments only (ACK {i})");
        }
        cc.cong_avoid(&mut w, one);
        assert_eq!(w.cwnd, 101.0, "{name}");
        // Without ns-3's class: a fraction of a segment on every ACK.
        let cc: CcConfig = name.parse().unwrap();
        let mut cc = cc.build(&CcSetup::default()).unwrap();
        let mut w = Window::new(100.0, 50.0, 1e9);
        cc.cong_avoid(&mut w, one);
        assert!(w.cwnd > 100.0 && w.cwnd < 101.0, "{name}: {}", w.cwnd);
    }
}
