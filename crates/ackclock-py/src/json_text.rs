//! `json.dumps(value)` and `json.dumps(value, indent=N)` of the standard library, byte for
//! byte, for the plain documents the front end writes: a resolved scenario for the engine
//! and into summary.json (10 000 flows: 20-35 MB of text, 0.2-0.3 s in Python's encoders,
//! whose C part does no indentation).
//!
//! Covered: exactly `dict` (string keys), `list`, `tuple`, `str`, `int`, `float`, `bool` and
//! `None`, as `json.dumps` writes them with its defaults (`ensure_ascii`, `allow_nan`:
//! Python's own `float.__repr__`, `NaN`, `Infinity`), and `array.array`s of integers or
//! doubles as `json.dumps` writes their `tolist()` (a Tmix application's connection vectors
//! are arrays: `python/ackclock/tmix.py`), which the standard library does not take. Anything
//! else (a subclass, a key that
//! is not a string, a string with a lone surrogate, a cycle, nesting deeper than
//! `MAX_DEPTH`) makes the functions give up (None / False), and the caller uses the
//! standard library, which writes or raises what it always did. A table or list met again
//! (the tables a resolved scenario shares between its flows) is encoded once per depth.
//! tests/unit/test_indented_json.py compares the bytes with `json.dumps`.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::collections::HashMap;
use std::io::Write;

const MAX_DEPTH: usize = 256;
/// Bytes gathered before they are handed to the file being written.
const CHUNK: usize = 1 << 17;
/// The largest text of a shared table or list kept to be copied where it is met again.
const KEEP: usize = 1 << 16;

/// Why encoding stopped: the value is not covered (the caller falls back), or writing to the
/// file raised.
enum Stop {
    Unsupported,
    Raised(PyErr),
}

struct Encoder<'a, 'py> {
    out: Vec<u8>,
    indent: Option<usize>,
    /// (address, depth) of a table or list held in more than one place -> its text.
    shared: HashMap<(usize, usize), Vec<u8>>,
    /// Addresses of the tables and lists being encoded (json.dumps refuses a cycle).
    open: Vec<usize>,
    /// Bytes already handed to the file (`out` holds what follows them).
    flushed: usize,
    sink: Option<&'a Bound<'py, PyAny>>,
}

impl<'py> Encoder<'_, 'py> {
    fn flush(&mut self) -> Result<(), Stop> {
        if let Some(fp) = self.sink {
            if !self.out.is_empty() {
                // The text is ASCII (ensure_ascii): any cut is a valid str.
                let text = std::str::from_utf8(&self.out).map_err(|_| Stop::Unsupported)?;
                fp.call_method1("write", (text,)).map_err(Stop::Raised)?;
                self.flushed += self.out.len();
                self.out.clear();
            }
        }
        Ok(())
    }

    fn newline(&mut self, depth: usize) {
        if let Some(step) = self.indent {
            self.out.push(b'\n');
            self.out.resize(self.out.len() + step * depth, b' ');
        }
    }

    fn value(&mut self, v: &Bound<'py, PyAny>, depth: usize) -> Result<(), Stop> {
        if v.is_none() {
            self.out.extend_from_slice(b"null");
        } else if v.is_exact_instance_of::<PyString>() {
            let s = v.cast::<PyString>().map_err(|_| Stop::Unsupported)?;
            self.string(s)?;
        } else if v.is_exact_instance_of::<PyBool>() {
            let b = v.is_truthy().map_err(|_| Stop::Unsupported)?;
            self.out
                .extend_from_slice(if b { b"true" } else { b"false" });
        } else if v.is_exact_instance_of::<PyInt>() {
            if let Ok(i) = v.extract::<i64>() {
                let _ = write!(self.out, "{i}");
            } else if let Ok(u) = v.extract::<u64>() {
                let _ = write!(self.out, "{u}");
            } else {
                let text = v.str().map_err(|_| Stop::Unsupported)?;
                let text = text.to_str().map_err(|_| Stop::Unsupported)?;
                self.out.extend_from_slice(text.as_bytes());
            }
        } else if v.is_exact_instance_of::<PyFloat>() {
            let x = v.cast::<PyFloat>().map_err(|_| Stop::Unsupported)?.value();
            if x.is_nan() {
                self.out.extend_from_slice(b"NaN");
            } else if x.is_infinite() {
                self.out
                    .extend_from_slice(if x > 0.0 { b"Infinity" } else { b"-Infinity" });
            } else {
                // Python's own shortest repr (float.__repr__), as json.dumps writes it.
                let text = v.repr().map_err(|_| Stop::Unsupported)?;
                let text = text.to_str().map_err(|_| Stop::Unsupported)?;
                self.out.extend_from_slice(text.as_bytes());
            }
        } else if v.is_exact_instance_of::<PyDict>()
            || v.is_exact_instance_of::<PyList>()
            || v.is_exact_instance_of::<PyTuple>()
        {
            self.container(v, depth)?;
        } else if is_array(v) {
            self.array(v, depth)?;
        } else {
            return Err(Stop::Unsupported);
        }
        if self.out.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    fn container(&mut self, v: &Bound<'py, PyAny>, depth: usize) -> Result<(), Stop> {
        let address = v.as_ptr() as usize;
        // Held by its parent and by `v`: more than that, it may be met again.
        // SAFETY: `v` is a live object and the GIL is held.
        let shared = unsafe { pyo3::ffi::Py_REFCNT(v.as_ptr()) } > 2;
        if shared {
            if let Some(text) = self.shared.get(&(address, depth)) {
                self.out.extend_from_slice(text);
                return Ok(());
            }
        }
        if depth >= MAX_DEPTH || self.open.contains(&address) {
            return Err(Stop::Unsupported);
        }
        self.open.push(address);
        let start = self.flushed + self.out.len();
        if let Ok(d) = v.cast::<PyDict>() {
            if d.is_empty() {
                self.out.extend_from_slice(b"{}");
            } else {
                self.out.push(b'{');
                let mut first = true;
                for (k, item) in d.iter() {
                    if !k.is_exact_instance_of::<PyString>() {
                        return Err(Stop::Unsupported);
                    }
                    self.separator(first, depth + 1);
                    first = false;
                    self.string(k.cast::<PyString>().map_err(|_| Stop::Unsupported)?)?;
                    self.out.extend_from_slice(b": ");
                    self.value(&item, depth + 1)?;
                }
                self.newline(depth);
                self.out.push(b'}');
            }
        } else {
            let items: Vec<Bound<'py, PyAny>> = if let Ok(l) = v.cast::<PyList>() {
                l.iter().collect()
            } else {
                v.cast::<PyTuple>()
                    .map_err(|_| Stop::Unsupported)?
                    .iter()
                    .collect()
            };
            if items.is_empty() {
                self.out.extend_from_slice(b"[]");
            } else {
                self.out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    self.separator(i == 0, depth + 1);
                    self.value(item, depth + 1)?;
                }
                self.newline(depth);
                self.out.push(b']');
            }
        }
        self.open.pop();
        // Kept if whole in `out` (no piece of it went to the file meanwhile) and small: the
        // tables flows share, not the lists of all links or flows that two documents share.
        if shared && start >= self.flushed && self.flushed + self.out.len() - start <= KEEP {
            let text = self.out[start - self.flushed..].to_vec();
            self.shared.insert((address, depth), text);
        }
        Ok(())
    }

    /// An `array.array` as `json.dumps` writes its `tolist()`: its items from its bytes, as
    /// the machine stores them.
    fn array(&mut self, v: &Bound<'py, PyAny>, depth: usize) -> Result<(), Stop> {
        let code: String =
            (v.getattr("typecode").and_then(|c| c.extract())).map_err(|_| Stop::Unsupported)?;
        let size: usize =
            (v.getattr("itemsize").and_then(|c| c.extract())).map_err(|_| Stop::Unsupported)?;
        let bytes = v.call_method0("tobytes").map_err(|_| Stop::Unsupported)?;
        let bytes = bytes
            .cast::<pyo3::types::PyBytes>()
            .map_err(|_| Stop::Unsupported)?
            .as_bytes();
        let signed = matches!(code.as_str(), "b" | "h" | "i" | "l" | "q");
        let unsigned = matches!(code.as_str(), "B" | "H" | "I" | "L" | "Q");
        if !(signed || unsigned || code == "d") || !matches!(size, 1 | 2 | 4 | 8) {
            return Err(Stop::Unsupported);
        }
        if bytes.is_empty() {
            self.out.extend_from_slice(b"[]");
            return Ok(());
        }
        self.out.push(b'[');
        for (i, item) in bytes.chunks_exact(size).enumerate() {
            self.separator(i == 0, depth + 1);
            if self.out.len() >= CHUNK {
                self.flush()?;
            }
            if code == "d" {
                let x = f64::from_ne_bytes(item.try_into().map_err(|_| Stop::Unsupported)?);
                if x == 0.0 && x.is_sign_positive() {
                    self.out.extend_from_slice(b"0.0"); // repr(0.0), most loss rates
                } else {
                    self.value(PyFloat::new(v.py(), x).as_any(), depth + 1)?;
                }
                continue;
            }
            let _ = match (signed, item) {
                (true, &[a]) => write!(self.out, "{}", a as i8),
                (true, &[a, b]) => write!(self.out, "{}", i16::from_ne_bytes([a, b])),
                (true, &[a, b, c, d]) => write!(self.out, "{}", i32::from_ne_bytes([a, b, c, d])),
                (false, &[a]) => write!(self.out, "{a}"),
                (false, &[a, b]) => write!(self.out, "{}", u16::from_ne_bytes([a, b])),
                (false, &[a, b, c, d]) => write!(self.out, "{}", u32::from_ne_bytes([a, b, c, d])),
                (true, _) => write!(
                    self.out,
                    "{}",
                    i64::from_ne_bytes(item.try_into().map_err(|_| Stop::Unsupported)?)
                ),
                (false, _) => write!(
                    self.out,
                    "{}",
                    u64::from_ne_bytes(item.try_into().map_err(|_| Stop::Unsupported)?)
                ),
            };
        }
        self.newline(depth);
        self.out.push(b']');
        if self.out.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    fn separator(&mut self, first: bool, depth: usize) {
        if !first {
            self.out.push(b',');
            if self.indent.is_none() {
                self.out.push(b' ');
            }
        }
        self.newline(depth);
    }

    /// As `json.encoder.encode_basestring_ascii`: `"` and `\` escaped, `\n \r \t \b \f` by
    /// their letters, every other character outside ' '..'~' as `\uXXXX` (lowercase hex,
    /// a surrogate pair above U+FFFF).
    fn string(&mut self, s: &Bound<'py, PyString>) -> Result<(), Stop> {
        let text = s.to_str().map_err(|_| Stop::Unsupported)?;
        self.out.push(b'"');
        let plain = |b: &u8| (b' '..=b'~').contains(b) && *b != b'"' && *b != b'\\';
        if text.as_bytes().iter().all(plain) {
            self.out.extend_from_slice(text.as_bytes());
            self.out.push(b'"');
            return Ok(());
        }
        for c in text.chars() {
            match c {
                '"' => self.out.extend_from_slice(b"\\\""),
                '\\' => self.out.extend_from_slice(b"\\\\"),
                '\n' => self.out.extend_from_slice(b"\\n"),
                '\r' => self.out.extend_from_slice(b"\\r"),
                '\t' => self.out.extend_from_slice(b"\\t"),
                '\u{8}' => self.out.extend_from_slice(b"\\b"),
                '\u{c}' => self.out.extend_from_slice(b"\\f"),
                ' '..='~' => self.out.push(c as u8),
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.out
                            .extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                    }
                }
            }
        }
        self.out.push(b'"');
        Ok(())
    }
}

/// Whether `v` is exactly an `array.array`.
fn is_array(v: &Bound<'_, PyAny>) -> bool {
    let t = v.get_type();
    t.name().is_ok_and(|n| n == "array") && t.module().is_ok_and(|m| m == "array")
}

fn encoder<'a, 'py>(
    indent: Option<usize>,
    sink: Option<&'a Bound<'py, PyAny>>,
) -> Encoder<'a, 'py> {
    Encoder {
        out: Vec::new(),
        indent,
        shared: HashMap::new(),
        open: Vec::new(),
        flushed: 0,
        sink,
    }
}

/// `json.dumps(value)`: the binding's encoder, or the standard library's for what it does
/// not cover (which writes it, or raises what `json.dumps` raises).
pub fn compact_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut enc = encoder(None, None);
    if enc.value(value, 0).is_ok() {
        if let Ok(text) = String::from_utf8(enc.out) {
            return Ok(text);
        }
    }
    let json = value.py().import("json")?;
    json.call_method1("dumps", (value,))?.extract()
}

/// `json.dumps(value, indent=indent)`, or None when `value` holds something not covered.
#[pyfunction]
#[pyo3(signature = (value, indent=None))]
pub fn json_dumps(value: &Bound<'_, PyAny>, indent: Option<usize>) -> Option<String> {
    let mut enc = encoder(indent, None);
    match enc.value(value, 0) {
        Ok(()) => String::from_utf8(enc.out).ok(),
        Err(_) => None,
    }
}

/// Writes `json.dumps(value, indent=indent)` and then `end` to `fp` (a text file) in pieces
/// of about 128 kB; False when `value` holds something not covered (some of its text
/// may have been written: the caller starts the file again).
#[pyfunction]
#[pyo3(signature = (value, fp, indent=None, end=""))]
pub fn json_dump(
    value: &Bound<'_, PyAny>,
    fp: &Bound<'_, PyAny>,
    indent: Option<usize>,
    end: &str,
) -> PyResult<bool> {
    let mut enc = encoder(indent, Some(fp));
    let done = enc.value(value, 0).and_then(|()| {
        enc.out.extend_from_slice(end.as_bytes());
        enc.flush()
    });
    match done {
        Ok(()) => Ok(true),
        Err(Stop::Unsupported) => Ok(false),
        Err(Stop::Raised(e)) => Err(e),
    }
}
