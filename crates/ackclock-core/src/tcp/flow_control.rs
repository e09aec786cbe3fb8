//! Receiver flow control: a finite receive buffer drained by the application at a given rate,
//! advertised as the receive window (RFC 9293 sections 3.8.6 and 3.10.7.4).
//!
//! - The buffer holds in-order data the application has not read yet and out-of-order data
//!   waiting for a hole to fill. The application reads in-order data at `read_bps` (infinitely
//!   fast when unset, like ns-3's socket with a `PacketSink`).
//! - Every ACK advertises, in whole segments, the buffer less the in-order data not yet read:
//!   the window runs from the next segment expected, and the out-of-order data already held lie
//!   inside it, so they do not shrink it (ns-3.44's `TcpRxBuffer::MaxRxSequence`, the first
//!   unread byte plus `MaxBufferSize`, read by `TcpSocketBase::AdvertisedWindowSize`; RFC 1122
//!   4.2.2.16: a receiver should not move the window's right edge to the left). A segment
//!   that does not lie inside the window is discarded (`TcpRxBuffer::Add` refuses data past
//!   `MaxRxSequence`) and answered with an ACK carrying the current window (the reply to a
//!   window probe).
//! - Receiver silly-window avoidance (RFC 1122 4.2.3.3): after advertising less than half the
//!   buffer, the receiver sends a window update once the window has grown by one segment, so
//!   a sender stopped by a small or zero window learns of the space. The sender's persist
//!   timer (in `sender.rs`) covers a lost update.

use crate::time::{SimTime, PS_PER_S};

#[derive(Clone, Debug)]
pub struct FlowControl {
    buffer: f64,
    read_bps: f64,
    payload: f64,
    /// In-order bytes not yet read, as of `unread_at`.
    unread: f64,
    unread_at: SimTime,
    /// The window last advertised, in segments.
    last_adv: u64,
    /// When to send a window update (`update_due` after each ACK); None: none pending.
    pub update_at: Option<SimTime>,
}

impl FlowControl {
    pub fn new(buffer_bytes: u64, read_bps: Option<f64>, payload: u32) -> FlowControl {
        FlowControl {
            buffer: buffer_bytes as f64,
            read_bps: read_bps.unwrap_or(f64::INFINITY),
            payload: payload as f64,
            unread: 0.0,
            unread_at: SimTime::ZERO,
            last_adv: u64::MAX,
            update_at: None,
        }
    }

    /// The application reads up to `now`.
    fn drain(&mut self, now: SimTime) {
        let dt = (now.0 - self.unread_at.0) as f64 / PS_PER_S as f64;
        self.unread = (self.unread - self.read_bps / 8.0 * dt).max(0.0);
        self.unread_at = now;
    }

    /// The window's bytes at `now`, from the next segment expected: the buffer less the
    /// in-order data not yet read.
    pub fn free(&mut self, now: SimTime) -> f64 {
        self.drain(now);
        (self.buffer - self.unread).max(0.0)
    }

    /// Whether the segment `above` segments past the next one expected (0: that one) lies
    /// inside the window at `now`.
    pub fn fits(&mut self, now: SimTime, above: u64) -> bool {
        self.free(now) >= (above as f64 + 1.0) * self.payload
    }

    /// `bytes` of in-order payload handed to the application's buffer.
    pub fn delivered(&mut self, now: SimTime, bytes: u64) {
        self.drain(now);
        if self.read_bps.is_finite() {
            self.unread += bytes as f64;
        }
    }

    /// The window to advertise now, in segments; remembered for window updates.
    pub fn advertise(&mut self, now: SimTime) -> u32 {
        // A float's cast saturates: a window of more than 2^32 - 1 segments is advertised
        // as that many.
        let w = (self.free(now) / self.payload).floor() as u32;
        self.last_adv = w as u64;
        w
    }

    /// When to send a window update, if the last advertisement was small: once one more
    /// segment's space has been read.
    pub fn update_due(&mut self, now: SimTime) -> Option<SimTime> {
        if self.last_adv as f64 * self.payload >= self.buffer / 2.0 || !self.read_bps.is_finite() {
            return None;
        }
        let needed = (self.last_adv + 1) as f64 * self.payload - self.free(now);
        if needed <= 0.0 {
            return Some(now);
        }
        let secs = needed * 8.0 / self.read_bps;
        Some(SimTime(now.0 + (secs * PS_PER_S as f64).ceil() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000_000;

    #[test]
    fn window_is_free_space_and_the_reader_drains_it() {
        // 10 segments of buffer, a reader of 8 kb/s = 1000 B/s.
        let mut fc = FlowControl::new(10_000, Some(8_000.0), 1000);
        assert_eq!(fc.advertise(SimTime(0)), 10);
        fc.delivered(SimTime(0), 8000);
        assert_eq!(fc.advertise(SimTime(0)), 2);
        // Half a second later 500 B are read: still 2 whole segments free.
        assert_eq!(fc.advertise(SimTime(500 * MS)), 2);
        // The update comes when a third segment fits: 1 s after the delivery.
        assert_eq!(fc.update_due(SimTime(500 * MS)), Some(SimTime(1000 * MS)));
        assert_eq!(fc.advertise(SimTime(1000 * MS)), 3);
        // The window is the next three segments: the third fits, the fourth does not.
        assert!(fc.fits(SimTime(1000 * MS), 2));
        assert!(!fc.fits(SimTime(1000 * MS), 3));
    }

    #[test]
    fn an_instant_reader_keeps_the_whole_buffer_open() {
        // ns-3's TcpRxBuffer with a PacketSink: the window is the buffer from the next segment
        // expected whatever out-of-order data it holds; only past it is a segment refused.
        let mut fc = FlowControl::new(4000, None, 1000);
        fc.delivered(SimTime(0), 1_000_000);
        assert_eq!(fc.advertise(SimTime(0)), 4);
        assert!(fc.fits(SimTime(0), 3));
        assert!(!fc.fits(SimTime(0), 4));
        assert_eq!(fc.update_due(SimTime(0)), None);
    }
}
