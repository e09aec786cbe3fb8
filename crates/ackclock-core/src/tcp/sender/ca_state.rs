//! What the sender tells congestion control beyond an ACK's growth: the state as Linux names
//! it (`set_state`) and, for a congestion control that owns cwnd and pacing (BBR's
//! `cong_control`), each ACK's rate sample before loss recovery sees it.

use super::TcpSender;
use crate::packet::Packet;
use crate::tcp::cc::{CaState, Conn};
use crate::time::{SimDuration, SimTime};

impl TcpSender {
    /// Tells congestion control the state changed (`set_state`).
    pub(super) fn set_ca_state(&mut self, now: SimTime, state: CaState) {
        let conn = Conn {
            now,
            delivered: self.rate.as_ref().map_or(0, |r| r.delivered),
            in_flight: self.in_flight(),
            srtt_s: SimDuration(self.rtt.srtt).as_secs_f64(),
            ca_state: self.ca_state(),
            lost: 0,
            min_rtt_s: 0.0,
        };
        self.cc.set_state(&mut self.w, state, &conn);
    }

    /// The congestion state as Linux names it: Recovery during fast recovery, else Open.
    pub(super) fn ca_state(&self) -> CaState {
        if self.in_recovery {
            CaState::Recovery
        } else {
            CaState::Open
        }
    }

    /// Congestion control that owns cwnd and pacing (`cong_control`) sees every ACK, with its
    /// rate sample, before loss recovery does.
    pub(super) fn model_ack(&mut self, now: SimTime, pkt: &Packet) {
        let srtt_s = SimDuration(self.rtt.srtt).as_secs_f64();
        if let Some(r) = self.rate.as_mut() {
            let (una, ack) = (self.una, pkt.ack);
            let rs = if ack > una && ack <= self.maxseq {
                r.on_ack(now, una, ack, false)
            } else if ack == una && una < self.maxseq {
                r.on_ack(now, una, una, true)
            } else {
                return;
            };
            let conn = Conn {
                now,
                delivered: r.delivered,
                in_flight: self.in_flight().saturating_sub(rs.delivered),
                srtt_s,
                ca_state: self.ca_state(),
                lost: 0,
                min_rtt_s: 0.0,
            };
            self.cc.cong_control(&mut self.w, &rs, &conn);
            self.pacing_rate = self.w.pacing_rate;
        }
    }
}
