//! Topology: links (rate, propagation delay, queue) and static routing.

pub mod device;
pub mod link;
pub mod links;
pub mod quick_start;
pub mod ring;
pub mod routing;
pub mod source_routes;

pub use link::{Carried, Enqueued, HeldOutcome, Link, Ns2Outcome};
pub use links::{HopLink, Links};
pub use routing::Routes;
pub use source_routes::SourceRoutes;
