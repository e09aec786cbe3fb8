//! ns-2.35's TCP-Linux sender, `Agent/TCP/Linux` (tcp/tcp-linux.cc, `LinuxTcpAgent`, David
//! Wei's port of Linux 2.6's congestion-control interface), with the modules of
//! `ns2_linux/modules.rs`, under Reno's `ns2_linux` (`ns2_module` names the module). It replaces `TcpAgent::recv` and `timeout` whole and keeps its
//! own window in Linux's units (`struct tcp_sock`: `snd_cwnd`, `snd_cwnd_cnt`,
//! `snd_ssthresh`, `snd_cwnd_clamp`, `bytes_acked`), copied to ns-2's `cwnd_` and
//! `ssthresh_` after every ACK (`save_from_linux`). Rule by rule:
//!
//! - `LinuxTcpAgent::recv` (Linux's `tcp_ack`): an ACK beyond `t_seqno_` or below the
//!   cumulative ACK is ignored. `bytes_acked` grows by the segments newly acknowledged
//!   (`FLAG_DATA_ACKED`); the SACK blocks go to the scoreboard (`ScoreBoard1`,
//!   `ns2_linux/scoreboard1.rs`), which flags new SACKs and new losses (a segment
//!   `dupack_threshold` + 1 below the highest SACK). `time_processing`: the timed segment's
//!   sample (`rtt_active_`) ends a backoff and feeds `rtt_update`; then every ACK restarts
//!   the retransmission timer (`renew_timer`: `t_seqno_ > highest_ack_` holds while anything
//!   is unsent or unacknowledged).
//! - The ACK is "dubious" (`tcp_ack_is_dubious`) when it acknowledges nothing new, carries
//!   new SACK information or arrives outside the Open state: it grows the window only when it
//!   acknowledges data outside Recovery (`tcp_may_raise_cwnd`), then goes to
//!   `tcp_fastretrans_alert`; other ACKs grow the window (`cong_avoid` with the segments in
//!   flight before the ACK).
//! - `tcp_fastretrans_alert`: outside Open, the ACK that reaches `recover_` clears the
//!   scoreboard, raises cwnd to ssthresh if below it (then `tcp_moderate_cwnd`: at most the
//!   flight plus `tcp_max_burst` 3) and returns to Open. In Open or Loss, a new loss sets
//!   `recover_` = `maxseq_`, ssthresh from the module, cwnd = the module's `min_cwnd` (or
//!   ssthresh), and starts ns-2's rate halving: `next_pkts_in_flight_` = the old cwnd.
//! - `send_much`: while the flight (sent, less acknowledged, SACKed and lost:
//!   `ScoreBoard1::packets_in_flight`) is below max(cwnd, `next_pkts_in_flight_`), the next
//!   lost segment is resent (`GetNextRetran`, `MarkRetran`) or else a new one sent; after
//!   each, `next_pkts_in_flight_` falls to the flight less one (at least 1). ns-2's traced
//!   `cwnd_` is `next_pkts_in_flight_` while that is above cwnd.
//! - `LinuxTcpAgent::timeout`: with data outstanding (`enter_loss`) ssthresh from the module,
//!   cwnd 1, `recover_` = `maxseq_`, the Loss state, and every segment not SACKed marked lost
//!   (`MarkLoss`); `t_seqno_` stays (the scoreboard resends). The timer backs off
//!   (`rtt_backoff`) and restarts. With nothing outstanding (`restart_bugfix_`) cwnd_ becomes
//!   the initial window (`slowdown(CLOSE_CWND_INIT)`) and the timer restarts unbacked.
//! - The timer (`LinuxTcpAgent::rtt_update`, `TcpAgent::rtt_timeout`, `rtt_backoff`):
//!   `tcp_tick_` is one jiffy (1 ms, set by `install_congestion_control`); the sample in
//!   whole ticks crossed on the grid offset by `boot_time_`, at least 1; srtt x 8 and rttvar
//!   x 4 as Linux's `tcp_rtt_estimator` (a sample below srtt moves rttvar by an eighth of its
//!   excess only), unclamped; `t_rtxcur_` = (srtt + 4 rttvar) in whole ticks; the timeout is
//!   max(`minrto_`, `t_rtxcur_`) x backoff, at most `maxrto_`.
//! - Modules (`ns2_linux/modules.rs`, a file each for the newer ones): the hooks as
//!   `LinuxTcpAgent::recv` calls them on each ACK: `init` on the first, `pkts_acked` (new
//!   data: the segments and `last_ackt`, the send time of the segment the ACK names from
//!   ns-2's `tss` when the module has `TCP_CONG_RTT_STAMP`, 0 when the scoreboard is unsure),
//!   `cwnd_event` (`CA_EVENT_FAST_ACK` in Open for new data without SACK news, else
//!   `CA_EVENT_SLOW_ACK`), then `cong_avoid` (the ACK in bytes); `ssthresh`, `min_cwnd` and
//!   `set_state` at each CA state change (`tcp_set_ca_state`: Recovery, Open, Loss); on a
//!   timeout `ssthresh`, `CA_EVENT_LOSS`, `set_state(Loss)`; `rtt_sample` from `rtt_update`
//!   with round(tao x 10^6) us. What Linux's socket shows them (`modules::Env`):
//!   `tcp_time_stamp` and `ktime_get_real` of the ACK (a timeout keeps the last ACK's),
//!   `snd_una` / `snd_nxt` in bytes of `size_`, `srtt` = `t_srtt_`.
//! - `sysctl_tcp_abc` and `tcp_max_burst` are `unsigned char` globals next to TCP-Linux's
//!   `debug_level` in ns-2.35's binary (Debian's ns 2.35: debug_level, tcp_max_burst and
//!   sysctl_tcp_abc at three consecutive addresses), and `LinuxParamManager::
//!   set_default_param` writes an `int` at the parameter's address: `set_ca_default_param
//!   linux debug_level 2` (test-suite-tcpLinux.tcl) sets both to 0. The front end passes
//!   them on as Reno's `ns2_abc` and `ns2_max_burst`.
//!
//! - No module (`ns2_module` 15, an agent without `select_ca`): ns-2's own window in its
//!   place (`ns2_linux/no_module.rs`).
//!
//! Not modelled (the front end refuses them): ECN, timestamps.

mod compound;
mod cubic;
mod htcp;
mod hybla;
mod illinois;
mod lp;
mod modules;
mod no_module;
mod scoreboard1;
mod vegas;
mod veno;
mod westwood;
mod yeah;

use super::*;
use modules::{CaEvent, Env, Module, State, Tp};
use no_module::{CwndTo, Ns2Window};
use scoreboard1::{ScoreBoard1, FLAG_DATA_LOST, FLAG_DATA_SACKED, FLAG_UNSURE_TSTAMP};

/// `FLAG_DATA_ACKED` (tcp/linux/ns-linux-util.h).
const FLAG_DATA_ACKED: u8 = 4;
/// `tcp_tick_` once a module is installed: `1.0 / JIFFY_RATIO`.
const TICK: f64 = 0.001;
/// `ns2_module` for an agent without `select_ca` (`ns2_linux/no_module.rs`).
pub(crate) const NO_MODULE: u8 = 15;

/// ns-2's send-time table (`TcpAgent::output` with `bugfix_ts_`, "from Andrei Gurtov"):
/// `tss[seqno % tss_size_]`, 100 entries doubled (the entries from `highest_ack_` on kept)
/// once a segment more than 90% of its size beyond `highest_ack_` is sent.
#[derive(Clone, Debug)]
struct Tss {
    t: Vec<f64>,
}

impl Tss {
    fn new() -> Self {
        Tss { t: vec![0.0; 100] }
    }

    /// `TcpAgent::output`: `seq` leaves at `now` with the ACKs up to `highest_ack`.
    fn record(&mut self, seq: i64, highest_ack: i64, now: f64) {
        let size = self.t.len() as i64;
        if (seq - highest_ack) as f64 > size as f64 * 0.9 {
            let mut n = vec![0.0; 2 * self.t.len()];
            for i in 0..size {
                n[(highest_ack + i).rem_euclid(2 * size) as usize] =
                    self.t[(highest_ack + i).rem_euclid(size) as usize];
            }
            self.t = n;
        }
        let size = self.t.len() as i64;
        self.t[seq.rem_euclid(size) as usize] = now;
    }

    fn get(&self, seq: i64) -> f64 {
        self.t[seq.rem_euclid(self.t.len() as i64) as usize]
    }
}

/// `LinuxTcpAgent`'s state: Linux's window (`linux_`), the scoreboard, and the parts of
/// `TcpAgent` it reads (timer, `recover_`, `next_pkts_in_flight_`).
#[derive(Clone, Debug)]
pub(super) struct Ns2Linux {
    module: Module,
    /// ns-2's own window when no module is installed (`icsk_ca_ops` NULL); the module is
    /// then Reno's, whose hooks other than the window's do nothing.
    ns2: Option<Ns2Window>,
    /// `tcp_tick_`: one jiffy with a module, else the agent's `tcpTick_`.
    tick: f64,
    /// `initialized_`: the module's `init` has run (on the first ACK).
    initialized: bool,
    /// Linux's window, with `sysctl_tcp_abc`.
    tp: Tp,
    /// `tcp_max_burst` (tcp/linux/ns-linux-param.c; 3 unless a script's
    /// `set_ca_default_param linux ...` changed it, as `sysctl_tcp_abc`).
    max_burst: i64,
    sb: ScoreBoard1,
    state: State,
    next_pkts: i64,
    recover: i64,
    window_init: f64,
    /// `t_srtt_` (ticks x 8), `t_rttvar_` (ticks x 4), `t_backoff_`, `t_rtxcur_` (s).
    srtt: i32,
    rttvar: i32,
    backoff: i32,
    rtxcur: f64,
    rtt_active: bool,
    rtt_seq: i64,
    rtt_ts: f64,
    /// `linux_.srtt`: `t_srtt_` as `rtt_update` last left it (a backoff's reset of
    /// `t_srtt_` does not reach it).
    linux_srtt: i32,
    /// `mss_cache` (`size_`).
    mss: u64,
    /// Send times, kept when the module asks for them (`bugfix_ts_`).
    tss: Option<Tss>,
    /// `tcp_time_stamp` and `ktime_get_real` as the last ACK set them: TCP-Linux's globals,
    /// which a timeout does not move.
    stamp: (u64, i64),
    boot: f64,
    min_rto: f64,
    max_rto: f64,
}

impl Ns2Linux {
    /// The agent after `select_ca` at time 0 (`install_congestion_control`:
    /// `load_to_linux_once`, `load_to_linux`): cwnd `windowInit_`, ssthresh and clamp
    /// `window_`.
    pub(super) fn new(module: u8, abc: u8, max_burst: u8, cfg: &TcpParams) -> Self {
        let wnd = cfg.window as i64;
        let ns2 = (module == NO_MODULE).then(|| {
            Ns2Window::new(
                cfg.window_init as f64,
                wnd,
                cfg.precision_reduce,
                cfg.max_cwnd,
            )
        });
        let tick = if ns2.is_some() {
            cfg.timer_granularity.as_secs_f64()
        } else {
            TICK
        };
        let module = Module::from_number(module);
        Ns2Linux {
            module,
            ns2,
            tick,
            initialized: false,
            tp: Tp {
                snd_cwnd: cfg.window_init as i64,
                snd_ssthresh: wnd,
                snd_cwnd_cnt: 0,
                snd_cwnd_clamp: wnd,
                bytes_acked: 0,
                abc,
            },
            max_burst: max_burst as i64,
            sb: ScoreBoard1::new(),
            state: State::Open,
            next_pkts: 0,
            recover: 0,
            window_init: cfg.window_init as f64,
            srtt: 0,
            rttvar: 0,
            backoff: 1,
            rtxcur: cfg.initial_rto.as_secs_f64(),
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: 0.0,
            linux_srtt: 0,
            mss: cfg.packet_size as u64,
            tss: module.rtt_stamp().then(Tss::new),
            stamp: (0, 0),
            boot: cfg.ns2_boot_time.as_secs_f64(),
            min_rto: cfg.min_rto.as_secs_f64(),
            max_rto: cfg.max_rto.as_secs_f64(),
        }
    }

    /// ns-2's `cwnd_` after `save_from_linux`.
    fn cwnd(&self) -> f64 {
        self.next_pkts.max(self.tp.snd_cwnd) as f64
    }

    /// `LinuxTcpAgent::rtt_update` without timestamps: `tao` seconds for the timed segment.
    fn rtt_update(&mut self, now: f64, tao: f64) {
        // The module's rtt_sample (compound's): without timestamps the approximation
        // round(tao x US_RATIO).
        self.module.rtt_sample((tao * 1e6).round() as u64);
        let sendtime = now - tao + self.boot;
        let tickoff = sendtime % self.tick;
        let t_rtt = (((tao + tickoff) / self.tick) as i32).max(1);
        if self.srtt != 0 {
            // `register short delta`.
            let mut delta = (t_rtt - (self.srtt >> 3)) as i16 as i32;
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            if delta < 0 {
                delta = (-delta - (self.rttvar >> 2)) as i16 as i32;
                if delta > 0 {
                    delta >>= 3;
                }
            } else {
                delta = (delta - (self.rttvar >> 2)) as i16 as i32;
            }
            self.rttvar += delta;
        } else {
            self.srtt = t_rtt << 3;
            self.rttvar = t_rtt << 1;
        }
        self.rtxcur = (((self.rttvar << 3) + self.srtt) >> 3) as f64 * self.tick;
        self.linux_srtt = self.srtt;
    }

    /// `TcpAgent::rtt_timeout` with `rfc2988_`.
    fn rtt_timeout(&self) -> f64 {
        let backoff = self.backoff as f64;
        let mut t = if self.rtxcur < self.min_rto {
            self.min_rto * backoff
        } else {
            self.rtxcur * backoff
        };
        if t > self.max_rto {
            t = self.max_rto;
        }
        if t < 2.0 * self.tick {
            t = 2.0 * self.tick;
        }
        t
    }

    /// `load_to_linux` without a module: ns-2's `ssthresh_` and `cwnd_` into Linux's.
    fn load_to_linux(&mut self) {
        let Some(w) = &self.ns2 else { return };
        let cwnd = w.cwnd;
        self.tp.snd_ssthresh = w.ssthresh;
        self.load_cwnd(cwnd);
    }

    /// `load_to_linux`'s window: ns-2's `cwnd_` becomes `snd_cwnd`, unless rate halving holds
    /// the flight above a `cwnd_` no smaller than `snd_cwnd` (then it lowers that flight).
    fn load_cwnd(&mut self, cwnd: f64) {
        if self.next_pkts > self.tp.snd_cwnd && cwnd >= self.tp.snd_cwnd as f64 {
            self.next_pkts = cwnd.trunc() as i64;
        } else {
            self.tp.snd_cwnd = cwnd.trunc() as i64;
        }
    }

    /// `tcp_cong_avoid`: the module's `cong_avoid`, or without one `opencwnd` and
    /// `load_to_linux`.
    fn cong_avoid(&mut self, ack_bytes: u64, in_flight: i64, env: &Env) {
        if let Some(w) = &mut self.ns2 {
            w.opencwnd();
            self.load_to_linux();
        } else {
            self.module
                .cong_avoid(&mut self.tp, ack_bytes, in_flight, self.state, env);
        }
    }

    /// `slowdown(how)` then `load_to_linux`, without a module.
    fn slowdown(&mut self, halve_ssthresh: bool, to: CwndTo) {
        if let Some(w) = &mut self.ns2 {
            w.slowdown(self.tp.snd_cwnd, halve_ssthresh, to);
            self.load_to_linux();
        }
    }

    /// `TcpAgent::rtt_backoff`.
    fn rtt_backoff(&mut self) {
        if self.backoff < 64 || self.rtt_timeout() < self.max_rto {
            self.backoff <<= 1;
        }
        if self.backoff > 8 {
            self.rttvar += self.srtt >> 3;
            self.srtt = 0;
        }
    }
}

impl TcpSender {
    fn nl(&mut self) -> &mut Ns2Linux {
        self.ns2_linux.as_deref_mut().expect("ns2 linux")
    }

    /// `LinuxTcpAgent::packets_in_flight`.
    fn nl_in_flight(&self) -> i64 {
        let l = self.ns2_linux.as_deref().expect("ns2 linux");
        l.sb.packets_in_flight(self.una as i64, self.nxt as i64)
    }

    /// `set_rtx_timer`: `rtx_timer_.resched(rtt_timeout())`.
    fn nl_set_timer(&mut self, now: SimTime) {
        let t = self.nl().rtt_timeout();
        self.rto_deadline = Some(now + SimDuration::from_secs_f64(t));
    }

    /// `save_from_linux`: ns-2's `cwnd_` and `ssthresh_`, which traces show.
    pub(super) fn nl_save(&mut self) {
        let l = self.ns2_linux.as_deref_mut().expect("ns2 linux");
        if let Some(w) = &mut l.ns2 {
            w.cwnd = l.next_pkts.max(l.tp.snd_cwnd) as f64;
            w.ssthresh = l.tp.snd_ssthresh;
        }
        self.nl_show();
    }

    /// ns-2's `cwnd_` and `ssthresh_` as traces show them: Linux's after `save_from_linux`,
    /// or ns-2's own without a module (`recv` then never calls `save_from_linux`).
    fn nl_show(&mut self) {
        let l = self.ns2_linux.as_deref().expect("ns2 linux");
        (self.w.cwnd, self.w.ssthresh) = match &l.ns2 {
            Some(w) => (w.cwnd, w.ssthresh as f64),
            None => (l.cwnd(), l.tp.snd_ssthresh as f64),
        };
    }

    /// `LinuxTcpAgent::recv` for one ACK.
    #[inline(never)]
    pub(super) fn on_ns2_linux_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let ack = pkt.ack as i64;
        let prior_una = self.una as i64;
        if ack > self.nxt as i64 || ack < prior_una {
            return;
        }
        let mut flag = 0u8;
        let prior_in_flight = self.nl_in_flight();
        if ack > prior_una {
            self.nl().tp.bytes_acked += ack - prior_una;
            flag |= FLAG_DATA_ACKED;
            // ack_processing.
            self.una = ack as u64;
            self.syn_pending = false;
            if self.nxt < self.una {
                self.nxt = self.una;
            }
        } else {
            flag |= FLAG_UNSURE_TSTAMP;
        }
        let threshold = self.dupack_threshold as i64;
        let l = self.ns2_linux.as_deref_mut().expect("ns2 linux");
        if !pkt.sack.is_empty() || !l.sb.is_empty() {
            flag |= l.sb.update(ack - 1, pkt.sack.iter(pkt.ack), threshold);
        }
        // time_processing (timerfix_: the timer after the sample).
        if l.rtt_active && ack > l.rtt_seq {
            l.backoff = 1;
            l.rtt_active = false;
            let tao = now.as_secs_f64() - l.rtt_ts;
            l.rtt_update(now.as_secs_f64(), tao);
        }
        let renew = self.nxt as i64 > ack - 1 || self.una < self.maxseq || l.tp.snd_cwnd < 1;
        if renew {
            self.nl_set_timer(now);
        } else {
            self.rto_deadline = None;
        }
        self.note_ns2_newack();
        self.note_completion(now);
        let env = self.nl_env(now);
        let l = self.ns2_linux.as_deref_mut().expect("ns2 linux");
        l.stamp = (env.jiffies, env.ktime);
        if !l.initialized {
            l.module.init(&mut l.tp, &env);
            l.initialized = true;
        }
        if flag & FLAG_DATA_ACKED != 0 {
            // last_ackt: the send time of the segment the ACK names (bugfix_ts_), unless
            // the scoreboard is unsure which transmission it answers.
            let last = match &l.tss {
                Some(t) if flag & FLAG_UNSURE_TSTAMP == 0 => (t.get(ack - 1) * 1e9).trunc() as i64,
                _ => 0,
            };
            let cnt = (ack - prior_una) as u32;
            l.module.pkts_acked(&mut l.tp, cnt, last, l.state, &env);
        }
        // tcp_ca_event: FAST_ACK in Open for new data without SACK news (FLAG_CA_ALERT).
        let fast =
            l.state == State::Open && flag & FLAG_DATA_SACKED == 0 && flag & FLAG_DATA_ACKED != 0;
        let event = if fast {
            CaEvent::FastAck
        } else {
            CaEvent::SlowAck
        };
        l.module.cwnd_event(&mut l.tp, event, &env);
        let ack_bytes = (ack as u64).wrapping_mul(l.mss);
        let dubious =
            flag & FLAG_DATA_ACKED == 0 || flag & FLAG_DATA_SACKED != 0 || l.state != State::Open;
        if dubious {
            if flag & FLAG_DATA_ACKED != 0 && l.state != State::Recovery {
                l.cong_avoid(ack_bytes, prior_in_flight, &env);
            }
            self.nl_fastretrans_alert(flag, &env, c);
        } else if flag & FLAG_DATA_ACKED != 0 {
            l.cong_avoid(ack_bytes, prior_in_flight, &env);
        }
        // Without a module `recv` skips save_from_linux.
        if self.nl().ns2.is_some() {
            self.nl_show();
        } else {
            self.nl_save();
        }
        self.nl_send_much(now, out, c);
    }

    /// What `linux_` shows a module at `now` (`tcp_time_stamp` and `ktime_get_real` as
    /// `LinuxTcpAgent::recv` sets them).
    fn nl_env(&self, now: SimTime) -> Env {
        let l = self.ns2_linux.as_deref().expect("ns2 linux");
        let t = now.as_secs_f64();
        Env {
            jiffies: (t * 1000.0).trunc() as u64,
            ktime: (t * 1e9).trunc() as i64,
            snd_una: self.una.wrapping_mul(l.mss),
            snd_nxt: self.nxt.wrapping_mul(l.mss),
            srtt: l.linux_srtt as u64,
            mss: l.mss,
        }
    }

    /// `LinuxTcpAgent::tcp_fastretrans_alert`.
    fn nl_fastretrans_alert(&mut self, flag: u8, env: &Env, c: &mut FlowCounters) {
        let highest_ack = self.una as i64 - 1;
        let maxseq = self.maxseq as i64 - 1;
        let l = self.nl();
        if l.state != State::Open && highest_ack >= l.recover {
            l.sb.clear();
            l.load_to_linux();
            if l.tp.snd_cwnd < l.tp.snd_ssthresh {
                l.tp.snd_cwnd = l.tp.snd_ssthresh;
                // tcp_moderate_cwnd.
                let flight = self.nl_in_flight();
                let l = self.nl();
                l.tp.snd_cwnd = l.tp.snd_cwnd.min(flight + l.max_burst);
            }
            let l = self.nl();
            l.module.set_state(State::Open, env);
            l.state = State::Open;
            l.next_pkts = 0;
            self.in_recovery = false;
            return;
        }
        if l.state != State::Recovery && flag & FLAG_DATA_LOST != 0 {
            l.recover = maxseq;
            l.next_pkts = l.tp.snd_cwnd;
            if l.ns2.is_some() {
                l.slowdown(true, CwndTo::Half);
            } else {
                l.tp.snd_ssthresh = l.module.ssthresh(&l.tp, env);
                l.tp.snd_cwnd_cnt = 0;
                l.tp.bytes_acked = 0;
                l.tp.snd_cwnd = l.module.min_cwnd(&l.tp, env);
            }
            l.module.set_state(State::Recovery, env);
            l.state = State::Recovery;
            self.in_recovery = true;
            // cong_action_: TcpAgent::output marks the next segment (the "A" flag).
            self.cong_action_pending = true;
            c.fast_retransmits += 1;
        }
    }

    /// `LinuxTcpAgent::send_much(0, reason, maxburst_)`.
    pub(super) fn nl_send_much(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let mut win = self.nl().tp.snd_cwnd;
        let flight = self.nl_in_flight();
        let l = self.nl();
        l.next_pkts = l.next_pkts.min(flight + 1);
        let mut burst = 0;
        while self.nl_in_flight() < win.max(self.nl().next_pkts) {
            let nxt = self.nxt;
            let l = self.nl();
            let seq = match l.sb.next_retransmission() {
                Some(s) => {
                    l.sb.mark_retransmitted(nxt as i64);
                    win = l.tp.snd_cwnd;
                    s as u64
                }
                None => {
                    if self.nxt >= self.app_limit {
                        return;
                    }
                    self.nxt += 1;
                    nxt
                }
            };
            self.nl_output(seq, now, out, c);
            let flight = self.nl_in_flight();
            let l = self.nl();
            l.next_pkts = l.next_pkts.min((flight - 1).max(1));
            burst += 1;
            if self.max_burst > 0 && burst >= self.max_burst {
                break;
            }
        }
    }

    /// `TcpAgent::output(seqno)`: the segment leaves; a new one is timed if none is; the
    /// timer starts if it was not running or nothing was outstanding.
    fn nl_output(&mut self, seq: u64, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        let force = self.una >= self.maxseq;
        let running = self.rto_deadline.is_some();
        let new = seq >= self.maxseq;
        let highest_ack = self.una as i64 - 1;
        self.emit(seq, now, out, c);
        let l = self.nl();
        if let Some(t) = &mut l.tss {
            t.record(seq as i64, highest_ack, now.as_secs_f64());
        }
        if new && !l.rtt_active {
            l.rtt_active = true;
            if seq as i64 > l.rtt_seq {
                l.rtt_seq = seq as i64;
                l.rtt_ts = now.as_secs_f64();
            }
        }
        if !running || force {
            self.nl_set_timer(now);
        }
    }

    /// `LinuxTcpAgent::timeout(TCP_TIMER_RTX)` (`slow_start_restart_`, `restart_bugfix_`).
    #[inline(never)]
    pub(super) fn on_ns2_linux_timeout(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let idle = self.una >= self.maxseq;
        let (una, nxt) = (self.una as i64, self.nxt as i64);
        // LinuxTcpAgent::timeout leaves tcp_time_stamp where the last ACK set it (ns-2.35
        // shares it among all agents; here it is this agent's last ACK).
        let stamp = self.nl().stamp;
        let env = Env {
            jiffies: stamp.0,
            ktime: stamp.1,
            ..self.nl_env(now)
        };
        let maxseq = self.maxseq as i64 - 1;
        let l = self.nl();
        if idle && l.ns2.is_some() {
            l.slowdown(false, CwndTo::Init);
            self.cong_action_pending = true;
        } else if idle {
            // slowdown(CLOSE_CWND_INIT) on cwnd_ = save_from_linux's, then load_to_linux.
            let cwnd = l.window_init;
            l.load_cwnd(cwnd);
            l.tp.snd_ssthresh = l.tp.snd_ssthresh.max(2);
            // slowdown() sets cong_action_ too.
            self.cong_action_pending = true;
        } else {
            // enter_loss.
            if l.ns2.is_some() {
                l.slowdown(true, CwndTo::Restart);
            } else {
                l.tp.snd_ssthresh = l.module.ssthresh(&l.tp, &env);
                l.module.cwnd_event(&mut l.tp, CaEvent::Loss, &env);
                l.tp.snd_cwnd = 1;
                l.tp.snd_cwnd_cnt = 0;
                l.tp.bytes_acked = 0;
            }
            l.recover = maxseq;
            // tcp_set_ca_state(TCP_CA_Loss): the module's set_state first.
            l.module.set_state(State::Loss, &env);
            l.state = State::Loss;
            l.sb.mark_loss(una, nxt);
            l.rtt_backoff();
            c.timeouts += 1;
            self.cong_action_pending = true;
            self.in_recovery = false;
        }
        // reset_rtx_timer(TCP_REASON_TIMEOUT, backoff): "mild", t_seqno_ stays.
        self.nl_set_timer(now);
        let l = self.nl();
        l.rtt_active = false;
        l.next_pkts = 0;
        l.tp.bytes_acked = 0;
        self.nl_save();
        self.nl_send_much(now, out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(cwnd: i64, ssthresh: i64) -> Ns2Linux {
        let cfg = TcpParams {
            window: 1000,
            window_init: 2,
            ..crate::fixtures::ns2_tcp().params()
        };
        let mut l = Ns2Linux::new(0, 1, 3, &cfg);
        l.tp.snd_cwnd = cwnd;
        l.tp.snd_ssthresh = ssthresh;
        l
    }

    /// LinuxTcpAgent::rtt_update: the first sample sets srtt and rttvar = sample / 2; a
    /// smaller sample moves rttvar by an eighth of its excess only; the timeout is at least
    /// minrto_ and backs off by doubling.
    #[test]
    fn timer_as_ns2() {
        let mut l = agent(2, 10);
        l.boot = 0.0;
        l.rtt_update(1.0005, 0.0722);
        // 72 whole ticks crossed (0.9283 s to 1.0005 s): srtt 72 x 8, rttvar 36 x 4.
        assert_eq!((l.srtt, l.rttvar), (576, 144));
        assert!((l.rtxcur - 0.216).abs() < 1e-12);
        l.rtt_update(2.0005, 0.0402);
        // delta = 40 - 72 = -32: srtt 544; |delta| - rttvar/4 = -4, not positive: rttvar 140.
        assert_eq!((l.srtt, l.rttvar), (544, 140));
        assert!((l.rtt_timeout() - 0.208).abs() < 1e-12);
        l.rtt_backoff();
        assert!((l.rtt_timeout() - 0.416).abs() < 1e-12);
    }
}
