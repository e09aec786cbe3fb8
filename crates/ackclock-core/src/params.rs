//! Named numeric parameters of the registered models (congestion controls in `tcp::cc`,
//! queue disciplines in `queue`): each model declares its parameters once, with default, range,
//! unit and the names ns-2 and ns-3 give them; the engine checks a scenario's values against
//! that declaration and the Python front end reads it through the binding
//! (`ackclock._core.cc_registry()`, `ackclock._core.queue_registry()`) to check, alias and
//! document them. A model declares them in one [`params!`](crate::params!) block, which makes
//! its typed parameter struct ([`ParamSet`]: a field per parameter) from the declaration; the
//! values a scenario gives are kept as [`Given`] and built into that struct with the defaults
//! of the flow's or link's profile.

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

impl Param {
    /// Its default under `profile` (`profile_defaults`), else the definition's.
    pub fn default_for(&self, profile: Option<&str>) -> f64 {
        profile
            .and_then(|prof| self.profile_defaults.iter().find(|(q, _)| *q == prof))
            .map_or(self.default, |&(_, d)| d)
    }
}

/// Checks `given` values against a model's declaration (`params`): the first unknown or
/// out-of-range one comes back as `{key}.{name}: ...` (`key`: the scenario key they sit
/// under, `cc_params` or `queue`; `owner`: the model's name).
pub fn check_given(
    owner: &str,
    key: &str,
    params: &[Param],
    given: &BTreeMap<String, f64>,
) -> Result<(), String> {
    for (k, &v) in given {
        let Some(p) = params.iter().find(|p| p.name == k) else {
            let known = if params.is_empty() {
                "it has none".to_string()
            } else {
                let names: Vec<&str> = params.iter().map(|p| p.name).collect();
                format!("expected {}", names.join(", "))
            };
            return Err(format!("{key}.{k}: not a parameter of {owner}; {known}"));
        };
        if !p.range.contains(v) {
            return Err(format!(
                "{key}.{k}: expected {}, got {v}",
                p.range.expected()
            ));
        }
    }
    Ok(())
}

/// A typed parameter's value, read from the document's number and written back as one
/// (a [`Range::Flag`] parameter is a `bool`).
pub trait ParamValue: Copy {
    fn from_number(x: f64) -> Self;
    fn to_number(self) -> f64;
}

impl ParamValue for f64 {
    #[inline]
    fn from_number(x: f64) -> f64 {
        x
    }
    #[inline]
    fn to_number(self) -> f64 {
        self
    }
}

impl ParamValue for bool {
    #[inline]
    fn from_number(x: f64) -> bool {
        x != 0.0
    }
    #[inline]
    fn to_number(self) -> f64 {
        if self {
            1.0
        } else {
            0.0
        }
    }
}

impl ParamValue for u32 {
    #[inline]
    fn from_number(x: f64) -> u32 {
        x as u32
    }
    #[inline]
    fn to_number(self) -> f64 {
        self as f64
    }
}

impl ParamValue for crate::time::SimDuration {
    /// A [`Unit::Time`] parameter: picoseconds.
    #[inline]
    fn from_number(x: f64) -> crate::time::SimDuration {
        crate::time::SimDuration(x as u64)
    }
    #[inline]
    fn to_number(self) -> f64 {
        self.0 as f64
    }
}

/// One model's parameters as a typed struct, made by [`params!`](crate::params!) from their
/// declaration: a field per [`Param`], in its order, named as the scenario names it.
pub trait ParamSet: Copy + std::fmt::Debug + PartialEq + 'static {
    /// The declaration: name, default, range, unit, ns-2/ns-3 names, doc.
    const PARAMS: &'static [Param];
    /// The struct's field names, in the declaration's order (held equal to the names by
    /// a test of each registry).
    const FIELDS: &'static [&'static str];
    /// The struct from one number per parameter, in the declaration's order.
    fn from_numbers(v: &[f64]) -> Self;
    /// Parameter `i` as the document's number.
    fn number(&self, i: usize) -> f64;

    /// Every parameter at its default under `profile` ([`Param::default_for`]).
    fn for_profile(profile: Option<&str>) -> Self {
        let v: Vec<f64> = Self::PARAMS
            .iter()
            .map(|p| p.default_for(profile))
            .collect();
        Self::from_numbers(&v)
    }

    /// The values `given` (checked against the declaration), the definition's defaults for
    /// the rest (tests and tools; a scenario goes through [`Given`]).
    fn given(given: &BTreeMap<String, f64>) -> Result<Self, String> {
        Ok(Given::<Self>::check("model", "params", given)?.resolve(None))
    }
}

/// Makes a model's typed parameter struct and its declaration from one list: each line
/// `field: type = Param::new("field", default, range, doc)...`, the type `f64`, `bool` (a
/// [`Range::Flag`]) or `u32`. The struct implements [`ParamSet`] and `Default` (the
/// definition's defaults).
#[macro_export]
macro_rules! params {
    ($(#[$m:meta])* pub struct $name:ident { $($field:ident : $ty:ty = $param:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name {
            $(pub $field: $ty,)*
        }

        impl $crate::params::ParamSet for $name {
            const PARAMS: &'static [$crate::params::Param] = $name::PARAMS;
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            #[allow(unused_variables, unused_mut, unused_assignments)]
            fn from_numbers(v: &[f64]) -> $name {
                let mut i = 0;
                $name {
                    $($field: {
                        let x = <$ty as $crate::params::ParamValue>::from_number(v[i]);
                        i += 1;
                        x
                    },)*
                }
            }

            #[allow(unused_variables, unused_mut)]
            fn number(&self, i: usize) -> f64 {
                let mut k = 0;
                $(
                    if k == i {
                        return <$ty as $crate::params::ParamValue>::to_number(self.$field);
                    }
                    k += 1;
                )*
                panic!("{}: no parameter {i} of {k}", stringify!($name))
            }
        }

        impl $name {
            /// The declaration (as [`ParamSet::PARAMS`](crate::params::ParamSet::PARAMS)).
            pub const PARAMS: &'static [$crate::params::Param] = &[$($param),*];

            /// Every parameter at its default under `profile`.
            #[allow(dead_code)]
            pub fn for_profile(profile: Option<&str>) -> $name {
                <$name as $crate::params::ParamSet>::for_profile(profile)
            }

            /// The values `given` (checked), the definition's defaults for the rest.
            #[allow(dead_code)]
            pub fn given(
                given: &std::collections::BTreeMap<String, f64>,
            ) -> Result<$name, String> {
                <$name as $crate::params::ParamSet>::given(given)
            }
        }

        impl Default for $name {
            fn default() -> $name {
                <$name as $crate::params::ParamSet>::for_profile(None)
            }
        }
    };
}

/// A model's parameters as a scenario gives them: the values given (checked against the
/// declaration when the document is read), the rest to take their defaults when the model
/// is built ([`Given::resolve`], under the profile its flow or link asks for).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Given<P> {
    /// Bit i: parameter i was given.
    mask: u64,
    /// Given values where given, the definition's defaults elsewhere.
    values: P,
}

impl<P: ParamSet> Default for Given<P> {
    fn default() -> Given<P> {
        Given {
            mask: 0,
            values: P::for_profile(None),
        }
    }
}

impl<P: ParamSet> Given<P> {
    /// The values `given` for the model `owner`, checked against its declaration; an error
    /// names the first wrong one as `{key}.{name}: ...`.
    pub fn check(
        owner: &str,
        key: &str,
        given: &BTreeMap<String, f64>,
    ) -> Result<Given<P>, String> {
        check_given(owner, key, P::PARAMS, given)?;
        let mut mask = 0u64;
        let v: Vec<f64> = P::PARAMS
            .iter()
            .enumerate()
            .map(|(i, p)| match given.get(p.name) {
                Some(&x) => {
                    mask |= 1 << i;
                    x
                }
                None => p.default,
            })
            .collect();
        Ok(Given {
            mask,
            values: P::from_numbers(&v),
        })
    }

    /// The parameters the model is built with: those given, and `profile`'s defaults
    /// ([`Param::default_for`]) for the rest.
    pub fn resolve(&self, profile: Option<&str>) -> P {
        if profile.is_none() {
            return self.values;
        }
        let v: Vec<f64> = P::PARAMS
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if self.mask & (1 << i) != 0 {
                    self.values.number(i)
                } else {
                    p.default_for(profile)
                }
            })
            .collect();
        P::from_numbers(&v)
    }

    /// The values given, by name, as the document carries them.
    pub fn to_map(&self) -> BTreeMap<String, f64> {
        P::PARAMS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.mask & (1 << i) != 0)
            .map(|(i, p)| (p.name.to_string(), self.values.number(i)))
            .collect()
    }
}
