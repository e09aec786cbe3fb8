//! AVQ, the Adaptive Virtual Queue: S. Kunniyur, R. Srikant, "Analysis and Design of an
//! Adaptive Virtual Queue (AVQ) Algorithm for Active Queue Management", SIGCOMM 2001; as
//! ns-2.35's `Queue/Vq` (queue/vq.cc, its token-bucket form) runs it.
//!
//! - A virtual queue sees the real queue's arrivals but drains at the virtual capacity
//!   C~ (`ctilde`), and holds `buflim` times the real buffer. At each arrival (`Vq::enque`)
//!   it drains for the time since the last arrival (never below empty), then takes the
//!   arrival (one packet, or its bytes with `queue_in_bytes`).
//! - A virtual queue over its buffer (`Vq::checkPacketForECN`) takes the arrival back out of
//!   it and drops the real packet (`dropPacketForECN`), or with `markpkts` sets CE on it if
//!   its sender is ECN-capable (`markPacketForECN`, mark-tail).
//! - Then C~ adapts as a token bucket, unless the arrival was dropped (the accepted rate
//!   counts, not the offered): C~ += alpha (gamma C (t - t_last) - size), alpha = 0.15, C the
//!   line's capacity in packets of `mean_pktsize` (or bytes) per second, kept in [0, C].
//!   The first arrival starts the clocks and sets C~ = `ecnlim` C.
//! - Last, the real queue: a backlog that with the arrival exceeds the limit (`limit`
//!   packets, or `limit x mean_pktsize` bytes) drops it: the limit counts waiting packets,
//!   so `limit` of them may wait.
//!
//! `trace curq_` writes the backlog after each arrival (`Vq::enque`) and departure
//! (`Vq::deque`), as REM's. ns-2's drop-front and mark-front variants (`drop_front_`,
//! `markfront_`) are not modelled.

use super::{
    AqmState, Arrival, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service,
    Unit, VarTrace, Verdict,
};
use crate::time::SimTime;

/// `alpha2` of vq.cc: how fast the virtual capacity adapts.
const ALPHA: f64 = 0.15;

#[derive(Clone, Copy, Debug)]
pub struct VqParams {
    pub limit_packets: u64,
    /// Virtual capacity over real capacity at the start.
    pub ecnlim: f64,
    /// Virtual buffer over real buffer.
    pub buflim: f64,
    /// Desired utilisation.
    pub gamma: f64,
    pub markpkts: bool,
    pub mean_pktsize: f64,
    pub queue_in_bytes: bool,
    pub rate_bps: f64,
}

#[derive(Clone, Debug)]
pub struct Vq {
    p: VqParams,
    /// The line's capacity, packets (or bytes) per second; set at the first arrival.
    c: f64,
    /// The virtual capacity C~.
    ctilde: f64,
    /// The virtual queue's length (packets or bytes).
    vq_len: f64,
    prev_s: f64,
    vq_prev_s: f64,
    started: bool,
    pub early_drops: u64,
    pub forced_drops: u64,
    pub marks: u64,
    /// `curq_` changes, when traced ([`VarTrace`]; the average column stays 0).
    var_trace: Option<Box<VarTrace>>,
}

impl Vq {
    pub fn new(p: VqParams) -> Vq {
        Vq {
            p,
            c: 0.0,
            ctilde: 0.0,
            vq_len: 0.0,
            prev_s: 0.0,
            vq_prev_s: 0.0,
            started: false,
            early_drops: 0,
            forced_drops: 0,
            marks: 0,
            var_trace: None,
        }
    }

    /// The backlog in the unit the queue is measured in.
    #[inline]
    fn qlen(&self, b: Backlog) -> u64 {
        if self.p.queue_in_bytes {
            b.bytes
        } else {
            b.packets
        }
    }

    /// The virtual capacity now.
    pub fn ctilde(&self) -> f64 {
        self.ctilde
    }

    /// The virtual queue's length now.
    pub fn vq_len(&self) -> f64 {
        self.vq_len
    }

    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        let p = self.p;
        let (unit, scale) = if p.queue_in_bytes {
            (a.size as f64, p.mean_pktsize)
        } else {
            (1.0, 1.0)
        };
        let now = a.now.as_secs_f64();
        if !self.started {
            // Vq::enque's first packet: C in bytes or packets per second, C~ = ecnlim C.
            self.started = true;
            self.c = if p.queue_in_bytes {
                p.rate_bps / 8.0
            } else {
                p.rate_bps / (8.0 * p.mean_pktsize)
            };
            self.ctilde = self.c * p.ecnlim;
            self.prev_s = now;
            self.vq_prev_s = now;
        }
        self.vq_len = (self.vq_len - self.ctilde * (now - self.vq_prev_s)).max(0.0);
        self.vq_prev_s = now;
        self.vq_len += unit;
        let mut verdict = Verdict::Admit;
        let mut dropped = false;
        if self.vq_len > p.buflim * p.limit_packets as f64 * scale {
            // checkPacketForECN; mark- or dropPacketForECN take the arrival back out.
            self.vq_len = (self.vq_len - unit).max(0.0);
            if !p.markpkts {
                self.early_drops += 1;
                dropped = true;
                verdict = Verdict::Drop;
            } else if a.ect() {
                self.marks += 1;
                verdict = Verdict::Mark;
            }
        }
        if !dropped {
            let c = self.c;
            self.ctilde = (self.ctilde + ALPHA * p.gamma * c * (now - self.prev_s) - ALPHA * unit)
                .min(c)
                .max(0.0);
            self.prev_s = now;
        }
        let waiting = self.qlen(a.backlog);
        let with = waiting + if p.queue_in_bytes { a.size as u64 } else { 1 };
        let q = if dropped {
            waiting
        } else if with as f64 > p.limit_packets as f64 * scale {
            self.forced_drops += 1;
            verdict = Verdict::Drop;
            waiting
        } else {
            with
        };
        // Vq::enque: curq_ is the backlog after the arrival was queued or dropped.
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(a.now, q as f64, 0.0);
        }
        verdict
    }
}

crate::params! {
    /// The `Vq` discipline's parameters (`queue.params`), each with its declaration; the
    /// defaults are ns-2.35's (tcl/lib/ns-default.tcl).
    pub struct VqSettings {
        ecnlim: f64 = Param::new("ecnlim", 0.8, Range::Fraction, "virtual capacity over the line's at the start")
            .ns2("ecnlim_"),
        buflim: f64 = Param::new("buflim", 1.0, Range::Positive, "virtual buffer over the real buffer")
            .ns2("buflim_"),
        gamma: f64 = Param::new("gamma", 0.98, Range::Positive, "desired utilisation of the line")
            .ns2("gamma_"),
        markpkts: bool = Param::new("markpkts", 0.0, Range::Flag, "mark ECN-capable packets instead of dropping them")
            .ns2("markpkts_"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 1000.0, Range::Count, "packet size of the line's capacity and of a queue in bytes")
            .unit(Unit::Bytes)
            .ns2("mean_pktsize_"),
        queue_in_bytes: bool = Param::new("queue_in_bytes", 1.0, Range::Flag, "queues measured in bytes")
            .ns2("queue_in_bytes_"),
    }
}

const VQ_PARAMS: &[Param] = VqSettings::PARAMS;

impl QueueDiscipline for Vq {
    const INFO: QdiscInfo = QdiscInfo {
        params: VQ_PARAMS,
        ..QdiscInfo::new(
            "vq",
            Service::Enqueue,
            "Adaptive Virtual Queue (Kunniyur, Srikant 2001) as ns-2.35's Queue/Vq",
        )
    };

    type Params = VqSettings;

    fn new(p: &VqSettings, setup: &QueueSetup) -> Vq {
        Vq::new(VqParams {
            limit_packets: setup.packets(),
            ecnlim: p.ecnlim,
            buflim: p.buflim,
            gamma: p.gamma,
            markpkts: p.markpkts,
            mean_pktsize: p.mean_pktsize as f64,
            queue_in_bytes: p.queue_in_bytes,
            rate_bps: setup.rate_bps,
        })
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        Vq::admit(self, a)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
        Some(&mut self.var_trace)
    }

    /// Vq::deque: curq_ is the backlog left after the departure.
    fn departed(&mut self, now: SimTime, waiting: Backlog) {
        let q = self.qlen(waiting) as f64;
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(now, q, 0.0);
        }
    }

    fn state(&self) -> AqmState {
        AqmState {
            avg: self.vq_len,
            prob: f64::NAN,
            dropping: f64::NAN,
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (
            (!self.p.queue_in_bytes).then_some(self.p.limit_packets),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{ecn, Packet};

    fn params() -> VqParams {
        VqParams {
            limit_packets: 10,
            ecnlim: 0.8,
            buflim: 0.5,
            gamma: 0.98,
            markpkts: false,
            mean_pktsize: 1000.0,
            queue_in_bytes: false,
            rate_bps: 8e6, // 1000 packets of 1000 bytes per second
        }
    }

    fn arrival(t: f64, waiting: u64, pkt: &Packet) -> Arrival<'_> {
        Arrival {
            now: SimTime::ZERO + crate::time::SimDuration::from_secs_f64(t),
            backlog: Backlog {
                packets: waiting,
                bytes: waiting * 1000,
            },
            size: 1000,
            pkt,
            idle_since: None,
            busy_until: SimTime::ZERO,
            idle_ns2: None,
        }
    }

    /// The virtual queue drains at C~ between arrivals, and C~ adapts by the token bucket.
    #[test]
    fn the_virtual_queue_drains_at_the_virtual_capacity_which_adapts() {
        let pkt = Packet::TEST;
        let mut q = Vq::new(params());
        assert_eq!(q.admit(&arrival(1.0, 0, &pkt)), Verdict::Admit);
        let c = 1000.0;
        let mut ct = (0.8 * c - ALPHA * 1.0f64).max(0.0);
        assert_eq!((q.vq_len(), q.ctilde()), (1.0, ct));
        // 1 ms later: the virtual queue drained ct x 0.001 < 1 packet.
        q.admit(&arrival(1.001, 0, &pkt));
        let len = (1.0 - ct * (1.001 - 1.0)).max(0.0) + 1.0;
        ct = (ct + ALPHA * 0.98 * c * (1.001 - 1.0) - ALPHA).min(c);
        assert_eq!(q.vq_len(), len);
        assert_eq!(q.ctilde(), ct);
    }

    /// A burst overflows the virtual buffer (buflim x limit = 5) before the real one: the
    /// sixth arrival of an instant is dropped early and C~ keeps its value; in marking mode
    /// an ECN-capable one is marked instead and C~ adapts.
    #[test]
    fn the_virtual_buffer_overflows_first() {
        let mut ect = Packet::TEST;
        ect.ecn = ecn::ECT;
        for markpkts in [false, true] {
            let mut q = Vq::new(VqParams {
                markpkts,
                ..params()
            });
            for i in 0..5 {
                assert_eq!(q.admit(&arrival(1.0, i, &ect)), Verdict::Admit);
            }
            let before = q.ctilde();
            let v = q.admit(&arrival(1.0, 5, &ect));
            assert_eq!(q.vq_len(), 5.0, "the arrival is taken back out");
            if markpkts {
                assert_eq!(v, Verdict::Mark);
                assert_eq!(q.ctilde(), before - ALPHA);
            } else {
                assert_eq!(v, Verdict::Drop);
                assert_eq!((q.early_drops, q.ctilde()), (1, before));
            }
        }
        // Not ECN-capable: neither marked nor dropped by the virtual queue.
        let mut q = Vq::new(VqParams {
            markpkts: true,
            ..params()
        });
        let plain = Packet::TEST;
        for i in 0..6 {
            assert_eq!(q.admit(&arrival(1.0, i, &plain)), Verdict::Admit);
        }
    }

    /// The real limit counts waiting packets: `limit` may wait, the next is dropped.
    #[test]
    fn limit_packets_may_wait() {
        let pkt = Packet::TEST;
        let mut q = Vq::new(VqParams {
            buflim: 100.0,
            ..params()
        });
        assert_eq!(q.admit(&arrival(1.0, 9, &pkt)), Verdict::Admit);
        assert_eq!(q.admit(&arrival(1.0, 10, &pkt)), Verdict::Drop);
        assert_eq!(q.forced_drops, 1);
    }
}
