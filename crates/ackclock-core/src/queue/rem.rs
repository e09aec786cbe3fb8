//! REM, Random Exponential Marking: S. Athuraliya, V. H. Li, S. H. Low, Q. Yin, "REM: Active
//! Queue Management", IEEE Network 15(3), 2001; as ns-2.35's `Queue/REM` (queue/rem.cc) runs
//! it, dropping (its default, `markpkts_ false`).
//!
//! - Every `pupdtime` seconds the link's price follows the paper's rule p <- max(0, p +
//!   gamma (x_avg + 0.1 (q - b_0) - c)) (`REMQueue::run_updaterule`): x_avg is an EWMA of
//!   weight `inw` of the arrivals counted since the last update (packets, or bytes over
//!   `mean_pktsize` with `queue_in_bytes`), q the backlog waiting then (likewise), b_0 the
//!   target backlog (`pbo`), c = pupdtime x ptc the packets the line sends per update (ptc =
//!   rate / (8 mean_pktsize), `REMQueue::reset` with the link known). The marking (here
//!   dropping) probability is 1 - phi^-p. The updates run on ns-2's instants: from the start
//!   of the run (`REMQueue::reset` restarts the timer), each the last plus `pupdtime` in
//!   doubles (`REMQueue::timeout`, `TimerHandler::resched`).
//! - On arrival (`REMQueue::enque`): it counts towards the next update whatever becomes of
//!   it; a backlog that with it would reach the limit (`limit`, or `limit x mean_pktsize`
//!   bytes) drops it, drawing nothing; otherwise one uniform number u is drawn (ns-2's
//!   `Random::uniform()` in an ns-2 script's run) and u <= prob drops it (prob scaled by size
//!   / mean_pktsize with `queue_in_bytes`).
//!
//! ns-2's marking variant (`markpkts_ true`) marks at dequeue and draws at each dequeue,
//! also when the queue is empty: not modelled. Updates are computed lazily as PIE's.

use super::{
    AqmState, Arrival, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service,
    Unit, VarTrace, Verdict,
};
use crate::rng::Uniform;
use crate::time::{SimTime, PS_PER_S};

#[derive(Clone, Copy, Debug)]
pub struct RemParams {
    pub limit_packets: u64,
    pub gamma: f64,
    pub phi: f64,
    /// EWMA weight of the arrival count.
    pub inw: f64,
    pub mean_pktsize: f64,
    /// Update period, seconds.
    pub pupdtime: f64,
    /// Target backlog b_0, packets.
    pub pbo: f64,
    pub queue_in_bytes: bool,
    pub rate_bps: f64,
}

#[derive(Clone, Debug)]
pub struct Rem {
    p: RemParams,
    /// Packets the line carries per second (`p_ptc`).
    ptc: f64,
    price: f64,
    prob: f64,
    /// Arrivals since the last update (packets, or bytes with `queue_in_bytes`).
    count: f64,
    avg_in: f64,
    next_s: f64,
    next_update: SimTime,
    rng: Uniform,
    pub early_drops: u64,
    pub forced_drops: u64,
    /// `curq_` changes, when traced ([`VarTrace`]; the average column stays 0).
    var_trace: Option<Box<VarTrace>>,
}

/// A scheduler double in picoseconds, to the nearest.
fn ps(t: f64) -> SimTime {
    SimTime((t * PS_PER_S as f64).round() as u64)
}

impl Rem {
    pub fn new(p: RemParams, rng: Uniform) -> Rem {
        Rem {
            p,
            ptc: p.rate_bps / (8.0 * p.mean_pktsize),
            price: 0.0,
            prob: 0.0,
            count: 0.0,
            avg_in: 0.0,
            next_s: p.pupdtime,
            next_update: ps(p.pupdtime),
            rng,
            early_drops: 0,
            forced_drops: 0,
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

    /// `REMQueue::run_updaterule` at an update instant, with the backlog waiting then.
    pub fn update(&mut self, waiting: Backlog) {
        let p = &self.p;
        let mut avg = self.avg_in * (1.0 - p.inw);
        let queued = if p.queue_in_bytes {
            avg += p.inw * self.count / p.mean_pktsize;
            waiting.bytes as f64 / p.mean_pktsize
        } else {
            avg += p.inw * self.count;
            waiting.packets as f64
        };
        let c = p.pupdtime * self.ptc;
        let price = (self.price + p.gamma * (avg + 0.1 * (queued - p.pbo) - c)).max(0.0);
        self.prob = 1.0 - p.phi.powf(-price);
        self.price = price;
        self.avg_in = avg;
        self.count = 0.0;
        self.next_s += p.pupdtime;
        self.next_update = ps(self.next_s);
    }

    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        self.count += if self.p.queue_in_bytes {
            a.size as f64
        } else {
            1.0
        };
        let with = if self.p.queue_in_bytes {
            a.backlog.bytes + a.size as u64
        } else {
            a.backlog.packets + 1
        };
        let qlim = if self.p.queue_in_bytes {
            self.p.limit_packets as f64 * self.p.mean_pktsize
        } else {
            self.p.limit_packets as f64
        };
        let verdict = if with as f64 >= qlim {
            self.forced_drops += 1;
            Verdict::Drop
        } else {
            let mut pro = self.prob;
            if self.p.queue_in_bytes {
                pro = self.prob * a.size as f64 / self.p.mean_pktsize;
            }
            if self.rng.next_f64() <= pro {
                self.early_drops += 1;
                Verdict::Drop
            } else {
                Verdict::Admit
            }
        };
        // REMQueue::enque: curq_ is the backlog after the arrival was queued or dropped.
        let q = if verdict == Verdict::Admit {
            with
        } else {
            self.qlen(a.backlog)
        };
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(a.now, q as f64, 0.0);
        }
        verdict
    }

    pub fn prob(&self) -> f64 {
        self.prob
    }

    pub fn price(&self) -> f64 {
        self.price
    }
}

crate::params! {
    /// The `Rem` discipline's parameters (`queue.params`), each with its declaration; the
    /// defaults are ns-2.35's (tcl/lib/ns-default.tcl).
    pub struct RemSettings {
        gamma: f64 = Param::new("gamma", 0.001, Range::Positive, "step of the price update")
            .ns2("gamma_"),
        phi: f64 = Param::new("phi", 1.001, Range::Positive, "base of the marking probability 1 - phi^-price")
            .ns2("phi_"),
        inw: f64 = Param::new("inw", 1.0, Range::Fraction, "EWMA weight of the arrivals per update")
            .ns2("inw_"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 1000.0, Range::Count, "packet size of the line's capacity and of a queue in bytes")
            .unit(Unit::Bytes)
            .ns2("mean_pktsize_"),
        pupdtime: crate::time::SimDuration = Param::new("pupdtime", 2e9, Range::Positive, "price update period")
            .unit(Unit::Time)
            .ns2("pupdtime_"),
        pbo: f64 = Param::new("pbo", 20.0, Range::NonNegative, "target backlog b_0")
            .unit(Unit::Packets)
            .ns2("pbo_"),
        queue_in_bytes: bool = Param::new("queue_in_bytes", 0.0, Range::Flag, "queue and arrivals measured in bytes")
            .ns2("qib_"),
    }
}

const REM_PARAMS: &[Param] = RemSettings::PARAMS;

impl QueueDiscipline for Rem {
    const INFO: QdiscInfo = QdiscInfo {
        params: REM_PARAMS,
        ..QdiscInfo::new(
            "rem",
            Service::Enqueue,
            "Random Exponential Marking (Athuraliya, Li, Low, Yin 2001) as ns-2.35's Queue/REM, dropping",
        )
    };

    type Params = RemSettings;

    const PERIODIC: bool = true;

    fn new(p: &RemSettings, setup: &QueueSetup) -> Rem {
        Rem::new(
            RemParams {
                limit_packets: setup.packets(),
                gamma: p.gamma,
                phi: p.phi,
                inw: p.inw,
                mean_pktsize: p.mean_pktsize as f64,
                pupdtime: p.pupdtime.as_secs_f64(),
                pbo: p.pbo,
                queue_in_bytes: p.queue_in_bytes,
                rate_bps: setup.rate_bps,
            },
            Uniform::Own(setup.rng.clone()),
        )
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        Rem::admit(self, a)
    }

    #[inline]
    fn update_due(&self) -> SimTime {
        self.next_update
    }

    fn update(&mut self, waiting: Backlog) {
        Rem::update(self, waiting)
    }

    fn random(&mut self) -> Option<&mut Uniform> {
        Some(&mut self.rng)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
        Some(&mut self.var_trace)
    }

    /// REMQueue::deque: curq_ is the backlog left after the departure.
    fn departed(&mut self, now: SimTime, waiting: Backlog) {
        let q = self.qlen(waiting) as f64;
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(now, q, 0.0);
        }
    }

    fn state(&self) -> AqmState {
        AqmState {
            avg: f64::NAN,
            prob: self.prob,
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
    use crate::rng::RandomStream;

    fn params() -> RemParams {
        RemParams {
            limit_packets: 50,
            gamma: 0.001,
            phi: 1.001,
            inw: 1.0,
            mean_pktsize: 1000.0,
            pupdtime: 0.002,
            pbo: 20.0,
            queue_in_bytes: false,
            rate_bps: 1.5e6,
        }
    }

    fn rem(p: RemParams) -> Rem {
        Rem::new(p, Uniform::Own(RandomStream::named(1, "rem")))
    }

    fn pkts(n: u64) -> Backlog {
        Backlog {
            packets: n,
            bytes: n * 1000,
        }
    }

    fn arrival(backlog: Backlog, pkt: &crate::packet::Packet) -> Arrival<'_> {
        Arrival {
            now: SimTime::ZERO,
            backlog,
            size: 1000,
            pkt,
            idle_since: None,
            busy_until: SimTime::ZERO,
            idle_ns2: None,
        }
    }

    /// The paper's price rule and marking probability, update by update.
    #[test]
    fn price_follows_the_update_rule() {
        let p = params();
        let mut q = rem(p);
        let pkt = crate::packet::Packet::TEST;
        // Five arrivals, then an update with 30 packets waiting.
        for _ in 0..5 {
            q.admit(&arrival(pkts(30), &pkt));
        }
        q.update(pkts(30));
        let c = 0.002 * 1.5e6 / 8000.0;
        let price = 0.001 * (5.0 + 0.1 * (30.0 - 20.0) - c);
        assert_eq!(q.price(), price);
        assert_eq!(q.prob(), 1.0 - 1.001f64.powf(-price));
        // No arrivals and an empty queue: the price falls to 0, never below.
        for _ in 0..10 {
            q.update(pkts(0));
        }
        assert_eq!(q.price(), 0.0);
        assert_eq!(q.prob(), 0.0);
    }

    /// The arrival average is an EWMA of weight inw; in bytes, in mean packets.
    #[test]
    fn arrivals_are_averaged_with_weight_inw() {
        let p = RemParams {
            inw: 0.5,
            queue_in_bytes: true,
            ..params()
        };
        let mut q = rem(p);
        let pkt = crate::packet::Packet::TEST;
        q.admit(&arrival(pkts(1), &pkt));
        q.admit(&arrival(pkts(1), &pkt));
        q.update(pkts(3));
        assert_eq!(q.avg_in, 0.5 * 2000.0 / 1000.0);
        q.update(pkts(3));
        assert_eq!(q.avg_in, 0.5 * 1.0);
    }

    /// Updates every pupdtime from the start, each the last plus pupdtime in doubles.
    #[test]
    fn updates_come_every_pupdtime() {
        let mut q = rem(params());
        let mut t = 0.002;
        assert_eq!(q.update_due(), ps(t));
        for _ in 0..1000 {
            q.update(pkts(0));
            t += 0.002;
            assert_eq!(q.update_due(), ps(t));
        }
    }

    /// A full buffer counts the arrival in: limit n holds n - 1 waiting; early drops follow
    /// prob.
    #[test]
    fn arrivals_are_dropped_at_the_limit_and_with_probability_prob() {
        let pkt = crate::packet::Packet::TEST;
        let mut q = rem(params());
        assert_eq!(q.admit(&arrival(pkts(49), &pkt)), Verdict::Drop);
        assert_eq!(q.forced_drops, 1);
        assert_eq!(q.admit(&arrival(pkts(48), &pkt)), Verdict::Admit);
        q.prob = 0.25;
        let n = 100_000;
        let drops = (0..n)
            .filter(|_| q.admit(&arrival(pkts(5), &pkt)) == Verdict::Drop)
            .count();
        assert!((drops as f64 / n as f64 - 0.25).abs() < 0.01, "{drops}");
    }
}
