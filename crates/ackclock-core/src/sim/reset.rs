//! A one-way TCP flow whose sender or sink was reset during the run (ns-2's `$tcp reset`,
//! `$sink reset`): the connection starts over on the same agents while the segments and
//! ACKs of the earlier connection are still in the network. ns-2.35 tells them apart by
//! their timestamps: each end keeps the time of its last reset (`lastreset_`, W. Noureddine's
//! addition to tcp/tcp.cc and tcp/tcp-sink.cc) and drops, untouched and untraced, a packet
//! stamped before it (`TcpAgent::recv`, `RenoTcpAgent::recv`, `NewRenoTcpAgent::recv`,
//! `Sack1TcpAgent::recv`: `tcph->ts() < lastreset_`; `TcpSink::recv`, `DelAckSink::recv`
//! likewise). A data segment's stamp is its sender's clock when it left (`TcpAgent::output`),
//! an ACK's its sink's when it left (`TcpSink::ack`): the engine's `sent_at`.
//!
//! Such a flow takes the role [`Role::Reset`], whose packets go through [`Reincarnated`]:
//! its receive hook drops a packet older than its end's reset and hands the others on as a
//! one-way flow's; the flows never reset keep the one-way role and its inlined path.

use super::flow::{Kind, OneWay, Role};
use super::{Agent, Simulator};
use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind};
use crate::packet_pool::PacketRef;
use crate::time::{SimDuration, SimTime};

/// The times of a reset flow's last resets (ns-2's `lastreset_` of each end; zero: never).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Incarnation {
    sender: SimTime,
    sink: SimTime,
}

/// A reset one-way TCP flow: its index in `Simulator::incarnations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reincarnated(pub(super) u32);

impl Kind for Reincarnated {
    fn send(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]) {
        OneWay.send(sim, r, later);
    }

    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        let inc = sim.incarnations[self.0 as usize];
        let since = match pkt.kind {
            PacketKind::TcpData => inc.sink,
            PacketKind::TcpAck => inc.sender,
            PacketKind::Udp => SimTime::ZERO,
        };
        if pkt.sent_at >= since {
            OneWay.receive(sim, pkt);
        }
    }

    fn dropped(self, sim: &mut Simulator, pkt: &Packet) {
        OneWay.dropped(sim, pkt);
    }

    fn start(self, sim: &mut Simulator, f: FlowId) {
        OneWay.start(sim, f);
    }

    fn stop(self, sim: &mut Simulator, f: FlowId) {
        OneWay.stop(sim, f);
    }
}

impl Simulator {
    /// Resets one-way TCP flow `f`'s sender (`sender` true, with `boot` its new `boot_time_`,
    /// `TcpAgent::reset`) or its sink (`TcpSink::reset`) now. The flow's packets sent before
    /// now are dropped at that end from now on ([`Reincarnated`]).
    pub fn ns2_reset_tcp(
        &mut self,
        f: usize,
        sender: bool,
        boot: SimDuration,
    ) -> Result<(), String> {
        let Some(flow) = self.flows.get(f) else {
            return Err(format!("no flow {f}"));
        };
        let (Agent::Tcp { sender: s, .. }, None) = (&flow.agent, &flow.writer) else {
            return Err(format!("flow {f} is not a one-way TCP flow driven by FTP"));
        };
        let slot = match flow.role {
            Role::Own => None,
            Role::Reset(i) => Some(i),
            _ => return Err(format!("flow {f} is not a one-way TCP flow")),
        };
        if sender {
            if let Some(why) = s.ns2_reset_refusal() {
                return Err(format!("resetting {why} during the run"));
            }
            let spec = &self.scenario.flows[f];
            let (Some(tcp), crate::scenario::AppConfig::Ftp { size_bytes, .. }) =
                (&spec.tcp, &spec.app)
            else {
                return Err(format!("flow {f} is not a one-way TCP flow driven by FTP"));
            };
            let (src, dst) = (crate::ids::NodeId(spec.from), crate::ids::NodeId(spec.to));
            let (mut fresh, _) = super::build::tcp_agents(
                FlowId(f as u32),
                (src, dst),
                tcp,
                self.scenario.run.seed,
                &spec.name,
                *size_bytes,
            )?;
            fresh.rtt.set_ns2_boot_time(boot);
            let Agent::Tcp { sender: s, .. } = &mut self.flows[f].agent else {
                unreachable!("checked above");
            };
            s.ns2_reset(fresh);
        } else {
            let Agent::Tcp { sink, .. } = &mut self.flows[f].agent else {
                unreachable!("checked above");
            };
            if let Some(why) = sink.ns2_reset() {
                return Err(format!("resetting {why} during the run"));
            }
        }
        let i = match slot {
            Some(i) => i as usize,
            None => {
                self.incarnations.push(Incarnation::default());
                self.incarnations.len() - 1
            }
        };
        let inc = &mut self.incarnations[i];
        if sender {
            inc.sender = self.now;
        } else {
            inc.sink = self.now;
        }
        self.flows[f].role = Role::Reset(i as u32);
        // cancel_timers / the delayed ACK's cancel: the timers ns-2 last set are gone, so
        // the next ones are new (their pending events find no deadline and pass).
        if let Some(t) = self.ns2_timers.get_mut(f) {
            t.cancel(sender);
        }
        self.sync_timers(FlowId(f as u32));
        Ok(())
    }
}
