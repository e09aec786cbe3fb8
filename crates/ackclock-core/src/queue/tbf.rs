//! TBF, the token bucket filter: a FIFO whose dequeue is shaped to a rate.
//!
//! Definitions: the token bucket of RFC 2697/2698 and RFC 2475's traffic conditioner, as Linux's
//! `sch_tbf` (net/sched/sch_tbf.c, `tbf_dequeue`) and ns-3.44's `TbfQueueDisc`
//! (src/traffic-control/model/tbf-queue-disc.cc, `DoDequeue`) implement it:
//!
//! - The first bucket holds up to `burst` bytes of tokens and fills at `rate`; an optional
//!   second bucket of `mtu` bytes fills at `peak_rate` (bounding the burst's own rate).
//! - At a dequeue at time t, with delta = t - t_checkpoint, the buckets would hold
//!   b = min(burst, b0 + round(delta rate / 8)) - size and p = min(mtu, p0 + round(delta
//!   peak / 8)) - size tokens after sending the head packet. If both are non-negative the
//!   packet leaves, b0 = b, p0 = p and the checkpoint moves to t; otherwise it stays, the
//!   buckets are untouched, and the discipline asks to be woken when enough tokens will have
//!   come: after tx_time(-b) at `rate`, or tx_time(-p) at `peak_rate`, whichever is later
//!   (ns-3's watchdog; Linux's `qdisc_watchdog_schedule_ns`).
//! - Both buckets start full. The FIFO behind them holds `limit` packets (ns-3's default
//!   child, a `FifoQueueDisc`); an arrival to a full FIFO is dropped.

use super::codel::TimedFifo;
use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::Packet;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct TbfParams {
    pub limit_packets: u64,
    /// Token rate, bits per second.
    pub rate_bps: f64,
    /// Size of the first bucket, bytes.
    pub burst: u64,
    /// Peak rate, bits per second; 0: no second bucket.
    pub peak_rate_bps: f64,
    /// Size of the second bucket, bytes.
    pub mtu: u64,
}

#[derive(Clone, Debug)]
pub struct Tbf {
    p: TbfParams,
    q: TimedFifo,
    btokens: i64,
    ptokens: i64,
    checkpoint: SimTime,
    /// When the head packet will have its tokens, after a dequeue found too few.
    wake: Option<SimTime>,
    pub marks: u64,
}

/// Bytes a rate gives over `ps` picoseconds, rounded as ns-3 rounds them.
fn tokens(rate_bps: f64, ps: u64) -> i64 {
    (ps as f64 * 1e-12 * rate_bps / 8.0).round() as i64
}

/// The time a rate takes to give `bytes` tokens (ns-3's `DataRate::CalculateBytesTxTime`).
fn time_for(rate_bps: f64, bytes: i64) -> SimDuration {
    SimDuration((bytes as f64 * 8.0 / rate_bps * 1e12).ceil() as u64)
}

impl Tbf {
    pub fn new(p: TbfParams) -> Tbf {
        Tbf {
            p,
            q: TimedFifo::default(),
            btokens: p.burst as i64,
            ptokens: p.mtu as i64,
            checkpoint: SimTime::ZERO,
            wake: None,
            marks: 0,
        }
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.q.packets.iter().map(|(_, p)| p)
    }
}

crate::params! {
    /// The `Tbf` discipline's parameters (`queue.params`), each with its declaration.
    pub struct TbfSettings {
        token_rate: f64 = Param::new("token_rate", 1e6, Range::Positive, "token rate, bits per second")
            .ns3("Rate")
            .aliases(&["rate"]),
        burst: f64 = Param::new("burst", 125_000.0, Range::Count, "size of the first bucket")
            .unit(Unit::Bytes)
            .ns3("Burst"),
        peak_rate: f64 = Param::new("peak_rate", 0.0, Range::NonNegative, "peak rate, bits per second (0: none)")
            .ns3("PeakRate"),
        mtu: f64 = Param::new("mtu", 1500.0, Range::Count, "size of the second (peak) bucket")
            .unit(Unit::Bytes)
            .ns3("Mtu"),
    }
}

const TBF_PARAMS: &[Param] = TbfSettings::PARAMS;

impl QueueDiscipline for Tbf {
    const INFO: QdiscInfo = QdiscInfo {
        params: TBF_PARAMS,
        default_limit: Some(1000),
        ..QdiscInfo::new(
            "tbf",
            Service::Dequeue,
            "Token bucket filter, as Linux's sch_tbf and ns-3's TbfQueueDisc",
        )
    };

    type Params = TbfSettings;

    fn new(p: &TbfSettings, setup: &QueueSetup) -> Tbf {
        Tbf::new(TbfParams {
            limit_packets: setup.packets(),
            rate_bps: p.token_rate,
            burst: p.burst as u64,
            peak_rate_bps: p.peak_rate,
            mtu: p.mtu as u64,
        })
    }

    fn check(p: &TbfSettings) -> Result<(), String> {
        if p.peak_rate > 0.0 && p.peak_rate <= p.token_rate {
            return Err("peak_rate: must be above token_rate, or 0 for none".into());
        }
        Ok(())
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        if self.q.packets.len() as u64 >= self.p.limit_packets {
            dropped.push(pkt);
            return;
        }
        self.q.push(now, pkt);
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        self.wake = None;
        let size = self.q.packets.front()?.1.size as i64;
        let delta = now.0.saturating_sub(self.checkpoint.0);
        let peak = self.p.peak_rate_bps > 0.0;
        let mut ptoks = 0;
        if peak {
            ptoks = (self.ptokens + tokens(self.p.peak_rate_bps, delta)).min(self.p.mtu as i64);
            ptoks -= size;
        }
        let mut btoks = (self.btokens + tokens(self.p.rate_bps, delta)).min(self.p.burst as i64);
        btoks -= size;
        if btoks >= 0 && ptoks >= 0 {
            self.checkpoint = now;
            self.btokens = btoks;
            self.ptokens = ptoks;
            return self.q.pop();
        }
        let mut wait = SimDuration::ZERO;
        if btoks < 0 {
            wait = time_for(self.p.rate_bps, -btoks);
        }
        if peak && ptoks < 0 {
            wait = wait.max(time_for(self.p.peak_rate_bps, -ptoks));
        }
        self.wake = Some(now + wait);
        None
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        self.q.backlog()
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.packets().for_each(f)
    }

    #[inline]
    fn marks(&self) -> u64 {
        self.marks
    }

    fn state(&self) -> AqmState {
        AqmState {
            avg: f64::NAN,
            // The first bucket's tokens, in the `prob` column's place.
            prob: self.btokens as f64,
            dropping: f64::NAN,
        }
    }

    /// After a dequeue that returned nothing with packets waiting: when to ask again.
    #[inline]
    fn wake_at(&self) -> Option<SimTime> {
        self.wake
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.p.limit_packets), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(size: u32) -> Packet {
        Packet::test_udp(0, 0, size)
    }

    /// Dequeues as a line of infinite rate would: at once, or when the discipline says.
    fn drain(q: &mut Tbf) -> Vec<SimTime> {
        let mut out = Vec::new();
        let mut now = SimTime::ZERO;
        let mut dropped = Vec::new();
        while q.backlog().packets > 0 {
            match q.dequeue(now, &mut dropped) {
                Some(_) => out.push(now),
                None => now = q.wake_at().expect("a wake-up time"),
            }
        }
        out
    }

    #[test]
    fn a_full_bucket_passes_a_burst_then_the_rate_shapes() {
        // 8 Mb/s = 1000 bytes per ms, bucket 5000 bytes, 1000-byte packets.
        let mut q = Tbf::new(TbfParams {
            limit_packets: 100,
            rate_bps: 8e6,
            burst: 5000,
            peak_rate_bps: 0.0,
            mtu: 0,
        });
        let mut dropped = Vec::new();
        for _ in 0..20 {
            q.enqueue(SimTime::ZERO, pkt(1000), &mut dropped);
        }
        let t = drain(&mut q);
        // Five leave at once on the bucket's tokens, then one per millisecond.
        assert!(t[..5].iter().all(|&x| x == SimTime::ZERO), "{t:?}");
        for (k, &x) in t[5..].iter().enumerate() {
            assert_eq!(
                x,
                SimTime((k as u64 + 1) * 1_000_000_000),
                "packet {}",
                k + 5
            );
        }
    }

    #[test]
    fn the_peak_bucket_spaces_the_burst() {
        // Peak 80 Mb/s with a 1000-byte second bucket: the burst leaves at 0.1 ms spacing.
        let mut q = Tbf::new(TbfParams {
            limit_packets: 100,
            rate_bps: 8e6,
            burst: 5000,
            peak_rate_bps: 80e6,
            mtu: 1000,
        });
        let mut dropped = Vec::new();
        for _ in 0..6 {
            q.enqueue(SimTime::ZERO, pkt(1000), &mut dropped);
        }
        let t = drain(&mut q);
        for (k, &x) in t[..5].iter().enumerate() {
            assert_eq!(x, SimTime(k as u64 * 100_000_000), "packet {k}");
        }
        // The sixth waits for the first bucket: 1000 bytes of tokens spent 5000 at times
        // 0..0.4 ms while 400 came back, so it leaves when 600 more have come.
        assert_eq!(t[5], SimTime(1_000_000_000));
    }

    #[test]
    fn long_term_rate_is_the_token_rate() {
        let mut q = Tbf::new(TbfParams {
            limit_packets: 10_000,
            rate_bps: 1e6,
            burst: 3000,
            peak_rate_bps: 0.0,
            mtu: 0,
        });
        let mut dropped = Vec::new();
        for _ in 0..1000 {
            q.enqueue(SimTime::ZERO, pkt(1250), &mut dropped);
        }
        let t = drain(&mut q);
        let secs = t.last().unwrap().as_secs_f64();
        // The bucket pays for two packets and half of the third, which leaves at 6 ms; the
        // other 997 at 10 ms each.
        assert!((secs - 9.976).abs() < 1e-9, "{secs}");
    }
}
