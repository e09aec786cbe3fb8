//! Delivery-rate estimation (Cheng, Cardwell, Hassas Yeganeh, Jacobson,
//! draft-cheng-iccrg-delivery-rate-estimation-02, 2022): each segment remembers, when sent,
//! how much had been delivered and when; an ACK that delivers it yields a rate sample of the
//! data delivered over the longer of the send and ACK intervals between the two moments.
//!
//! Counted in segments. A cumulative ACK delivers the segments it newly covers; without SACK
//! each duplicate ACK counts as one segment delivered, credited back when the cumulative ACK
//! covers it (as Linux does for non-SACK flows). The state lives in a ring indexed by
//! sequence number (`seqring.rs`) that holds the segments from the cumulative ACK to the
//! highest sent, up to the largest window's: it grows with the window, not per segment.
//!
//! The `rack` sender (Linux's loss recovery) samples as Linux's `tcp_rate.c` does instead:
//! every segment an ACK delivers, cumulatively or by SACK, is offered to the sample
//! (`skb_delivered`, Linux `tcp_rate_skb_delivered`: the one sent last wins, and a SACKed
//! segment is not offered again when the cumulative ACK covers it), and `generate` (Linux
//! `tcp_rate_gen`) makes the sample, rejected when its interval is shorter than the minimum
//! RTT. Its RTT is the caller's, taken by Karn's rule.
//!
//! With `ns3_rate_sample` (the TCP parameter, on in the `ns3` profile) the other senders sample
//! as ns-3.44's `TcpRateLinux` does (src/internet/model/tcp-rate-ops.cc, `SkbDelivered`,
//! `GenerateSample`; called from `TcpSocketBase::ReceivedAck`): its sample is one object kept
//! from ACK to ACK, never cleared, so a segment an ACK delivers replaces the sample's prior
//! only if it was sent with more delivered than the prior it holds (`skbInfo.m_delivered >
//! m_rateSample.m_priorDelivered`), the first of equals winning, and the ACK phase is measured
//! when the prior is replaced (`m_ackElapsed = Now - m_deliveredTime`), not when the sample is
//! made. An ACK whose segments were all sent before another ACK arrived (a paced sender sends
//! several between two ACKs) thus keeps the previous ACK's prior and phases while its delivered
//! count grows by what it acknowledges: samples up to an ACK's worth of segments high. A sample
//! whose interval is below the minimum RTT (here the smallest sample RTT seen) is invalid, and
//! so is every later one until a segment replaces the prior (`m_priorTime` zeroed). Linux
//! (draft section 3.2) starts every ACK's sample afresh.

use super::seqring::SeqRing;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug, Default)]
struct SentState {
    seq: u64,
    sent: SimTime,
    delivered: u64,
    delivered_time: SimTime,
    first_sent_time: SimTime,
    app_limited: bool,
}

/// One rate sample (the draft's `rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Segments per second; 0 when no sample could be taken.
    pub delivery_rate: f64,
    pub is_app_limited: bool,
    /// `C.delivered` when the sampled segment was sent: round-trip counting starts here.
    pub prior_delivered: u64,
    /// Segments delivered by this ACK.
    pub delivered: u64,
    /// The sampled segment's RTT, in seconds (0: none).
    pub rtt_s: f64,
    /// `rack` senders (Linux's `struct rate_sample`): segments newly marked lost by this ACK
    /// (`losses`) and in flight before it (`prior_in_flight`); 0 otherwise.
    pub losses: u64,
    pub prior_in_flight: u64,
}

#[derive(Clone, Debug)]
pub struct DeliveryRate {
    /// The segments of [una, end) as last sent; entries of others are never matched (a
    /// lookup checks the entry's `seq`, and segments below the cumulative ACK are not looked
    /// up), except a never written one's `seq` 0 before segment 0 is acknowledged.
    ring: SeqRing<SentState>,
    /// One past the highest segment sent.
    end: u64,
    /// Segments delivered so far (`C.delivered`) and when the last were.
    pub delivered: u64,
    delivered_time: SimTime,
    first_sent_time: SimTime,
    /// Non-zero while the application limits the sending: the `delivered` count beyond
    /// which samples are no longer app-limited.
    app_limited_until: u64,
    dup_credit: u64,
    /// The sample being built from one ACK's deliveries (`rack` senders).
    pending: Option<Pending>,
    /// ns-3's sample kept across ACKs (`ns3_rate_sample`); None: the draft's.
    ns3: Option<Ns3Sample>,
}

/// ns-3.44's `TcpRateLinux::m_rateSample`, the part that outlives an ACK.
#[derive(Clone, Copy, Debug)]
struct Ns3Sample {
    prior_delivered: u64,
    /// `m_priorTime`; None where ns-3's is zero (the sample is invalid).
    prior_time: Option<SimTime>,
    send_elapsed: u64,
    ack_elapsed: u64,
    app_limited: bool,
    /// The smallest sample RTT seen (ns-3 passes `m_tcb->m_minRtt`).
    min_rtt: u64,
}

/// What `tcp_rate_skb_delivered` keeps of the segment a sample is taken from.
#[derive(Clone, Copy, Debug)]
struct Pending {
    seq: u64,
    sent: SimTime,
    prior_delivered: u64,
    prior_time: SimTime,
    /// The send phase: from the first send of its window to this segment's send.
    send_elapsed: u64,
    app_limited: bool,
}

impl DeliveryRate {
    pub fn new(max_window: u32) -> DeliveryRate {
        DeliveryRate {
            ring: SeqRing::new(max_window as u64 + 8),
            end: 0,
            delivered: 0,
            delivered_time: SimTime::ZERO,
            first_sent_time: SimTime::ZERO,
            app_limited_until: 0,
            dup_credit: 0,
            pending: None,
            ns3: None,
        }
    }

    /// The segments in a ring of the whole window from the start, as before it was sized to
    /// what is outstanding (tests compare the two).
    #[cfg(test)]
    fn with_fixed_ring(mut self) -> DeliveryRate {
        self.ring = SeqRing::fixed(self.ring.max());
        self
    }

    /// Samples as ns-3.44's `TcpRateLinux` (`ns3_rate_sample`).
    pub fn ns3_rate_sample(mut self) -> DeliveryRate {
        self.ns3 = Some(Ns3Sample {
            prior_delivered: 0,
            prior_time: None,
            send_elapsed: 0,
            ack_elapsed: 0,
            app_limited: false,
            min_rtt: u64::MAX,
        });
        self
    }

    /// Linux's `tcp_rate_skb_delivered`: segment `seq` is delivered (SACKed or cumulatively
    /// acknowledged) by the ACK being processed. The sample follows the segment sent last.
    pub fn skb_delivered(&mut self, seq: u64) {
        let st = self.ring.get(seq);
        if st.seq != seq {
            return; // never sent through here, or already delivered by a SACK
        }
        let later = self
            .pending
            .is_none_or(|p| st.sent > p.sent || (st.sent == p.sent && seq > p.seq));
        if later {
            self.pending = Some(Pending {
                seq,
                sent: st.sent,
                prior_delivered: st.delivered,
                prior_time: st.delivered_time,
                send_elapsed: st.sent.0.saturating_sub(st.first_sent_time.0),
                app_limited: st.app_limited,
            });
            self.first_sent_time = st.sent;
        }
        // Offered once: a SACKed segment is not sampled again when the cumulative ACK
        // covers it.
        self.ring.get_mut(seq).seq = u64::MAX;
    }

    /// Linux's `tcp_rate_gen`: the ACK delivered `newly` segments at `now`; the sample from
    /// the segments offered to `skb_delivered`, with `rtt_s` (Karn's rule, the caller's) and
    /// no rate when its interval is below `min_rtt_ps`.
    pub fn generate(
        &mut self,
        now: SimTime,
        newly: u64,
        min_rtt_ps: u64,
        rtt_s: f64,
    ) -> RateSample {
        if self.app_limited_until > 0 && self.delivered + newly > self.app_limited_until {
            self.app_limited_until = 0;
        }
        self.delivered += newly;
        if newly > 0 {
            self.delivered_time = now;
        }
        let Some(p) = self.pending.take() else {
            return RateSample {
                delivered: newly,
                rtt_s,
                ..RateSample::default()
            };
        };
        let ack_elapsed = now.0.saturating_sub(p.prior_time.0);
        let interval = p.send_elapsed.max(ack_elapsed);
        let rate = if interval == 0 || interval < min_rtt_ps {
            0.0
        } else {
            (self.delivered - p.prior_delivered) as f64 / (interval as f64 * 1e-12)
        };
        RateSample {
            delivery_rate: rate,
            is_app_limited: p.app_limited,
            prior_delivered: if rate > 0.0 { p.prior_delivered } else { 0 },
            delivered: newly,
            rtt_s,
            ..RateSample::default()
        }
    }

    /// Segment `seq` leaves at `now` with `in_flight` segments already outstanding and the
    /// cumulative ACK at `una`.
    pub fn on_send(&mut self, seq: u64, una: u64, now: SimTime, in_flight: u64) {
        if in_flight == 0 {
            // The draft's step for a start from idle: intervals begin now.
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        self.end = self.end.max(seq + 1);
        self.ring.fit(una, self.end);
        *self.ring.get_mut(seq) = SentState {
            seq,
            sent: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent_time: self.first_sent_time,
            app_limited: self.app_limited_until > 0,
        };
    }

    /// The application has nothing more to send with the window open: samples until what
    /// is in flight now is delivered do not measure the path.
    pub fn on_app_limited(&mut self, in_flight: u64) {
        self.app_limited_until = (self.delivered + in_flight).max(1);
    }

    /// A cumulative ACK moved from `una` to `ack` at `now`; `dup` is true for a duplicate
    /// ACK (which delivers one segment, `una` unchanged).
    pub fn on_ack(&mut self, now: SimTime, una: u64, ack: u64, dup: bool) -> RateSample {
        let newly = if dup {
            self.dup_credit += 1;
            1
        } else {
            let n = ack - una;
            let credited = self.dup_credit.min(n);
            self.dup_credit -= credited;
            n - credited
        };
        if newly == 0 {
            return RateSample::default();
        }
        self.delivered += newly;
        self.delivered_time = now;
        if self.app_limited_until > 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        if dup {
            // Which segment arrived is unknown without SACK: counted, not sampled.
            return RateSample {
                delivered: 1,
                ..RateSample::default()
            };
        }
        if self.ns3.is_some() {
            return self.ns3_sample(now, una, ack, newly);
        }
        // The most recently sent segment among those just delivered.
        let mut best: Option<SentState> = None;
        for s in una..ack {
            let st = self.ring.get(s);
            if st.seq == s && best.is_none_or(|b| st.sent >= b.sent) {
                best = Some(st);
            }
        }
        let Some(p) = best else {
            return RateSample {
                delivered: newly,
                ..RateSample::default()
            };
        };
        self.first_sent_time = p.sent;
        let send_elapsed = p.sent.0.saturating_sub(p.first_sent_time.0);
        let ack_elapsed = now.0.saturating_sub(p.delivered_time.0);
        let interval = send_elapsed.max(ack_elapsed);
        let rtt = now.0.saturating_sub(p.sent.0);
        // An interval shorter than the RTT cannot be right (draft section 3.3).
        let rate = if interval == 0 || interval < rtt {
            0.0
        } else {
            (self.delivered - p.delivered) as f64 / (interval as f64 * 1e-12)
        };
        RateSample {
            delivery_rate: rate,
            is_app_limited: p.app_limited,
            prior_delivered: p.delivered,
            delivered: newly,
            rtt_s: rtt as f64 * 1e-12,
            ..RateSample::default()
        }
    }

    /// ns-3.44's `SkbDelivered` for each segment the ACK covers, in order, then
    /// `GenerateSample` (`ns3_rate_sample`).
    fn ns3_sample(&mut self, now: SimTime, una: u64, ack: u64, newly: u64) -> RateSample {
        let ns3 = self.ns3.as_mut().expect("ns-3's sample");
        let mut newest: Option<SimTime> = None;
        for s in una..ack {
            let st = self.ring.get(s);
            if st.seq != s {
                continue;
            }
            if ns3.prior_delivered == 0 || st.delivered > ns3.prior_delivered {
                ns3.ack_elapsed = now.0.saturating_sub(st.delivered_time.0);
                ns3.prior_delivered = st.delivered;
                ns3.prior_time = Some(st.delivered_time);
                ns3.app_limited = st.app_limited;
                ns3.send_elapsed = st.sent.0.saturating_sub(st.first_sent_time.0);
                self.first_sent_time = st.sent;
            }
            newest = Some(newest.map_or(st.sent, |t| t.max(st.sent)));
        }
        let rtt = newest.map_or(0, |t| now.0.saturating_sub(t.0));
        if newest.is_some() {
            ns3.min_rtt = ns3.min_rtt.min(rtt);
        }
        let invalid = RateSample {
            delivered: newly,
            rtt_s: rtt as f64 * 1e-12,
            ..RateSample::default()
        };
        if ns3.prior_time.is_none() {
            return invalid;
        }
        let interval = ns3.send_elapsed.max(ns3.ack_elapsed);
        if interval < ns3.min_rtt || interval == 0 {
            ns3.prior_time = None;
            return invalid;
        }
        RateSample {
            delivery_rate: (self.delivered - ns3.prior_delivered) as f64
                / (interval as f64 * 1e-12),
            is_app_limited: ns3.app_limited,
            prior_delivered: ns3.prior_delivered,
            ..invalid
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// The ring sized to what is outstanding samples as the whole window's did, in each of the
    /// three ways of sampling: a sender's random sends, retransmissions, cumulative and
    /// duplicate ACKs or SACKed deliveries, every sample compared.
    #[test]
    fn a_ring_sized_to_the_flight_samples_as_the_whole_window() {
        for way in 0..3 {
            let mut rng = RandomStream::named(way, "delivery rate");
            let make = |fixed: bool| {
                let d = DeliveryRate::new(500);
                let d = if fixed { d.with_fixed_ring() } else { d };
                if way == 1 {
                    d.ns3_rate_sample()
                } else {
                    d
                }
            };
            let (mut a, mut b) = (make(false), make(true));
            let (mut una, mut maxseq, mut now) = (0u64, 0u64, 0u64);
            let mut largest = 0;
            for step in 0..20_000u64 {
                now += rng.uniform_u64(0, 3 * MS);
                let t = SimTime(now);
                let reach = if step % 2000 < 300 { 500 } else { 60 };
                match rng.uniform_u64(0, 4) {
                    0 | 1 => {
                        for _ in 0..rng
                            .uniform_u64(1, 20)
                            .min((una + reach).saturating_sub(maxseq))
                        {
                            a.on_send(maxseq, una, t, maxseq - una);
                            b.on_send(maxseq, una, t, maxseq - una);
                            maxseq += 1;
                        }
                    }
                    2 if maxseq > una => {
                        let s = rng.uniform_u64(una, maxseq - 1);
                        a.on_send(s, una, t, maxseq - una);
                        b.on_send(s, una, t, maxseq - una);
                    }
                    _ if way == 2 => {
                        // Linux's: what the ACK delivers (SACKed or covered), then the sample.
                        let ack = una + rng.uniform_u64(0, (maxseq - una).min(3));
                        let mut delivered: Vec<u64> = (una..ack).collect();
                        if maxseq > ack + 1 {
                            let start = rng.uniform_u64(ack + 1, maxseq - 1);
                            delivered.extend(start..rng.uniform_u64(start + 1, maxseq));
                        }
                        for &s in &delivered {
                            a.skb_delivered(s);
                            b.skb_delivered(s);
                        }
                        let n = delivered.len() as u64;
                        assert_eq!(
                            a.generate(t, n, MS, 0.01),
                            b.generate(t, n, MS, 0.01),
                            "step {step}"
                        );
                        una = ack;
                    }
                    _ => {
                        let dup = rng.uniform_u64(0, 3) == 0;
                        let ack = if dup {
                            una
                        } else {
                            una + rng.uniform_u64(0, (maxseq - una).min(4))
                        };
                        assert_eq!(
                            a.on_ack(t, una, ack, dup),
                            b.on_ack(t, una, ack, dup),
                            "step {step}"
                        );
                        una = ack;
                    }
                }
                assert_eq!(a.delivered, b.delivered);
                largest = largest.max(a.ring.heap_bytes());
            }
            let entry = std::mem::size_of::<SentState>();
            assert_eq!(largest, 512 * entry, "grew to the whole window (500 + 8)");
            a.on_send(maxseq, maxseq, SimTime(now), 0);
            assert_eq!(a.ring.heap_bytes(), 16 * entry, "back to the smallest ring");
        }
    }

    const MS: u64 = 1_000_000_000;

    /// Bursts of four segments every 4 ms (1000 segments/s) into an 800-segment/s
    /// bottleneck: segment s is acknowledged alone at 50 + 1.25 s ms, so the queue and the RTT
    /// grow and the ACK phase is the longer. The four segments of a burst were sent with the
    /// same delivered count. Linux starts each ACK's sample afresh: its interval grows 1.25 ms
    /// per ACK within a burst. ns-3's sample keeps the prior of the burst's first ACK (a later
    /// segment was not sent with more delivered) and the ACK phase measured then, while the
    /// delivered count grows: the same interval for all four, and higher rates.
    #[test]
    fn ns3_keeps_its_sample_across_acks_of_one_burst() {
        const Q: u64 = MS / 4;
        let run = |ns3: bool| {
            let mut d = DeliveryRate::new(512);
            if ns3 {
                d = d.ns3_rate_sample();
            }
            let (mut una, mut next) = (0u64, 0u64);
            let mut out = Vec::new();
            for q in 0..4000u64 {
                let now = SimTime(q * Q);
                // ACKs first, then the burst sent at the same instant.
                while una < next && 200 + 5 * una == q {
                    let rs = d.on_ack(now, una, una + 1, false);
                    una += 1;
                    let interval = (d.delivered - rs.prior_delivered) as f64 / rs.delivery_rate;
                    out.push((una, rs.delivery_rate, interval));
                }
                if q % 16 == 0 {
                    for _ in 0..4 {
                        d.on_send(next, una, now, next - una);
                        next += 1;
                    }
                }
            }
            out
        };
        let (linux, ns3) = (run(false), run(true));
        // A burst well after the start: the ACKs of segments 400 to 403.
        let at = |v: &Vec<(u64, f64, f64)>, n: u64| v.iter().find(|x| x.0 == n).copied().unwrap();
        for k in 1..4 {
            let (l0, lk) = (at(&linux, 401), at(&linux, 401 + k));
            assert!(
                (lk.2 - l0.2 - k as f64 * 1.25e-3).abs() < 1e-9,
                "{l0:?} {lk:?}"
            );
            let (n0, nk) = (at(&ns3, 401), at(&ns3, 401 + k));
            assert!((nk.2 - n0.2).abs() < 1e-9, "{n0:?} {nk:?}");
            assert!(nk.1 > lk.1, "ns-3's sample {} above Linux's {}", nk.1, lk.1);
        }
        assert!(
            (at(&linux, 404).1 - 800.0).abs() < 50.0,
            "{:?}",
            at(&linux, 404)
        );
    }

    #[test]
    fn a_paced_flow_measures_its_sending_rate() {
        // One segment every 1 ms, each acknowledged 50 ms later: 1000 segments/s.
        let mut d = DeliveryRate::new(100);
        let mut una = 0;
        let mut last = RateSample::default();
        for i in 0..400u64 {
            let t = SimTime(i * MS);
            d.on_send(i, una, t, i.min(50));
            if i >= 50 {
                last = d.on_ack(t, una, una + 1, false);
                una += 1;
            }
        }
        assert!((last.delivery_rate - 1000.0).abs() < 1.0, "{last:?}");
        assert!((last.rtt_s - 0.050).abs() < 1e-9);
        assert!(!last.is_app_limited);
    }

    #[test]
    fn sacked_segments_give_samples_and_are_counted_once() {
        // Linux's tcp_rate_skb_delivered / tcp_rate_gen: a duplicate ACK that SACKs segments
        // samples the rate; the cumulative ACK that later covers them does not count them
        // again. One segment sent per ms from 0, each delivered 50 ms later; 70 is lost.
        let mut d = DeliveryRate::new(128);
        let mut last = RateSample::default();
        for t in 0..126u64 {
            let now = SimTime(t * MS);
            if t >= 50 && t - 50 != 70 {
                d.skb_delivered(t - 50);
                last = d.generate(now, 1, 10 * MS, 0.05);
            }
            if t < 100 {
                let out = t - d.delivered;
                d.on_send(t, d.delivered.min(70), now, out);
            }
        }
        // The last sample is 75's, SACKed at 125 ms: sent at 75 ms with 0..25 delivered, 49
        // delivered since (70 lost) over the 50 ms since then.
        assert!((last.delivery_rate - 980.0).abs() < 1e-6, "{last:?}");
        assert_eq!(last.prior_delivered, 26);
        assert_eq!(d.delivered, 75);
        // The retransmission of 70 arrives: the cumulative ACK covers 70..76, of which only
        // 70 is new.
        d.on_send(70, 70, SimTime(126 * MS), 25);
        for i in 70..76u64 {
            d.skb_delivered(i);
        }
        let rs = d.generate(SimTime(176 * MS), 1, 10 * MS, 0.0);
        assert_eq!((rs.delivered, d.delivered), (1, 76));
    }

    #[test]
    fn a_sample_over_less_than_the_minimum_rtt_gives_no_rate() {
        // tcp_rate_gen: an interval below min_rtt cannot be right (a stretched or
        // compressed ACK): no rate, and no round trip counted from it.
        let mut d = DeliveryRate::new(16);
        d.on_send(0, 0, SimTime(0), 0);
        d.skb_delivered(0);
        let rs = d.generate(SimTime(5 * MS), 1, 10 * MS, 0.005);
        assert_eq!(
            (rs.delivery_rate, rs.prior_delivered, rs.delivered),
            (0.0, 0, 1)
        );
    }

    #[test]
    fn duplicates_deliver_one_segment_each_and_are_credited_back() {
        let mut d = DeliveryRate::new(10);
        for i in 0..5 {
            d.on_send(i, 0, SimTime(0), i);
        }
        d.on_ack(SimTime(10 * MS), 0, 0, true);
        d.on_ack(SimTime(11 * MS), 0, 0, true);
        assert_eq!(d.delivered, 2);
        let rs = d.on_ack(SimTime(12 * MS), 0, 5, false);
        assert_eq!(rs.delivered, 3);
        assert_eq!(d.delivered, 5);
    }
}
