//! Profile defaults have one owner, the front end's profiles (`python/ackclock/profiles.py`):
//! `tests/data/ns2_tcp.json` is the TCP document the `ns2` profile resolves to (written by
//! `python -m ackclock.schema --profile-tcp ns2`; tests/unit/test_schema.py checks it is
//! current), and `fixtures::ns2_tcp()`, the engine tests' ns-2.35 `Agent/TCP`, must equal it
//! except where it says here that it departs, and why.

use ackclock_core::fixtures;
use serde_json::Value;

/// Keys where the fixture departs from the `ns2` profile on purpose.
const DEPARTURES: &[(&str, &str)] = &[
    (
        "syn",
        "the engine tests' flows send data at once, without the SYN round trip ns-2.35's \
         Agent/TCP makes (syn_ true); their expected numbers assume it",
    ),
    (
        "bare_first_segment",
        "ns-2.35 sends segment 0 without headers when there is no SYN (the profile's true only \
         matters with syn false); the fixture's segment 0 carries headers as the others do, \
         which its numbers assume",
    ),
    (
        "ns2_rtt_timer",
        "the engine tests' timings assume RFC 6298's exact estimator; ns-2.35's fixed-point \
         timer has its own tests (tcp/rtt.rs) and live ones against ns-2.35",
    ),
    (
        "ns2_first_loss",
        "the engine tests' flows start without a SYN, and some lose their first segments to \
         fast retransmit, which ns-2.35's rules for the first segments (recover_ from 0) would \
         leave to the timer; those rules have their own tests (tcp/sender/tests.rs) and live \
         ones against ns-2.35",
    ),
    (
        "ns2_ecn",
        "the engine tests' ECN flows follow RFC 3168; ns-2.35's ECN rules have their own tests \
         (tcp/sender/tests.rs) and live ones against ns-2.35 (tests/ns2/test_ecn_vs_ns2.py)",
    ),
    (
        "initial_ssthresh",
        "no ssthresh at the start, where ns-2 starts ssthresh_ at window_ (20): slow start is \
         capped by the window either way",
    ),
];

#[test]
fn ns2_fixture_is_the_ns2_profile_except_where_it_says() {
    let profile: Value = serde_json::from_str(include_str!("data/ns2_tcp.json")).unwrap();
    let fixture = serde_json::to_value(fixtures::ns2_tcp()).unwrap();
    let (profile, fixture) = (profile.as_object().unwrap(), fixture.as_object().unwrap());
    let mut keys: Vec<&String> = profile.keys().chain(fixture.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let (want, got) = (profile.get(key), fixture.get(key));
        match DEPARTURES.iter().find(|(k, _)| k == key) {
            Some((_, why)) => assert_ne!(
                got, want,
                "fixtures::ns2_tcp().{key} equals the ns2 profile now: remove it from \
                 DEPARTURES ({why})"
            ),
            None => assert_eq!(
                got, want,
                "fixtures::ns2_tcp().{key} against the ns2 profile"
            ),
        }
    }
}
