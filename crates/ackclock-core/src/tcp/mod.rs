//! One-way TCP: a sender (loss recovery + pluggable congestion control) and its sink.
//!
//! Sequence numbers count segments, as in ns-2's `Agent/TCP` (the `packets` window
//! accounting). The sender does no I/O: it takes the clock as an argument and appends the
//! packets it emits to a caller-owned buffer; its retransmission timer is a deadline the
//! simulator polls.

pub mod cc;
pub mod delivery_rate;
pub mod flow_control;
pub mod full;
pub mod linux_acks;
pub mod pacing;
pub mod params;
pub mod rack;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod seqmap;
pub mod seqring;
pub mod sink;

pub use params::TcpParams;
pub use rtt::RttEstimator;

/// Implements `FromStr` for scenario enums by their serde names (for tests and tools that
/// write scenarios in Rust); the engine itself reads them once, with the document.
macro_rules! from_str_by_serde {
    ($($t:ty),*) => {$(
        impl std::str::FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                serde_json::from_value(serde_json::Value::from(s)).map_err(|e| e.to_string())
            }
        }
    )*};
}

from_str_by_serde!(
    WindowUnit,
    sender::Recovery,
    sink::SinkKind,
    rtt::RtoRule,
    cc::hystart::HyStartRule,
    full::Exchange
);

/// Window accounting (`window_unit`): `packets` as ns-2 (growth per ACK, ssthresh in whole
/// segments) or `bytes` (growth per segment acknowledged, ssthresh exact, windows reported in
/// bytes).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum WindowUnit {
    #[default]
    Packets,
    Bytes,
}
pub use sender::TcpSender;
pub use sink::TcpSink;
