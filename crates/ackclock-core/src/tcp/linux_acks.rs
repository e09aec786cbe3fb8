//! When a Linux receiver sends its ACKs, for the `linux` profile's sink (`tcp::sink`): the
//! adaptive delayed-ACK timeout (`adaptive_ack_delay`) and compressed SACKs
//! (`sack_compression`). Linux 6.18, net/ipv4 (RFC 1122 4.2.3.2 and RFC 5681 4.2 only bound
//! the delay at 500 ms and ask for an ACK every second full segment):
//!
//! - `tcp_event_data_recv` (tcp_input.c), on each in-order data segment: the first one sets
//!   the timeout `ato` to TCP_ATO_MIN (40 ms); later ones measure the gap m since the previous
//!   one: m <= TCP_ATO_MIN/2 pulls `ato` toward TCP_ATO_MIN (ato/2 + 20 ms), m < ato sets
//!   ato/2 + m (at most the RTO), and a gap longer than the RTO re-enters quick-ACK mode
//!   (`tcp_incr_quickack`: up to TCP_MAX_QUICKACKS immediate ACKs).
//! - `tcp_delack_timer_handler` (tcp_timer.c): a delayed ACK that had to wait for its timer
//!   doubles `ato`, up to the RTO ("Delayed ACK missed: inflate ATO").
//! - `tcp_send_delayed_ack` (tcp_output.c): the timer is set `ato` ahead, an `ato` above
//!   TCP_DELACK_MIN bounded by the smoothed RTT (at least 40 ms) and HZ/2, and every `ato` by
//!   `icsk_delack_max` (TCP_DELACK_MAX, 200 ms).
//! - `tcp_enter_quickack_mode` (a segment wholly below rcv_nxt, `tcp_data_queue`) and the
//!   end of quick-ACK mode (`tcp_dec_quickack_mode`) reset `ato` to TCP_ATO_MIN.
//! - `__tcp_ack_snd_check` (tcp_input.c): with out-of-order data held, a SACK receiver sends
//!   the first TCP_FASTRETRANS_THRESH (3) duplicate ACKs for each rcv_nxt at once; later ones
//!   wait for a timer of min(`tcp_comp_sack_delay_ns` = 1 ms, RTT/20), up to
//!   `tcp_comp_sack_nr` (44) of them; any ACK sent clears the count and the timer
//!   (`tcp_event_ack_sent`), the timer sends one (`tcp_compressed_ack_kick`).
//!
//! The receiver sends no data, so its smoothed RTT and RTO are those of the handshake
//! (`tcp_synack_rtt_meas`, `tcp_rtt_estimator`'s first sample: RTO = rtt + max(2 rtt,
//! TCP_RTO_MIN)): the time from the SYN's acknowledgement to the first data segment. Without
//! a SYN the receiver has no RTT (HZ/2 bounds `ato`) and its RTO is TCP_TIMEOUT_INIT (1 s).
//! Not modelled: jiffies (Linux measures the gaps and sets the timer in 4 ms ticks at HZ =
//! 250), the compressed-ACK timer's 100 us slack, the receive-window conditions of the
//! every-second-segment rule, and pingpong mode (a receiver that sends data).

use crate::time::{SimDuration, SimTime};

/// TCP_DELACK_MAX: the longest a delayed ACK waits.
const DELACK_MAX: SimDuration = SimDuration::from_millis(200);
/// HZ/2: `tcp_send_delayed_ack`'s bound on `ato` without pingpong mode.
const HALF_SECOND: SimDuration = SimDuration::from_millis(500);
/// TCP_RTO_MIN: the receiver's RTO from its handshake sample.
const RTO_MIN: SimDuration = SimDuration::from_millis(200);
/// TCP_TIMEOUT_INIT: the RTO of a connection without an RTT sample.
const TIMEOUT_INIT: SimDuration = SimDuration::from_millis(1000);
/// `tcp_comp_sack_nr`, `tcp_comp_sack_delay_ns`, TCP_FASTRETRANS_THRESH.
const COMP_SACK_NR: u32 = 44;
const COMP_SACK_DELAY: SimDuration = SimDuration::from_millis(1);
const FASTRETRANS_THRESH: u8 = 3;

#[derive(Clone, Debug)]
pub(crate) struct LinuxAcks {
    adaptive: bool,
    compress: bool,
    /// TCP_ATO_MIN (= TCP_DELACK_MIN): the sink's `ack_delay`.
    ato_min: SimDuration,
    /// `icsk_ack.ato`; zero until the first data segment.
    ato: SimDuration,
    /// `icsk_ack.lrcvtime`: the last in-order data segment's arrival.
    lrcvtime: SimTime,
    /// When the SYN arrived (and was acknowledged).
    syn_at: Option<SimTime>,
    /// The handshake's RTT; None: no SYN.
    srtt: Option<SimDuration>,
    /// `icsk_rto`.
    rto: SimDuration,
    /// TCP_MAX_QUICKACKS: what `tcp_incr_quickack` grants once the window is open.
    pub quick_max: u16,
    /// `compressed_ack_rcv_nxt`, `dup_ack_counter`, `compressed_ack`, the compressed-ACK
    /// timer.
    comp_rcv_nxt: u64,
    dup_acks: u8,
    compressed: u32,
    pub comp_at: Option<SimTime>,
    /// Linux's `selective_acks` (`tcp_sack_new_ofo_skb`): a segment of each SACK block, the
    /// most recently grown first, at most TCP_NUM_SACKS; ACKs report them in this order.
    pub order: [u64; TCP_NUM_SACKS],
    pub order_len: usize,
}

/// TCP_NUM_SACKS: the blocks Linux's receiver remembers.
pub(crate) const TCP_NUM_SACKS: usize = 4;
/// TCP_SACK_BLOCKS_EXPECTED: a block grown below this place in the list (or a new block with
/// this many listed) first sends a compressed ACK, which could otherwise never report it.
pub(crate) const SACK_BLOCKS_EXPECTED: usize = 2;

impl LinuxAcks {
    pub fn new(adaptive: bool, compress: bool, ato_min: SimDuration, quick_max: u16) -> Self {
        LinuxAcks {
            adaptive,
            compress,
            ato_min,
            ato: SimDuration::ZERO,
            lrcvtime: SimTime::ZERO,
            syn_at: None,
            srtt: None,
            rto: TIMEOUT_INIT,
            quick_max,
            comp_rcv_nxt: 0,
            dup_acks: 0,
            compressed: 0,
            comp_at: None,
            order: [0; TCP_NUM_SACKS],
            order_len: 0,
        }
    }

    /// ACKs held back by compression.
    pub fn compressed(&self) -> u32 {
        self.compressed
    }

    /// The SYN arrived at `now`.
    pub fn on_syn(&mut self, now: SimTime) {
        self.syn_at = Some(now);
    }

    /// `tcp_event_data_recv`: an in-order data segment arrived at `now`. Returns the quick
    /// ACKs to grant (`tcp_incr_quickack` after a gap longer than the RTO), else 0.
    pub fn on_in_order(&mut self, now: SimTime) -> u16 {
        let mut grant = 0;
        if self.ato == SimDuration::ZERO {
            // The first data segment: the handshake's sample, then TCP_ATO_MIN.
            if let (Some(t), None) = (self.syn_at, self.srtt) {
                let m = now.since(t);
                self.srtt = Some(m);
                self.rto = SimDuration(m.0 + (2 * m.0).max(RTO_MIN.0));
            }
            self.ato = self.ato_min;
        } else if self.adaptive {
            let m = now.since(self.lrcvtime);
            if m.0 <= self.ato_min.0 / 2 {
                self.ato = SimDuration(self.ato.0 / 2 + self.ato_min.0 / 2);
            } else if m < self.ato {
                self.ato = SimDuration(self.ato.0 / 2 + m.0).min(self.rto);
            } else if m > self.rto {
                grant = self.quick_max;
            }
        }
        self.lrcvtime = now;
        grant
    }

    /// `tcp_send_delayed_ack`: how long an ACK delayed now may wait (`configured` without
    /// `adaptive_ack_delay`).
    pub fn delay(&self, configured: SimDuration) -> SimDuration {
        if !self.adaptive {
            return configured;
        }
        let mut ato = self.ato.max(self.ato_min);
        if ato > self.ato_min {
            let mut max_ato = HALF_SECOND;
            if let Some(srtt) = self.srtt {
                max_ato = max_ato.min(srtt.max(self.ato_min));
            }
            ato = ato.min(max_ato);
        }
        ato.min(DELACK_MAX)
    }

    /// `tcp_delack_timer_handler`: the timer sent an ACK that had waited.
    pub fn on_delack_timer(&mut self) {
        if self.adaptive {
            self.ato = SimDuration(2 * self.ato.0).min(self.rto);
        }
    }

    /// `tcp_enter_quickack_mode` or the end of quick-ACK mode: `ato` back to TCP_ATO_MIN.
    pub fn deflate(&mut self) {
        if self.adaptive && self.ato > SimDuration::ZERO {
            self.ato = self.ato_min;
        }
    }

    /// `__tcp_ack_snd_check` with out-of-order data held: whether the ACK for an arrival now,
    /// rcv_nxt being `rcv_nxt`, may wait for the compressed-ACK timer.
    pub fn compresses(&mut self, now: SimTime, rcv_nxt: u64) -> bool {
        if !self.compress || self.compressed >= COMP_SACK_NR {
            return false;
        }
        if self.comp_rcv_nxt != rcv_nxt {
            self.comp_rcv_nxt = rcv_nxt;
            self.dup_acks = 0;
        }
        if self.dup_acks < FASTRETRANS_THRESH {
            self.dup_acks += 1;
            return false;
        }
        self.compressed += 1;
        if self.comp_at.is_none() {
            let rtt_20 = SimDuration(self.srtt.map_or(u64::MAX, |r| r.0 / 20));
            self.comp_at = Some(now + COMP_SACK_DELAY.min(rtt_20));
        }
        true
    }

    /// `tcp_event_ack_sent`: an ACK left; nothing is compressed any more.
    pub fn on_ack_sent(&mut self) {
        self.compressed = 0;
        self.comp_at = None;
    }

    #[cfg(test)]
    pub fn ato(&self) -> SimDuration {
        self.ato
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    fn at(x_ms: f64) -> SimTime {
        SimTime(SimDuration::from_secs_f64(x_ms / 1e3).0)
    }

    fn acks() -> LinuxAcks {
        let mut l = LinuxAcks::new(true, true, ms(40), 16);
        l.on_syn(at(0.0));
        l.on_in_order(at(100.0)); // the handshake: 100 ms; RTO 100 + max(200, 200) = 300 ms
        l
    }

    #[test]
    fn the_first_data_segment_sets_ato_min_and_the_handshake_rtt_and_rto() {
        let l = acks();
        assert_eq!(l.ato(), ms(40));
        assert_eq!(l.srtt, Some(ms(100)));
        assert_eq!(l.rto, ms(300));
        // A 20 ms handshake: RTO 20 + max(40, 200).
        let mut s = LinuxAcks::new(true, false, ms(40), 16);
        s.on_syn(at(0.0));
        s.on_in_order(at(20.0));
        assert_eq!(s.rto, ms(220));
    }

    #[test]
    fn gaps_move_ato_as_tcp_event_data_recv_does() {
        let mut l = acks();
        // m <= 20 ms: ato/2 + 20 ms.
        l.on_in_order(at(110.0));
        assert_eq!(l.ato(), ms(40));
        // 20 ms < m < ato: ato/2 + m.
        l.on_in_order(at(140.0));
        assert_eq!(l.ato(), ms(20 + 30));
        l.on_in_order(at(185.0));
        assert_eq!(l.ato(), ms(25 + 45));
        // m >= ato (and <= RTO): unchanged.
        l.on_in_order(at(285.0));
        assert_eq!(l.ato(), ms(70));
        // Capped at the RTO.
        for _ in 0..6 {
            l.on_delack_timer();
        }
        assert_eq!(l.ato(), ms(300));
        l.on_in_order(at(580.0)); // m = 295 < ato: 150 + 295, capped at 300
        assert_eq!(l.ato(), ms(300));
        // A gap above the RTO grants quick ACKs.
        assert_eq!(l.on_in_order(at(881.0)), 16);
    }

    #[test]
    fn a_missed_delayed_ack_doubles_ato_up_to_the_rto() {
        let mut l = acks();
        l.on_delack_timer();
        assert_eq!(l.ato(), ms(80));
        l.on_delack_timer();
        l.on_delack_timer();
        assert_eq!(l.ato(), ms(300));
        l.deflate();
        assert_eq!(l.ato(), ms(40));
    }

    #[test]
    fn the_timer_is_bounded_by_the_rtt_and_200_ms() {
        let mut l = acks();
        assert_eq!(l.delay(ms(40)), ms(40));
        l.on_delack_timer(); // 80 ms
        assert_eq!(l.delay(ms(40)), ms(80));
        l.on_delack_timer(); // 160 ms: the 100 ms RTT bounds it
        assert_eq!(l.delay(ms(40)), ms(100));
        // Without an RTT: HZ/2, then TCP_DELACK_MAX.
        let mut n = LinuxAcks::new(true, false, ms(40), 16);
        n.on_in_order(at(0.0));
        for _ in 0..4 {
            n.on_delack_timer();
        }
        assert_eq!(n.ato(), ms(640).min(TIMEOUT_INIT));
        assert_eq!(n.delay(ms(40)), ms(200));
        // Off: the configured delay.
        let mut off = LinuxAcks::new(false, false, ms(40), 16);
        off.on_in_order(at(0.0));
        off.on_delack_timer();
        assert_eq!(off.delay(ms(40)), ms(40));
    }

    #[test]
    fn three_duplicate_acks_at_once_then_one_per_compression_delay() {
        let mut l = acks();
        let t = at(200.0);
        for _ in 0..3 {
            assert!(!l.compresses(t, 7));
        }
        assert!(l.compresses(t, 7));
        // min(1 ms, 100 ms / 20)
        assert_eq!(l.comp_at, Some(t + ms(1)));
        assert!(l.compresses(at(200.5), 7));
        assert_eq!(l.comp_at, Some(t + ms(1)), "the first timer stands");
        l.on_ack_sent();
        assert_eq!(l.comp_at, None);
        // Same rcv_nxt: still past the three; a new rcv_nxt starts over.
        assert!(l.compresses(at(202.0), 7));
        l.on_ack_sent();
        assert!(!l.compresses(at(203.0), 8));
        // At most 44 compressed.
        let mut k = acks();
        for _ in 0..3 {
            k.compresses(t, 9);
        }
        for _ in 0..44 {
            assert!(k.compresses(t, 9));
        }
        assert!(!k.compresses(t, 9));
        // A 10 ms RTT: RTT/20 = 0.5 ms.
        let mut s = LinuxAcks::new(false, true, ms(40), 16);
        s.on_syn(at(0.0));
        s.on_in_order(at(10.0));
        for _ in 0..3 {
            s.compresses(t, 3);
        }
        s.compresses(t, 3);
        assert_eq!(s.comp_at, Some(t + SimDuration(ms(1).0 / 2)));
        // Off: never.
        let mut off = LinuxAcks::new(true, false, ms(40), 16);
        for _ in 0..10 {
            assert!(!off.compresses(t, 3));
        }
    }
}
