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
