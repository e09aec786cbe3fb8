//! A CBQ class's estimator (S. Floyd, V. Jacobson, "Link-sharing and Resource Management
//! Models for Packet Networks", IEEE/ACM ToN 3(4), 1995, section 6 and appendix A), as
//! ns-2.35's `CBQClass` keeps it (queue/cbq.cc): an exponentially weighted average of the
//! idle time between the class's departures, which says whether the class is under or over
//! its allotment, and the time (`undertime`) from which it is under it again.
//!
//! All times are seconds in doubles, as ns-2's: the decisions compare them exactly.

use super::codel::TimedFifo;

/// ns-2's `POWEROFTWO`: the average's weight is 1/16.
pub const POWEROFTWO: f64 = 16.0;

/// One class of the tree.
#[derive(Clone, Debug)]
pub struct CbqClass {
    /// The next class of the same priority in the scheduler's ring (ns-2's `peer_`).
    pub peer: u16,
    /// The parent it borrows from and updates (ns-2's `lender_`).
    pub lender: Option<u16>,
    /// A leaf's queue and its limit (DropTail); None: an interior class.
    pub q: Option<TimedFifo>,
    pub limit: u64,
    pub allotment: f64,
    pub maxidle: f64,
    /// Bytes per second (`allotment * bandwidth / 8`).
    pub maxrate: f64,
    pub extradelay: f64,
    pub last_time: f64,
    pub undertime: f64,
    pub avgidle: f64,
    pub pri: usize,
    pub level: u32,
    pub delayed: bool,
    /// WRR's bytes left in the class's round (ns-2's `bytes_alloc_`, an int).
    pub bytes_alloc: i32,
    pub permit_borrowing: bool,
}

impl CbqClass {
    /// ns-2's `CBQClass::demand`: packets wait in its queue.
    #[inline]
    pub fn demand(&self) -> bool {
        self.q.as_ref().is_some_and(|q| !q.packets.is_empty())
    }

    /// ns-2's `CBQClass::leaf`: a class at level 1.
    #[inline]
    pub fn leaf(&self) -> bool {
        self.level == 1
    }

    /// The class's own part of `CBQClass::update` for a packet of `size` bytes sent at `now`
    /// taking `tx_time` on the line: idle = (fin - last) - size / maxrate, averaged with
    /// weight 1/16 and bounded above by maxidle; when the average is not positive the class
    /// is over its limit until fin + tx_time (1 / allotment - 1) less (16 - 1) avgidle
    /// (the paper's appendix A; avgidle is then at most 0, so that part delays further).
    #[inline]
    pub fn update_own(&mut self, size: u32, now: f64, tx_time: f64) {
        let fin_time = now + tx_time;
        let idle = (fin_time - self.last_time) - (size as f64 / self.maxrate);
        let mut avgidle = self.avgidle;
        avgidle += (idle - avgidle) / POWEROFTWO;
        // ns-2 warns and leaves the average unbounded when maxidle was never set (< 0).
        if self.maxidle >= 0.0 && avgidle > self.maxidle {
            avgidle = self.maxidle;
        }
        self.avgidle = avgidle;
        if avgidle <= 0.0 {
            self.undertime = fin_time + tx_time * (1.0 / self.allotment - 1.0);
            self.undertime += (1.0 - POWEROFTWO) * avgidle;
        }
        self.last_time = fin_time;
    }

    /// ns-2's `CBQClass::delayed`: the class could not send (over its limit, no lender).
    /// Once per regulated stretch, its undertime moves by extradelay and by the part of its
    /// average idle time the estimator has not yet repaid.
    #[inline]
    pub fn delayed(&mut self, now: f64) {
        let delay = self.undertime - now + self.extradelay;
        if delay > 0.0 && !self.delayed {
            self.undertime += self.extradelay;
            self.undertime -= (1.0 - POWEROFTWO) * self.avgidle;
            self.delayed = true;
        }
    }

    /// ns-2's `CBQClass::newallot`: a new share of a link of `bw_bps`; returns the change
    /// (for WRR's per-priority sums).
    pub fn newallot(&mut self, bw: f64, bw_bps: f64) -> f64 {
        if self.allotment < 0.0 {
            self.allotment = 0.0;
        }
        let bw = bw.max(0.0);
        self.maxrate = bw * (bw_bps / 8.0);
        let diff = bw - self.allotment;
        self.allotment = bw;
        diff
    }
}

/// ns-2.35's `CBQClass instproc automaxidle` (tcl/lib/ns-queue.tcl): with g = 15/16 and
/// n = 8 priority, maxidle = t max((1/allot - 1)(1 - g^n)/g^n, 1 - g), t the time of a
/// `maxpkt`-byte packet on the link; 0 when the allotment or the bandwidth is 0.
pub fn automaxidle(allot: f64, priority: u32, bw_bps: f64, maxpkt: f64) -> f64 {
    let g: f64 = 0.9375;
    if allot == 0.0 || bw_bps == 0.0 {
        return 0.0;
    }
    let n = 8.0 * priority as f64;
    let g_to_n = g.powf(n);
    let first = ((1.0 / allot) - 1.0) * (1.0 - g_to_n) / g_to_n;
    let second = 1.0 - g;
    let t = (maxpkt * 8.0) / bw_bps;
    if first > second {
        t * first
    } else {
        t * second
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(allot: f64, maxidle: f64) -> CbqClass {
        CbqClass {
            peer: 0,
            lender: None,
            q: None,
            limit: 0,
            allotment: allot,
            maxidle,
            maxrate: allot * 1.5e6 / 8.0,
            extradelay: 0.0,
            last_time: 0.0,
            undertime: 0.0,
            avgidle: 0.0,
            pri: 0,
            level: 1,
            delayed: false,
            bytes_alloc: 0,
            permit_borrowing: true,
        }
    }

    #[test]
    fn estimator_follows_the_papers_equations() {
        // A 1000-byte packet on a 1.5 Mb/s line takes 1/187.5 s; a class of half the link
        // sending back to back is idle -1/187.5 s per packet by its own rate.
        let mut c = class(0.5, 1.0);
        let tx = 8000.0 / 1.5e6;
        c.update_own(1000, 0.0, tx);
        // idle = (tx - 0) - 1000 / 93750 = tx - 2 tx = -tx; avg = -tx / 16.
        let avg = -tx / 16.0;
        assert!((c.avgidle - avg).abs() < 1e-15);
        // Over its limit: undertime = fin + tx (1/0.5 - 1) - 15 avg.
        let under = tx + tx * 1.0 - 15.0 * avg;
        assert!((c.undertime - under).abs() < 1e-15);
        assert_eq!(c.last_time, tx);
        // A long idle stretch: the average is bounded by maxidle.
        c.update_own(1000, 100.0, tx);
        assert_eq!(c.avgidle, 1.0);
    }

    #[test]
    fn delayed_moves_undertime_once() {
        let mut c = class(0.5, 1.0);
        c.undertime = 2.0;
        c.avgidle = -0.1;
        c.extradelay = 0.5;
        c.delayed(1.0);
        assert!((c.undertime - (2.0 + 0.5 - 15.0 * 0.1)).abs() < 1e-12);
        let u = c.undertime;
        c.delayed(1.0);
        assert_eq!(c.undertime, u);
    }

    #[test]
    fn automaxidle_as_ns2() {
        // Priority 1, 32%: (1/0.32 - 1)(1 - g^8)/g^8 against 1 - g, times 1024 bytes at 1.5 Mb/s.
        let g8 = 0.9375f64.powf(8.0);
        let want = (8192.0 / 1.5e6) * ((1.0 / 0.32 - 1.0) * (1.0 - g8) / g8);
        assert_eq!(automaxidle(0.32, 1, 1.5e6, 1024.0), want);
        // Priority 0: g^0 = 1, so the second term, 1 - g.
        assert_eq!(
            automaxidle(0.5, 0, 1.5e6, 1024.0),
            (8192.0 / 1.5e6) * 0.0625
        );
        assert_eq!(automaxidle(0.0, 1, 1.5e6, 1024.0), 0.0);
    }
}
