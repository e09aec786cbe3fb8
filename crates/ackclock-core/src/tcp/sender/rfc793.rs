//! The `rfc793` variant: the textbook TCP of RFC 793 as ns-2.35's `RFC793eduTcpAgent`
//! (tcp/tcp-rfc793edu.cc, Fernando Cela Diaz's teaching agent) builds it on ns-2's Tahoe
//! (`TcpAgent`), with each later addition to TCP switched on by its own flag (`Rfc793`).
//!
//! With every flag off (ns-2's defaults but `add793karnrtt_` and `add793expbackoff_`):
//! - no fast retransmit: duplicate ACKs are counted and nothing else
//!   (`RFC793eduTcpAgent::recv` calls `dupack_action` only with `add793fastrtx_`, and never
//!   `send_one`, so no limited transmit either);
//! - no slow start: every new ACK sets cwnd to the whole receiver window
//!   (`RFC793eduTcpAgent::opencwnd`: `cwnd_ = wnd_`), so after a timeout's one segment the
//!   first ACK releases a full window;
//! - RFC 793 section 3.7's retransmission timeout, RTO = BETA x SRTT with BETA 2, SRTT
//!   smoothed as Jacobson's estimator smooths it (`RFC793eduTcpAgent::rtt_update`:
//!   `rto_ = t_srtt_ >> (T_SRTT_BITS - 1)` ticks; no floor but `TcpAgent::rtt_timeout`'s);
//! - the timer restarts on each new ACK before the RTT sample updates it
//!   (`RFC793eduTcpAgent::newack` calls `newtimer` first, as `TcpAgent::newack` does only
//!   with `timerfix_` false).
//!
//! The additions: `fast_retransmit` (`add793fastrtx_`: Tahoe's fast retransmit on the third
//! duplicate), `slow_start` (`add793slowstart_`: `TcpAgent::opencwnd`'s slow start and
//! congestion avoidance), `jacobson_rto` (`add793jacobsonrtt_`: SRTT + 4 RTTVAR, as
//! `TcpAgent::rtt_update`), `karn` (`add793karnrtt_`: a retransmission is never timed;
//! without it `RFC793eduTcpAgent::output` times every retransmission it sends, which a
//! later ACK may then measure from the wrong send) and `backoff` (`add793expbackoff_`:
//! `RFC793eduTcpAgent::rtt_backoff` doubles the timeout below a backoff of 64 and past 8
//! moves SRTT into RTTVAR; without it the backoff stays 1).

use super::*;

/// The `rfc793` variant's additions (see the module docs), as `TcpParams::rfc793`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rfc793 {
    pub fast_retransmit: bool,
    pub slow_start: bool,
    pub jacobson_rto: bool,
    pub karn: bool,
    pub backoff: bool,
}

impl Default for Rfc793 {
    /// Every addition on: the `rfc793` variant is then the `tahoe` one without limited
    /// transmit; other variants never read it.
    fn default() -> Self {
        Rfc793 {
            fast_retransmit: true,
            slow_start: true,
            jacobson_rto: true,
            karn: true,
            backoff: true,
        }
    }
}

impl TcpSender {
    /// `RFC793eduTcpAgent::recv` on a duplicate ACK: counted; the `dupack_threshold`-th
    /// starts Tahoe's fast retransmit only with `fast_retransmit`.
    #[cold]
    pub(super) fn on_rfc793_dupack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.rfc793.fast_retransmit && self.dupacks + 1 == self.dupack_threshold {
            // `TcpAgent::dupack_action`, Tahoe's, with its own count.
            self.on_dupack(now, out, c);
        } else {
            self.dupacks += 1;
        }
    }

    /// `RFC793eduTcpAgent::opencwnd` without `slow_start`: cwnd becomes the window
    /// (`cwnd_ = wnd_`), then `maxcwnd_` caps it.
    #[cold]
    pub(super) fn rfc793_open_to_window(&mut self) {
        self.w.cwnd = self.w.rwnd;
        let cap = f64::from(self.max_cwnd);
        if self.max_cwnd > 0 && self.w.cwnd.trunc() > cap {
            self.w.cwnd = cap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ackp as ack, sender_with};
    use super::*;
    use crate::scenario::TcpConfig;

    const MS: u64 = 1_000_000_000;

    fn rfc793(adds: Rfc793) -> TcpConfig {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.window = 8;
        cfg.window_init = 1;
        cfg.limited_transmit = true; // the variant never sends on the first duplicates
        cfg.rfc793_fast_retransmit = adds.fast_retransmit;
        cfg.rfc793_slow_start = adds.slow_start;
        cfg.rfc793_jacobson_rto = adds.jacobson_rto;
        cfg.rfc793_karn = adds.karn;
        cfg.rfc793_backoff = adds.backoff;
        cfg
    }

    const TEXTBOOK: Rfc793 = Rfc793 {
        fast_retransmit: false,
        slow_start: false,
        jacobson_rto: false,
        karn: true,
        backoff: true,
    };

    /// `RFC793eduTcpAgent::opencwnd` without `add793slowstart_`: the first new ACK opens the
    /// whole window; with it, one segment per ACK (slow start).
    #[test]
    fn without_slow_start_the_first_ack_opens_the_whole_window() {
        let (mut s, mut out, mut c) = sender_with(&rfc793(TEXTBOOK), Recovery::Rfc793);
        s.start(SimTime::ZERO, &mut out, &mut c);
        assert_eq!(out.len(), 1);
        out.clear();
        s.on_ack(SimTime(100 * MS), &ack(1), &mut out, &mut c);
        assert_eq!((s.w.cwnd, out.len()), (8.0, 8));
        let adds = Rfc793 {
            slow_start: true,
            ..TEXTBOOK
        };
        let (mut s, mut out, mut c) = sender_with(&rfc793(adds), Recovery::Rfc793);
        s.start(SimTime::ZERO, &mut out, &mut c);
        out.clear();
        s.on_ack(SimTime(100 * MS), &ack(1), &mut out, &mut c);
        assert_eq!((s.w.cwnd, out.len()), (2.0, 2));
    }

    /// `RFC793eduTcpAgent::recv`: duplicate ACKs start nothing without `add793fastrtx_` (and
    /// send nothing new: no `send_one`); with it the third is Tahoe's fast retransmit.
    #[test]
    fn duplicates_retransmit_only_with_fast_retransmit() {
        for fast in [false, true] {
            let adds = Rfc793 {
                fast_retransmit: fast,
                ..TEXTBOOK
            };
            let (mut s, mut out, mut c) = sender_with(&rfc793(adds), Recovery::Rfc793);
            s.start(SimTime::ZERO, &mut out, &mut c);
            s.on_ack(SimTime(100 * MS), &ack(1), &mut out, &mut c);
            out.clear();
            // Segment 1 lost: the next three ACKs repeat 1.
            for k in 0..3 {
                s.on_ack(SimTime((110 + k) * MS), &ack(1), &mut out, &mut c);
            }
            assert_eq!(s.dupacks, 3);
            if fast {
                assert_eq!(c.fast_retransmits, 1);
                assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), [1]);
                assert_eq!(s.w.cwnd, 1.0);
            } else {
                assert_eq!((c.fast_retransmits, out.len()), (0, 0));
                assert_eq!(s.w.cwnd, 8.0);
            }
        }
    }

    /// Without `add793karnrtt_` `RFC793eduTcpAgent::output` times the retransmission a
    /// timeout sends, so the ACK of the original gives a short sample; with it the
    /// retransmission is not timed.
    #[test]
    fn without_karn_a_retransmission_is_timed() {
        for karn in [true, false] {
            let adds = Rfc793 { karn, ..TEXTBOOK };
            let (mut s, mut out, mut c) = sender_with(&rfc793(adds), Recovery::Rfc793);
            s.start(SimTime::ZERO, &mut out, &mut c);
            let deadline = s.rto_deadline().unwrap();
            s.on_timeout(deadline, &mut out, &mut c);
            // The original's ACK arrives 100 ms after the retransmission.
            s.on_ack(deadline + SimDuration(100 * MS), &ack(1), &mut out, &mut c);
            assert_eq!(c.rtt_samples, u64::from(!karn), "karn {karn}");
        }
    }
}
