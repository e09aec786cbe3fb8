//! Result tables across the binding as Arrow (issue 27), through the Arrow C data interface
//! and its PyCapsule protocol (<https://arrow.apache.org/docs/format/CDataInterface.html>,
//! <https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html>).
//!
//! A `Table` holds the engine's columns; `__arrow_c_array__` hands them to an Arrow consumer
//! of the protocol's array form (`pyarrow.record_batch(table)`) as a struct array, one child
//! per column:
//! float64 and int64 columns point into the engine's own vectors (no copy; a `u64` column is
//! exported as int64 unless a value needs the 64th bit, as pandas reads a list of ints), text
//! columns as utf8 built once per export, columns kept as runs (`ColumnData::F64Runs`) written
//! out row by row once per export: the engine keeps them compact until a consumer asks. `to_dict` gives the same columns as Python lists,
//! for callers that need no pyarrow (the command line writes its CSV files from them).
//!
//! The C structs are laid out as the specification's `ArrowSchema` and `ArrowArray`; each
//! export owns its strings, buffers and children in `private_data` and frees them in its
//! `release` callback, which the consumer calls (or the capsule's destructor, when the
//! consumer never took the struct).

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Arc;

use ackclock_core::results::{ColumnData, Table as EngineTable};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyFloat, PyList, PyString};

/// The specification's `ArrowSchema`.
#[repr(C)]
struct ArrowSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut ArrowSchema,
    dictionary: *mut ArrowSchema,
    release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    private_data: *mut c_void,
}

/// The specification's `ArrowArray`.
#[repr(C)]
struct ArrowArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut ArrowArray,
    dictionary: *mut ArrowArray,
    release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    private_data: *mut c_void,
}

/// ARROW_FLAG_NULLABLE: the field may hold nulls (it never does here; pyarrow's default).
const NULLABLE: i64 = 2;

/// What one exported schema node owns.
struct SchemaPrivate {
    _format: CString,
    _name: CString,
    children: Vec<*mut ArrowSchema>,
}

/// What one exported array node owns: the table its buffers may point into, the text
/// buffers made for it, the buffer pointer list and its children.
struct ArrayPrivate {
    _table: Arc<EngineTable>,
    _offsets: Vec<i32>,
    _bytes: Vec<u8>,
    /// A column of runs, written out (as the bits of its values).
    _values: Vec<u64>,
    buffers: Vec<*const c_void>,
    children: Vec<*mut ArrowArray>,
}

unsafe extern "C" fn release_schema(schema: *mut ArrowSchema) {
    // SAFETY: called by the consumer (or our capsule destructor) on a struct this module
    // filled in, once: its private data is a Box<SchemaPrivate> and its children Box'ed
    // structs of the same kind.
    unsafe {
        let Some(s) = schema.as_mut() else { return };
        if s.release.is_none() {
            return;
        }
        let private = Box::from_raw(s.private_data as *mut SchemaPrivate);
        for &child in &private.children {
            if let Some(release) = (*child).release {
                release(child);
            }
            drop(Box::from_raw(child));
        }
        s.release = None;
    }
}

unsafe extern "C" fn release_array(array: *mut ArrowArray) {
    // SAFETY: as release_schema, for an array this module filled in.
    unsafe {
        let Some(a) = array.as_mut() else { return };
        if a.release.is_none() {
            return;
        }
        let private = Box::from_raw(a.private_data as *mut ArrayPrivate);
        for &child in &private.children {
            if let Some(release) = (*child).release {
                release(child);
            }
            drop(Box::from_raw(child));
        }
        a.release = None;
    }
}

fn schema_node(format: &str, name: &str, flags: i64, children: Vec<ArrowSchema>) -> ArrowSchema {
    let format = CString::new(format).expect("format strings have no NUL");
    // A column name is the engine's own or a queue discipline's declared state name.
    let name = CString::new(name.replace('\0', "")).expect("NUL removed");
    let mut private = Box::new(SchemaPrivate {
        children: children
            .into_iter()
            .map(|c| Box::into_raw(Box::new(c)))
            .collect(),
        _format: format,
        _name: name,
    });
    ArrowSchema {
        format: private._format.as_ptr(),
        name: private._name.as_ptr(),
        metadata: std::ptr::null(),
        flags,
        n_children: private.children.len() as i64,
        children: private.children.as_mut_ptr(),
        dictionary: std::ptr::null_mut(),
        release: Some(release_schema),
        private_data: Box::into_raw(private) as *mut c_void,
    }
}

/// The Arrow type of a column: its format string.
fn format_of(data: &ColumnData) -> &'static str {
    match data {
        ColumnData::F64(_) | ColumnData::F64Runs(_) => "g",
        // pandas reads a list of ints as int64 unless one needs the 64th bit.
        ColumnData::U64(v) if v.iter().any(|&x| x > i64::MAX as u64) => "L",
        ColumnData::U64Runs(v) if v.values.iter().any(|&x| x > i64::MAX as u64) => "L",
        ColumnData::U64(_) | ColumnData::U64Runs(_) => "l",
        ColumnData::Str(_) | ColumnData::Labels(_) => "u",
    }
}

fn rows(t: &EngineTable) -> usize {
    t.columns.first().map_or(0, |c| c.data.len())
}

fn column_array(table: &Arc<EngineTable>, data: &ColumnData) -> PyResult<ArrowArray> {
    let mut written: Vec<u64> = match data {
        ColumnData::F64Runs(v) => v.iter().map(f64::to_bits).collect(),
        ColumnData::U64Runs(v) => v.to_vec(),
        _ => Vec::new(),
    };
    let (len, mut offsets, mut bytes, values) = match data {
        ColumnData::F64(v) => (v.len(), Vec::new(), Vec::new(), v.as_ptr() as *const c_void),
        ColumnData::U64(v) => (v.len(), Vec::new(), Vec::new(), v.as_ptr() as *const c_void),
        ColumnData::F64Runs(_) | ColumnData::U64Runs(_) => (
            written.len(),
            Vec::new(),
            Vec::new(),
            written.as_mut_ptr() as *const c_void,
        ),
        ColumnData::Str(_) | ColumnData::Labels(_) => {
            let n = data.len();
            let total: usize = (0..n).map(|r| data.str_at(r).map_or(0, str::len)).sum();
            if i32::try_from(total).is_err() {
                return Err(PyValueError::new_err(
                    "a text column of more than 2 GB cannot be exported as Arrow utf8",
                ));
            }
            let mut offsets = Vec::with_capacity(n + 1);
            let mut bytes = Vec::with_capacity(total);
            offsets.push(0i32);
            for r in 0..n {
                bytes.extend_from_slice(data.str_at(r).unwrap_or_default().as_bytes());
                offsets.push(bytes.len() as i32);
            }
            (n, offsets, bytes, std::ptr::null())
        }
    };
    // Buffers: validity (none: no nulls), then the values, or the offsets and the bytes.
    let buffers = if matches!(data, ColumnData::Str(_) | ColumnData::Labels(_)) {
        vec![
            std::ptr::null(),
            offsets.as_mut_ptr() as *const c_void,
            bytes.as_mut_ptr() as *const c_void,
        ]
    } else {
        vec![std::ptr::null(), values]
    };
    Ok(array_node(
        len,
        table.clone(),
        (offsets, bytes, written),
        buffers,
        Vec::new(),
    ))
}

/// An array node owning `buffers`' memory: the table's, and what was made for the export
/// (a text column's offsets and bytes, a column of runs written out).
fn array_node(
    len: usize,
    table: Arc<EngineTable>,
    (offsets, bytes, values): (Vec<i32>, Vec<u8>, Vec<u64>),
    buffers: Vec<*const c_void>,
    children: Vec<ArrowArray>,
) -> ArrowArray {
    let mut private = Box::new(ArrayPrivate {
        _table: table,
        _offsets: offsets,
        _bytes: bytes,
        _values: values,
        buffers,
        children: children
            .into_iter()
            .map(|c| Box::into_raw(Box::new(c)))
            .collect(),
    });
    ArrowArray {
        length: len as i64,
        null_count: 0,
        offset: 0,
        n_buffers: private.buffers.len() as i64,
        n_children: private.children.len() as i64,
        buffers: private.buffers.as_mut_ptr(),
        children: private.children.as_mut_ptr(),
        dictionary: std::ptr::null_mut(),
        release: Some(release_array),
        private_data: Box::into_raw(private) as *mut c_void,
    }
}

/// A C struct handed to a capsule: raw pointers are not `Send`, but the struct owns what they
/// point to (through `private_data`) and nothing else refers to it.
struct Owned<T>(T);
// SAFETY: see above; the capsule is the only owner until a consumer moves the struct out.
unsafe impl<T> Send for Owned<T> {}

const SCHEMA_CAPSULE: &CStr = c"arrow_schema";
const ARRAY_CAPSULE: &CStr = c"arrow_array";

/// One result table of a run (`flows`, `queues`, ...): its columns as Arrow
/// (`__arrow_c_array__`) or as Python lists (`to_dict`).
#[pyclass(module = "ackclock._core", frozen)]
pub struct Table {
    table: Arc<EngineTable>,
}

impl Table {
    pub fn new(table: EngineTable) -> Self {
        Table {
            table: Arc::new(table),
        }
    }
}

#[pymethods]
impl Table {
    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.table
            .columns
            .iter()
            .map(|c| c.name.to_string())
            .collect()
    }

    /// The number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        rows(&self.table)
    }

    /// The columns as Python lists (float, int, str), keyed by name, in order.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        table_to_dict(py, &self.table)
    }

    /// Writes the table as CSV into `path`, as results.py's Python writer would
    /// (`csv_text.rs`); False, having written nothing, for a table with a text field that
    /// needs quoting or with one column (the caller writes those).
    fn write_csv(&self, py: Python<'_>, path: &str) -> PyResult<bool> {
        let table = &self.table;
        py.detach(|| crate::csv_text::write(table, path))
            .map_err(PyErr::from)
    }

    /// The Arrow PyCapsule protocol: the table as a struct array, one child per column.
    /// ``requested_schema`` is ignored (the protocol allows it): the types are the table's.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let t = &self.table;
        let fields = t
            .columns
            .iter()
            .map(|c| schema_node(format_of(&c.data), &c.name, NULLABLE, Vec::new()))
            .collect();
        let schema = schema_node("+s", "", 0, fields);
        let columns = t
            .columns
            .iter()
            .map(|c| column_array(t, &c.data))
            .collect::<PyResult<Vec<_>>>()?;
        let array = array_node(
            rows(t),
            t.clone(),
            Default::default(),
            vec![std::ptr::null()],
            columns,
        );
        // A capsule destroyed with its struct still owned (the consumer never moved it out,
        // which sets release to NULL) releases it.
        let schema = PyCapsule::new_with_value_and_destructor(
            py,
            Owned(schema),
            SCHEMA_CAPSULE,
            |mut s: Owned<ArrowSchema>, _| {
                // SAFETY: the struct is ours and released at most once (release_schema
                // clears its release pointer).
                unsafe { release_schema(&mut s.0) }
            },
        )?;
        let array = PyCapsule::new_with_value_and_destructor(
            py,
            Owned(array),
            ARRAY_CAPSULE,
            |mut a: Owned<ArrowArray>, _| {
                // SAFETY: as above.
                unsafe { release_array(&mut a.0) }
            },
        )?;
        Ok((schema, array))
    }

    fn __repr__(&self) -> String {
        format!(
            "Table({} rows: {})",
            rows(&self.table),
            self.column_names().join(", ")
        )
    }
}

pub(crate) fn table_to_dict<'py>(py: Python<'py>, t: &EngineTable) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let float = |x: u64| Ok(PyFloat::new(py, f64::from_bits(x)).into_any());
    let int = |x: u64| Ok(x.into_pyobject(py)?.into_any());
    for c in &t.columns {
        let n = c.data.len();
        let list = match &c.data {
            ColumnData::F64(v) => shared_list(py, n, v.iter().map(|x| x.to_bits()), float)?,
            ColumnData::F64Runs(v) => shared_list(py, n, v.iter().map(f64::to_bits), float)?,
            ColumnData::U64(v) => shared_list(py, n, v.iter().copied(), int)?,
            ColumnData::U64Runs(v) => shared_list(py, n, v.iter(), int)?,
            ColumnData::Str(v) => shared_list(py, n, v.iter().map(String::as_str), |x| {
                Ok(PyString::new(py, x).into_any())
            })?,
            ColumnData::Labels(v) => shared_list(py, n, v.codes.iter(), |x| {
                Ok(PyString::new(py, &v.values[x as usize]).into_any())
            })?,
        };
        d.set_item(c.name.as_ref(), list)?;
    }
    Ok(d)
}

/// A column as a Python list in which equal values are one Python object (floats and ints
/// are immutable: nothing can tell). A 10 000-flow dumbbell's queues table has 720 000
/// cells but some 40 000 distinct values; a float or int object each was 30 MB. `values`
/// yields each of the `rows` rows' key (a float's bits), `make` its object.
fn shared_list<'py, K: Eq + std::hash::Hash + Copy>(
    py: Python<'py>,
    rows: usize,
    values: impl Iterator<Item = K>,
    make: impl Fn(K) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    use std::collections::hash_map::Entry;
    let mut seen: std::collections::HashMap<K, Bound<'py, PyAny>> =
        std::collections::HashMap::new();
    let mut items = Vec::with_capacity(rows);
    for v in values {
        let obj = match seen.entry(v) {
            Entry::Occupied(e) => e.get().clone(),
            Entry::Vacant(e) => e.insert(make(v)?).clone(),
        };
        items.push(obj);
    }
    PyList::new(py, items)
}
