//! Queue disciplines written outside the engine: the Python binding's
//! `ackclock.QueueDiscipline` classes (docs/custom-algorithms.md), deciding at enqueue as the
//! built-in enqueue-time disciplines do ([`super::QueueDiscipline::admit`]: admit, mark or
//! drop; Linux: a qdisc's `enqueue`, ns-2: `Queue::enque`).
//!
//! A scenario names one by `queue.custom = "module:Class"`; a host (the binding) installs,
//! once, the [`Factory`] that makes one per link. [`External`] is the `AnyQueue` variant
//! that holds it, boxed and called out of line, so that the built-in disciplines' dispatch
//! stays as it was (one more arm). A verdict that is not one stops the run with one line; a
//! hook that fails (the host's code raised) returns `Err` with its message. Either is
//! recorded for the simulator, which stops the run before its next event, naming the link and
//! the simulated time (`Simulator::watch`, [`take_failure`]), through the same channel as a
//! congestion control written in Python (`tcp::cc::external`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::{AqmState, Arrival, QueueSetup, Verdict};

/// What a failed hook says (one line; the host keeps the full error).
pub type Failure = String;

/// One link's discipline, implemented by a host.
pub trait ExternalQueue: Send {
    /// The discipline's name as errors give it.
    fn name(&self) -> &str;
    /// The decision on an arriving packet; `Err` stops the run.
    fn admit(&mut self, a: &Arrival) -> Result<Verdict, Failure>;
    /// State for the queue time series (what the class exposes as `avg`, `prob`).
    fn state(&self) -> AqmState;
    /// An independent copy (a new instance with the same state).
    fn box_clone(&self) -> Box<dyn ExternalQueue>;
}

/// Makes the discipline `queue.custom` names, with its parameters, for one link.
pub type Factory =
    fn(&str, &BTreeMap<String, f64>, &QueueSetup) -> Result<Box<dyn ExternalQueue>, String>;

static FACTORY: OnceLock<Factory> = OnceLock::new();

/// Installs the host's factory (the binding does, when its module loads).
pub fn install(factory: Factory) {
    let _ = FACTORY.set(factory);
}

thread_local! {
    /// The first failure since the last [`take_failure`]: (link index, message).
    static FAILED: RefCell<Option<(u32, String)>> = const { RefCell::new(None) };
}

/// The failure a discipline of this thread's simulation reported, if any (taken).
pub fn take_failure() -> Option<(u32, String)> {
    FAILED.with(|f| f.borrow_mut().take())
}

fn record(link: u32, message: String) {
    FAILED.with(|f| {
        let mut f = f.borrow_mut();
        if f.is_none() {
            *f = Some((link, message));
        }
    });
}

/// The `AnyQueue` variant of an external discipline: the host's object and the link it
/// serves (for errors).
pub struct External {
    q: Box<dyn ExternalQueue>,
    link: u32,
    /// Set after a failure: no more calls into the host for this link.
    failed: bool,
}

impl Clone for External {
    fn clone(&self) -> External {
        External {
            q: self.q.box_clone(),
            link: self.link,
            failed: self.failed,
        }
    }
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "External({})", self.q.name())
    }
}

impl External {
    /// The discipline `name` (`module:Class`) with parameters `given`, made by the installed
    /// factory.
    pub fn new(
        name: &str,
        given: &BTreeMap<String, f64>,
        setup: &QueueSetup,
    ) -> Result<External, String> {
        let Some(factory) = FACTORY.get() else {
            return Err(format!(
                "queue.custom: {name:?} names a Python class (module:Class); only the Python \
                 front end runs those"
            ));
        };
        Ok(External {
            q: factory(name, given, setup)?,
            link: u32::MAX,
            failed: false,
        })
    }

    /// The link it serves (named in errors).
    pub fn set_link(&mut self, link: u32) {
        self.link = link;
    }

    pub fn name(&self) -> &str {
        self.q.name()
    }

    /// The host's verdict; after a failure (recorded, the run stops before its next event)
    /// every packet is admitted.
    #[inline(never)]
    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        if self.failed {
            return Verdict::Admit;
        }
        match self.q.admit(a) {
            Ok(v) => v,
            Err(e) => {
                self.failed = true;
                record(self.link, e);
                Verdict::Admit
            }
        }
    }

    pub fn state(&self) -> AqmState {
        self.q.state()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::Backlog;
    use crate::time::SimTime;

    #[derive(Clone)]
    struct Every(u32);

    impl ExternalQueue for Every {
        fn name(&self) -> &str {
            "test:Every"
        }
        fn admit(&mut self, a: &Arrival) -> Result<Verdict, Failure> {
            if a.size == 0 {
                return Err("test:Every.admit raised ValueError".into());
            }
            self.0 += 1;
            Ok(if self.0.is_multiple_of(2) {
                Verdict::Drop
            } else {
                Verdict::Admit
            })
        }
        fn state(&self) -> AqmState {
            AqmState::NONE
        }
        fn box_clone(&self) -> Box<dyn ExternalQueue> {
            Box::new(self.clone())
        }
    }

    fn arrival(size: u32) -> Arrival {
        Arrival {
            now: SimTime(5),
            backlog: Backlog::default(),
            size,
            ect: false,
            idle_since: None,
            busy_until: SimTime(0),
        }
    }

    /// Verdicts pass through; a failure is recorded once, with the link, and the host is not
    /// called again.
    #[test]
    fn verdicts_and_failures() {
        let mut q = External {
            q: Box::new(Every(0)),
            link: 3,
            failed: false,
        };
        assert!(take_failure().is_none());
        assert_eq!(q.admit(&arrival(100)), Verdict::Admit);
        assert_eq!(q.admit(&arrival(100)), Verdict::Drop);
        let copy = q.clone();
        assert_eq!(q.admit(&arrival(0)), Verdict::Admit);
        assert_eq!(
            take_failure(),
            Some((3, "test:Every.admit raised ValueError".to_string()))
        );
        assert_eq!(q.admit(&arrival(100)), Verdict::Admit);
        assert!(take_failure().is_none());
        let mut copy = copy;
        assert_eq!(copy.admit(&arrival(100)), Verdict::Admit);
    }
}
