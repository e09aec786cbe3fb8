//! A result table as CSV, byte for byte what the front end wrote from Python (results.py's
//! `_write_columns`, itself pandas' `to_csv(index=False, na_rep="")`): the header, fields
//! separated by commas, rows ended by `\n`, floats as Python's `repr` (the shortest text that
//! reads back as the same double; `inf`, `-inf`), NaN as an empty field, integers in decimal,
//! text as it is. Python's `csv` module would quote a text field holding a comma, a quote or a
//! line break (and the lone empty field of a one-column row): for those tables `write` does
//! nothing and says so, and the caller writes them in Python. A run sampled every 0.1 s writes
//! millions of cells (seed 002's model with N = 50 over 300 s: 3.9 million, 28 MB), one Python
//! call each before. tests/unit/test_results.py compares the bytes.

use std::fs::File;
use std::io::{BufWriter, Write};

use ackclock_core::results::{ColumnData, Table};

/// Python's `repr(x)` of a finite or infinite double (not NaN): `float_repr_style` 'short',
/// the shortest digits that read back as `x` (Rust's `{:e}` gives the same digits), written
/// in fixed notation when the decimal point falls within 16 digits of them and 4 places after
/// it, else as `d.ddde+XX`.
pub fn python_float_repr(x: f64, scratch: &mut Vec<u8>, out: &mut Vec<u8>) {
    if x.is_infinite() {
        out.extend_from_slice(if x > 0.0 { b"inf" } else { b"-inf" });
        return;
    }
    if x == 0.0 {
        out.extend_from_slice(if x.is_sign_negative() {
            b"-0.0"
        } else {
            b"0.0"
        });
        return;
    }
    scratch.clear();
    let _ = write!(scratch, "{:e}", x.abs());
    let e = |t: &[u8]| t.iter().position(|&b| b == b'e').unwrap_or(t.len());
    let mut e_at = e(scratch);
    let shortest = e_at - usize::from(e_at > 1); // its digits (the point apart)
    if shortest >= 15 {
        // Where two decimals of that length read back as `x` at the same distance from it
        // (x = 1045514022457048.25: ...048.2 and ...048.3), Python's dtoa takes the even
        // one and Rust's shortest the upper: the correctly rounded digits (ties to even)
        // are Python's whenever they read back as `x` (the nearest that does).
        let mut exact = Vec::with_capacity(32);
        let _ = write!(exact, "{:.*e}", shortest - 1, x.abs());
        let back = std::str::from_utf8(&exact)
            .ok()
            .and_then(|t| t.parse::<f64>().ok());
        if back == Some(x.abs()) {
            *scratch = exact;
            e_at = e(scratch);
        }
    }
    let exp: i32 = std::str::from_utf8(&scratch[e_at + 1..])
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let digits: Vec<u8> = scratch[..e_at]
        .iter()
        .copied()
        .filter(|&b| b != b'.')
        .collect();
    let n = digits.len() as i32;
    let decpt = exp + 1; // x = 0.d1d2... x 10^decpt
    if x < 0.0 {
        out.push(b'-');
    }
    if decpt <= -4 || decpt > 16 {
        out.push(digits[0]);
        if n > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if decpt <= 0 {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + (-decpt) as usize, b'0');
        out.extend_from_slice(&digits);
    } else if decpt >= n {
        out.extend_from_slice(&digits);
        out.resize(out.len() + (decpt - n) as usize, b'0');
        out.extend_from_slice(b".0");
    } else {
        out.extend_from_slice(&digits[..decpt as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[decpt as usize..]);
    }
}

/// Whether Python's csv writer would write `s` as it is (QUOTE_MINIMAL: no comma, quote,
/// carriage return or line feed).
fn plain(s: &str) -> bool {
    !s.bytes().any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// The run that holds row `r`, from `k` (the run of the row before) on: rows are read in order.
fn next_run(ends: &[usize], k: &mut usize, r: usize) -> usize {
    while ends[*k] <= r {
        *k += 1;
    }
    *k
}

/// Writes `table` as CSV into `path`; false, having written nothing, when some field would
/// need quoting (see the module's comment).
pub fn write(table: &Table, path: &str) -> std::io::Result<bool> {
    let cols = &table.columns;
    let rows = cols.first().map_or(0, |c| c.data.len());
    let quoting = cols.iter().any(|c| {
        !plain(&c.name)
            || match &c.data {
                ColumnData::Str(v) => v.iter().any(|s| !plain(s)),
                ColumnData::Labels(v) => v.values.iter().any(|s| !plain(s)),
                _ => false,
            }
    });
    // One column: an empty field is a row of its own that Python writes as "".
    if quoting || cols.len() == 1 {
        return Ok(false);
    }
    let mut f = BufWriter::with_capacity(1 << 16, File::create(path)?);
    if cols.is_empty() {
        f.write_all(b"\n")?;
        return Ok(true);
    }
    let names: Vec<&str> = cols.iter().map(|c| c.name.as_ref()).collect();
    f.write_all(names.join(",").as_bytes())?;
    f.write_all(b"\n")?;
    let (mut line, mut scratch) = (Vec::with_capacity(256), Vec::with_capacity(32));
    // Each column of runs read through its own position, which moves on row by row.
    let mut run = vec![0usize; cols.len()];
    for r in 0..rows {
        line.clear();
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            match &c.data {
                ColumnData::F64(v) => {
                    if !v[r].is_nan() {
                        python_float_repr(v[r], &mut scratch, &mut line);
                    }
                }
                ColumnData::U64(v) => {
                    let _ = write!(line, "{}", v[r]);
                }
                ColumnData::Str(v) => line.extend_from_slice(v[r].as_bytes()),
                ColumnData::Labels(v) => line.extend_from_slice(v.get(r).as_bytes()),
                ColumnData::F64Runs(v) => {
                    let x = v.values[next_run(&v.ends, &mut run[i], r)];
                    if !x.is_nan() {
                        python_float_repr(x, &mut scratch, &mut line);
                    }
                }
                ColumnData::U64Runs(v) => {
                    let _ = write!(line, "{}", v.values[next_run(&v.ends, &mut run[i], r)]);
                }
            }
        }
        line.push(b'\n');
        f.write_all(&line)?;
    }
    f.flush()?;
    Ok(true)
}
