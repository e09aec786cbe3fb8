//! Quick-Start (RFC 4782) in the network: the routers' approval of a sender's rate request,
//! as ns-2.35 models it (qs/qsagent.cc, qs/hdr_qs.cc, queue/queue.cc's utilisation), and the
//! option's encoding.
//!
//! A sender asks for a rate in the Quick-Start option of its first segment (RFC 4782 section
//! 4.1; `sender/quick_start.rs`). Each router on the path that supports Quick-Start either
//! approves it, possibly lower, and decrements the option's QS TTL, or rejects it (section
//! 3.2: "Rate Request field ... zero"). The receiver echoes the rate and the difference of the
//! IP and QS TTLs (section 4.2); the sender uses the rate only if that difference shows that
//! every router on the path took part (section 4.3): a router without Quick-Start leaves the
//! QS TTL alone while decrementing the IP TTL. The engine keeps that as one bit, `intact`:
//! every node that forwarded the request approved it.
//!
//! ns-2.35 puts an `Agent/QSAgent` in front of each node's classifier (tcl/lib/ns-qsnode.tcl,
//! `RtModule/QS`): every packet entering the node, from its own agents too, passes it, and a
//! request not addressed to the node is checked against the link it leaves by
//! (`QSAgent::recv`: `get-link`, `get-queue` of the next hop). Here the node's agent
//! ([`QsRouter`]) runs when the packet enters that link, and the link keeps its queue's
//! utilisation ([`QsUtil`]) only if its node has an agent.

use crate::scenario::QuickStartRouter;

/// How a rate is written in the option (`hdr_qs::rate_to_Bps`, `Bps_to_rate`; ns-2's
/// `Agent/QSAgent` `rate_function_`, one value for the whole run).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RateFunction {
    /// Units of 10 KB/s (10 240 bytes per second): ns-2's `rate_function_ 1`.
    Linear,
    /// 5000 * 2^N bytes per second: ns-2's `rate_function_ 2`, its default. (RFC 4782
    /// section 4.1 writes 40 kbit/s * 2^N, N from 1 to 15, in four bits.)
    #[default]
    Exponential,
}

impl RateFunction {
    /// The rate in bytes per second an encoded rate stands for (`hdr_qs::rate_to_Bps`).
    pub fn to_bytes_per_sec(self, rate: u32) -> f64 {
        if rate == 0 {
            return 0.0;
        }
        match self {
            RateFunction::Linear => rate as f64 * 10240.0,
            RateFunction::Exponential => 2f64.powi(rate as i32) * 5000.0,
        }
    }

    /// The encoded rate for `bytes_per_sec` (`hdr_qs::Bps_to_rate`): rounded down, the
    /// exponential one through ns-2's `fuzzy_cast` (a logarithm within 1e-6 below a whole
    /// number is that number), and 0 below its first step.
    pub fn encode(self, bytes_per_sec: f64) -> u32 {
        if bytes_per_sec == 0.0 {
            return 0;
        }
        match self {
            // `(int) Bps / 10240`: the cast first, then integer division.
            RateFunction::Linear => ((bytes_per_sec as i64) / 10240).max(0) as u32,
            RateFunction::Exponential => {
                let f = (bytes_per_sec / 5000.0).ln() / 2f64.ln();
                let n = fuzzy_cast(f);
                if n >= 1 {
                    n as u32
                } else {
                    0
                }
            }
        }
    }
}

/// ns-2.35's `fuzzy_cast` (qs/hdr_qs.cc): truncation, except that a value within 1e-6 below
/// the next whole number rounds to it (log2 of an exact power of two may come out a hair
/// below it). The fractional part is taken against the truncated value as a `float`, as there.
fn fuzzy_cast(f: f64) -> i64 {
    const EPSILON: f64 = 0.000001;
    let temp = f as i64;
    if f - (temp as f32) as f64 >= 1.0 - EPSILON {
        (f + 0.5) as i64
    } else {
        temp
    }
}

/// The Quick-Start option a packet carries (beside the [`crate::packet::ecn::QS`] bit,
/// `Packet::quick_start`): on a data segment a request, on an ACK the receiver's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QsOption {
    /// The encoded rate ([`RateFunction`]); 0 on a request some router rejected.
    pub rate: u32,
    /// Every node that forwarded the request approved it (the QS TTL kept step with the IP
    /// TTL, RFC 4782 section 4.3).
    pub intact: bool,
}

impl QsOption {
    const INTACT: u32 = 1 << 31;

    /// The option in 32 bits: the rate below bit 31, `intact` in it.
    pub fn pack(self) -> u32 {
        (self.rate & !Self::INTACT) | if self.intact { Self::INTACT } else { 0 }
    }

    pub fn unpack(v: u32) -> QsOption {
        QsOption {
            rate: v & !Self::INTACT,
            intact: v & Self::INTACT != 0,
        }
    }
}

/// A node's Quick-Start agent (ns-2.35's `QSAgent`): its parameters and the rate it approved
/// in the current and the previous interval of `state_delay` (`aggr_approval_`,
/// `prev_int_aggr_`, which `QSTimer::expire` shifts every `state_delay_` from the agent's
/// creation at time 0).
#[derive(Clone, Debug)]
pub struct QsRouter {
    pub cfg: QuickStartRouter,
    aggr_approval: f64,
    prev_int_aggr: f64,
    /// `state_delay_` in seconds, and when `QSTimer` next expires (ns-2's sums of it).
    state_delay: f64,
    next_expiry: f64,
}

/// What a router needs of the link a request leaves by.
#[derive(Clone, Copy, Debug)]
pub struct LinkLoad {
    /// `LinkDelay::bandwidth()`, bit/s.
    pub bandwidth: f64,
    /// The queue's `utilization()` (EWMA) and `peak_utilization()` now, in [0, 1]; asked for
    /// only by the algorithms that read them, as each call moves the queue's state.
    pub util: f64,
}

impl QsRouter {
    pub fn new(cfg: QuickStartRouter) -> QsRouter {
        let state_delay = crate::sched::ns2_seconds(crate::time::SimTime(cfg.state_delay_ps));
        QsRouter {
            cfg,
            aggr_approval: 0.0,
            prev_int_aggr: 0.0,
            state_delay,
            next_expiry: state_delay,
        }
    }

    /// Whether the algorithm reads the peak utilisation (3) rather than the average (1, 2).
    pub fn reads_peak(&self) -> bool {
        self.cfg.algorithm == 3
    }

    /// Whether the algorithm reads the queue's utilisation at all.
    pub fn reads_util(&self) -> bool {
        matches!(self.cfg.algorithm, 1..=3)
    }

    /// `QSTimer::expire` for each expiry up to `now` (seconds): the interval's approvals
    /// become the previous interval's.
    fn expire_until(&mut self, now: f64) {
        if self.state_delay <= 0.0 {
            return;
        }
        while self.next_expiry <= now {
            self.prev_int_aggr = self.aggr_approval;
            self.aggr_approval = 0.0;
            self.next_expiry += self.state_delay;
        }
    }

    /// `QSAgent::process`: the rate approved (bytes/s) for a request of `req` bytes/s on a
    /// link `load`ed so, at `now` (seconds); 0 rejects. Each algorithm is ns-2.35's:
    /// 1 approves a share (`alloc_rate_`) of the unused bandwidth less the recent
    /// approvals, at most `max_rate_` KB/s; 2 approves up to `alloc_rate_` of the bandwidth
    /// while the utilisation plus the recent approvals stay under `threshold_` of it; 3
    /// (RFC 4782 appendix E.2's) as 2 with the peak utilisation, approving at most
    /// `alloc_rate_` of the bandwidth less what is used; 4 is a broken router that approves
    /// everything; any other rejects everything.
    pub fn process(&mut self, now: f64, load: LinkLoad, req: f64) -> f64 {
        self.expire_until(now);
        let c = &self.cfg;
        let bytes = load.bandwidth / 8.0;
        let recent = self.prev_int_aggr + self.aggr_approval;
        match c.algorithm {
            1 => {
                let mut avail = bytes * (1.0 - load.util);
                avail -= recent;
                avail *= c.alloc_rate;
                // `(int) avail` when it limits the request.
                let mut app = if avail < req {
                    (avail as i64) as f64
                } else {
                    req
                };
                let cap = (c.max_rate as f64) * 1024.0;
                if app >= cap {
                    app = cap;
                }
                if app > 0.0 {
                    self.aggr_approval += app;
                }
                app
            }
            2 | 3 => {
                let util_bw = bytes * load.util + recent;
                let app = if util_bw < c.threshold * load.bandwidth / 8.0 {
                    let mut app = if c.algorithm == 2 {
                        c.alloc_rate * load.bandwidth / 8.0
                    } else {
                        c.alloc_rate * load.bandwidth / 8.0 - util_bw
                    };
                    if req < app {
                        app = req;
                    }
                    if app < 0.0 {
                        app = 0.0;
                    }
                    app
                } else {
                    0.0
                };
                self.aggr_approval += app;
                app
            }
            4 => req,
            _ => 0.0,
        }
    }

    /// `QSAgent::recv` for a request `opt` leaving the node at `now`: an enabled agent
    /// approves (the rate rewritten, encoded again) or rejects (None: the option is
    /// disabled); a disabled one passes it unchanged, which breaks `intact` (the QS TTL is
    /// not decremented). A request of rate 0 is not looked at.
    pub fn on_request(
        &mut self,
        now: f64,
        load: impl FnOnce(&QsRouter) -> LinkLoad,
        opt: QsOption,
        rates: RateFunction,
    ) -> Option<QsOption> {
        if !self.cfg.enabled || opt.rate == 0 {
            return Some(QsOption {
                intact: false,
                ..opt
            });
        }
        let load = load(self);
        let app = self.process(now, load, rates.to_bytes_per_sec(opt.rate));
        if app > 0.0 {
            Some(QsOption {
                rate: rates.encode(app),
                intact: opt.intact,
            })
        } else {
            None
        }
    }
}

/// A queue's utilisation as ns-2.35's `Queue` measures it for Quick-Start (queue/queue.cc,
/// `utilUpdate`, `utilization`, `peak_utilization`): an average of the line's busy state
/// decaying as exp(-`util_weight_` t), and the busy fraction of each interval of
/// `util_check_intv_` seconds, the last `util_records_` of them kept. ns-2 updates both when
/// the line becomes busy (`Queue::recv` on an idle line), when it goes idle (`Queue::resume`
/// with nothing waiting) and when a router asks; the link calls [`QsUtil::on_start`] for
/// the first (closing the busy period before it, whose end it knows then) and the router
/// [`QsUtil::query`].
#[derive(Clone, Debug)]
pub struct QsUtil {
    weight: f64,
    check_intv: f64,
    last_change: f64,
    /// `blocked_`: the line is busy since `last_change`.
    blocked: bool,
    old_util: f64,
    period_begin: f64,
    cur_util: f64,
    slot: usize,
    buf: Vec<f64>,
    /// A non-ns2-clock link: a packet that arrived at this time on a free line, with the
    /// line's end of service then; if the line's end moved since, it started then
    /// (`Link::qs_note_arrival`).
    pub(crate) candidate: Option<(f64, f64)>,
}

impl QsUtil {
    pub fn new(weight: f64, check_intv: f64, records: u32) -> QsUtil {
        QsUtil {
            weight,
            check_intv,
            last_change: 0.0,
            blocked: false,
            old_util: 0.0,
            period_begin: 0.0,
            cur_util: 0.0,
            slot: 0,
            buf: vec![0.0; records as usize],
            candidate: None,
        }
    }

    /// `Queue::utilUpdate(int_begin, int_end, link_state)`.
    fn update(&mut self, begin: f64, end: f64, busy: bool) {
        let state = if busy { 1.0 } else { 0.0 };
        let decay = (-self.weight * (end - begin)).exp();
        self.old_util = state + (self.old_util - state) * decay;
        let records = self.buf.len();
        if records == 0 {
            return;
        }
        let mut intv = end - begin;
        let tot_intv = begin - self.period_begin;
        if intv != 0.0 || tot_intv != 0.0 {
            self.cur_util = (state * intv + self.cur_util * tot_intv) / (intv + tot_intv);
            let mut guard = 0;
            while tot_intv + intv > self.check_intv && guard < records {
                guard += 1;
                self.period_begin = end;
                self.buf[self.slot] = self.cur_util;
                self.slot = (self.slot + 1) % records;
                self.cur_util = state;
                intv -= self.check_intv;
            }
        }
    }

    /// Moves the state to `t` with the line in state `busy` from `last_change`.
    fn change(&mut self, t: f64, busy: bool) {
        self.update(self.last_change, t, self.blocked);
        self.last_change = t;
        self.blocked = busy;
    }

    /// A transmission starts at `t` on a line that was free; the busy period before it ended
    /// at `prev_end` (`Queue::resume` finding nothing, then `Queue::recv`).
    pub fn on_start(&mut self, t: f64, prev_end: f64) {
        if self.blocked {
            self.change(prev_end, false);
        }
        self.change(t, true);
    }

    /// `utilization()` (`peak` false) or `peak_utilization()` at `t`, the line busy until
    /// `busy_end`: the busy period is closed first if it ended by then.
    pub fn query(&mut self, t: f64, busy_end: f64, peak: bool) -> f64 {
        if self.blocked && busy_end <= t {
            self.change(busy_end, false);
        }
        self.change(t, self.blocked);
        if !peak || self.buf.is_empty() {
            return self.old_util;
        }
        self.buf.iter().fold(0.0, |m, &u| if u > m { u } else { m })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn router(algorithm: u32, alloc: f64, threshold: f64) -> QsRouter {
        QsRouter::new(QuickStartRouter {
            algorithm,
            alloc_rate: alloc,
            threshold,
            ..QuickStartRouter::default()
        })
    }

    #[test]
    fn rates_encode_as_ns2_writes_them() {
        // hdr_qs::Bps_to_rate: (int) Bps / 10240; rate_to_Bps: rate * 10240.
        let lin = RateFunction::Linear;
        assert_eq!(lin.encode(20.0 * 1024.0), 2);
        assert_eq!(lin.to_bytes_per_sec(2), 20480.0);
        assert_eq!(lin.encode(10239.0), 0);
        // Exponential: 5000 * 2^N, N by fuzzy_cast(log2(Bps / 5000)), at least 1.
        let exp = RateFunction::Exponential;
        assert_eq!(exp.encode(40.0 * 1024.0), 3, "log2(8.192) = 3.03");
        assert_eq!(exp.to_bytes_per_sec(3), 40000.0);
        assert_eq!(exp.encode(40000.0), 3, "an exact power rounds to itself");
        assert_eq!(
            exp.encode(39999.99),
            3,
            "within 1e-6 of 3 below: fuzzy_cast rounds up"
        );
        assert_eq!(exp.encode(39990.0), 2);
        assert_eq!(exp.encode(9000.0), 0, "below 2 * 5000: no rate");
    }

    #[test]
    fn option_packs_into_32_bits() {
        let o = QsOption {
            rate: 200,
            intact: true,
        };
        assert_eq!(QsOption::unpack(o.pack()), o);
        let o = QsOption {
            rate: 7,
            intact: false,
        };
        assert_eq!(QsOption::unpack(o.pack()), o);
    }

    #[test]
    fn algorithm_3_approves_the_allocation_less_what_is_used() {
        // 0.64 Mb/s = 80 000 B/s; alloc 1.0, threshold 1.0; 50% peak utilisation.
        let mut r = router(3, 1.0, 1.0);
        r.state_delay = 0.2;
        r.next_expiry = 0.2;
        let load = LinkLoad {
            bandwidth: 640_000.0,
            util: 0.5,
        };
        assert_eq!(r.process(0.1, load, 40960.0), 40000.0, "80 000 - 40 000");
        // The approval counts against the next request of the interval...
        assert_eq!(r.process(0.15, load, 40960.0), 0.0, "40 000 + 40 000 used");
        // ...and of the next one (prev_int_aggr_), not after that.
        let idle = LinkLoad { util: 0.0, ..load };
        assert_eq!(
            r.process(0.25, idle, 40960.0),
            40000.0,
            "80 000 - 40 000 previous"
        );
        assert_eq!(
            r.process(0.65, idle, 40960.0),
            40960.0,
            "two intervals on: all free"
        );
    }

    #[test]
    fn algorithm_2_approves_a_share_under_the_threshold() {
        let mut r = router(2, 0.5, 0.85);
        let load = LinkLoad {
            bandwidth: 100e6,
            util: 0.8,
        };
        assert_eq!(
            r.process(0.0, load, 1e9),
            0.5 * 12.5e6,
            "alloc_rate_ of the bandwidth"
        );
        let busy = LinkLoad { util: 0.9, ..load };
        assert_eq!(
            r.process(0.0, busy, 100.0),
            0.0,
            "over threshold_: rejected"
        );
    }

    #[test]
    fn algorithm_1_shares_the_unused_bandwidth_up_to_max_rate() {
        let mut r = router(1, 0.01, 0.85);
        let load = LinkLoad {
            bandwidth: 100e6,
            util: 0.0,
        };
        // 12.5e6 * 0.01 = 125 000 B/s: (int) of it, under max_rate_ 256 KB/s.
        assert_eq!(r.process(0.0, load, 1024000.0), 125000.0);
        r.cfg.max_rate = 100;
        assert_eq!(
            r.process(1.0, load, 1024000.0),
            102400.0,
            "max_rate_ * 1024"
        );
    }

    #[test]
    fn a_disabled_router_passes_the_request_but_breaks_it() {
        let mut r = router(3, 0.5, 0.85);
        r.cfg.enabled = false;
        let opt = QsOption {
            rate: 2,
            intact: true,
        };
        let load = |_: &QsRouter| LinkLoad {
            bandwidth: 1e9,
            util: 0.0,
        };
        let out = r.on_request(0.0, load, opt, RateFunction::Linear);
        assert_eq!(
            out,
            Some(QsOption {
                rate: 2,
                intact: false
            })
        );
        r.cfg.enabled = true;
        let out = r.on_request(0.0, load, opt, RateFunction::Linear);
        assert_eq!(out, Some(opt), "approved whole, still intact");
        r.cfg.algorithm = 0;
        assert_eq!(r.on_request(0.0, load, opt, RateFunction::Linear), None);
    }

    #[test]
    fn utilisation_decays_and_keeps_the_peak_of_each_interval() {
        // util_weight_ 2, util_check_intv_ 0.2, util_records_ 5.
        let mut u = QsUtil::new(2.0, 0.2, 5);
        u.on_start(0.0, 0.0);
        // Busy 0 - 0.1, idle after.
        let avg = u.query(0.1, 0.1, false);
        assert!((avg - (1.0 - (-0.2f64).exp())).abs() < 1e-15);
        let at = u.query(0.3, 0.1, false);
        assert!(
            (at - avg * (-0.4f64).exp()).abs() < 1e-15,
            "decays while idle"
        );
        // The first interval (0 - 0.3 > 0.2) was half busy... as ns-2 weighs it: the busy
        // tenth over the 0.3 seconds since the period began.
        let peak = u.query(0.31, 0.1, true);
        assert!((peak - 0.1 / 0.3).abs() < 1e-12, "{peak}");
    }
}
