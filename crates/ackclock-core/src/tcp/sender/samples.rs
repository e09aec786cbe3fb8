//! What an ACK gives the sender's RTT estimator and its congestion control: the RTT sample
//! (RFC 6298 section 3 with Karn's timed segment, RFC 7323 section 4 with timestamps; ns-2.35
//! `TcpAgent::newack`/`rtt_update`, ns-3.44 `TcpSocketBase::ProcessAck`), the `pkts_acked`
//! hook and `cong_avoid` (Linux `tcp_ack` -> `tcp_cong_control`). Moved out of `sender.rs`
//! unchanged, to keep that file under 1000 lines (issue 27).

use super::*;

impl TcpSender {
    /// Takes an RTT sample if `ack` covers the timed segment or, with timestamps (RFC 7323
    /// section 4), from the echoed timestamp of every ACK for new data, and returns the RTT
    /// congestion control sees with this ACK: that sample or, under `ns3_srtt_samples`, the
    /// smoothed RTT once there is one, whether or not this ACK gave a sample (ns-3.44's
    /// `TcpSocketBase::ProcessAck` passes `m_tcb->m_srtt` to every `PktsAcked`).
    pub(super) fn sample_rtt(
        &mut self,
        now: SimTime,
        ack: u64,
        c: &mut FlowCounters,
    ) -> Option<SimDuration> {
        if self.rtt.is_ns2() {
            return self.sample_rtt_ns2(now, ack, c);
        }
        let ikr = self.rtt.is_ikr();
        if ikr {
            self.rtt.ikr_new_ack();
        }
        let sent = if self.timestamps {
            self.ts_echo
        } else {
            match self.timed {
                Some((seq, sent)) if ack > seq => sent,
                _ => return self.srtt_for_cc(),
            }
        };
        if self.ns3_ts_ms {
            self.rtt.sample_ns3(now, sent, self.timestamps);
        } else {
            self.rtt.sample(now.since(sent));
        }
        if !ikr {
            self.rtt.reset_backoff();
        }
        self.timed = None;
        let r = SimDuration(self.rtt.last_sample);
        c.rtt_samples += 1;
        c.rtt_sum_ps += r.0 as u128;
        if self.srtt_samples {
            // ns-3's EstimateRtt: m_minRtt = min(m_srtt, m_minRtt), the handshake's included.
            self.min_srtt = self.min_srtt.min(self.rtt.srtt);
            return self.srtt_for_cc();
        }
        Some(r)
    }

    /// Under `ns3_srtt_samples`, the smoothed RTT once there is one; else none.
    #[cold]
    pub(super) fn srtt_for_cc(&self) -> Option<SimDuration> {
        (self.srtt_samples && self.rtt.srtt > 0).then_some(SimDuration(self.rtt.srtt))
    }

    /// ns-2.35's measurement (`TcpAgent::newack`): with timestamps a sample from every new
    /// ACK's echo, otherwise from the ACK covering the timed segment; the backoff ends only
    /// when the timed segment is covered (`rtt_active_`), or with `ts_resetRTO_` (and
    /// timestamps) on every sample. A NewReno
    /// partial ACK takes no sample and ends the measurement it covers
    /// (`NewRenoTcpAgent::partialnewack`).
    #[inline(never)]
    pub(super) fn sample_rtt_ns2(
        &mut self,
        now: SimTime,
        ack: u64,
        c: &mut FlowCounters,
    ) -> Option<SimDuration> {
        let partial = self.in_recovery
            && self.recovery == Recovery::NewReno
            && self.recover.is_some_and(|r| ack < r);
        let timed = self.timed.filter(|&(seq, _)| ack > seq);
        if timed.is_some() {
            // (FullTcp agents: `full_newack_backoff` already did `FullTcpAgent::newack`'s.)
            if !self.ecn_hold_backoff && !self.full_tcp {
                self.rtt.reset_backoff();
                self.ecn_backoff = false;
            }
            self.timed = None;
        }
        if partial {
            return None;
        }
        let sent = if self.timestamps {
            self.ts_echo
        } else {
            timed?.1
        };
        self.rtt.sample_between(sent, now, self.timestamps);
        if self.ts_reset_rto && !self.ecn_hold_backoff {
            // TcpAgent::newack with ts_resetRTO_: `t_backoff_ = 1` after the timestamp's
            // rtt_update, unless `ect_ && ecn_backoff_` and the ACK carries ECN-Echo.
            self.rtt.reset_backoff();
            self.ecn_backoff = false;
        }
        let r = SimDuration(self.rtt.last_sample);
        c.rtt_samples += 1;
        c.rtt_sum_ps += r.0 as u128;
        Some(r)
    }

    /// `pkts_acked`, if congestion control implements it: `acked` segments newly
    /// acknowledged, with the ACK's RTT sample and one-way delay.
    #[inline(always)]
    pub(super) fn pkts_acked(&mut self, now: SimTime, acked: u64, rtt: Option<SimDuration>) {
        if self.hooks.pkts_acked {
            let sample = AckSample {
                now,
                acked,
                rtt,
                owd: self.ack_owd,
                echo: (self.timestamps && self.ts_echo > SimTime::ZERO).then_some(self.ts_echo),
                min_rtt: (self.min_srtt < u64::MAX).then_some(SimDuration(self.min_srtt)),
            };
            self.cc.pkts_acked(&mut self.w, &sample);
        }
    }

    /// Lets congestion control open the window for a new ACK of `acked` segments: one unit
    /// of credit per ACK with packet-counted windows, one per segment with byte-counted ones.
    pub(super) fn open_cwnd(&mut self, now: SimTime, acked: u64, rtt: Option<SimDuration>) {
        if std::mem::take(&mut self.skip_growth)
            || !self.cwnd_limited()
            || self.full_past_established
        {
            return;
        }
        if !self.rfc793.slow_start {
            self.rfc793_open_to_window();
            return;
        }
        let credit = if self.bytes { acked as f64 } else { 1.0 };
        // The segment this ACK answers was sent at the echoed time (ns-2's sink echoes the
        // latest arrival, RFC 7323's the left edge: both a delay sample per ACK).
        // Under `ns3_srtt_samples` the delay signal too is the smoothed RTT (ns-3.44's
        // TcpVegas, TcpCubic's HyStart and the others read only `PktsAcked`'s srtt).
        // Built in the algorithm's arm (`cong_avoid_with`): Reno reads none of the delay.
        let (srtt_samples, ts_echo) = (self.srtt_samples, self.ts_echo);
        let (una, sent, per_ack) = (self.una, self.maxseq, self.per_ack);
        self.cc.cong_avoid_with(&mut self.w, || AckEvent {
            now,
            acked,
            credit,
            rtt,
            delay: if srtt_samples {
                rtt
            } else {
                (ts_echo > SimTime::ZERO).then(|| now.since(ts_echo))
            },
            una,
            sent,
            per_ack,
        });
        // ns-2.35's TcpAgent::opencwnd ends with the maxcwnd_ limit: a window whose whole
        // part is above it is set to it (a fraction below it stays).
        let cap = f64::from(self.max_cwnd);
        if self.max_cwnd > 0 && self.w.cwnd.trunc() > cap {
            self.w.cwnd = cap;
        }
    }
}
