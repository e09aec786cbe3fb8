//! ackclock-core: a packet-level discrete-event network simulator for TCP studies.
//!
//! Pure Rust, no Python: the `ackclock-py` crate wraps it. A run is built from a resolved
//! [`scenario::Scenario`] (see `docs/engine-contract.md`), advanced with
//! [`sim::Simulator::run_until`] and read back with [`sim::Simulator::results`].

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod ids;
pub mod loss;
pub mod monitor;
pub mod net;
pub mod packet;
pub mod packet_pool;
pub mod packet_trace;
pub mod queue;
pub mod results;
pub mod rng;
pub mod sampler;
pub mod scenario;
pub mod sched;
pub mod sim;
pub mod tcp;
pub mod time;
pub mod tmix;
pub mod tmix_vectors;
pub mod tracer;
pub mod traffic;

pub use scenario::Scenario;
pub use sim::Simulator;

/// Engine version, recorded in every run's summary.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
