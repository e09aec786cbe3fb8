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
pub mod rack;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod seqmap;
pub mod sink;

pub use rtt::RttEstimator;
pub use sender::TcpSender;
pub use sink::TcpSink;
