//! The connection's opening segments: ns-2.35's limit on SYNs (`max_connects_`) and
//! ns-3.44's third segment of the handshake.

use super::{Outgoing, TcpSender};
use crate::monitor::FlowCounters;
use crate::packet::{tcp_flags, Packet, PacketKind, SackBlocks};
use crate::time::{SimDuration, SimTime};

impl TcpSender {
    /// ns-2.35's `max_connects_` (`TcpAgent::output`): one more SYN (`syn_connects_`); past
    /// the limit the connection is abandoned instead (`curseq_ = 0`, the timer rescheduled
    /// 10000 s on), and nothing is sent. True if abandoned.
    #[cold]
    pub(super) fn syn_abandoned(&mut self, now: SimTime) -> bool {
        self.syn_sends += 1;
        if self.syn_sends <= self.syn_max_sends {
            return false;
        }
        self.app_limit = 0;
        self.rto_deadline = Some(now + SimDuration::from_secs_f64(10_000.0));
        true
    }

    /// A SYN's size on the wire, counting it sent.
    #[cold]
    pub(super) fn syn_size(&mut self) -> u32 {
        self.syns_sent += 1;
        self.header_size + self.syn_option_bytes
    }

    /// The handshake's third segment (`handshake_ack`): ns-3.44's `TcpSocketBase::ProcessSynSent`
    /// answers the SYN-ACK with `SendEmptyPacket(TcpHeader::ACK)` before `SendPendingData`, so an
    /// empty ACK of `header_size` bytes leaves ahead of the first data segment. It carries the
    /// ACK flag on a data packet of a one-way flow, which no other segment of one does: the
    /// receiver's node takes it and answers nothing (`sim/one_way.rs`), as `ProcessSynRcvd`
    /// only moves to ESTABLISHED. A packet the flow sent (counted), not a segment of its data.
    #[cold]
    pub(super) fn send_handshake_ack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        c.packets_sent += 1;
        c.bytes_sent += u64::from(self.header_size);
        out.push(Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::TcpData,
            flags: tcp_flags::ACK,
            src: self.src,
            dst: self.dst,
            size: self.header_size,
            seq: 0,
            ack: 0,
            sent_at: now,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 0,
            rwnd: 0,
            ecn: 0,
        });
    }
}
