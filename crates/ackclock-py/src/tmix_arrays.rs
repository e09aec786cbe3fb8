//! A resolved document's Tmix connection vectors read straight from the front end's arrays
//! (`python/ackclock/tmix.py` gives each column as an `array.array`), not through JSON text.
//!
//! Seed 003's study runs replay 6.5 million connections of 5 ADUs: as text the columns took
//! about 1.2 GB, parsed again about 1 GB more, twice over (the rules' check, then the
//! engine's build), the largest part of the run's peak (docs/performance.md, "Tmix without
//! the document's text"). Here each column is copied once from its array's bytes into the
//! engine's [`TmixVectors`], and the text the engine parses carries empty columns in their
//! place ([`Scenario::from_json_with_tmix`](ackclock_core::scenario::Scenario)).
//!
//! Only what reads exactly (an array of a fitting type, or a list of the right numbers) is
//! taken; anything else stays in the text, where the engine's reading names it as before.

use ackclock_core::scenario::{TmixColumns, TmixVectors};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// The document to encode (a shallow copy where vectors were taken, else `doc` itself) and
/// the vectors taken, by flow index; Err: the one-line message of columns that do not fit
/// together (`flow[0].app.connections.adu_bytes: 8 values for 9 ADUs`).
pub type Split<'py> = (Bound<'py, PyAny>, Vec<(usize, TmixVectors)>);

pub fn split<'py>(doc: &Bound<'py, PyAny>) -> PyResult<Result<Split<'py>, String>> {
    let py = doc.py();
    let untouched = |doc: &Bound<'py, PyAny>| Ok(Ok((doc.clone(), Vec::new())));
    let Ok(d) = doc.cast::<PyDict>() else {
        return untouched(doc);
    };
    let Some(flows) = d.get_item("flows")? else {
        return untouched(doc);
    };
    let Ok(flows) = flows.cast::<PyList>() else {
        return untouched(doc);
    };
    let mut taken = Vec::new();
    let mut copy: Option<Bound<'py, PyList>> = None;
    for (i, flow) in flows.iter().enumerate() {
        let Ok(flow) = flow.cast::<PyDict>() else {
            continue;
        };
        let Some(app) = flow.get_item("app")? else {
            continue;
        };
        let Ok(app) = app.cast::<PyDict>() else {
            continue;
        };
        let tmix = app
            .get_item("kind")?
            .is_some_and(|k| k.extract::<String>().is_ok_and(|k| k == "tmix"));
        let Some(conns) = app.get_item("connections")? else {
            continue;
        };
        let Ok(conns) = conns.cast::<PyDict>() else {
            continue;
        };
        if !tmix {
            continue;
        }
        let Some(columns) = columns(conns)? else {
            continue;
        };
        let vectors = match TmixVectors::from_columns(columns) {
            Ok(v) => v,
            Err(e) => return Ok(Err(format!("flow[{i}].app.{e}"))),
        };
        taken.push((i, vectors));
        let app = app.copy()?;
        app.set_item("connections", empty_columns(py)?)?;
        let flow = flow.copy()?;
        flow.set_item("app", app)?;
        let list = match &copy {
            Some(l) => l.clone(),
            None => {
                let l = PyList::new(py, flows.iter())?;
                copy = Some(l.clone());
                l
            }
        };
        list.set_item(i, flow)?;
    }
    let Some(list) = copy else {
        return untouched(doc);
    };
    let d = d.copy()?;
    d.set_item("flows", list)?;
    Ok(Ok((d.into_any(), taken)))
}

/// Columns of nothing: what the text carries where the vectors were taken.
fn empty_columns(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for name in [
        "start_ps",
        "concurrent",
        "rtt_ps",
        "loss_initiator",
        "loss_acceptor",
        "adus",
        "adu_side",
        "adu_bytes",
        "adu_wait_ps",
    ] {
        d.set_item(name, PyList::empty(py))?;
    }
    Ok(d)
}

/// The columns of `conns`, or None when a key is unknown or missing or a value does not read
/// exactly (the text then carries them, and the engine's reading names the mistake).
fn columns(conns: &Bound<'_, PyDict>) -> PyResult<Option<TmixColumns>> {
    let mut c = TmixColumns::default();
    let mut seen = 0;
    for (key, value) in conns.iter() {
        let Ok(key) = key.extract::<String>() else {
            return Ok(None);
        };
        let read = match key.as_str() {
            "start_ps" => whole(&value, u64::MAX).map(|v| c.start_ps = v),
            "rtt_ps" => whole(&value, u64::MAX).map(|v| c.rtt_ps = v),
            "adu_bytes" => whole(&value, u64::MAX).map(|v| c.adu_bytes = v),
            "adu_wait_ps" => whole(&value, u64::MAX).map(|v| c.adu_wait_ps = v),
            "adus" => narrow(&value).map(|v| c.adus = v),
            "window_initiator" => narrow(&value).map(|v| c.window_initiator = v),
            "window_acceptor" => narrow(&value).map(|v| c.window_acceptor = v),
            "fin_wait_ps" => whole(&value, u64::MAX).map(|v| c.fin_wait_ps = v),
            "adu_side" => whole(&value, u8::MAX as u64)
                .map(|v| c.adu_side = v.into_iter().map(|x| x as u8).collect()),
            "loss_initiator" => reals(&value).map(|v| c.loss_initiator = v),
            "loss_acceptor" => reals(&value).map(|v| c.loss_acceptor = v),
            "concurrent" => value
                .cast::<PyList>()
                .ok()
                .and_then(|l| l.extract::<Vec<bool>>().ok())
                .map(|v| c.concurrent = v),
            _ => return Ok(None),
        };
        if read.is_none() {
            return Ok(None);
        }
        if !key.starts_with("window_") && key != "fin_wait_ps" {
            seen += 1;
        }
    }
    Ok((seen == 9).then_some(c))
}

fn narrow(v: &Bound<'_, PyAny>) -> Option<Vec<u32>> {
    whole(v, u32::MAX as u64).map(|v| v.into_iter().map(|x| x as u32).collect())
}

/// Whole numbers of 0 to `max`: an integer `array.array`'s items, or a list of ints.
fn whole(v: &Bound<'_, PyAny>, max: u64) -> Option<Vec<u64>> {
    let out: Vec<u64> = if let Some((code, bytes)) = array_bytes(v) {
        let bytes = bytes.as_bytes();
        let signed = |x: i64| u64::try_from(x).ok();
        let items: Option<Vec<u64>> = match (code, item_size(v)?) {
            ('B', 1) => Some(bytes.iter().map(|&b| b as u64).collect()),
            ('H', 2) => Some(each(bytes, |b: [u8; 2]| u16::from_ne_bytes(b) as u64)),
            ('I' | 'L', 4) => Some(each(bytes, |b: [u8; 4]| u32::from_ne_bytes(b) as u64)),
            ('L' | 'Q', 8) => Some(each(bytes, u64::from_ne_bytes)),
            ('b', 1) => bytes.iter().map(|&b| signed(b as i8 as i64)).collect(),
            ('h', 2) => each(bytes, |b: [u8; 2]| signed(i16::from_ne_bytes(b) as i64))
                .into_iter()
                .collect(),
            ('i' | 'l', 4) => each(bytes, |b: [u8; 4]| signed(i32::from_ne_bytes(b) as i64))
                .into_iter()
                .collect(),
            ('l' | 'q', 8) => each(bytes, |b: [u8; 8]| signed(i64::from_ne_bytes(b)))
                .into_iter()
                .collect(),
            _ => None,
        };
        items?
    } else {
        // Exactly ints: a bool or a float is left to the text's reading.
        let list = v.cast::<PyList>().ok()?;
        let mut out = Vec::with_capacity(list.len());
        for x in list.iter() {
            if !x.is_exact_instance_of::<pyo3::types::PyInt>() {
                return None;
            }
            out.push(x.extract::<u64>().ok()?);
        }
        out
    };
    out.iter().all(|&x| x <= max).then_some(out)
}

/// Real numbers: a `d` array's items, or a list of floats and ints.
fn reals(v: &Bound<'_, PyAny>) -> Option<Vec<f64>> {
    if let Some((code, bytes)) = array_bytes(v) {
        return (code == 'd' && item_size(v) == Some(8))
            .then(|| each(bytes.as_bytes(), f64::from_ne_bytes));
    }
    let list = v.cast::<PyList>().ok()?;
    let mut out = Vec::with_capacity(list.len());
    for x in list.iter() {
        if x.is_exact_instance_of::<pyo3::types::PyFloat>() {
            out.push(x.extract::<f64>().ok()?);
        } else if x.is_exact_instance_of::<pyo3::types::PyInt>() {
            out.push(x.extract::<i64>().ok()? as f64);
        } else {
            return None;
        }
    }
    // JSON text has no NaN or infinity: such a value is left to the text's reading.
    out.iter().all(|x| x.is_finite()).then_some(out)
}

/// Items of `N` bytes each, as the machine stores them.
fn each<const N: usize, T>(bytes: &[u8], f: impl Fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| f(c.try_into().expect("N bytes")))
        .collect()
}

/// An exact `array.array`'s type code and bytes.
fn array_bytes<'py>(v: &Bound<'py, PyAny>) -> Option<(char, Bound<'py, PyBytes>)> {
    let t = v.get_type();
    if !(t.name().is_ok_and(|n| n == "array") && t.module().is_ok_and(|m| m == "array")) {
        return None;
    }
    let code: String = v.getattr("typecode").ok()?.extract().ok()?;
    let bytes = v
        .call_method0("tobytes")
        .ok()?
        .cast_into::<PyBytes>()
        .ok()?;
    code.chars().next().map(|c| (c, bytes))
}

fn item_size(v: &Bound<'_, PyAny>) -> Option<usize> {
    v.getattr("itemsize").ok()?.extract().ok()
}
