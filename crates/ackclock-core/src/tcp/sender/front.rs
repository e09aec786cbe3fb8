//! What the ns-2 front end and the traces read and set of a sender during a run: cwnd as
//! ns-2 traces it, ns-2's average window `awnd_`, a cwnd step within an event, ns-2's
//! `window_` set mid-run, the retransmission deadline moved to ns-2's clock.

use super::{Recovery, TcpSender};
use crate::tcp::cc::AnyCc;
use crate::time::SimTime;

impl TcpSender {
    /// Congestion control, for its state in traces.
    pub fn cc(&self) -> &AnyCc {
        &self.cc
    }

    /// A segment's payload in bytes.
    pub fn payload(&self) -> u32 {
        self.payload
    }

    /// cwnd as a trace shows it: with `ns2_full_tcp` inflated by fast recovery's duplicates,
    /// as FullTcpAgent keeps cwnd_ (`cwnd_ = ssthresh_ + dupacks_`, `extra_ack`; not
    /// SackFullTcpAgent, whose `reno_fastrecov_` is false).
    #[inline]
    pub fn traced_cwnd(&self) -> f64 {
        if self.full_tcp && self.recovery != Recovery::Sack {
            self.w.cwnd + self.dupwnd
        } else {
            self.w.cwnd
        }
    }

    /// ns-2.35's average window `awnd_`, in segments: `windowInit_` / 2 at the start
    /// (`TcpAgent::reset`), then on each ACK that reaches `TcpAgent::newack` awnd_ = (1 -
    /// windowThresh_) awnd_ + windowThresh_ cwnd_, with cwnd_ before the ACK opens it
    /// (`recv_newack_helper` calls newack first) and ns-2's default windowThresh_ 0.002.
    /// newack runs on every new ACK of Tahoe, Reno and NewReno agents and on a Sack1 agent's
    /// new ACKs outside fast recovery and on the one that ends it; not on partial ACKs
    /// (NewReno's `partialnewack`, Sack1 within recovery) nor in FullTcp agents
    /// (`FullTcpAgent::newack` keeps no average). Read by the ns-2 front end's `awnd_`.
    pub fn ns2_awnd(&self) -> f64 {
        self.awnd
    }

    /// The ACKs that reached the sender since it was made or reset (ns-2's `nackpack_`).
    pub fn acks_received(&self) -> u64 {
        self.acks_received
    }

    /// The SYNs the flow sent since it began (resets included).
    pub fn syns_sent(&self) -> u64 {
        self.syns_sent
    }

    /// One step of [`TcpSender::ns2_awnd`]'s average (ns-2.35 `TcpAgent::newack`: the same
    /// two roundings, `awnd_ *= 1.0 - wnd_th_; awnd_ += wnd_th_ * cwnd_`).
    #[inline]
    pub(super) fn note_ns2_newack(&mut self) {
        const WINDOW_THRESH: f64 = 0.002; // tcl/lib/ns-default.tcl: windowThresh_
        self.awnd = self.awnd * (1.0 - WINDOW_THRESH) + WINDOW_THRESH * self.w.cwnd;
    }

    /// The value cwnd took within the last event before its final one, if it took one a
    /// trace shows (ns-2's `TcpAgent::recv` on the SYN's ACK, see `ns2_first_loss`).
    pub fn take_cwnd_step(&mut self) -> Option<f64> {
        self.cwnd_step.take()
    }

    /// Moves a retransmission deadline at `from` to `to` (the ns2 profile's clock: the
    /// picosecond of ns-2's double for it, `sim/ns2_clock.rs`); false if it is not at `from`.
    pub fn retime_rto(&mut self, from: SimTime, to: SimTime) -> bool {
        let at = self.rto_deadline == Some(from);
        if at {
            self.rto_deadline = Some(to);
        }
        at
    }

    /// ns-2's `window_` set during the run (`Simulator::ns2_tcp_window`): the window the
    /// sender sends by, at most the one it was made with.
    pub fn set_ns2_window(&mut self, window: f64) -> Result<bool, String> {
        if self.advertised {
            return Ok(false);
        }
        if !(window >= 0.0 && window <= self.built_window) {
            return Err(format!(
                "window {window} above the {} segments the flow was made with",
                self.built_window
            ));
        }
        self.max_window = window;
        self.w.rwnd = window;
        Ok(true)
    }

    /// Whether this is ns-2.35's `VegasTcpAgent` (Vegas's `ns2_model`).
    pub fn is_ns2_vegas(&self) -> bool {
        self.ns2_vegas.is_some()
    }

    /// Bytes per window unit in reports: the segment size with byte-counted windows.
    pub fn window_scale(&self) -> f64 {
        if self.bytes {
            self.payload as f64
        } else {
            1.0
        }
    }
}
