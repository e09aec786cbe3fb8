//! Quick-Start (RFC 4782) at the sender, as ns-2.35's one-way `Agent/TCP` does it
//! (`TcpAgent::output`, `processQuickStart`, `endQuickStart`, `lossQuickStart`, `send_much`;
//! the routers are `net/quick_start.rs`, the receiver's echo `tcp/sink.rs`):
//!
//! - **Request** (`TcpAgent::output` for segment 0, each time it is sent; RFC 4782 section
//!   4.1): the rate asked is `quick_start` KB/s; with `quick_start_rtt` (ns-2's
//!   `qs_request_mode_ 1`) at most the data waiting (segments not yet sent times the segment's
//!   wire size, in whole KB) per that RTT, and nothing with fewer than `quick_start_thresh`
//!   segments waiting. A request takes one draw of ns-2's default generator (the QS TTL's
//!   random start, `Random::integer(256)`).
//! - **Answer** (`processQuickStart`, on the first ACK after the request, whatever it is;
//!   section 4.3): a report of an intact request with a rate gives a window of rate x RTT
//!   (now less the echoed send time) / segment, whole segments; used if larger than the
//!   initial window: the ACK of segment 0 then sets cwnd to it (`initial_window`, with
//!   `delay_growth_`), and new segments leave one at a time, RTT (`t_rtt_` ticks) / window
//!   apart (the delayed-send timer; Sack1 divides by cwnd_). Segments sent so are marked
//!   ([`crate::packet::ecn::QS_WINDOW`], ns-2's `hdr_flags::qs_`).
//! - **End** (`endQuickStart`, at the next new ACK; section 4.6.1): the pacing stops, cwnd
//!   falls to what was sent beyond the ACK if that is smaller (not below the initial
//!   window), and the segments sent up to now form the Quick-Start window until all are
//!   acknowledged.
//! - **Loss** in that window (`lossQuickStart` with `tcp_qs_recovery_`, section 4.6.2): the
//!   fast retransmit's window cut is replaced by slow start from the initial window, and the
//!   first unacknowledged segment is sent again.
//! - A timeout ends the approved phase (`TcpAgent::timeout`: `qs_approved_ = 0`).

use super::*;
use crate::net::quick_start::{QsOption, RateFunction};
use crate::rng::Uniform;
use crate::tcp::params::QuickStartParams;

/// A sender's Quick-Start state.
#[derive(Clone, Debug)]
pub(super) struct QuickStart {
    p: QuickStartParams,
    /// How the option writes rates (the routers' `rate_function_`).
    pub(super) rates: RateFunction,
    rng: Uniform,
    /// `qs_requested_`: a request left, the next ACK answers it.
    requested: bool,
    /// `qs_approved_`: sending at the approved rate.
    pub(super) approved: bool,
    /// `qs_cwnd_`: the approved window; 0: none.
    cwnd: u32,
    /// `qs_window_` as ns-2 numbers segments (the highest sent when the phase ended); 0: none.
    window: u64,
    /// The delayed-send timer paces the approved window: its delay (seconds), while it runs.
    pub(super) pending: Option<f64>,
    /// What ns-2's `print_request_` prints, kept for the front end (`take_quick_start_log`).
    log: Vec<QsLog>,
}

/// A request or an approval, with what ns-2.35's `print_request_` prints of it
/// (`TcpAgent::output`: the rate asked, KB/s; `processQuickStart`: the rate approved in bytes
/// per second and encoded, the window, the RTT, the segment's size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QsLog {
    Request {
        at: SimTime,
        kbytes: i64,
    },
    Approved {
        at: SimTime,
        bytes_per_sec: f64,
        encoded: u32,
        window: i64,
        rtt: f64,
        segment: u32,
    },
}

impl QuickStart {
    pub(super) fn new(p: QuickStartParams) -> QuickStart {
        QuickStart {
            p,
            rates: RateFunction::default(),
            rng: Uniform::Own(crate::rng::RandomStream::named(0, "tcp.quick_start")),
            requested: false,
            approved: false,
            cwnd: 0,
            window: 0,
            pending: None,
            log: Vec::new(),
        }
    }
}

impl TcpSender {
    /// The routers' rate encoding (`scenario.quick_start.rate_function`), and where the
    /// request's random draw comes from; no effect without Quick-Start.
    pub fn use_quick_start(&mut self, rates: RateFunction, rng: Option<Uniform>) {
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.rates = rates;
            if let Some(r) = rng {
                q.rng = r;
            }
        }
    }

    /// The requests and approvals since the last call (`QsLog`).
    pub fn take_quick_start_log(&mut self) -> Vec<QsLog> {
        self.quick_start
            .as_deref_mut()
            .map(|q| std::mem::take(&mut q.log))
            .unwrap_or_default()
    }

    /// The initial window: the approved one while there is one (`TcpAgent::initial_window`).
    pub(super) fn qs_initial_window(&self) -> f64 {
        match self.quick_start.as_deref() {
            Some(q) if q.cwnd > 0 => q.cwnd as f64,
            _ => self.window_init,
        }
    }

    /// The approved window, while there is one (`qs_cwnd_`).
    pub(super) fn qs_approved_window(&self) -> Option<f64> {
        self.quick_start
            .as_deref()
            .filter(|q| q.cwnd > 0)
            .map(|q| q.cwnd as f64)
    }

    /// `TcpAgent::output` for segment 0: the request the segment carries, if one is made.
    #[cold]
    pub(super) fn qs_request(&mut self, now: SimTime) -> Option<QsOption> {
        let wire = self.wire_size as i64;
        // ns-2's curseq_ for an unbounded application: TCP_MAXSEQ.
        let curseq = self.app_limit.min(1 << 30) as i64;
        let unsent = curseq - self.maxseq as i64;
        let q = self.quick_start.as_deref_mut()?;
        let mut rr = q.p.rate_kbytes as i64;
        if q.p.rtt_ms > 0 {
            // dataout: KB queued for sending, `(curseq_ - maxseq_ - 1) * (size_ +
            // headersize()) / 1024`.
            let dataout = unsent * wire / 1024;
            let by_data = dataout * 1000 / q.p.rtt_ms as i64;
            if by_data < rr {
                rr = by_data;
            }
            if unsent < q.p.thresh as i64 {
                rr = 0;
            }
        }
        if rr <= 0 {
            return None;
        }
        q.rng.next_f64(); // Random::integer(256): the QS TTL's start
        q.requested = true;
        q.log.push(QsLog::Request {
            at: now,
            kbytes: rr,
        });
        Some(QsOption {
            rate: q.rates.encode(rr as f64 * 1024.0),
            intact: true,
        })
    }

    /// The start of `TcpAgent::recv` (and its Reno, NewReno, Sack1 versions) for an ACK of
    /// `ack` carrying `report` (`endQuickStart`, `processQuickStart`).
    #[cold]
    pub(super) fn qs_on_ack(&mut self, now: SimTime, pkt: &Packet) {
        let ack = pkt.ack;
        let Some(q) = self.quick_start.as_deref() else {
            return;
        };
        if q.approved && ack > self.una {
            self.qs_end();
        }
        if !self.quick_start.as_deref().is_some_and(|q| q.requested) {
            return;
        }
        let wire = self.wire_size as f64;
        let window_init = self.window_init;
        let q = self.quick_start.as_deref_mut().expect("checked");
        q.requested = false;
        q.approved = false;
        let Some(report) = pkt.quick_start() else {
            return;
        };
        if !report.intact || report.rate == 0 {
            return;
        }
        let rtt = crate::sched::ns2_seconds(now) - crate::sched::ns2_seconds(pkt.ts_echo);
        let bytes_per_sec = q.rates.to_bytes_per_sec(report.rate);
        let window = (bytes_per_sec * rtt / wire) as i64;
        q.log.push(QsLog::Approved {
            at: now,
            bytes_per_sec,
            encoded: report.rate,
            window,
            rtt,
            segment: wire as u32,
        });
        if window as f64 > window_init {
            q.cwnd = window as u32;
            q.approved = true;
        }
    }

    /// `TcpAgent::endQuickStart`.
    fn qs_end(&mut self) {
        let maxseq2 = self.maxseq as i64 - 1; // ns-2's maxseq_
        let last_ack2 = self.una as i64 - 1;
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.approved = false;
            q.cwnd = 0;
            q.window = maxseq2.max(0) as u64;
        }
        let new_cwnd = maxseq2 - last_ack2;
        if new_cwnd > 1 && (new_cwnd as f64) < self.w.cwnd {
            self.w.cwnd = new_cwnd as f64;
            if self.w.cwnd < self.window_init {
                self.w.cwnd = self.window_init;
            }
        }
    }

    /// `recv_newack_helper`: the Quick-Start window is over once all of it is acknowledged.
    pub(super) fn qs_on_newack(&mut self) {
        let highest_ack = self.una as i64 - 1;
        if let Some(q) = self.quick_start.as_deref_mut() {
            if q.window != 0 && highest_ack >= q.window as i64 {
                q.window = 0;
            }
        }
    }

    /// `TcpAgent::lossQuickStart`, where a fast retransmit begins: with `quick_start_recovery`
    /// and a loss in the Quick-Start window, cwnd goes back to `windowInit_`
    /// (`slowdown(CLOSE_CWND_INIT)`) and the first unacknowledged segment is sent again;
    /// true if so (the caller then skips its own window cut and retransmission).
    pub(super) fn qs_loss(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> bool {
        if !self.qs_loss_applies() {
            return false;
        }
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.window = 0;
        }
        // slowdown(CLOSE_CWND_INIT): cwnd_ = wnd_init_, ssthresh_ at least 2.
        let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
        let init = self.window_init;
        self.slowdown_event(before, ssthresh, init);
        self.w.cwnd = init;
        if self.w.ssthresh < 2.0 {
            self.w.ssthresh = 2.0;
        }
        self.first_decrease = false;
        self.cong_action_pending = true;
        self.emit(self.una, now, out, c);
        true
    }

    /// The third duplicate ACK of a Tahoe or NewReno agent with a loss in the Quick-Start
    /// window (`TcpAgent::dupack_action`'s `tahoe_action`, `NewRenoTcpAgent::dupack_action`'s
    /// `reno_action`): `recover_ = maxseq_` and the timer restarted (Tahoe going back N), then
    /// `lossQuickStart` in place of the window cut; no fast recovery follows
    /// (`last_cwnd_action_` is not a duplicate ACK's), and NewReno's `recv` sends at most two
    /// segments more (`send_much(0, 0, 2)`).
    pub(super) fn qs_loss_dupack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.recover = Some(self.maxseq);
        self.timed = None;
        self.qs_loss(now, out, c);
        self.arm_timer(now);
        if self.recovery == Recovery::Tahoe {
            // reset_rtx_timer(0, 0) after lossQuickStart's output: t_seqno_ = highest_ack_ + 1,
            // so send_much sends that segment once more.
            self.nxt = self.una;
            self.send_much(now, out, c);
        } else {
            let burst = std::mem::replace(&mut self.max_burst, 2);
            self.send_much(now, out, c);
            self.max_burst = burst;
        }
    }

    /// Whether [`TcpSender::qs_loss`] would act (a Quick-Start window, `quick_start_recovery`).
    pub(super) fn qs_loss_applies(&self) -> bool {
        self.quick_start
            .as_deref()
            .is_some_and(|q| q.window != 0 && q.p.recovery)
    }

    /// A timeout ends the approved phase (`TcpAgent::timeout`).
    pub(super) fn qs_on_timeout(&mut self) {
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.approved = false;
        }
    }

    /// `send_much`'s test while the delayed-send timer paces the approved window: true if
    /// the caller must send nothing now.
    pub(super) fn qs_holds(&self) -> bool {
        self.quick_start
            .as_deref()
            .is_some_and(|q| q.pending.is_some())
    }

    /// After `send_much` sent a segment with the approved rate in use: the delayed-send timer
    /// is set `t_rtt_ * tcp_tick_ / win` on (Sack1: `/ cwnd_`) and the sending stops.
    /// Returns whether it did.
    pub(super) fn qs_pace(&mut self, now: SimTime, win: u64) -> bool {
        if !self.quick_start.as_deref().is_some_and(|q| q.approved) {
            return false;
        }
        let rtt = self.rtt.ns2_t_rtt_secs();
        let div = if self.recovery == Recovery::Sack {
            self.w.cwnd
        } else {
            win as f64
        };
        let delay = rtt / div;
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.pending = Some(delay);
        }
        self.pace_deadline = Some(now + SimDuration::from_secs_f64(delay));
        true
    }

    /// The delayed-send timer's expiry (`TcpAgent::timeout_nonrtx`: `send_much(1, ...)`, as
    /// with `overhead_`: Sack1's with a hole in its scoreboard sends nothing outside recovery).
    pub(super) fn qs_on_delsnd(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if let Some(q) = self.quick_start.as_deref_mut() {
            q.pending = None;
        }
        self.on_delsnd(now, out, c);
    }
}
