//! `Network.scenario`'s copy of a network's entries (`python/ackclock/scenario.py`,
//! `copy_entries`): `copy.deepcopy` of each, done here for the values entries hold (the entry
//! classes, dicts, lists and the atomic types), Python's own copy for anything else.
//!
//! A 10 000-flow dumbbell has some 50 000 entries holding 70 000 more objects (queues, empty
//! tables); made in Python, one at a time, their copy took about 0.17 s.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Copies of `entries` as `copy.deepcopy(entries, memo)` makes them. `classes` maps each entry
/// class (a slotted dataclass) to the front end's facts of it (`scenario._fields`): its field
/// names, a getter of them (not read here) and whether it is frozen. A frozen entry whose
/// fields all hold atomic values is immutable and is its own copy; any other frozen one, and
/// any value of another type, is copied by `fallback(value, memo)`.
#[pyfunction]
pub fn copy_entries<'py>(
    entries: &Bound<'py, PyList>,
    memo: &Bound<'py, PyDict>,
    classes: &Bound<'py, PyDict>,
    fallback: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let py = entries.py();
    let copier = Copier {
        memo,
        classes,
        fallback,
        object_new: py.get_type::<PyAny>().getattr("__new__")?,
    };
    let out = PyList::empty(py);
    for entry in entries.iter() {
        out.append(copier.copy(&entry)?)?;
    }
    Ok(out)
}

struct Copier<'a, 'py> {
    memo: &'a Bound<'py, PyDict>,
    classes: &'a Bound<'py, PyDict>,
    fallback: &'a Bound<'py, PyAny>,
    object_new: Bound<'py, PyAny>,
}

/// The types `copy.deepcopy` gives back as they are (the front end's `_ATOMIC`).
fn atomic(value: &Bound<'_, PyAny>) -> bool {
    value.is_none()
        || value.is_exact_instance_of::<PyString>()
        || value.is_exact_instance_of::<PyInt>()
        || value.is_exact_instance_of::<PyFloat>()
        || value.is_exact_instance_of::<PyBool>()
}

impl<'py> Copier<'_, 'py> {
    fn copy(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if atomic(value) {
            return Ok(value.clone());
        }
        // The memo is keyed by id(), as deepcopy's: what two entries share, their copies share.
        // Only what is held in more than one place can be met again: a value whose one
        // holder is the entry, dict or list being copied (its count is that reference and
        // `value`'s own) neither is in the memo nor goes into it (a 10 000-flow network's
        // queues, tables and lists: some 100 000 ids not made, looked up and stored).
        // SAFETY: `value` is a live object (this call holds a reference to it while the GIL
        // is held); reading its count changes nothing.
        let holders = unsafe { pyo3::ffi::Py_REFCNT(value.as_ptr()) };
        let id = if holders > 2 {
            let id = PyInt::new(value.py(), value.as_ptr() as usize);
            if let Some(done) = self.memo.get_item(&id)? {
                return Ok(done);
            }
            Some(id)
        } else {
            None
        };
        let remember = |new: &Bound<'py, PyAny>| match &id {
            Some(id) => self.memo.set_item(id, new),
            None => Ok(()),
        };
        if let Ok(dict) = value.cast_exact::<PyDict>() {
            let new = PyDict::new(value.py());
            remember(&new)?;
            for (k, v) in dict.iter() {
                new.set_item(self.copy(&k)?, self.copy(&v)?)?;
            }
            return Ok(new.into_any());
        }
        if let Ok(list) = value.cast_exact::<PyList>() {
            let new = PyList::empty(value.py());
            remember(&new)?;
            for v in list.iter() {
                new.append(self.copy(&v)?)?;
            }
            return Ok(new.into_any());
        }
        let Some(known) = self.classes.get_item(value.get_type())? else {
            return self.fallback.call1((value, self.memo));
        };
        let (names, _, frozen): (Bound<'py, PyTuple>, Bound<'py, PyAny>, bool) = known.extract()?;
        let values = names
            .iter()
            .map(|name| value.getattr(name.cast::<PyString>()?))
            .collect::<PyResult<Vec<_>>>()?;
        if frozen {
            if values.iter().all(atomic) {
                return Ok(value.clone()); // its own copy, wherever it is met
            }
            return self.fallback.call1((value, self.memo));
        }
        let new = self.object_new.call1((value.get_type(),))?;
        // Before the fields: a field that holds the entry gets the copy.
        remember(&new)?;
        for (name, v) in names.iter().zip(values) {
            new.setattr(name.cast::<PyString>()?, self.copy(&v)?)?;
        }
        Ok(new)
    }
}
