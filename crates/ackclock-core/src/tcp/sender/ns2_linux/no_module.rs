//! ns-2.35's `LinuxTcpAgent` with no module installed: an `Agent/TCP/Linux` the script never
//! gave `select_ca` (tcp/tcp-linux.cc: the constructor leaves `linux_.icsk_ca_ops` NULL and
//! only `install_congestion_control` sets it). Every place `LinuxTcpAgent` would call the
//! module it then falls back to ns-2's own window, `TcpAgent`'s double `cwnd_` and int
//! `ssthresh_`, followed by `load_to_linux`, which copies them into Linux's `snd_cwnd` and
//! `snd_ssthresh`:
//!
//! - `tcp_cong_avoid` runs `TcpAgent::opencwnd` (one segment per ACK below `ssthresh_`, else
//!   `increase_num_ / cwnd_`, `windowOption_` 1; `maxcwnd_` caps it), then `load_to_linux`.
//! - A new loss in `tcp_fastretrans_alert` runs `TcpAgent::slowdown(CLOSE_SSTHRESH_HALF |
//!   CLOSE_CWND_HALF)`, a timeout's `enter_loss` `slowdown(CLOSE_SSTHRESH_HALF |
//!   CLOSE_CWND_RESTART)` and an idle timeout `slowdown(CLOSE_CWND_INIT)`, each then
//!   `load_to_linux`. `slowdown` reads `window()` and `windowd()`, which `LinuxTcpAgent`
//!   overrides with `snd_cwnd`; with `decrease_num_` 0.5 its `halfwin` and `decreasewin`
//!   agree, exact with `precision_reduce_` (the default), else whole segments.
//! - Leaving Recovery or Loss `load_to_linux` runs before cwnd is raised to ssthresh.
//! - `recv` never calls `save_from_linux`, so `cwnd_` keeps its fraction between ACKs; only
//!   a timeout's ends with it (`cwnd_` = max(`next_pkts_in_flight_`, `snd_cwnd`)).
//! - `tcp_tick_` stays the agent's `tcpTick_` (only `install_congestion_control` sets one
//!   jiffy), so the timer's samples and timeout are in those ticks.
//!
//! `windowOption_`, `increase_num_`, `decrease_num_` and `max_ssthresh_` other than their
//! defaults are refused by the front end.

/// ns-2's `cwnd_` and `ssthresh_` under a `LinuxTcpAgent` without a module.
#[derive(Clone, Debug)]
pub(super) struct Ns2Window {
    pub(super) cwnd: f64,
    pub(super) ssthresh: i64,
    precision_reduce: bool,
    /// `wnd_init_` (`windowInit_`), `maxcwnd_` (0: none).
    wnd_init: f64,
    max_cwnd: u32,
}

/// What `slowdown` sets `cwnd_` to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CwndTo {
    /// CLOSE_CWND_HALF: `halfwin`.
    Half,
    /// CLOSE_CWND_RESTART: `int(wnd_restart_)`, 1.
    Restart,
    /// CLOSE_CWND_INIT: `int(wnd_init_)`.
    Init,
}

impl Ns2Window {
    /// `TcpAgent::reset`: `cwnd_` the initial window, `ssthresh_` = `window_`.
    pub(super) fn new(wnd_init: f64, window: i64, precision_reduce: bool, max_cwnd: u32) -> Self {
        Ns2Window {
            cwnd: wnd_init,
            ssthresh: window,
            precision_reduce,
            wnd_init,
            max_cwnd,
        }
    }

    /// `TcpAgent::opencwnd` with `windowOption_` 1 and `increase_num_` 1.
    pub(super) fn opencwnd(&mut self) {
        if self.cwnd < self.ssthresh as f64 {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
        if self.max_cwnd > 0 && (self.cwnd as i64) > i64::from(self.max_cwnd) {
            self.cwnd = f64::from(self.max_cwnd);
        }
    }

    /// `TcpAgent::slowdown` with `decrease_num_` 0.5, `window()` = `windowd()` = `snd_cwnd`.
    pub(super) fn slowdown(&mut self, snd_cwnd: i64, halve_ssthresh: bool, to: CwndTo) {
        let half = if self.precision_reduce {
            snd_cwnd as f64 / 2.0
        } else {
            (snd_cwnd / 2) as f64
        };
        if halve_ssthresh {
            self.ssthresh = half as i64;
        }
        self.cwnd = match to {
            CwndTo::Half => half,
            CwndTo::Restart => 1.0,
            CwndTo::Init => self.wnd_init.trunc(),
        };
        self.ssthresh = self.ssthresh.max(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencwnd_is_one_per_ack_below_ssthresh_then_one_over_cwnd() {
        let mut w = Ns2Window::new(2.0, 4, true, 0);
        w.opencwnd();
        w.opencwnd();
        assert_eq!(w.cwnd, 4.0);
        w.opencwnd();
        assert_eq!(w.cwnd, 4.25);
        // maxcwnd_ caps the window once its whole part is above it.
        let mut w = Ns2Window::new(5.0, 4, true, 5);
        w.opencwnd();
        assert_eq!(w.cwnd, 5.2);
        let mut w = Ns2Window::new(6.0, 4, true, 5);
        w.opencwnd();
        assert_eq!(w.cwnd, 5.0);
    }

    #[test]
    fn slowdown_halves_snd_cwnd_exactly_or_in_whole_segments() {
        let mut w = Ns2Window::new(2.0, 20, true, 0);
        w.cwnd = 11.7;
        w.slowdown(11, true, CwndTo::Half);
        assert_eq!((w.cwnd, w.ssthresh), (5.5, 5));
        let mut w = Ns2Window::new(2.0, 20, false, 0);
        w.slowdown(11, true, CwndTo::Half);
        assert_eq!((w.cwnd, w.ssthresh), (5.0, 5));
        // A timeout: cwnd_ 1, ssthresh_ at least 2.
        w.slowdown(3, true, CwndTo::Restart);
        assert_eq!((w.cwnd, w.ssthresh), (1.0, 2));
        // Idle: the initial window, ssthresh_ kept.
        w.ssthresh = 7;
        w.slowdown(3, false, CwndTo::Init);
        assert_eq!((w.cwnd, w.ssthresh), (2.0, 7));
    }
}
