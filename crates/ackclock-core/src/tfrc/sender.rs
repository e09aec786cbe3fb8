//! The TFRC sender (RFC 5348 section 4), as ns-2.35's `TfrcAgent` (tcp/tfrc.cc) behaves;
//! each rule names the function it follows. Times are seconds and rates bytes per second in
//! doubles, as ns-2 keeps them.

use super::equation::rate_bps;
use super::{DataHeader, Feedback, TfrcConfig};
use crate::ids::{FlowId, NodeId};
use crate::packet::{ecn, Packet, PacketKind, SackBlocks};
use crate::rng::Uniform;
use crate::time::SimTime;

const SMALL: f64 = 0.0000001;
/// What `send -1` (an endless application) makes the last sequence number (tfrc.h MAXSEQ).
pub const MAXSEQ: i64 = 1 << 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    SlowStart,
    CongAvoid,
    Decrease,
    OutOfSlowStart,
}

/// A change the sender asks of one of its timers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimerOp {
    /// Fire this many seconds from now (replacing a pending expiry).
    In(f64),
    /// `In` after the gap is scaled by ns-2's random factor ([`TfrcSender::spread`]), drawn
    /// once the packet just sent has been handed to the network.
    Spread(f64),
    Cancel,
}

#[derive(Debug)]
pub struct TfrcSender {
    pub cfg: TfrcConfig,
    rng: Uniform,
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    // The equation's estimates (TfrcAgent::update_rtt).
    rtt: f64,
    rttcur: f64,
    sqrtrtt: f64,
    tzero: f64,
    t_srtt: i32,
    t_rttvar: i32,
    t_rtxcur: f64,
    // Dynamic state.
    maxseq: i64,
    seqno: i64,
    rate: f64,
    oldrate: f64,
    delta: f64,
    phase: Phase,
    last_change: f64,
    rcvrate: f64,
    maxrate: f64,
    ss_maxrate: f64,
    active: bool,
    round_id: i64,
    first_feedback_seen: bool,
    urgent: bool,
    all_idle: bool,
    datalimited: bool,
    lastlimited: f64,
    heavyrounds: u32,
    fsize: f64,
    started: bool,
    /// The last loss event rate the receiver reported, and its true loss rate (ns-2
    /// `true_loss_rate_`).
    pub flost: f64,
    pub true_loss_rate: f64,
    /// Timer changes for the simulator: [send timer, no-feedback timer].
    pub timer_ops: [Option<TimerOp>; 2],
}

impl TfrcSender {
    pub fn new(cfg: TfrcConfig, rng: Uniform, flow: FlowId, src: NodeId, dst: NodeId) -> Self {
        let fsize = cfg.fsize as f64;
        TfrcSender {
            cfg,
            rng,
            flow,
            src,
            dst,
            rtt: 0.0,
            rttcur: 1.0,
            sqrtrtt: 1.0,
            tzero: 0.0,
            t_srtt: 0,
            t_rttvar: 0,
            t_rtxcur: 0.0,
            maxseq: 0,
            seqno: -1,
            rate: 0.0,
            oldrate: 0.0,
            delta: 0.0,
            phase: Phase::SlowStart,
            last_change: 0.0,
            rcvrate: 0.0,
            maxrate: 0.0,
            ss_maxrate: 0.0,
            active: false,
            round_id: 0,
            first_feedback_seen: false,
            urgent: false,
            all_idle: false,
            datalimited: false,
            lastlimited: 0.0,
            heavyrounds: 0,
            fsize,
            started: false,
            flost: 0.0,
            true_loss_rate: 0.0,
            timer_ops: [None; 2],
        }
    }

    fn size(&self) -> f64 {
        self.cfg.packet_size as f64
    }

    /// The sending rate, bytes per second (ns-2 `rate_`).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The moving-average RTT (ns-2 `rtt_`, 0 before the first feedback).
    pub fn rtt(&self) -> f64 {
        self.rtt
    }

    /// The next sequence number to send (ns-2 `seqno_`).
    pub fn seqno(&self) -> i64 {
        self.seqno
    }

    /// `TfrcAgent::start`: an endless sender starts on `start`; one with an application on
    /// its first data. Sends the first packet at once.
    pub fn start(&mut self, now: f64) -> Option<DataOut> {
        self.seqno = 0;
        self.rate = self.cfg.init_rate;
        self.delta = 0.0;
        self.oldrate = self.rate;
        self.phase = Phase::SlowStart;
        self.urgent = true;
        self.rtt = 0.0;
        self.sqrtrtt = 1.0;
        self.rttcur = 1.0;
        self.tzero = 0.0;
        self.last_change = 0.0;
        self.maxrate = 0.0;
        self.ss_maxrate = 0.0;
        self.active = true;
        self.started = true;
        self.round_id = 0;
        self.heavyrounds = 0;
        let tick = self.cfg.tcp_tick_s;
        self.t_srtt = ((self.cfg.srtt_init as f64 / tick) as i32) << self.cfg.srtt_bits;
        self.t_rttvar = ((self.cfg.rttvar_init as f64 / tick) as i32) << self.cfg.rttvar_bits;
        self.t_rtxcur = self.cfg.rtxcur_init_s;
        self.rcvrate = 0.0;
        self.all_idle = false;
        self.first_feedback_seen = false;
        let p = self.sendpkt(now);
        self.timer_ops[0] = Some(TimerOp::In(self.size() / self.rate));
        self.timer_ops[1] = Some(TimerOp::In(2.0 * self.size() / self.rate));
        p
    }

    /// `TfrcAgent::stop`.
    pub fn stop(&mut self) {
        self.active = false;
        if self.cfg.idle_fix {
            self.datalimited = true;
        }
        self.timer_ops[0] = Some(TimerOp::Cancel);
    }

    /// The application hands over `npkts` more packets (`TfrcAgent::advanceby`, reached
    /// from `sendmsg`); -1: endless.
    pub fn advance(&mut self, now: f64, npkts: i64) -> Option<DataOut> {
        if npkts < 0 {
            if self.maxseq < MAXSEQ {
                self.maxseq = MAXSEQ;
            } else {
                return None;
            }
        } else {
            self.maxseq += npkts;
        }
        if self.seqno == -1 {
            return self.start(now);
        }
        if self.datalimited && self.maxseq > self.seqno {
            self.datalimited = false;
            self.lastlimited = now;
            self.all_idle = false;
            if !self.cfg.old_code {
                return self.sendpkt(now);
            }
        }
        None
    }

    /// Bytes handed over by the application (`TfrcAgent::sendmsg`): whole packets, a part
    /// rounded up; -1 endless.
    pub fn write(&mut self, now: f64, nbytes: i64) -> Option<DataOut> {
        if nbytes == -1 {
            return self.advance(now, -1);
        }
        let size = self.cfg.packet_size as i64;
        let npkts = nbytes / size + i64::from(nbytes % size != 0);
        if self.maxseq - self.seqno < MAXSEQ {
            return self.advance(now, npkts);
        }
        None
    }

    /// The send timer (`TfrcAgent::nextpkt`): a packet if there is data, then the next gap.
    pub fn nextpkt(&mut self, now: f64) -> Option<DataOut> {
        let mut out = None;
        if !self.cfg.app_limited || self.maxseq > self.seqno {
            out = self.sendpkt(now);
        } else {
            self.datalimited = true;
        }
        // slow_increase_: during slow start the rate climbs by delta per packet.
        let xrate = if self.cfg.slow_increase
            && self.round_id > 2
            && self.phase == Phase::SlowStart
            && self.oldrate + SMALL < self.rate
        {
            self.oldrate += self.delta;
            self.oldrate
        } else if self.cfg.ca {
            self.rate * self.sqrtrtt / self.rttcur.sqrt()
        } else {
            self.rate
        };
        if xrate > SMALL {
            let mut next = self.size() / xrate;
            if self.cfg.voip {
                next = next.max(1.0 / self.cfg.voip_max_pkt_rate);
            }
            if self.rng.is_ns2() {
                // ns-2 draws the factor for every packet, overhead_ 0 or not, after sendpkt
                // has passed the packet on (a RED queue it meets at once draws first).
                self.timer_ops[0] = Some(TimerOp::Spread(next));
                return out;
            }
            if self.cfg.overhead > 0.0 {
                let o = self.cfg.overhead;
                next *= 2.0 * o * self.rng.next_f64() - o + 1.0;
            }
            self.timer_ops[0] = Some(TimerOp::In(next.max(SMALL)));
        }
        out
    }

    /// `TfrcAgent::nextpkt`'s randomised gap: `next` (1 + overhead (2u - 1)) for u uniform,
    /// at least SMALLFLOAT.
    pub fn spread(&mut self, next: f64) -> f64 {
        let o = self.cfg.overhead;
        (next * (2.0 * o * self.rng.next_f64() - o + 1.0)).max(SMALL)
    }

    /// Draws the gap factors from ns-2's default generator from now on (`crate::rng::ns2`).
    pub fn use_random(&mut self, rng: Uniform) {
        self.rng = rng;
    }

    /// The equation's estimates from a feedback's echoed timestamp (`TfrcAgent::update_rtt`):
    /// a TCP-style RTO in ticks of `tcp_tick_` for t_RTO, and a moving average of the RTT
    /// (weight `df_`) and of its square root for the equation and the spacing.
    fn update_rtt(&mut self, tao: f64, now: f64) {
        let c = &self.cfg;
        let mut t_rtt = ((now - tao) / c.tcp_tick_s + 0.5) as i32;
        if t_rtt == 0 {
            t_rtt = 1;
        }
        if self.t_srtt != 0 {
            // ns-2 keeps the difference in a C `short`.
            let mut delta = (t_rtt - (self.t_srtt >> c.srtt_bits)) as i16 as i32;
            self.t_srtt += delta;
            if self.t_srtt <= 0 {
                self.t_srtt = 1;
            }
            if delta < 0 {
                delta = -delta;
            }
            delta -= self.t_rttvar >> c.rttvar_bits;
            self.t_rttvar += delta;
            if self.t_rttvar <= 0 {
                self.t_rttvar = 1;
            }
        } else {
            self.t_srtt = t_rtt << c.srtt_bits;
            self.t_rttvar = t_rtt << (c.rttvar_bits - 1);
        }
        let shift = c.rttvar_exp + (c.srtt_bits - c.rttvar_bits);
        self.t_rtxcur =
            (((self.t_rttvar << shift) + self.t_srtt) >> c.srtt_bits) as f64 * c.tcp_tick_s;
        self.tzero = self.t_rtxcur.max(c.min_rto_s);
        let sample = now - tao;
        if self.rtt > 0.0 {
            self.rtt = c.df * self.rtt + (1.0 - c.df) * sample;
            self.sqrtrtt = c.df * self.sqrtrtt + (1.0 - c.df) * sample.sqrt();
        } else {
            self.rtt = sample;
            self.sqrtrtt = sample.sqrt();
        }
        self.rttcur = sample;
    }

    /// A feedback packet (`TfrcAgent::recv`): RTT, the equation's rate, then slow start or
    /// the increase/decrease rules; re-arms the no-feedback timer.
    pub fn on_feedback(&mut self, now: f64, fb: &Feedback) -> Option<DataOut> {
        let size = self.size();
        self.true_loss_rate = fb.true_loss;
        self.flost = fb.flost;
        self.round_id += 1;
        self.urgent = false;
        if self.round_id > 1 && fb.rate_since_last_report > 0.0 {
            // Slow start may reach twice the receive rate (RFC 5348 section 4.3's X_recv
            // limit); so may the sender afterwards, unless `conservative_`.
            let recv = fb.rate_since_last_report * size;
            self.ss_maxrate = 2.0 * recv;
            self.maxrate = if self.cfg.conservative {
                if fb.losses >= 1 {
                    recv
                } else {
                    self.cfg.scmult * recv
                }
            } else {
                2.0 * recv
            };
        } else {
            self.ss_maxrate = 0.0;
            self.maxrate = 0.0;
        }
        self.update_rtt(fb.echo, now);
        if !self.cfg.voip {
            self.fsize = size;
        }
        self.rcvrate = rate_bps(
            fb.flost,
            self.rtt,
            self.tzero,
            self.fsize,
            self.cfg.bval as f64,
        );
        if self.cfg.voip {
            // RFC 4828: the headers' share of the rate is not the flow's.
            self.rcvrate *= size / (self.cfg.header_size as f64 + size);
        }
        self.timer_ops[1] = Some(TimerOp::In((2.0 * self.rtt).max(2.0 * size / self.rate)));
        let mut out = None;
        if !self.first_feedback_seen {
            self.first_feedback_seen = true;
            self.slowstart(now);
            out = self.nextpkt(now);
        } else if self.phase == Phase::SlowStart {
            if fb.flost > 0.0 {
                // A loss ends slow start at the equation's rate.
                self.phase = Phase::OutOfSlowStart;
                self.rate = self.rcvrate;
                self.oldrate = self.rcvrate;
            } else {
                self.slowstart(now);
                out = self.nextpkt(now);
            }
        } else if self.rcvrate > self.rate {
            self.increase_rate(now);
        } else {
            self.decrease_rate(now);
        }
        out
    }

    /// RFC 3390's initial window in packets by packet size (`TfrcAgent::rfc3390`).
    fn rfc3390(&self) -> f64 {
        match self.cfg.packet_size {
            0..=1095 => 4.0,
            1096..=2189 => 3.0,
            _ => 2.0,
        }
    }

    /// Packets per RTT right after the first feedback (`TfrcAgent::initial_rate`).
    fn initial_rate(&self) -> f64 {
        if self.cfg.rate_init_option == 1 {
            self.cfg.rate_init
        } else {
            self.rfc3390()
        }
    }

    /// `TfrcAgent::slowstart`: the initial rate for the first rounds, then ssmult_ times the
    /// rate once per RTT, at most twice the receive rate; back to half that when above it.
    fn slowstart(&mut self, now: f64) {
        let size = self.size();
        let initrate = self.initial_rate() * size / self.rtt;
        let from_initial = |s: &mut Self| {
            s.oldrate = s.rate;
            if s.rate < initrate {
                s.rate = initrate;
            }
            s.delta = (s.rate - s.oldrate) / (s.rate * s.rtt / size);
            s.last_change = now;
        };
        if self.round_id <= 1 || (self.round_id == 2 && self.initial_rate() > 1.0) {
            from_initial(self);
        } else if self.ss_maxrate > 0.0 {
            if self.cfg.idle_fix
                && (self.datalimited || self.lastlimited > now - 1.5 * self.rtt)
                && self.ss_maxrate < initrate
            {
                from_initial(self);
            } else if self.rate < self.ss_maxrate && now - self.last_change > self.rtt {
                self.oldrate = self.rate;
                self.rate = (self.cfg.ssmult * self.rate).min(self.ss_maxrate);
                if self.rate < size / self.rtt {
                    self.rate = size / self.rtt;
                }
                self.delta = (self.rate - self.oldrate) / (self.rate * self.rtt / size);
                self.last_change = now;
            } else if self.rate > self.ss_maxrate {
                self.rate = self.ss_maxrate / 2.0;
                self.oldrate = self.rate;
                self.delta = 0.0;
                self.last_change = now;
            }
        } else {
            // Nothing received: back to one packet per RTT.
            self.oldrate = self.rate;
            self.rate = size / self.rtt;
            self.delta = 0.0;
            self.last_change = now;
        }
    }

    /// `TfrcAgent::increase_rate`: one packet per RTT per RTT elapsed (at most two), no
    /// higher than the equation's rate or twice the receive rate.
    fn increase_rate(&mut self, now: f64) {
        let size = self.size();
        let mult = ((now - self.last_change) / self.rtt).min(2.0);
        self.rate += (size / self.rtt) * mult;
        let floor = if self.datalimited || self.lastlimited > now - 1.5 * self.rtt {
            self.initial_rate() * size / self.rtt
        } else {
            size / self.rtt
        };
        let maximum = self.maxrate.max(floor).min(self.rcvrate);
        self.rate = self.rate.min(maximum);
        self.phase = Phase::CongAvoid;
        self.last_change = now;
        self.heavyrounds = 0;
    }

    /// `TfrcAgent::decrease_rate`: down to the equation's rate, and to twice the receive rate
    /// after `maxHeavyRounds_` rounds above it.
    fn decrease_rate(&mut self, now: f64) {
        let size = self.size();
        self.rate = self.rcvrate;
        let maximum = self.maxrate.max(size / self.rtt);
        if self.rate > maximum {
            self.heavyrounds += 1;
        } else {
            self.heavyrounds = 0;
        }
        if self.heavyrounds > self.cfg.max_heavy_rounds {
            self.rate = self.rate.min(maximum);
        }
        self.phase = Phase::Decrease;
        self.last_change = now;
    }

    /// The no-feedback timer (`TfrcAgent::reduce_rate_on_no_feedback`, RFC 5348 section
    /// 4.4): halve the rate, but an idle sender keeps its initial rate.
    pub fn on_no_feedback(&mut self, now: f64) -> Option<DataOut> {
        let size = self.size();
        if self.phase != Phase::SlowStart {
            self.phase = Phase::Decrease;
        }
        if self.cfg.old_code || (!self.all_idle && !self.datalimited) {
            self.rate *= 0.5;
        } else if self.cfg.rate_init_option == 1 {
            if self.rate > 2.0 * self.cfg.rate_init * size / self.rtt {
                self.rate *= 0.5;
            }
        } else {
            let w = self.rfc3390();
            if self.rate > 2.0 * w * size / self.rtt {
                self.rate *= 0.5;
            } else if self.rate > w * size / self.rtt {
                self.rate = w * size / self.rtt;
            }
        }
        self.urgent = true;
        self.round_id += 1;
        self.timer_ops[1] = Some(TimerOp::In((2.0 * self.rtt).max(2.0 * size / self.rate)));
        if self.datalimited {
            self.all_idle = true;
        }
        let _ = now;
        self.nextpkt(now)
    }

    /// `TfrcAgent::sendpkt`: one data packet with the header fields the receiver reads.
    fn sendpkt(&mut self, now: f64) -> Option<DataOut> {
        if !self.active {
            return None;
        }
        let seq = self.seqno as u64;
        self.seqno += 1;
        let hdr = DataHeader {
            seq,
            timestamp: now,
            rtt: self.rtt,
            tzero: self.tzero,
            rate: self.rate,
            urgent: self.urgent,
            round_id: self.round_id,
            fsize: self.fsize,
        };
        let pkt = Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::Udp,
            flags: 0,
            src: self.src,
            dst: self.dst,
            size: self.cfg.data_bytes(),
            seq,
            ack: 0,
            sent_at: SimTime::ZERO, // set by the caller
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 0,
            rwnd: 0,
            ecn: if self.cfg.ecn { ecn::ECT } else { 0 },
        };
        Some(DataOut { pkt, hdr })
    }

    /// Whether `start` has run (an application-driven sender starts on its first data).
    pub fn started(&self) -> bool {
        self.started
    }
}

/// A data packet leaving, with its header.
#[derive(Clone, Copy, Debug)]
pub struct DataOut {
    pub pkt: Packet,
    pub hdr: DataHeader,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(cfg: TfrcConfig) -> TfrcSender {
        TfrcSender::new(
            cfg,
            Uniform::Own(crate::rng::RandomStream::named(1, "t")),
            FlowId(0),
            NodeId(0),
            NodeId(1),
        )
    }

    fn fb(echo: f64, flost: f64, recv_pps: f64) -> Feedback {
        Feedback {
            seq: 0,
            maxseq: 0,
            echo,
            flost,
            rate_since_last_report: recv_pps,
            losses: 0,
            true_loss: 0.0,
        }
    }

    #[test]
    fn with_ns2s_generator_every_gap_takes_one_draw_after_the_send() {
        use crate::rng::ns2::{Mrg32k3a, Ns2Default};
        let g = Mrg32k3a::from_state([12345; 6]).unwrap();
        let shared = Ns2Default::new(g);
        let mut alone = g;
        for overhead in [0.0, 0.5] {
            let mut s = sender(TfrcConfig {
                overhead,
                ..TfrcConfig::default()
            });
            s.use_random(Uniform::Ns2(shared.clone()));
            s.start(0.0);
            assert!(s.nextpkt(1.0).is_some());
            // TfrcAgent::nextpkt: the gap waits for its draw until the packet is sent.
            let Some(TimerOp::Spread(gap)) = s.timer_ops[0] else {
                panic!("{:?}", s.timer_ops[0]);
            };
            let u = alone.u01();
            let want = gap * (2.0 * overhead * u - overhead + 1.0);
            assert_eq!(s.spread(gap), want);
            assert_eq!(
                shared.state(),
                alone.state(),
                "one draw, overhead_ 0 or not"
            );
        }
    }

    #[test]
    fn starts_at_init_rate_then_rfc3390_then_doubles_per_rtt() {
        let mut s = sender(TfrcConfig {
            ca: false,
            ..TfrcConfig::default()
        });
        assert!(s.start(0.0).is_some());
        assert_eq!(s.rate(), 300.0);
        // 1000-byte packets: 2 s... the first gap is size/InitRate_.
        assert_eq!(s.timer_ops[0], Some(TimerOp::In(1000.0 / 300.0)));
        // First feedback, RTT 0.1 s: RFC 3390 gives 4 packets of 1000 bytes per RTT.
        s.on_feedback(0.1, &fb(0.0, 0.0, 10.0));
        assert!((s.rtt() - 0.1).abs() < 1e-12);
        assert!((s.rate() - 40_000.0).abs() < 1e-6, "{}", s.rate());
        // Round 2 keeps the initial rate (initial_rate() > 1).
        s.on_feedback(0.25, &fb(0.15, 0.0, 40.0));
        assert!(
            (s.rate() - 4.0 * 1000.0 / s.rtt()).abs() < 1e-6,
            "{}",
            s.rate()
        );
        // Round 3, more than an RTT later: doubled, capped by twice the receive rate.
        let before = s.rate();
        s.on_feedback(0.5, &fb(0.4, 0.0, 1000.0));
        assert!(
            (s.rate() - 2.0 * before).abs() < 1e-6,
            "{} {before}",
            s.rate()
        );
        // A receive rate of 10 pkt/s caps the next doubling at 2 x 10 x 1000 B/s.
        s.on_feedback(0.75, &fb(0.65, 0.0, 10.0));
        assert!((s.rate() - 10_000.0).abs() < 1e-6, "{}", s.rate());
    }

    #[test]
    fn a_loss_ends_slow_start_at_the_equation_rate() {
        let mut s = sender(TfrcConfig::default());
        s.start(0.0);
        s.on_feedback(0.1, &fb(0.0, 0.0, 10.0));
        s.on_feedback(0.3, &fb(0.2, 0.01, 40.0));
        let want = rate_bps(0.01, s.rtt(), s.tzero, 1000.0, 1.0);
        assert!((s.rate() - want).abs() < 1e-9, "{} {want}", s.rate());
        // Then the equation's rate rules: a higher loss rate lowers it.
        s.on_feedback(0.5, &fb(0.4, 0.05, 40.0));
        let want = rate_bps(0.05, s.rtt(), s.tzero, 1000.0, 1.0);
        assert!((s.rate() - want).abs() < 1e-9, "{} {want}", s.rate());
    }

    #[test]
    fn no_feedback_halves_the_rate() {
        let mut s = sender(TfrcConfig::default());
        s.start(0.0);
        s.on_feedback(0.1, &fb(0.0, 0.0, 10.0));
        let r = s.rate();
        s.on_no_feedback(0.5);
        assert_eq!(s.rate(), r / 2.0);
        match s.timer_ops[1] {
            Some(TimerOp::In(t)) => {
                assert!((t - (2.0 * s.rtt()).max(2000.0 / s.rate())).abs() < 1e-12)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rto_estimate_is_ns2_tick_arithmetic() {
        let mut s = sender(TfrcConfig::default());
        s.start(0.0);
        // A 0.25 s sample in 0.1 s ticks rounds to 3; srtt = 3 << 3, rttvar = 3 << 1,
        // rtxcur = ((6 << 3) + 24) >> 3 = 9 ticks.
        s.on_feedback(0.25, &fb(0.0, 0.0, 10.0));
        assert!((s.tzero - 0.9).abs() < 1e-12, "{}", s.tzero);
    }
}
