//! What a run writes while it goes, beside the always-on counters of `monitor`:
//! - `packets`: packet traces streamed to disk (ns-2 trace files, pcap captures);
//! - `tracer`: TCP variables traced on every change (ns-2's `$tcp trace cwnd_`);
//! - `sampler`: fixed-interval time series of flows and queues.

pub mod packets;
pub mod sampler;
pub mod tracer;
