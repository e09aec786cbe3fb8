//! Congestion control written outside the engine: the Python binding's
//! `ackclock.CongestionControl` classes (docs/custom-algorithms.md), behind the same Linux
//! hooks (`struct tcp_congestion_ops`, include/net/tcp.h) as the built-in algorithms.
//!
//! The engine knows such an algorithm by a name with a colon (`"module:Class"`); a host (the
//! binding) installs, once, the [`Factory`] that makes one per flow. [`External`] is the
//! `AnyCc` variant that holds it: boxed and called out of line, so that the built-in
//! algorithms' dispatch stays as it was (one more arm per hook). It calls only the hooks the
//! class defines ([`Hooks`], found once when the algorithm is made) and checks what each hook
//! leaves: a window that is not a positive finite number of segments, a negative or NaN
//! pacing rate or threshold, stops the run with one line naming the hook and the value.
//!
//! A hook that fails (the host's code raised) returns `Err` with its message; the wrapper
//! records the failure (flow, message) for the simulator, which stops the run before its next
//! event (`Simulator::watch`, [`take_failure`]); the host keeps the exception itself.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::{AckEvent, AckSample, CaEvent, CaState, CcSetup, Conn, Window};
use crate::tcp::delivery_rate::RateSample;
use crate::time::SimTime;

/// Which optional hooks an external algorithm defines (Linux: which pointers of its
/// `tcp_congestion_ops` are set). `ssthresh` is always called; `cong_avoid` when defined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    pub cong_avoid: bool,
    pub pkts_acked: bool,
    pub set_state: bool,
    pub cwnd_event: bool,
    pub cong_control: bool,
    pub undo_cwnd: bool,
}

/// What a failed hook says (one line; the host keeps the full error).
pub type Failure = String;

/// One flow's algorithm, implemented by a host. Each hook receives the window as the
/// built-in algorithms do and may change it; `Err` stops the run.
pub trait ExternalCc: Send {
    /// The algorithm's name as errors and `flows.csv` give it (`module:Class`).
    fn name(&self) -> &str;
    /// The optional hooks it defines.
    fn hooks(&self) -> Hooks;
    fn ssthresh(&mut self, w: &Window, now: SimTime) -> Result<f64, Failure>;
    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent) -> Result<(), Failure>;
    fn pkts_acked(&mut self, w: &mut Window, sample: &AckSample) -> Result<(), Failure>;
    fn set_state(&mut self, w: &mut Window, state: CaState, conn: &Conn) -> Result<(), Failure>;
    fn cwnd_event(&mut self, w: &mut Window, event: CaEvent) -> Result<(), Failure>;
    fn cong_control(&mut self, w: &mut Window, rs: &RateSample, conn: &Conn)
        -> Result<(), Failure>;
    fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> Result<f64, Failure>;
    /// The state it declares for `cc_state.csv`: `out(name, value)` per variable.
    fn state(&self, out: &mut dyn FnMut(&str, f64));
    /// An independent copy (a new instance with the same state).
    fn box_clone(&self) -> Box<dyn ExternalCc>;
}

/// Makes the algorithm a `cc` name with a colon names, with its parameters, for one flow.
pub type Factory =
    fn(&str, &BTreeMap<String, f64>, &CcSetup) -> Result<Box<dyn ExternalCc>, String>;

static FACTORY: OnceLock<Factory> = OnceLock::new();

/// Installs the host's factory (the binding does, when its module loads).
pub fn install(factory: Factory) {
    let _ = FACTORY.set(factory);
}

thread_local! {
    /// The first failure since the last [`take_failure`]: (flow index, message).
    static FAILED: RefCell<Option<(u32, String)>> = const { RefCell::new(None) };
}

/// The failure a hook of this thread's simulation reported, if any (taken).
pub fn take_failure() -> Option<(u32, String)> {
    FAILED.with(|f| f.borrow_mut().take())
}

fn record(flow: u32, message: String) {
    FAILED.with(|f| {
        let mut f = f.borrow_mut();
        if f.is_none() {
            *f = Some((flow, message));
        }
    });
}

/// The `AnyCc` variant of an external algorithm: the host's object, the hooks it defines and
/// the flow it serves (for errors).
pub struct External {
    cc: Box<dyn ExternalCc>,
    hooks: Hooks,
    flow: u32,
    /// Set after a failure: no more calls into the host for this flow.
    failed: bool,
}

impl Clone for External {
    fn clone(&self) -> External {
        External {
            cc: self.cc.box_clone(),
            hooks: self.hooks,
            flow: self.flow,
            failed: self.failed,
        }
    }
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "External({})", self.cc.name())
    }
}

/// The window values a hook may leave, and what an error says of the others.
fn check(w: &Window, name: &str, hook: &str) -> Result<(), String> {
    let bad = |what: &str, v: f64, expected: &str| {
        Err(format!(
            "{name}.{hook} set {what} to {v}; expected {expected}"
        ))
    };
    if !(w.cwnd.is_finite() && w.cwnd > 0.0) {
        return bad("cwnd", w.cwnd, "a finite number of segments > 0");
    }
    if w.ssthresh.is_nan() || w.ssthresh <= 0.0 {
        return bad(
            "ssthresh",
            w.ssthresh,
            "a number of segments > 0 (or infinity)",
        );
    }
    if !(w.pacing_rate.is_finite() && w.pacing_rate >= 0.0) {
        return bad(
            "pacing_rate",
            w.pacing_rate,
            "a finite number of segments per second >= 0",
        );
    }
    Ok(())
}

/// An algorithm written in Python as a scenario names it (`cc = "module:Class"`) with its
/// `cc_params`, which its class checks when the front end makes it (`External::new`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalConfig {
    pub name: String,
    pub params: BTreeMap<String, f64>,
}

impl External {
    /// The algorithm `name` (a name with a colon) with parameters `given`, made by the
    /// installed factory.
    pub fn new(
        name: &str,
        given: &BTreeMap<String, f64>,
        setup: &CcSetup,
    ) -> Result<External, String> {
        let Some(factory) = FACTORY.get() else {
            return Err(format!(
                "cc: {name:?} names a Python class (module:Class); only the Python front end \
                 runs those"
            ));
        };
        let cc = factory(name, given, setup)?;
        Ok(External {
            hooks: cc.hooks(),
            cc,
            flow: u32::MAX,
            failed: false,
        })
    }

    /// The flow this algorithm serves (named in errors).
    pub fn set_flow(&mut self, flow: u32) {
        self.flow = flow;
    }

    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    pub fn name(&self) -> &str {
        self.cc.name()
    }

    /// Records a failure of `hook` (or of the window it left) and stops calling the host.
    #[cold]
    fn fail(&mut self, message: String) {
        self.failed = true;
        record(self.flow, message);
    }

    /// Runs `call` on a window the hook may change, then checks what it left; on a failure
    /// the window is left as it was.
    fn with_window(
        &mut self,
        w: &mut Window,
        hook: &str,
        call: impl FnOnce(&mut dyn ExternalCc, &mut Window) -> Result<(), Failure>,
    ) {
        if self.failed {
            return;
        }
        let mut next = *w;
        let outcome =
            call(self.cc.as_mut(), &mut next).and_then(|()| check(&next, self.cc.name(), hook));
        match outcome {
            Ok(()) => *w = next,
            Err(e) => self.fail(e),
        }
    }

    #[inline(never)]
    pub fn ssthresh(&mut self, w: &Window, now: SimTime) -> f64 {
        let fallback = w.cwnd.min(w.rwnd) / 2.0;
        if self.failed {
            return fallback;
        }
        match self.cc.ssthresh(w, now) {
            Ok(v) if v.is_finite() && v > 0.0 => v,
            Ok(v) => {
                let m = format!(
                    "{}.ssthresh returned {v}; expected a finite number of segments > 0",
                    self.cc.name()
                );
                self.fail(m);
                fallback
            }
            Err(e) => {
                self.fail(e);
                fallback
            }
        }
    }

    #[inline(never)]
    pub fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if self.hooks.cong_avoid {
            self.with_window(w, "cong_avoid", |c, w| c.cong_avoid(w, &ev));
        }
    }

    #[inline(never)]
    pub fn pkts_acked(&mut self, w: &mut Window, sample: &AckSample) {
        if self.hooks.pkts_acked {
            self.with_window(w, "pkts_acked", |c, w| c.pkts_acked(w, sample));
        }
    }

    #[inline(never)]
    pub fn set_state(&mut self, w: &mut Window, state: CaState, conn: &Conn) {
        if self.hooks.set_state {
            self.with_window(w, "set_state", |c, w| c.set_state(w, state, conn));
        }
    }

    #[inline(never)]
    pub fn cwnd_event(&mut self, w: &mut Window, event: CaEvent) {
        if self.hooks.cwnd_event {
            self.with_window(w, "cwnd_event", |c, w| c.cwnd_event(w, event));
        }
    }

    #[inline(never)]
    pub fn cong_control(&mut self, w: &mut Window, rs: &RateSample, conn: &Conn) {
        if self.hooks.cong_control {
            self.with_window(w, "cong_control", |c, w| c.cong_control(w, rs, conn));
        }
    }

    #[inline(never)]
    pub fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> f64 {
        let fallback = w.cwnd.max(prior_cwnd);
        if !self.hooks.undo_cwnd || self.failed {
            return fallback;
        }
        match self.cc.undo_cwnd(w, prior_cwnd) {
            Ok(v) if v.is_finite() && v > 0.0 => v,
            Ok(v) => {
                let m = format!(
                    "{}.undo_cwnd returned {v}; expected a finite number of segments > 0",
                    self.cc.name()
                );
                self.fail(m);
                fallback
            }
            Err(e) => {
                self.fail(e);
                fallback
            }
        }
    }

    /// The declared state, for `cc_state.csv`.
    pub fn state(&self, out: &mut dyn FnMut(&str, f64)) {
        if !self.failed {
            self.cc.state(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Reno in the external interface, with a switch to misbehave.
    #[derive(Clone)]
    struct Test {
        nonsense: bool,
    }

    impl ExternalCc for Test {
        fn name(&self) -> &str {
            "test:Reno"
        }
        fn hooks(&self) -> Hooks {
            Hooks {
                cong_avoid: true,
                ..Hooks::default()
            }
        }
        fn ssthresh(&mut self, w: &Window, _now: SimTime) -> Result<f64, Failure> {
            Ok(w.cwnd / 2.0)
        }
        fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent) -> Result<(), Failure> {
            if self.nonsense {
                w.cwnd = -1.0;
            } else {
                super::super::reno_increase(w, ev);
            }
            Ok(())
        }
        fn pkts_acked(&mut self, _: &mut Window, _: &AckSample) -> Result<(), Failure> {
            Err("pkts_acked is not defined".into())
        }
        fn set_state(&mut self, _: &mut Window, _: CaState, _: &Conn) -> Result<(), Failure> {
            Err("set_state is not defined".into())
        }
        fn cwnd_event(&mut self, _: &mut Window, _: CaEvent) -> Result<(), Failure> {
            Err("cwnd_event is not defined".into())
        }
        fn cong_control(
            &mut self,
            _: &mut Window,
            _: &RateSample,
            _: &Conn,
        ) -> Result<(), Failure> {
            Err("cong_control is not defined".into())
        }
        fn undo_cwnd(&mut self, _: &Window, _: f64) -> Result<f64, Failure> {
            Err("undo_cwnd is not defined".into())
        }
        fn state(&self, out: &mut dyn FnMut(&str, f64)) {
            out("x", 1.0);
        }
        fn box_clone(&self) -> Box<dyn ExternalCc> {
            Box::new(self.clone())
        }
    }

    fn external(nonsense: bool) -> External {
        let cc: Box<dyn ExternalCc> = Box::new(Test { nonsense });
        External {
            hooks: cc.hooks(),
            cc,
            flow: 3,
            failed: false,
        }
    }

    #[test]
    fn only_the_defined_hooks_are_called() {
        let mut e = external(false);
        let mut w = Window::new(10.0, 5.0, 100.0);
        e.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(w.cwnd, 10.1);
        // Not defined: not called (the test's versions would fail).
        e.pkts_acked(
            &mut w,
            &AckSample {
                now: SimTime::ZERO,
                acked: 1,
                rtt: None,
                owd: None,
                echo: None,
                min_rtt: None,
            },
        );
        e.cwnd_event(&mut w, CaEvent::TxStart);
        assert_eq!(e.undo_cwnd(&w, 20.0), 20.0);
        assert!(take_failure().is_none());
        assert_eq!(e.ssthresh(&w, SimTime::ZERO), 5.05);
    }

    #[test]
    fn a_nonsense_window_is_one_failure_and_the_window_is_kept() {
        let mut e = external(true);
        let mut w = Window::new(10.0, 5.0, 100.0);
        e.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(w.cwnd, 10.0);
        let (flow, message) = take_failure().expect("a failure");
        assert_eq!(flow, 3);
        assert_eq!(
            message,
            "test:Reno.cong_avoid set cwnd to -1; expected a finite number of segments > 0"
        );
        // No more calls after a failure.
        e.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert!(take_failure().is_none());
    }

    #[test]
    fn without_a_host_a_colon_name_is_an_error() {
        if FACTORY.get().is_none() {
            let err = External::new("m:C", &BTreeMap::new(), &CcSetup::default()).unwrap_err();
            assert!(err.contains("names a Python class"), "{err}");
        }
    }
}
