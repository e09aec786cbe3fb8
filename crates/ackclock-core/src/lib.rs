//! ackclock-core: a packet-level discrete-event network simulator for TCP studies.
//!
//! Pure Rust, no Python: the `ackclock-py` crate wraps it. A run is built from a resolved
//! [`scenario::Scenario`] (see `docs/engine-contract.md`), advanced with
//! [`sim::Simulator::run_until`] and read back with [`sim::Simulator::results`].

/// How a registered model's state is kept in its `Any*` enum (the `algorithms!` and
/// `disciplines!` registries): inline, or boxed (`[boxed]` after its line) when it is much
/// larger than the others, so that every value does not carry its size.
macro_rules! stored {
    ($t:ty) => { $t };
    ($t:ty, boxed) => { Box<$t> };
}

macro_rules! store {
    ($e:expr) => {
        $e
    };
    ($e:expr, boxed) => {
        Box::new($e)
    };
}

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod ids;
pub mod loss;
pub mod monitor;
pub mod net;
pub mod packet;
pub mod packet_pool;
pub mod params;
pub mod queue;
pub mod rap;
pub mod results;
pub mod rng;
pub mod scenario;
pub mod sched;
pub mod sim;
pub mod tcp;
pub mod tfrc;
pub mod time;
pub mod trace;
pub mod traffic;

pub use scenario::Scenario;
pub use sim::Simulator;

/// Engine version, recorded in every run's summary.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
