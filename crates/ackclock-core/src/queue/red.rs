//! RED, Random Early Detection: S. Floyd and V. Jacobson, "Random Early Detection Gateways
//! for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993; with the refinements ns-2.35's
//! `Queue/RED` applies, so that the `ns2` profile reproduces it:
//!
//! - On each arrival the average queue follows an EWMA, avg <- (1 - w_q) avg + w_q q, of the
//!   instantaneous backlog q (packets, or bytes with `queue_in_bytes`). After an idle period
//!   of length t the average first decays as if m = floor(ptc t) empty-queue arrivals had
//!   happened, ptc = rate / (8 mean_pktsize) (the paper's section 11, "f(time)").
//! - Between min_th and max_th the base probability is p_b = max_p (avg - min_th) /
//!   (max_th - min_th). With `gentle` (Floyd 2000), p_b rises from max_p to 1 between max_th
//!   and 2 max_th instead of jumping to 1.
//! - Drops are spread uniformly rather than geometrically, counting packets since the last
//!   drop: p_a = p_b / (1 - count p_b) (section 7), or with `wait` (ns-2's default)
//!   p_a = 0 while count p_b < 1 and p_b / (2 - count p_b) below 2. In `bytes` mode count is
//!   in units of mean_pktsize bytes and p_a is scaled by size / mean_pktsize (section 10).
//! - Early decisions need more than one packet queued; the first arrival above min_th after
//!   a quiet spell only restarts the count.
//! - A backlog at the limit is a forced drop. ns-2 checks the backlog before the arrival, so
//!   RED's limit of n holds n waiting packets (DropTail's ns-2 accounting holds n - 1).
//! - ECN (RFC 3168): an early drop of an ECN-capable packet becomes a CE mark, while p_b is
//!   at most `mark_p` if `use_mark_p` (ns-2's default; below it with `mark_p_strict`, the
//!   ns2 profile's, as ns-2.35's `REDQueue::drop_early` compares with <, where a DCTCP patch
//!   of ns-2 has <=; a `mark_p` above 1 marks them all), so heavy congestion still drops.
//!   ns-3.44's `RedQueueDisc` has no such limit (`DoEnqueue` marks every `DTYPE_UNFORCED`
//!   decision of an ECN-capable packet, and the average at or above max_th, 2 max_th with
//!   `gentle`, is `DTYPE_FORCED`): `use_mark_p` is 0 under the `ns3` profile. A
//!   full queue drops the arrival whatever the early decision was (`REDQueue::enque`).
//!   With `hard_drop` off (ns-3's `UseHardDrop` false) a forced decision, avg at or above
//!   max_th (2 max_th with `gentle`), marks an ECN-capable arrival instead of dropping it,
//!   before the first-arrival rule above (ns-3's `RedQueueDisc::DoEnqueue` tests
//!   `DTYPE_FORCED` before `m_old`): a step marker at K (min_th = max_th = K, w_q = 1, as
//!   DCTCP's RFC 8257 section 3.1 asks) then marks every arrival that finds K or more.
//! - Defaults left at 0 are filled in from the link as ns-2 does: min_th = max(5,
//!   target_delay ptc / 2) packets, max_th = 3 min_th; w_q = 1 - exp(-1 / (10 RTT ptc)) with
//!   RTT = max(0.1 s, 3 (delay + 1 / ptc)) (q_weight = -1), or 1 - exp(-1/ptc) (q_weight = 0)
//!   or 1 - exp(-10/ptc) (q_weight = -2).
//! - In an ns-2 script's run, the early-drop draw is ns-2's `Random::uniform()` from its
//!   default generator (`REDQueue::drop_early`; `crate::rng::ns2`), and the idle period's m
//!   is computed from ns-2's double times (`REDQueue::enque`: `int(ptc * (now -
//!   idletime_))`, [`super::Arrival::idle_ns2`]), where the exact clock can give one more.
//! - `adaptive` (ns-2's `adaptive_ 1`): max_p moves as Adaptive RED's (`ared.rs`, with
//!   ns-2's automatic bottom and, with `feng_adaptive`, Feng et al.'s rule).
//! - `cautious` (ns-2's experimental `cautious_`, `REDQueue::drop_early` and
//!   `REDQueue::enque`): with the instantaneous backlog q below f avg, f = (1 - w_q)^(ptc
//!   0.05) (what the average keeps after 50 ms of arrivals to an empty queue), 1 skips the
//!   early decision (no random number is drawn) and 2 divides the drop probability by q / (f
//!   avg) (the draw is scaled); 3 decays the average over an idle period with
//!   `idle_pktsize` in place of `mean_pktsize` (more virtual arrivals for smaller packets).
//!
//! Above a device queue (a link with `device_limit`: `net::device`, the traffic-control
//! layer) RED is a root queue disc, as ns-3.44's `RedQueueDisc` (src/traffic-control/model/
//! red-queue-disc.cc) and Linux's `sch_red` are: it holds its packets in a FIFO of `limit`
//! packets, hands them to the device queue when asked, and its average and early decisions
//! see only its own packets (`RedQueueDisc::DoEnqueue` reads its internal queue's size, not
//! the device's), never the one the device queue holds or the line sends. Its idle period
//! starts when a dequeue finds it empty (`RedQueueDisc::DoDequeue` sets `m_idle` and
//! `m_idleTime`; Linux's `red_dequeue` calls `red_start_of_idle_period`) and ends at the
//! next arrival or dequeue, not when the line goes idle.
//!
//! ns-3.44's `RedQueueDisc` differs from ns-2's `Queue/RED` in two ways the `ns3` profile
//! copies: a drop when the average is above max_th (`DTYPE_FORCED`) restarts the count since
//! the last early drop only with its `Ns1Compat` true (false by default, the reverse of
//! ns-2's `ns1_compat_`), and a drop by its full internal queue never does: `ns1_compat` is
//! 1 under the `ns3` profile. And `RedQueueDisc::Estimator` decays the average over an idle
//! period as one power, avg (1 - w_q)^(m + 1) + w_q q, with m = int(ptc t) from the idle
//! time in seconds (`DoEnqueue`), where ns-2's `REDQueue::estimator` multiplies m times:
//! `idle_pow`, 1 under the `ns3` profile (the two differ in the last bits). Its packet time
//! constant ptc (the idle decay's rate, the automatic thresholds and weight) comes from its
//! `LinkBandwidth` attribute, 1.5 Mb/s unless a script sets it, not from the device's rate
//! (`RedQueueDisc::InitializeParams`): `link_bandwidth`, 1.5 Mb/s under the `ns3` profile
//! (0 elsewhere: the link's rate, as ns-2's `REDQueue::initialize_params` reads it).
//! Its other defaults are ns-3.44's `RedQueueDisc::GetTypeId` attributes, not ns-2's
//! automatic values: `MinTh` 5 and `MaxTh` 15 packets, `QW` 0.002, `LInterm` 50 (max_p 0.02),
//! `MeanPktSize` 500 bytes: `min_thresh`, `max_thresh`, `q_weight`, `max_p` and
//! `mean_pktsize` under the `ns3` profile (0 and -1 still ask for the automatic values, as
//! `InitializeParams` computes them).

use super::ared::{Ared, AredParams};
use super::codel::TimedFifo;
use super::{
    AqmState, Arrival, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service,
    Unit, VarTrace, Verdict,
};
use crate::packet::Packet;
use crate::rng::{RandomStream, Uniform};
use crate::time::SimTime;

/// RED's parameters as the scenario gives them; zeros and negative weights ask for ns-2's
/// automatic values.
#[derive(Clone, Copy, Debug)]
pub struct RedParams {
    pub limit_packets: u64,
    /// min_th and max_th in packets (multiplied by mean_pktsize with `queue_in_bytes`).
    pub min_thresh: f64,
    pub max_thresh: f64,
    pub q_weight: f64,
    pub max_p: f64,
    pub gentle: bool,
    pub wait: bool,
    pub bytes: bool,
    pub queue_in_bytes: bool,
    pub mean_pktsize: u32,
    pub target_delay_s: f64,
    pub ecn: bool,
    pub use_mark_p: bool,
    pub mark_p: f64,
    /// Marks only while p_b < mark_p (ns-2.35); else while p_b <= mark_p.
    pub mark_p_strict: bool,
    /// ns-2's `cautious_` (0: off; 1, 2, 3: the module notes' variants).
    pub cautious: u8,
    /// ns-2's `idle_pktsize_`, the packet size of `cautious` 3's idle decay.
    pub idle_pktsize: u32,
    /// ns-2's `ns1_compat_`: a forced drop leaves the count since the last early drop as it
    /// is (`REDQueue::enque` restarts it only without ns-1 compatibility).
    pub ns1_compat: bool,
    /// Early drops go to their own target (ns-2's `early-drop-target`): reported as
    /// [`Verdict::EarlyDrop`].
    pub early_drop_target: bool,
    /// A forced decision (avg above max_th, or 2 max_th with `gentle`) drops an ECN-capable
    /// packet too; false: it marks it (ns-3's `UseHardDrop` false).
    pub hard_drop: bool,
    /// An idle period decays the average as one power (ns-3's `RedQueueDisc::Estimator`).
    pub idle_pow: bool,
}

/// RED above a device queue: the packets it holds and, if its last dequeue found it empty,
/// when (module notes).
#[derive(Clone, Debug, Default)]
struct Held {
    q: TimedFifo,
    idle_since: Option<SimTime>,
}

#[derive(Clone, Debug)]
pub struct Red {
    p: RedParams,
    /// Packet time constant: mean-size packets per second the line carries.
    ptc: f64,
    /// The rate of an idle period's virtual arrivals (ptc, or `cautious` 3's).
    idle_ptc: f64,
    q_w: f64,
    /// Thresholds and limit in the unit the queue is measured in.
    th_min: f64,
    th_max: f64,
    /// p_b = (v_a avg + v_b) max_p between the thresholds and v_c avg + v_d above max_th
    /// with gentle, in ns-2's arithmetic (`REDQueue::calculate_p_new`); v_c and v_d are set
    /// once from the initial max_p (`REDQueue::reset`), so Adaptive RED moves only the lower
    /// line, as in ns-2 and ns-3.
    v_a: f64,
    v_b: f64,
    v_c: f64,
    v_d: f64,
    limit: f64,
    avg: f64,
    /// Packets (or bytes) admitted since the last early drop.
    count: u64,
    count_bytes: u64,
    /// Whether the last arrival already found avg above min_th.
    old: bool,
    prob_b: f64,
    /// max_p in force: the parameter's, or as Adaptive RED (`ared.rs`) moved it.
    cur_max_p: f64,
    ared: Option<Ared>,
    /// Nonlinear RED's quadratic p_b (`nlred.rs`).
    nonlinear: bool,
    rng: Uniform,
    pub marks: u64,
    pub early_drops: u64,
    pub forced_drops: u64,
    /// `curq_`/`ave_` changes, when traced ([`VarTrace`]).
    var_trace: Option<Box<VarTrace>>,
    /// Above a device queue: its own packets (module notes); None: decides at the line.
    held: Option<Held>,
}

impl Red {
    pub fn new(p: RedParams, rate_bps: f64, delay_s: f64, rng: RandomStream) -> Red {
        let ptc = rate_bps / (8.0 * p.mean_pktsize as f64);
        // REDQueue::enque, cautious_ 3: ptc * mean_pktsize / idle_pktsize, left to right.
        let idle_ptc = if p.cautious == 3 {
            ptc * p.mean_pktsize as f64 / p.idle_pktsize as f64
        } else {
            ptc
        };
        let q_w = if p.q_weight == 0.0 {
            1.0 - (-1.0 / ptc).exp()
        } else if p.q_weight == -1.0 {
            let rtt = (3.0 * (delay_s + 1.0 / ptc)).max(0.1);
            1.0 - (-1.0 / (10.0 * rtt * ptc)).exp()
        } else if p.q_weight == -2.0 {
            1.0 - (-10.0 / ptc).exp()
        } else {
            p.q_weight
        };
        let mut min_pkts = p.min_thresh;
        if min_pkts == 0.0 {
            min_pkts = (p.target_delay_s * ptc / 2.0).max(5.0);
        }
        let mut max_pkts = p.max_thresh;
        if max_pkts == 0.0 {
            max_pkts = 3.0 * min_pkts;
        }
        let unit = if p.queue_in_bytes {
            p.mean_pktsize as f64
        } else {
            1.0
        };
        let (th_min, th_max) = (min_pkts * unit, max_pkts * unit);
        // REDQueue::reset: p_b's lines as ns-2 computes them (a span of 0 counts as 1).
        let span = if th_max == th_min {
            1.0
        } else {
            th_max - th_min
        };
        Red {
            p,
            ptc,
            idle_ptc,
            q_w,
            th_min,
            th_max,
            v_a: 1.0 / span,
            v_b: -th_min / span,
            v_c: (1.0 - p.max_p) / th_max,
            v_d: 2.0 * p.max_p - 1.0,
            limit: p.limit_packets as f64 * unit,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            prob_b: 0.0,
            cur_max_p: p.max_p,
            ared: None,
            nonlinear: false,
            rng: Uniform::Own(rng),
            var_trace: None,
            marks: 0,
            early_drops: 0,
            forced_drops: 0,
            held: None,
        }
    }

    /// Makes it a root queue disc above a device queue, holding its packets (module notes).
    pub fn set_held(&mut self) {
        self.held = Some(Held::default());
    }

    /// Adapts max_p as Adaptive RED does (`ared.rs`).
    pub fn set_adaptive(&mut self, ared: Ared) {
        self.ared = Some(ared);
    }

    /// Makes p_b quadratic between the thresholds, as Nonlinear RED does (`nlred.rs`).
    pub fn set_nonlinear(&mut self, on: bool) {
        self.nonlinear = on;
    }

    /// max_p in force.
    pub fn max_p(&self) -> f64 {
        self.cur_max_p
    }

    /// The weight and thresholds in force (after automatic configuration).
    pub fn resolved(&self) -> (f64, f64, f64) {
        (self.q_w, self.th_min, self.th_max)
    }

    pub fn avg(&self) -> f64 {
        self.avg
    }

    /// p_b for an average queue `avg`.
    pub fn base_probability(&self, avg: f64) -> f64 {
        let max_p = self.cur_max_p;
        let p = if avg >= self.th_max {
            if self.p.gentle {
                // Linear from max_p at max_th to 1 at 2 max_th.
                self.v_c * avg + self.v_d
            } else {
                1.0
            }
        } else {
            // (avg - min_th) / (max_th - min_th)
            let lin = self.v_a * avg + self.v_b;
            if self.nonlinear {
                super::nlred::base_probability(lin, max_p)
            } else {
                lin * max_p
            }
        };
        p.min(1.0)
    }

    /// p_a: p_b spread over the packets since the last drop.
    fn actual_probability(&self, pb: f64, size: u32) -> f64 {
        let count = if self.p.bytes {
            (self.count_bytes / self.p.mean_pktsize as u64) as f64
        } else {
            self.count as f64
        };
        let cp = count * pb;
        let mut pa = if self.p.wait {
            if cp < 1.0 {
                0.0
            } else if cp < 2.0 {
                pb / (2.0 - cp)
            } else {
                1.0
            }
        } else if cp < 1.0 {
            pb / (1.0 - cp)
        } else {
            1.0
        };
        if self.p.bytes && pa < 1.0 {
            pa = pa * size as f64 / self.p.mean_pktsize as f64;
        }
        pa.min(1.0)
    }

    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        let q = if self.p.queue_in_bytes {
            a.backlog.bytes as f64
        } else {
            a.backlog.packets as f64
        };
        let mut decay = 0i64;
        if self.p.idle_pow {
            // RedQueueDisc::DoEnqueue: m = uint32_t(m_ptc * (now - m_idleTime).GetSeconds()),
            // then Estimator(nQueued, m + 1, ...): avg pow(1 - w_q, m + 1) + w_q q.
            let m = a.idle_since.map_or(0.0, |since| {
                (self.idle_ptc * ((a.now.0.saturating_sub(since.0)) as f64 / 1e12)) as u32 as f64
            });
            self.avg = self.avg * (1.0 - self.q_w).powf(m + 1.0) + self.q_w * q;
        } else if let Some(idle) = a.idle_ns2 {
            // REDQueue::enque: m = int(ptc * (now - idletime_)), in ns-2's doubles.
            decay = (self.idle_ptc * idle) as i64;
        } else if let Some(since) = a.idle_since {
            // ns-2 truncates the number of virtual arrivals toward zero.
            decay = (self.idle_ptc * (a.now.0.saturating_sub(since.0)) as f64 / 1e12) as i64;
        }
        if !self.p.idle_pow {
            // One multiplication per virtual arrival, as ns-2 does, so the rounding matches.
            while decay > 0 && self.avg != 0.0 {
                self.avg *= 1.0 - self.q_w;
                decay -= 1;
            }
            self.avg = (1.0 - self.q_w) * self.avg + self.q_w * q;
        }
        if let Some(ared) = self.ared.as_mut() {
            self.cur_max_p = ared.adapt(a.now, self.avg, self.th_min, self.th_max, self.cur_max_p);
        }
        // REDQueue::enque: ave_ then curq_ (the backlog the arrival found), traced if asked.
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(a.now, q, self.avg);
        }

        self.count += 1;
        self.count_bytes += a.size as u64;
        let mut verdict = Verdict::Admit;
        let above_max = if self.p.gentle {
            self.avg >= 2.0 * self.th_max
        } else {
            self.avg >= self.th_max
        };
        if self.avg >= self.th_min && q > 1.0 {
            if above_max && !self.p.hard_drop {
                // ns-3's RedQueueDisc::DoEnqueue: DTYPE_FORCED comes before the m_old test and
                // with UseHardDrop false marks an ECN-capable arrival (Mark(item,
                // FORCED_MARK)); the count runs on.
                if self.p.ecn && a.ect() && q < self.limit {
                    self.marks += 1;
                    return Verdict::Mark;
                }
                verdict = Verdict::Drop;
            } else if !self.p.use_mark_p && above_max {
                verdict = Verdict::Drop;
            } else if !self.old {
                self.count = 1;
                self.count_bytes = a.size as u64;
                self.old = true;
            } else {
                self.prob_b = self.base_probability(self.avg);
                let pa = self.actual_probability(self.prob_b, a.size);
                // REDQueue::drop_early's cautious_ 1 and 2: the backlog against what the
                // average keeps after 50 ms of arrivals to an empty queue.
                let kept = if self.p.cautious == 1 || self.p.cautious == 2 {
                    (1.0 - self.q_w).powf(self.ptc * 0.05) * self.avg
                } else {
                    0.0
                };
                let early = if self.p.cautious == 1 && q < kept {
                    false
                } else {
                    let mut u = self.rng.next_f64();
                    if self.p.cautious == 2 && q < kept {
                        u *= 1.0 / (q / kept);
                    }
                    u <= pa
                };
                if early {
                    self.count = 0;
                    self.count_bytes = 0;
                    // REDQueue::drop_early marks while p_b < mark_p in ns-2.35; a DCTCP patch
                    // of ns-2 made it <=, so that max_p = mark_p = 1 marks at the threshold.
                    let markable = !self.p.use_mark_p
                        || self.prob_b < self.p.mark_p
                        || (!self.p.mark_p_strict && self.prob_b == self.p.mark_p);
                    verdict = if self.p.ecn && a.ect() && markable {
                        Verdict::Mark
                    } else if self.p.early_drop_target {
                        // REDQueue::enque hands a DTYPE_UNFORCED drop to de_drop_ when the
                        // script gave one (`early-drop-target`), to the queue's drop target
                        // otherwise.
                        Verdict::EarlyDrop
                    } else {
                        Verdict::Drop
                    };
                    if q < self.limit {
                        if verdict == Verdict::Mark {
                            self.marks += 1;
                        } else {
                            self.early_drops += 1;
                        }
                        return verdict;
                    }
                }
            }
        } else {
            self.prob_b = 0.0;
            self.old = false;
        }
        // REDQueue::enque: a full queue makes the arrival a forced drop whatever the early
        // decision was, a mark included.
        if q >= self.limit {
            verdict = Verdict::Drop;
        }
        if verdict == Verdict::Drop {
            self.forced_drops += 1;
            // REDQueue::enque, DTYPE_FORCED: the count restarts (Philip Liu's fix) unless
            // ns1_compat_ asks for ns-1's behaviour, where the next early drop comes sooner.
            if !self.p.ns1_compat {
                self.count = 0;
                self.count_bytes = 0;
            }
        }
        verdict
    }

    pub fn state(&self) -> AqmState {
        AqmState {
            avg: self.avg,
            prob: self.prob_b,
            dropping: f64::NAN,
        }
    }
}

crate::params! {
    /// The `Red` discipline's parameters (`queue.params`), each with its declaration.
    pub struct RedSettings {
        min_thresh: f64 = Param::new("min_thresh", 0.0, Range::NonNegative, "min_th in packets (0: automatic)")
            .unit(Unit::Packets)
            .ns2("thresh_")
            .ns3("MinTh")
            .aliases(&["thresh", "min_th"])
            .profile_defaults(&[("ns3", 5.0)]),
        max_thresh: f64 = Param::new("max_thresh", 0.0, Range::NonNegative, "max_th in packets (0: 3 min_th)")
            .unit(Unit::Packets)
            .ns2("maxthresh_")
            .ns3("MaxTh")
            .aliases(&["maxthresh", "max_th"])
            .profile_defaults(&[("ns3", 15.0)]),
        q_weight: f64 = Param::new("q_weight", -1.0, Range::Weight, "EWMA weight w_q of the average queue")
            .ns2("q_weight_")
            .ns3("QW")
            .aliases(&["w_q"])
            .profile_defaults(&[("ns3", 0.002)]),
        max_p: f64 = Param::new("max_p", 0.1, Range::Fraction, "p_b at max_th")
            .inverse_aliases(&["linterm_", "linterm"])
            .profile_defaults(&[("ns3", 0.02)]),
        gentle: bool = Param::new("gentle", 1.0, Range::Flag, "p_b rises to 1 at 2 max_th")
            .ns2("gentle_")
            .ns3("Gentle"),
        wait: bool = Param::new("wait", 1.0, Range::Flag, "wait between early drops").ns2("wait_").ns3("Wait"),
        bytes: bool = Param::new("bytes", 0.0, Range::Flag, "drop probability scaled by packet size")
            .ns2("bytes_")
            .profile_defaults(&[("ns2", 1.0)]),
        queue_in_bytes: bool = Param::new("queue_in_bytes", 0.0, Range::Flag, "average queue measured in bytes")
            .ns2("queue_in_bytes_")
            .profile_defaults(&[("ns2", 1.0)]),
        mean_pktsize: u32 = Param::new("mean_pktsize", 1500.0, Range::Count, "mean packet size of ptc")
            .unit(Unit::Bytes)
            .ns2("mean_pktsize_")
            .ns3("MeanPktSize")
            .profile_defaults(&[("ns2", 500.0), ("ns3", 500.0)]),
        target_delay: crate::time::SimDuration = Param::new("target_delay", 5e9, Range::NonNegative, "automatic min_th's delay")
            .unit(Unit::Time)
            .ns2("targetdelay_"),
        use_mark_p: bool = Param::new("use_mark_p", 1.0, Range::Flag, "mark only while p_b <= mark_p")
            .ns2("use_mark_p_")
            .profile_defaults(&[("ns3", 0.0)]),
        mark_p: f64 = Param::new("mark_p", 0.1, Range::Positive, "early decisions mark below this p_b (> 1: all)")
            .ns2("mark_p_"),
        mark_p_strict: bool = Param::new("mark_p_strict", 0.0, Range::Flag, "use_mark_p: p_b < mark_p, not <=")
            .profile_defaults(&[("ns2", 1.0)]),
        adaptive: bool = Param::new("adaptive", 0.0, Range::Flag, "Adaptive RED: max_p follows the average")
            .ns2("adaptive_"),
        alpha: f64 = Param::new("alpha", 0.01, Range::Positive, "adaptive: max_p's additive increase")
            .ns2("alpha_"),
        beta: f64 = Param::new("beta", 0.9, Range::Positive, "adaptive: max_p's multiplicative decrease")
            .ns2("beta_"),
        interval: crate::time::SimDuration = Param::new("interval", 0.5e12, Range::Positive, "adaptive: time between max_p changes")
            .unit(Unit::Time)
            .ns2("interval_"),
        top: f64 = Param::new("top", 0.5, Range::Fraction, "adaptive: max_p's upper bound").ns2("top_"),
        bottom: f64 = Param::new("bottom", 0.0, Range::NonNegative, "adaptive: max_p's lower bound (0: auto)")
            .ns2("bottom_"),
        feng_adaptive: bool = Param::new("feng_adaptive", 0.0, Range::Flag, "adaptive: Feng et al.'s rule for max_p")
            .ns2("feng_adaptive_"),
        cautious: f64 = Param::new("cautious", 0.0, Range::Whole(0, 3), "ns-2's experimental cautious_ (0-3)")
            .ns2("cautious_"),
        idle_pktsize: u32 = Param::new("idle_pktsize", 100.0, Range::Count, "packet size of cautious 3's idle decay")
            .unit(Unit::Bytes)
            .ns2("idle_pktsize_"),
        ns1_compat: bool = Param::new("ns1_compat", 0.0, Range::Flag, "ns-2's ns1_compat_: a forced drop keeps the count since the last early drop")
            .ns2("ns1_compat_")
            .profile_defaults(&[("ns3", 1.0)]),
        early_drop_target: bool = Param::new(
            "early_drop_target",
            0.0,
            Range::Flag,
            "early drops to their own target (ns-2 attach-fmon's edrop), counted apart",
        ),
        hard_drop: bool = Param::new("hard_drop", 1.0, Range::Flag, "forced decisions above max_th drop ECN-capable packets too (0: mark them)")
            .ns3("UseHardDrop"),
        link_bandwidth: f64 = Param::new("link_bandwidth", 0.0, Range::NonNegative, "the rate ptc is computed from, bits per second (0: the link's)")
            .ns3("LinkBandwidth")
            .profile_defaults(&[("ns3", 1.5e6)]),
        idle_pow: bool = Param::new("idle_pow", 0.0, Range::Flag, "an idle period decays the average as one power (ns-3's RedQueueDisc::Estimator)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

const RED_PARAMS: &[Param] = RedSettings::PARAMS;

impl QueueDiscipline for Red {
    const INFO: QdiscInfo = QdiscInfo {
        params: RED_PARAMS,
        ecn: true,
        device: true,
        ..QdiscInfo::new(
            "red",
            Service::Enqueue,
            "Random Early Detection (Floyd and Jacobson 1993) as ns-2.35's Queue/RED",
        )
    };

    type Params = RedSettings;

    fn new(p: &RedSettings, setup: &QueueSetup) -> Red {
        // ns-3's RedQueueDisc computes ptc (and all that follows from it) from its
        // LinkBandwidth attribute, 1.5 Mb/s unless set, not from the device's rate.
        let rate_bps = if p.link_bandwidth > 0.0 {
            p.link_bandwidth
        } else {
            setup.rate_bps
        };
        let mut red = Red::new(
            RedParams {
                limit_packets: setup.packets(),
                min_thresh: p.min_thresh,
                max_thresh: p.max_thresh,
                q_weight: p.q_weight,
                max_p: p.max_p,
                gentle: p.gentle,
                wait: p.wait,
                bytes: p.bytes,
                queue_in_bytes: p.queue_in_bytes,
                mean_pktsize: p.mean_pktsize,
                target_delay_s: p.target_delay.as_secs_f64(),
                ecn: setup.ecn,
                use_mark_p: p.use_mark_p,
                mark_p: p.mark_p,
                mark_p_strict: p.mark_p_strict,
                cautious: p.cautious as u8,
                idle_pktsize: p.idle_pktsize,
                ns1_compat: p.ns1_compat,
                early_drop_target: p.early_drop_target,
                hard_drop: p.hard_drop,
                idle_pow: p.idle_pow,
            },
            rate_bps,
            setup.delay.as_secs_f64(),
            setup.rng.clone(),
        );
        if p.adaptive {
            red.set_adaptive(Ared::ns2(
                AredParams {
                    interval: p.interval,
                    alpha: p.alpha,
                    beta: p.beta,
                    top: p.top,
                    bottom: p.bottom,
                    ..AredParams::default()
                },
                rate_bps,
                p.feng_adaptive,
            ));
        }
        if setup.device {
            red.set_held();
        }
        red
    }

    fn check(p: &RedSettings) -> Result<(), String> {
        let (min, max) = (p.min_thresh, p.max_thresh);
        // min_th = max_th is a step at K: every packet that finds K queued is marked or
        // dropped (DCTCP's marking, Alizadeh et al. 2010 section 3.1).
        if min > 0.0 && max > 0.0 && min > max {
            return Err(format!(
                "max_thresh: must be at least min_thresh ({min} > {max})"
            ));
        }
        Ok(())
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        Red::admit(self, a)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
        Some(&mut self.var_trace)
    }

    #[inline]
    fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// Above a device queue: `RedQueueDisc::DoEnqueue`, the decision on its own backlog,
    /// idle since its last empty dequeue if that came after its last arrival.
    fn enqueue(&mut self, now: SimTime, mut pkt: Packet, dropped: &mut Vec<Packet>) {
        let Some(h) = self.held.as_mut() else {
            dropped.push(pkt);
            return;
        };
        let (backlog, idle_since) = (h.q.backlog(), h.idle_since.take());
        let verdict = Red::admit(
            self,
            &Arrival {
                now,
                backlog,
                size: pkt.size,
                pkt: &pkt,
                idle_since,
                busy_until: now,
                idle_ns2: None,
            },
        );
        match verdict {
            Verdict::Admit | Verdict::Mark => {
                if verdict == Verdict::Mark {
                    pkt.ecn |= crate::packet::ecn::CE;
                }
                self.held.as_mut().expect("held").q.push(now, pkt);
            }
            Verdict::Drop | Verdict::EarlyDrop => dropped.push(pkt),
        }
    }

    /// Above a device queue: `RedQueueDisc::DoDequeue`, whose empty dequeue starts an idle
    /// period.
    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let h = self.held.as_mut()?;
        let head = h.q.pop();
        h.idle_since = if head.is_none() { Some(now) } else { None };
        head
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        self.held
            .as_ref()
            .map_or(Backlog::default(), |h| h.q.backlog())
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        if let Some(h) = &self.held {
            h.q.packets.iter().for_each(|(_, p)| f(p));
        }
    }

    #[inline]
    fn marks(&self) -> u64 {
        self.marks
    }

    fn random(&mut self) -> Option<&mut Uniform> {
        Some(&mut self.rng)
    }

    fn state(&self) -> AqmState {
        Red::state(self)
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        // Measured in bytes, RED's limit is in mean-size packets' bytes.
        (
            (!self.p.queue_in_bytes).then_some(self.p.limit_packets),
            None,
        )
    }
}

#[cfg(test)]
mod tests;
