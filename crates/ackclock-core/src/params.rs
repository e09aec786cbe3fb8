//! Named numeric parameters of the registered models (congestion controls in `tcp::cc`,
//! queue disciplines in `queue`): each model declares its parameters once, with default, range,
//! unit and the names ns-2 and ns-3 give them; the engine checks a scenario's values against
//! that declaration and the Python front end reads it through the binding
//! (`ackclock._core.cc_registry()`, `ackclock._core.queue_registry()`) to check, alias and
//! document them.

use std::collections::BTreeMap;

/// The values a parameter may take, with the words an error uses for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// lo < x < hi.
    Between(f64, f64),
    /// x > 0.
    Positive,
    /// x >= 0.
    NonNegative,
    /// A number of segments, x >= 1.
    Segments,
    /// 0 or 1 (a switch: the front end takes true or false).
    Flag,
    /// 0 < x <= 1.
    Fraction,
    /// A whole number from lo to hi, both included.
    Whole(u32, u32),
    /// A whole number >= 1.
    Count,
    /// An EWMA weight in (0, 1], or 0, -1, -2 for ns-2's automatic RED weights.
    Weight,
}

/// The bounds of a [`Range`], for the front end: (min, min included, max, max included,
/// whole numbers only); None where unbounded.
pub type Bounds = (Option<f64>, bool, Option<f64>, bool, bool);

impl Range {
    pub fn contains(self, x: f64) -> bool {
        match self {
            Range::Between(lo, hi) => lo < x && x < hi,
            Range::Positive => x > 0.0,
            Range::NonNegative => x >= 0.0,
            Range::Segments => x >= 1.0,
            Range::Flag => x == 0.0 || x == 1.0,
            Range::Fraction => 0.0 < x && x <= 1.0,
            Range::Whole(lo, hi) => x.fract() == 0.0 && lo as f64 <= x && x <= hi as f64,
            Range::Count => x.fract() == 0.0 && x >= 1.0 && x <= u32::MAX as f64,
            Range::Weight => (x > 0.0 && x <= 1.0) || x == 0.0 || x == -1.0 || x == -2.0,
        }
    }

    /// What an error says was expected.
    pub fn expected(self) -> String {
        match self {
            Range::Between(lo, hi) => format!("a number between {lo} and {hi} (exclusive)"),
            Range::Positive => "a positive number".into(),
            Range::NonNegative => "a number >= 0".into(),
            Range::Segments => "a number of segments >= 1".into(),
            Range::Flag => "0 or 1".into(),
            Range::Fraction => "a number in (0, 1]".into(),
            Range::Whole(lo, hi) => format!("a whole number from {lo} to {hi}"),
            Range::Count => "a positive whole number".into(),
            Range::Weight => "a weight in (0, 1], or 0, -1, -2 for ns-2's automatic values".into(),
        }
    }

    pub fn bounds(self) -> Bounds {
        match self {
            Range::Between(lo, hi) => (Some(lo), false, Some(hi), false, false),
            Range::Positive => (Some(0.0), false, None, false, false),
            Range::NonNegative => (Some(0.0), true, None, false, false),
            Range::Segments => (Some(1.0), true, None, false, false),
            Range::Flag => (Some(0.0), true, Some(1.0), true, true),
            Range::Fraction => (Some(0.0), false, Some(1.0), true, false),
            Range::Whole(lo, hi) => (Some(lo as f64), true, Some(hi as f64), true, true),
            Range::Count => (Some(1.0), true, Some(u32::MAX as f64), true, true),
            // The automatic values lie below: the front end checks `expected`'s set.
            Range::Weight => (Some(-2.0), true, Some(1.0), true, false),
        }
    }

    /// Its name, for the front end.
    pub fn name(self) -> &'static str {
        match self {
            Range::Between(..) => "between",
            Range::Positive => "positive",
            Range::NonNegative => "nonnegative",
            Range::Segments => "segments",
            Range::Flag => "flag",
            Range::Fraction => "fraction",
            Range::Whole(..) => "whole",
            Range::Count => "count",
            Range::Weight => "weight",
        }
    }
}

/// What a parameter's number means, for the front end's parsing and documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unit {
    /// A plain number (or a switch, with [`Range::Flag`]).
    #[default]
    Number,
    /// A time: picoseconds in the engine's document (the front end takes "5ms").
    Time,
    /// Bytes.
    Bytes,
    /// Packets.
    Packets,
}

impl Unit {
    /// The name the binding gives the front end.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Number => "number",
            Unit::Time => "time",
            Unit::Bytes => "bytes",
            Unit::Packets => "packets",
        }
    }
}

/// One parameter of a model: its name in the scenario, default, range, unit, and the names
/// ns-2 (`Agent/TCP/...`, `Queue/RED` variables) and ns-3 (`TypeId` attributes, times in
/// seconds) give the same quantity.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub default: f64,
    pub range: Range,
    pub unit: Unit,
    pub ns2: Option<&'static str>,
    pub ns3: Option<&'static str>,
    /// Other names the front end accepts for the same value (ns-2's Tcl spellings without
    /// the trailing underscore, RFC names).
    pub aliases: &'static [&'static str],
    /// Names that give the parameter's reciprocal (ns-2's `linterm_` = 1 / max_p).
    pub inverse_aliases: &'static [&'static str],
    /// Defaults that differ under a profile: (profile, default).
    pub profile_defaults: &'static [(&'static str, f64)],
    pub doc: &'static str,
}

impl Param {
    pub const fn new(name: &'static str, default: f64, range: Range, doc: &'static str) -> Param {
        Param {
            name,
            default,
            range,
            unit: Unit::Number,
            ns2: None,
            ns3: None,
            aliases: &[],
            inverse_aliases: &[],
            profile_defaults: &[],
            doc,
        }
    }

    pub const fn ns2(self, alias: &'static str) -> Param {
        Param {
            ns2: Some(alias),
            ..self
        }
    }

    pub const fn ns3(self, alias: &'static str) -> Param {
        Param {
            ns3: Some(alias),
            ..self
        }
    }

    pub const fn unit(self, unit: Unit) -> Param {
        Param { unit, ..self }
    }

    pub const fn aliases(self, aliases: &'static [&'static str]) -> Param {
        Param { aliases, ..self }
    }

    pub const fn inverse_aliases(self, inverse_aliases: &'static [&'static str]) -> Param {
        Param {
            inverse_aliases,
            ..self
        }
    }

    pub const fn profile_defaults(self, profile_defaults: &'static [(&'static str, f64)]) -> Param {
        Param {
            profile_defaults,
            ..self
        }
    }
}

/// A registered model's name and parameters ([`crate::tcp::cc::CcInfo`],
/// [`crate::queue::QdiscInfo`]).
pub trait Described: 'static {
    /// The name the scenario selects it by.
    fn name(&self) -> &'static str;
    fn params(&self) -> &'static [Param];
    /// The scenario key its parameters sit under, for errors (`cc_params`, `queue`).
    fn key(&self) -> &'static str;
}

/// The parameters one model is built with: the given values, checked against its
/// declaration, and the defaults for the rest.
pub struct Params<'a> {
    name: &'static str,
    params: &'static [Param],
    given: &'a BTreeMap<String, f64>,
    /// Missing parameters take this profile's `profile_defaults` where given.
    profile: Option<&'static str>,
}

impl<'a> Params<'a> {
    /// The given values for `info`'s model; an error names the first unknown or
    /// out-of-range one.
    pub fn new<D: Described>(
        info: &'static D,
        given: &'a BTreeMap<String, f64>,
    ) -> Result<Params<'a>, String> {
        let (name, params, key) = (info.name(), info.params(), info.key());
        for (k, &v) in given {
            let Some(p) = params.iter().find(|p| p.name == k) else {
                let known = if params.is_empty() {
                    "it has none".to_string()
                } else {
                    let names: Vec<&str> = params.iter().map(|p| p.name).collect();
                    format!("expected {}", names.join(", "))
                };
                return Err(format!("{key}.{k}: not a parameter of {name}; {known}"));
            };
            if !p.range.contains(v) {
                return Err(format!(
                    "{key}.{k}: expected {}, got {v}",
                    p.range.expected()
                ));
            }
        }
        Ok(Params {
            name,
            params,
            given,
            profile: None,
        })
    }

    /// Missing parameters take `profile`'s defaults (`Param::profile_defaults`) where given
    /// (congestion control under the TCP parameter `ns3_cc_defaults`).
    pub fn profile(self, profile: Option<&'static str>) -> Params<'a> {
        Params { profile, ..self }
    }

    /// The defaults of `info`'s model.
    pub fn defaults<D: Described>(info: &'static D) -> Params<'static> {
        static EMPTY: BTreeMap<String, f64> = BTreeMap::new();
        Params {
            name: info.name(),
            params: info.params(),
            given: &EMPTY,
            profile: None,
        }
    }

    /// Parameter `name`, given or its default. `name` must be in the model's declaration.
    pub fn get(&self, name: &str) -> f64 {
        if let Some(&v) = self.given.get(name) {
            return v;
        }
        match self.params.iter().find(|p| p.name == name) {
            Some(p) => self
                .profile
                .and_then(|prof| p.profile_defaults.iter().find(|(q, _)| *q == prof))
                .map_or(p.default, |&(_, d)| d),
            None => panic!("{}: parameter {name} is not in its declaration", self.name),
        }
    }

    /// A [`Range::Flag`] parameter as a switch.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) != 0.0
    }

    /// A [`Unit::Time`] parameter.
    pub fn time(&self, name: &str) -> crate::time::SimDuration {
        crate::time::SimDuration(self.get(name) as u64)
    }

    /// A [`Range::Count`] parameter.
    pub fn count(&self, name: &str) -> u32 {
        self.get(name) as u32
    }
}
