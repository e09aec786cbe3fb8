//! ns-2.35's FullTcp byte stream (`ns2_full_tcp`): what the application gives in bytes
//! (`FullTcpAgent::advance_bytes`, `sendmsg`), cut into segments as `FullTcpAgent::foutput`
//! cuts them, and Nagle's rule for a segment shorter than the maximum.
//!
//! The sender numbers segments, not bytes; a stream whose length is not a multiple of the
//! segment size becomes messages (`adus`, each starting a new segment, all full but the last):
//! - Each write (`write_stream`) is a message. `foutput` cuts the bytes from `t_seqno_` into
//!   segments of at most `maxseg_`, so while a write's short last segment has not been sent
//!   the next write's bytes join it: that segment leaves the message and its bytes open the
//!   next one. Bytes already sent keep their segments (a retransmission resends the same
//!   segment; ns-2 could merge two short segments into one when it retransmits them after a
//!   timeout: not modelled).
//! - Nagle (`foutput`'s "sender SWS avoidance"): a short new segment leaves only when nothing
//!   is outstanding (`quiet`: `highest_ack_ == maxseq_`), or when it is at least half the
//!   peer's window (`wnd_ * maxseg_ / 2`); `nodelay_` (not modelled: the front end takes its
//!   default, false) would lift the rule.
//! - The window: `send_allowed` lets a segment start inside `highest_ack_ + window() *
//!   maxseg_` and `foutput` cuts it at that edge, which Nagle then holds unless it is the
//!   stream's end; since every message starts a new segment at an acknowledged boundary or
//!   after the short one in flight, the segments that fit whole are the ones a window of
//!   `window()` segments from `una` holds.
//!
//! `seq_ends` keeps, per message, the sequence bytes up to its end (payload bytes, and 1 for
//! a FIN's empty message: RFC 9293 3.4), which the packet traces number bytes by
//! (`trace::packets::SeqBytes`).

use super::TcpSender;

/// The byte stream's bookkeeping, beside the sender's messages (`adus`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Ns2Stream {
    /// Per message (same index as `adus`): the sequence bytes from the first data byte to
    /// the message's end; a FIN's empty message counts 1.
    pub(crate) seq_ends: Vec<u64>,
}

impl TcpSender {
    /// The application has given `total` payload bytes in all (ns-2's `curseq_` less
    /// `iss_`): the bytes not yet written become a message, joined to the last message's
    /// short segment if that one has not been sent (`FullTcpAgent::advance_bytes`, then
    /// `foutput`'s cut). Bytes given earlier as whole segments (`advance_to`) become the
    /// first message: the same full segments.
    pub fn write_stream(&mut self, total: u64) -> Result<(), String> {
        if self.stream.is_none() {
            if self.app_limit == u64::MAX {
                return Err("bytes for a FullTcp agent after an endless send (FTP start)".into());
            }
            let given = self.app_limit.saturating_sub(u64::from(self.syn));
            self.adus.clear();
            self.data_end = 0;
            self.stream = Some(Box::default());
            self.refresh_plain();
            if given > 0 {
                self.push_adu(given * u64::from(self.payload));
            }
        }
        let known = self.stream_data_bytes();
        if total < known {
            return Err(format!(
                "a FullTcp stream of {total} bytes, less than the {known} given"
            ));
        }
        if total == known {
            return Ok(());
        }
        let mut bytes = total - known;
        if let Some(&(end, size)) = self.adus.last() {
            if end > self.maxseq && size < self.wire_size {
                // The unsent short segment leaves its message; its bytes lead the new one.
                bytes += u64::from(size - self.header_size);
                self.drop_last_segment();
            }
        }
        self.push_adu(bytes);
        Ok(())
    }

    /// The payload bytes written as messages so far (a FIN written counts none).
    fn stream_data_bytes(&self) -> u64 {
        let Some(s) = self.stream.as_deref() else {
            return 0;
        };
        let fins = self
            .adus
            .iter()
            .zip(&s.seq_ends)
            .filter(|&(&(_, size), _)| size == self.header_size)
            .count() as u64;
        s.seq_ends.last().copied().unwrap_or(0) - fins
    }

    /// Takes the last segment (a short one, not yet sent) off the last message.
    fn drop_last_segment(&mut self) {
        let (end, size) = self.adus.pop().expect("a message");
        let s = self.stream.as_deref_mut().expect("a stream");
        let seq_end = s.seq_ends.pop().expect("a message") - u64::from(size - self.header_size);
        let start = self.adus.last().map_or(u64::from(self.syn), |&(e, _)| e);
        if end - 1 > start {
            self.adus.push((end - 1, self.wire_size));
            s.seq_ends.push(seq_end);
        }
        self.data_end = self.adus.last().map_or(0, |&(e, _)| e);
    }

    /// Records a message of `bytes` just appended (`push_adu`).
    pub(super) fn stream_pushed(&mut self, bytes: u64) {
        if let Some(s) = self.stream.as_deref_mut() {
            let before = s.seq_ends.last().copied().unwrap_or(0);
            s.seq_ends.push(before + bytes.max(1));
        }
    }

    /// Forgets the data given but not sent (`FullTcpAgent::usrclosed` sets `curseq_` to
    /// `maxseq_`): the messages end at the last segment sent. Returns the payload bytes
    /// sent, None when the data are not a byte stream of messages.
    pub fn stream_keep_sent(&mut self) -> Option<u64> {
        self.stream.as_deref()?;
        let sent = self.maxseq;
        while let Some(&(end, _)) = self.adus.last() {
            let start = self
                .adus
                .len()
                .checked_sub(2)
                .map_or(u64::from(self.syn), |i| self.adus[i].0);
            if start >= sent {
                self.adus.pop();
                self.stream.as_deref_mut().expect("a stream").seq_ends.pop();
                continue;
            }
            if end > sent {
                // Cut inside the message: the segments sent are all full.
                let cut = sent - start;
                let s = self.stream.as_deref_mut().expect("a stream");
                s.seq_ends.pop();
                let before = s.seq_ends.last().copied().unwrap_or(0);
                s.seq_ends.push(before + cut * u64::from(self.payload));
                *self.adus.last_mut().expect("a message") = (sent, self.wire_size);
            }
            break;
        }
        self.data_end = self.adus.last().map_or(0, |&(e, _)| e);
        Some(self.stream_data_bytes())
    }

    /// The sequence bytes at each message's end (`Ns2Stream::seq_ends`) with the segment
    /// each message ends before: the packet traces' numbering. Empty without a stream.
    pub fn stream_table(&self) -> Vec<(u64, u64)> {
        match self.stream.as_deref() {
            Some(s) => self
                .adus
                .iter()
                .zip(&s.seq_ends)
                .map(|(&(end, _), &b)| (end, b))
                .collect(),
            None => Vec::new(),
        }
    }

    /// Nagle's rule (`FullTcpAgent::foutput`): whether new segment `seq`, short, waits for
    /// the data outstanding to be acknowledged.
    #[inline]
    pub(super) fn nagle_holds(&self, seq: u64) -> bool {
        if self.stream.is_none() || seq < self.maxseq || self.una >= self.maxseq {
            return false;
        }
        let size = self.message_segment_size(seq);
        if size >= self.wire_size || size == self.header_size {
            return false; // a full segment, or a FIN
        }
        // "big enough": at least half the peer's window (wnd_, window_ here).
        let half = self.max_window * f64::from(self.payload) / 2.0;
        f64::from(size - self.header_size) < half
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ackp, sender_with};
    use crate::fixtures::ns2_tcp;
    use crate::monitor::FlowCounters;
    use crate::packet::Packet;
    use crate::tcp::sender::{Recovery, TcpSender};
    use crate::time::SimTime;

    /// Segments of 100 bytes (140 on the wire), cwnd 1 at first, no SYN.
    fn stream_sender() -> (TcpSender, Vec<Packet>, FlowCounters) {
        let mut cfg = ns2_tcp();
        cfg.packet_size = 100;
        cfg.window_init = 1;
        cfg.limited_transmit = false;
        sender_with(&cfg, Recovery::Reno)
    }

    #[test]
    fn an_unsent_short_segment_joins_the_next_write() {
        let (mut s, _, _) = stream_sender();
        s.write_stream(250).unwrap();
        assert_eq!(s.stream_table(), vec![(3, 250)], "100 + 100 + 50 bytes");
        // Nothing sent yet: the 50 bytes lead the next write, 50 + 50 = one full segment.
        s.write_stream(300).unwrap();
        assert_eq!(s.stream_table(), vec![(2, 200), (3, 300)]);
        assert_eq!(s.message_segment_size(2), 140);
        s.write_stream(330).unwrap();
        assert_eq!(s.stream_table(), vec![(2, 200), (3, 300), (4, 330)]);
        assert_eq!(s.message_segment_size(3), 70);
        assert!(s.write_stream(10).is_err(), "a stream never shrinks");
    }

    #[test]
    fn nagle_holds_the_short_segment_until_all_is_acknowledged() {
        let (mut s, mut out, mut c) = stream_sender();
        s.write_stream(250).unwrap();
        s.resume(SimTime(0), &mut out, &mut c);
        assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![0]);
        out.clear();
        // cwnd 2 now: segment 1 leaves; segment 2 (50 bytes) waits for segment 1's ACK.
        s.on_ack(SimTime(1), &ackp(1), &mut out, &mut c);
        assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), vec![1]);
        out.clear();
        s.on_ack(SimTime(2), &ackp(2), &mut out, &mut c);
        assert_eq!(
            out.iter().map(|p| (p.seq, p.size)).collect::<Vec<_>>(),
            vec![(2, 90)],
            "quiet: the short segment leaves"
        );
        // A write now (the short segment in flight) starts a new segment after it.
        out.clear();
        s.write_stream(260).unwrap();
        assert_eq!(s.stream_table(), vec![(3, 250), (4, 260)]);
    }

    #[test]
    fn a_close_keeps_the_messages_sent() {
        let (mut s, mut out, mut c) = stream_sender();
        s.write_stream(250).unwrap();
        s.resume(SimTime(0), &mut out, &mut c);
        assert_eq!(s.stream_keep_sent(), Some(100));
        assert_eq!(s.stream_table(), vec![(1, 100)]);
        s.push_adu(0); // the FIN, one sequence number
        assert_eq!(s.stream_table(), vec![(1, 100), (2, 101)]);
    }
}
