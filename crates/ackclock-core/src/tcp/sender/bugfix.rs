//! NewReno's two heuristics for duplicate ACKs after a timeout (RFC 6582 section 4.2, as
//! ns-2.35's `NewRenoTcpAgent::dupack_action` reads `bugFix_ack_` and `bugFix_ts_`).
//!
//! With `bug_fix`, three duplicates of data sent before the recovery point a timeout set
//! start no fast retransmit: after go-back-N they are usually the receiver's answers to
//! segments it already had. That also holds back the fast retransmit of a segment lost
//! again after the timeout; the heuristics tell the two cases apart:
//!
//! - ACK heuristic (`bugfix_ack`): the duplicates follow a new ACK that advanced the
//!   cumulative ACK by at most `dupack_threshold` segments (ns-2: `highest_ack_ -
//!   prev_highest_ack_ <= numdupacks_`, `prev_highest_ack_` taken by `TcpAgent::newack`, so
//!   NewReno's partial ACKs, `partialnewack`, leave it) and cwnd is above one segment. After
//!   go-back-N over segments the receiver already had, each retransmission would advance the
//!   cumulative ACK by more than that.
//! - Timestamp heuristic (`bugfix_ts`, with timestamps): the last new ACK (again as
//!   `TcpAgent::newack` takes its `ts_echo_`) echoed the timestamp of the latest transmission
//!   of the segment just below the cumulative ACK (ns-2: `tss[highest_ack_ % tss_size_] ==
//!   ts_echo_`), so it answered a retransmission, not an original.
//!
//! ns-2's `tss` (`TcpAgent::output`) keeps the send time of every segment in a table of 100
//! indexed by sequence number modulo its size, doubled when a segment beyond 90% of it from
//! `highest_ack_` goes; the same here. Like ns-2's, it is kept whether or not timestamps
//! are on: without them `ts_echo_` stays 0, which matches only a segment sent at time 0. An ECN reduction's fast retransmit
//! (`ecn_then_dupack`) comes first, as in `dupack_action`.

use super::*;

/// ns-2.35's initial `tss_size_` (tcp/tcp.cc `TcpAgent::TcpAgent`).
const TSS_SIZE: usize = 100;

#[derive(Clone, Debug)]
pub(super) struct Bugfix {
    ack: bool,
    /// The send time of each segment, by sequence number modulo the size (`tss`); empty
    /// without the timestamp heuristic.
    tss: Vec<SimTime>,
    /// `prev_highest_ack_` + 1 and `ts_echo_` as of the last `TcpAgent::newack`.
    prev_una: u64,
    ts_echo: SimTime,
}

impl Bugfix {
    pub(super) fn new(ack: bool, ts: bool) -> Option<Box<Bugfix>> {
        (ack || ts).then(|| {
            Box::new(Bugfix {
                ack,
                tss: if ts {
                    vec![SimTime::ZERO; TSS_SIZE]
                } else {
                    Vec::new()
                },
                prev_una: 0,
                ts_echo: SimTime::ZERO,
            })
        })
    }

    /// `TcpAgent::output`: segment `seq` leaves at `now`, with `una` - 1 acknowledged.
    pub(super) fn on_send(&mut self, seq: u64, now: SimTime, una: u64) {
        let size = self.tss.len();
        if size == 0 {
            return;
        }
        let highest = una as i64 - 1;
        if (seq as i64 - highest) as f64 > size as f64 * 0.9 {
            // The table fills: twice the size, entries re-placed from highest_ack_ on.
            let mut grown = vec![SimTime::ZERO; size * 2];
            for i in 0..size as i64 {
                let s = highest + i;
                grown[s.rem_euclid(2 * size as i64) as usize] =
                    self.tss[s.rem_euclid(size as i64) as usize];
            }
            self.tss = grown;
        }
        let size = self.tss.len();
        self.tss[(seq % size as u64) as usize] = now;
    }

    /// `TcpAgent::newack` for a new ACK from `prev_una` on, echoing `ts_echo` (with
    /// timestamps; ns-2 takes `ts_echo_` only then).
    pub(super) fn on_newack(&mut self, prev_una: u64, ts_echo: Option<SimTime>) {
        self.prev_una = prev_una;
        if let Some(echo) = ts_echo {
            self.ts_echo = echo;
        }
    }

    /// Whether `NewRenoTcpAgent::dupack_action`'s `bug_fix_` branch goes on to the fast
    /// retransmit: the timestamp heuristic, else the ACK heuristic.
    pub(super) fn allows(&self, una: u64, cwnd: f64, dupack_threshold: u32) -> bool {
        if !self.tss.is_empty() && una > 0 {
            let sent = self.tss[((una - 1) % self.tss.len() as u64) as usize];
            if sent == self.ts_echo {
                return true;
            }
        }
        self.ack && cwnd > 1.0 && una.saturating_sub(self.prev_una) <= dupack_threshold as u64
    }
}

impl TcpSender {
    /// The heuristics above, for a one-way NewReno agent whose `bug_fix` check has just held
    /// back a fast retransmit, unless the ECN branch of `dupack_action` takes the duplicates.
    #[cold]
    pub(super) fn bugfix_allows(&self) -> bool {
        let Some(b) = self.bugfix.as_deref() else {
            return false;
        };
        self.recovery == Recovery::NewReno
            && !self.full_tcp
            && !(self.ns2_ecn != Ns2Ecn::Off && self.last_action == LastAction::Ecn)
            && b.allows(self.una, self.w.cwnd, self.dupack_threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ack_heuristic_reads_the_last_newack_advance_and_cwnd() {
        let mut b = Bugfix::new(true, false).unwrap();
        b.on_newack(10, None);
        // Cumulative ACK now 13: an advance of 3 <= numdupacks_ 3.
        assert!(b.allows(13, 2.0, 3));
        assert!(!b.allows(14, 2.0, 3));
        assert!(!b.allows(13, 1.0, 3), "cwnd_ > 1 is required");
    }

    #[test]
    fn timestamp_heuristic_compares_the_echo_with_the_latest_send() {
        let mut b = Bugfix::new(false, true).unwrap();
        b.on_send(4, SimTime(100), 0);
        b.on_send(4, SimTime(300), 0); // retransmitted
        b.on_newack(0, Some(SimTime(100)));
        assert!(!b.allows(5, 4.0, 3), "the ACK answered the original");
        b.on_newack(0, Some(SimTime(300)));
        assert!(b.allows(5, 4.0, 3), "the ACK answered the retransmission");
        b.on_newack(0, None); // without timestamps ts_echo_ stays
        assert!(b.allows(5, 4.0, 3));
    }

    #[test]
    fn the_send_table_grows_like_ns2s() {
        let mut b = Bugfix::new(false, true).unwrap();
        for seq in 0..250 {
            b.on_send(seq, SimTime(seq + 1), 0);
        }
        assert_eq!(b.tss.len(), 400);
        b.on_newack(0, Some(SimTime(3)));
        assert!(b.allows(3, 1.0, 3)); // segment 2 was sent at 3
    }
}
