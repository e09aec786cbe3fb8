//! Congestion control behind one set of hooks, in the spirit of Linux's
//! `tcp_congestion_ops` and ns-3's `TcpCongestionOps`.
//!
//! The sender owns loss detection and recovery; an algorithm only decides how the window
//! grows on ACKs (`on_ack`, Linux `cong_avoid`) and where ssthresh goes on loss
//! (`reduced_window`, Linux `ssthresh`). Algorithms are variants of `AnyCc`, dispatched by `match`, their state
//! inline.

pub mod reno;

pub use reno::Reno;

use crate::scenario::TcpConfig;
use crate::time::{SimDuration, SimTime};

/// The window state congestion control reads and writes, in segments.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
    /// The receiver's advertised window.
    pub rwnd: f64,
}

/// One new cumulative ACK, as congestion control sees it.
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    pub now: SimTime,
    /// Segments newly acknowledged.
    pub acked: u64,
    /// Growth credit of this ACK in segments: 1 per ACK with packet-counted windows (ns-2),
    /// the segments it acknowledges with byte-counted ones (RFC 3465, as ns-3 and
    /// IKRSimLib count bytes acknowledged).
    pub credit: f64,
    pub rtt: Option<SimDuration>,
}

#[derive(Clone, Debug)]
pub enum AnyCc {
    Reno(Reno),
}

impl AnyCc {
    /// The algorithm `cfg.cc` names, with its parameters; `None` for an unknown name.
    pub fn new(cfg: &TcpConfig) -> Option<AnyCc> {
        match cfg.cc.as_str() {
            "reno" => Some(AnyCc::Reno(Reno {
                max_ssthresh: cfg.max_ssthresh as f64,
            })),
            _ => None,
        }
    }

    /// Window growth on a new ACK outside loss recovery.
    #[inline]
    pub fn on_ack(&mut self, w: &mut Window, ev: AckEvent) {
        match self {
            AnyCc::Reno(c) => c.on_ack(w, ev),
        }
    }

    /// The window after a loss is detected (Linux `ssthresh`), before the sender rounds
    /// ssthresh to whole segments.
    #[inline]
    pub fn reduced_window(&mut self, w: &Window) -> f64 {
        match self {
            AnyCc::Reno(c) => c.reduced_window(w),
        }
    }
}
