//! A scenario file's TOML read straight into Python dicts and lists, as tomli 2.2-2.3 (the
//! front end's reader, `python/ackclock/toml_loader.py`) reads it, without holding a document
//! of its own: a 10 000-flow dumbbell written out entry by entry is 6 MB of TOML, which tomli
//! reads in about 0.35 s (docs/performance.md).
//!
//! This is tomli's `_parser.py` rule for rule (`loads`, `key_value_rule`, `create_dict_rule`,
//! `create_list_rule`, its `Flags` and `NestedDict`, `parse_value` and what it calls), so the
//! values, their order and what is refused are tomli's. It reads TOML 1.0 only and gives up
//! (None) at anything it does not take: every mistake, dates and times, integers beyond 64
//! bits, inf and nan, and containers nested `max_depth` deep; the front end then reads the
//! text with tomli, whose messages name the line and column.
//!
//! A port of tomli's rules carries tomli's licence notice:
//!
//! Copyright (c) 2021 Taneli Hukkinen
//!
//! Permission is hereby granted, free of charge, to any person obtaining a copy of this
//! software and associated documentation files (the "Software"), to deal in the Software
//! without restriction, including without limitation the rights to use, copy, modify, merge,
//! publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
//! to whom the Software is furnished to do so, subject to the following conditions:
//!
//! The above copyright notice and this permission notice shall be included in all copies or
//! substantial portions of the Software.
//!
//! THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
//! INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
//! PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
//! FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
//! OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
//! DEALINGS IN THE SOFTWARE.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

/// Why reading stopped: the text is not one this reader takes, or Python raised.
enum Stop {
    GiveUp,
    Py(PyErr),
}

impl From<PyErr> for Stop {
    fn from(e: PyErr) -> Self {
        Stop::Py(e)
    }
}

type Read<T> = Result<T, Stop>;

/// The text's tables as `tomli.loads` gives them, or None where this reader gives up (see the
/// module's comment). No container is nested `max_depth` deep or more (the top level's values
/// are at depth 1): the loader's limit (`toml_loader.MAX_DEPTH`), which tomli's path checks.
#[pyfunction]
pub fn read_toml<'py>(
    py: Python<'py>,
    text: &str,
    max_depth: usize,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    // tomli's `loads`: "\r\n" read as "\n" (a lone "\r" is then refused as tomli refuses it).
    let unix;
    let src = if text.contains('\r') {
        unix = text.replace("\r\n", "\n");
        unix.as_str()
    } else {
        text
    };
    let mut reader = Reader {
        py,
        src: src.as_bytes(),
        pos: 0,
        max_depth,
        names: HashMap::new(),
        keys: Vec::new(),
        strings: HashMap::new(),
        flags: Flags::default(),
    };
    match reader.document() {
        Ok(doc) => Ok(Some(doc)),
        Err(Stop::GiveUp) => Ok(None),
        Err(Stop::Py(e)) => Err(e),
    }
}

// tomli's Flags: FROZEN marks an inline table or array (immutable), EXPLICIT_NEST a table
// that a header or dotted key has made (it cannot be opened again).
const FROZEN: u8 = 1;
const EXPLICIT_NEST: u8 = 2;

#[derive(Default)]
struct FlagNode {
    flags: u8,
    recursive: u8,
    nested: HashMap<u32, FlagNode>,
}

/// tomli's `Flags`, keys as the reader's numbers for key parts.
#[derive(Default)]
struct Flags {
    root: HashMap<u32, FlagNode>,
    pending: Vec<(Vec<u32>, u8)>,
}

impl Flags {
    fn add_pending(&mut self, key: Vec<u32>, flag: u8) {
        self.pending.push((key, flag));
    }

    fn finalize_pending(&mut self) {
        for (key, flag) in std::mem::take(&mut self.pending) {
            self.set(&key, flag, false);
        }
    }

    fn unset_all(&mut self, key: &[u32]) {
        let Some((stem, parent)) = key.split_last() else {
            return;
        };
        let mut cont = &mut self.root;
        for k in parent {
            match cont.get_mut(k) {
                Some(node) => cont = &mut node.nested,
                None => return,
            }
        }
        cont.remove(stem);
    }

    fn set(&mut self, key: &[u32], flag: u8, recursive: bool) {
        let Some((stem, parent)) = key.split_last() else {
            return;
        };
        let mut cont = &mut self.root;
        for k in parent {
            cont = &mut cont.entry(*k).or_default().nested;
        }
        let node = cont.entry(*stem).or_default();
        if recursive {
            node.recursive |= flag;
        } else {
            node.flags |= flag;
        }
    }

    fn is(&self, key: &[u32], flag: u8) -> bool {
        let Some((stem, parent)) = key.split_last() else {
            return false; // the document's root has no flags
        };
        let mut cont = &self.root;
        for k in parent {
            let Some(node) = cont.get(k) else {
                return false;
            };
            if node.recursive & flag != 0 {
                return true;
            }
            cont = &node.nested;
        }
        cont.get(stem)
            .is_some_and(|node| (node.flags | node.recursive) & flag != 0)
    }
}

struct Reader<'py, 's> {
    py: Python<'py>,
    src: &'s [u8],
    pos: usize,
    max_depth: usize,
    /// Key parts by their text, numbered; `keys` holds each one's Python string (one object
    /// for every table's `from`: 70 000 tables).
    names: HashMap<String, u32>,
    keys: Vec<Bound<'py, PyString>>,
    /// Short string values made once ("10Gb/s" on 40 000 links).
    strings: HashMap<String, Bound<'py, PyString>>,
    flags: Flags,
}

/// Longest string value kept for reuse.
const SHARED_STRING: usize = 64;

fn is_bare(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// tomli's ILLEGAL_BASIC_STR_CHARS (ASCII control characters but tab), and with
/// `newline` its multi-line strings' (a newline allowed too).
fn illegal(c: u8, newline: bool) -> bool {
    (c < 0x20 && c != b'\t' && !(newline && c == b'\n')) || c == 0x7f
}

impl<'py, 's> Reader<'py, 's> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn at(&self, s: &[u8]) -> bool {
        self.src
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(s))
    }

    fn text(&self, from: usize, to: usize) -> Read<&'s str> {
        text(self.src, from, to)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn skip_comment(&mut self) -> Read<()> {
        if self.peek() != Some(b'#') {
            return Ok(());
        }
        self.pos += 1;
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            if illegal(c, false) {
                return Err(Stop::GiveUp);
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn skip_comments_and_array_ws(&mut self) -> Read<()> {
        loop {
            let before = self.pos;
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n')) {
                self.pos += 1;
            }
            self.skip_comment()?;
            if self.pos == before {
                return Ok(());
            }
        }
    }

    /// tomli's `loads`: one statement a line.
    fn document(&mut self) -> Read<Bound<'py, PyDict>> {
        let root = PyDict::new(self.py);
        let mut header: Vec<u32> = Vec::new();
        // The header's table and its depth: what `get_or_create_nest(header)` gives until the
        // next header (a key/value pair only adds keys).
        let mut table = root.clone();
        let mut depth = 0;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { break };
            if c == b'\n' {
                self.pos += 1;
                continue;
            }
            if is_bare(c) || c == b'"' || c == b'\'' {
                self.key_value_rule(&header, &table, depth)?;
                self.skip_ws();
            } else if c == b'[' {
                self.flags.finalize_pending();
                (header, table, depth) = if self.src.get(self.pos + 1) == Some(&b'[') {
                    self.create_list_rule(&root)?
                } else {
                    self.create_dict_rule(&root)?
                };
                self.skip_ws();
            } else if c != b'#' {
                return Err(Stop::GiveUp);
            }
            self.skip_comment()?;
            match self.peek() {
                None => break,
                Some(b'\n') => self.pos += 1,
                Some(_) => return Err(Stop::GiveUp),
            }
        }
        Ok(root)
    }

    /// tomli's `NestedDict.get_or_create_nest`, from `start` at `depth`.
    fn nest(
        &self,
        start: &Bound<'py, PyDict>,
        mut depth: usize,
        key: &[u32],
        access_lists: bool,
    ) -> Read<(Bound<'py, PyDict>, usize)> {
        let mut cont = start.clone();
        for k in key {
            let name = &self.keys[*k as usize];
            let mut value = match cont.get_item(name)? {
                Some(v) => v,
                None => {
                    let d = PyDict::new(self.py);
                    cont.set_item(name, &d)?;
                    d.into_any()
                }
            };
            depth += 1;
            if access_lists {
                if let Ok(list) = value.cast::<PyList>() {
                    let last = list.len().checked_sub(1).ok_or(Stop::GiveUp)?;
                    value = list.get_item(last)?;
                    depth += 1;
                }
            }
            cont = value.cast_into::<PyDict>().map_err(|_| Stop::GiveUp)?;
            if depth >= self.max_depth {
                return Err(Stop::GiveUp);
            }
        }
        Ok((cont, depth))
    }

    fn create_dict_rule(
        &mut self,
        root: &Bound<'py, PyDict>,
    ) -> Read<(Vec<u32>, Bound<'py, PyDict>, usize)> {
        self.pos += 1;
        self.skip_ws();
        let key = self.key()?;
        if self.flags.is(&key, EXPLICIT_NEST) || self.flags.is(&key, FROZEN) {
            return Err(Stop::GiveUp);
        }
        self.flags.set(&key, EXPLICIT_NEST, false);
        let (table, depth) = self.nest(root, 0, &key, true)?;
        if !self.at(b"]") {
            return Err(Stop::GiveUp);
        }
        self.pos += 1;
        Ok((key, table, depth))
    }

    fn create_list_rule(
        &mut self,
        root: &Bound<'py, PyDict>,
    ) -> Read<(Vec<u32>, Bound<'py, PyDict>, usize)> {
        self.pos += 2;
        self.skip_ws();
        let key = self.key()?;
        if self.flags.is(&key, FROZEN) {
            return Err(Stop::GiveUp);
        }
        self.flags.unset_all(&key);
        self.flags.set(&key, EXPLICIT_NEST, false);
        // tomli's `NestedDict.append_nest_to_list`.
        let (stem, parent) = key.split_last().expect("a key has a part");
        let (cont, depth) = self.nest(root, 0, parent, true)?;
        if depth + 2 >= self.max_depth {
            return Err(Stop::GiveUp);
        }
        let name = &self.keys[*stem as usize];
        let table = PyDict::new(self.py);
        match cont.get_item(name)? {
            Some(list) => list
                .cast::<PyList>()
                .map_err(|_| Stop::GiveUp)?
                .append(&table)?,
            None => cont.set_item(name, PyList::new(self.py, [&table])?)?,
        }
        if !self.at(b"]]") {
            return Err(Stop::GiveUp);
        }
        self.pos += 2;
        Ok((key, table, depth + 2))
    }

    fn key_value_rule(
        &mut self,
        header: &[u32],
        table: &Bound<'py, PyDict>,
        depth: usize,
    ) -> Read<()> {
        let (key, value, container) = self.key_value_pair(depth)?;
        let (stem, parent) = key.split_last().expect("a key has a part");
        let absolute = |part: &[u32]| [header, part].concat();
        for i in 1..key.len() {
            let cont_key = absolute(&key[..i]);
            if self.flags.is(&cont_key, EXPLICIT_NEST) {
                return Err(Stop::GiveUp);
            }
            self.flags.add_pending(cont_key, EXPLICIT_NEST);
        }
        let frozen = if parent.is_empty() {
            self.flags.is(header, FROZEN)
        } else {
            self.flags.is(&absolute(parent), FROZEN)
        };
        if frozen {
            return Err(Stop::GiveUp);
        }
        let (nest, _) = self.nest(table, depth, parent, true)?;
        let name = &self.keys[*stem as usize];
        if nest.contains(name)? {
            return Err(Stop::GiveUp);
        }
        if container {
            self.flags.set(&absolute(&key), FROZEN, true);
        }
        nest.set_item(name, value)?;
        Ok(())
    }

    /// A key, `=` and a value in a table at `depth`; whether the value is a container.
    fn key_value_pair(&mut self, depth: usize) -> Read<(Vec<u32>, Bound<'py, PyAny>, bool)> {
        let key = self.key()?;
        if self.peek() != Some(b'=') {
            return Err(Stop::GiveUp);
        }
        self.pos += 1;
        self.skip_ws();
        let (value, container) = self.value(depth + key.len())?;
        Ok((key, value, container))
    }

    fn key(&mut self) -> Read<Vec<u32>> {
        let mut key = vec![self.key_part()?];
        self.skip_ws();
        while self.peek() == Some(b'.') {
            self.pos += 1;
            self.skip_ws();
            key.push(self.key_part()?);
            if key.len() >= self.max_depth {
                return Err(Stop::GiveUp);
            }
            self.skip_ws();
        }
        Ok(key)
    }

    fn key_part(&mut self) -> Read<u32> {
        let part = match self.peek() {
            Some(c) if is_bare(c) => {
                let start = self.pos;
                while self.peek().is_some_and(is_bare) {
                    self.pos += 1;
                }
                Part::Slice(start, self.pos)
            }
            Some(b'\'') => self.literal_str()?,
            Some(b'"') => {
                self.pos += 1;
                self.basic_str(false)?
            }
            _ => return Err(Stop::GiveUp),
        };
        let text = part_text(self.src, &part)?;
        if let Some(&n) = self.names.get(text) {
            return Ok(n);
        }
        let n = self.keys.len() as u32;
        self.keys.push(PyString::new(self.py, text));
        self.names.insert(text.to_owned(), n);
        Ok(n)
    }

    /// A value whose containers, if it is one, sit at `depth`; whether it is one.
    fn value(&mut self, depth: usize) -> Read<(Bound<'py, PyAny>, bool)> {
        let py = self.py;
        let part = match self.peek() {
            Some(b'"') if self.at(b"\"\"\"") => Some(self.multiline_str(false)?),
            Some(b'"') => {
                self.pos += 1;
                Some(self.basic_str(false)?)
            }
            Some(b'\'') if self.at(b"'''") => Some(self.multiline_str(true)?),
            Some(b'\'') => Some(self.literal_str()?),
            _ => None,
        };
        if let Some(part) = part {
            return Ok((self.string(part)?, false));
        }
        match self.peek() {
            Some(b't') if self.at(b"true") => {
                self.pos += 4;
                Ok((PyBool::new(py, true).to_owned().into_any(), false))
            }
            Some(b'f') if self.at(b"false") => {
                self.pos += 5;
                Ok((PyBool::new(py, false).to_owned().into_any(), false))
            }
            Some(b'[' | b'{') if depth >= self.max_depth => Err(Stop::GiveUp),
            Some(b'[') => Ok((self.array(depth)?.into_any(), true)),
            Some(b'{') => Ok((self.inline_table(depth)?.into_any(), true)),
            _ => Ok((self.number()?, false)),
        }
    }

    fn string(&mut self, part: Part) -> Read<Bound<'py, PyAny>> {
        let text = part_text(self.src, &part)?;
        if text.len() > SHARED_STRING {
            return Ok(PyString::new(self.py, text).into_any());
        }
        if let Some(s) = self.strings.get(text) {
            return Ok(s.clone().into_any());
        }
        let s = PyString::new(self.py, text);
        self.strings.insert(text.to_owned(), s.clone());
        Ok(s.into_any())
    }

    fn array(&mut self, depth: usize) -> Read<Bound<'py, PyList>> {
        self.pos += 1;
        let array = PyList::empty(self.py);
        self.skip_comments_and_array_ws()?;
        if self.at(b"]") {
            self.pos += 1;
            return Ok(array);
        }
        loop {
            let (value, _) = self.value(depth + 1)?;
            array.append(value)?;
            self.skip_comments_and_array_ws()?;
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return Ok(array);
                }
                Some(b',') => self.pos += 1,
                _ => return Err(Stop::GiveUp),
            }
            self.skip_comments_and_array_ws()?;
            if self.at(b"]") {
                self.pos += 1;
                return Ok(array);
            }
        }
    }

    /// tomli's `parse_inline_table`: one line, no comma after the last pair (TOML 1.0).
    fn inline_table(&mut self, depth: usize) -> Read<Bound<'py, PyDict>> {
        self.pos += 1;
        let table = PyDict::new(self.py);
        let mut flags = Flags::default();
        self.skip_ws();
        if self.at(b"}") {
            self.pos += 1;
            return Ok(table);
        }
        loop {
            let (key, value, container) = self.key_value_pair(depth)?;
            let (stem, parent) = key.split_last().expect("a key has a part");
            if flags.is(&key, FROZEN) {
                return Err(Stop::GiveUp);
            }
            let (nest, _) = self.nest(&table, depth, parent, false)?;
            let name = &self.keys[*stem as usize];
            if nest.contains(name)? {
                return Err(Stop::GiveUp);
            }
            nest.set_item(name, value)?;
            self.skip_ws();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(table);
                }
                Some(b',') => {}
                _ => return Err(Stop::GiveUp),
            }
            if container {
                flags.set(&key, FROZEN, true);
            }
            self.pos += 1;
            self.skip_ws();
        }
    }

    /// tomli's `parse_literal_str`, from the opening apostrophe.
    fn literal_str(&mut self) -> Read<Part> {
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek() {
                None => return Err(Stop::GiveUp),
                Some(b'\'') => break,
                Some(c) if illegal(c, false) => return Err(Stop::GiveUp),
                Some(_) => self.pos += 1,
            }
        }
        self.pos += 1;
        Ok(Part::Slice(start, self.pos - 1))
    }

    /// tomli's `parse_basic_str`, after the opening quote(s).
    fn basic_str(&mut self, multiline: bool) -> Read<Part> {
        let mut owned: Option<String> = None;
        let mut start = self.pos;
        loop {
            let Some(c) = self.peek() else {
                return Err(Stop::GiveUp);
            };
            if c == b'"' {
                let end = self.pos;
                if !multiline {
                    self.pos += 1;
                } else if self.at(b"\"\"\"") {
                    self.pos += 3;
                } else {
                    self.pos += 1;
                    continue;
                }
                return Ok(match owned {
                    None => Part::Slice(start, end),
                    Some(mut s) => {
                        s.push_str(self.text(start, end)?);
                        Part::Owned(s)
                    }
                });
            }
            if c == b'\\' {
                let mut s = owned.take().unwrap_or_default();
                s.push_str(self.text(start, self.pos)?);
                self.escape(&mut s, multiline)?;
                owned = Some(s);
                start = self.pos;
                continue;
            }
            if illegal(c, multiline) {
                return Err(Stop::GiveUp);
            }
            self.pos += 1;
        }
    }

    /// tomli's `parse_basic_str_escape`, at the backslash.
    fn escape(&mut self, out: &mut String, multiline: bool) -> Read<()> {
        let id = self.src.get(self.pos + 1).copied();
        self.pos += 2;
        if multiline && matches!(id, Some(b' ' | b'\t' | b'\n')) {
            if id != Some(b'\n') {
                self.skip_ws();
                match self.peek() {
                    None => return Ok(()),
                    Some(b'\n') => self.pos += 1,
                    Some(_) => return Err(Stop::GiveUp),
                }
            }
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n')) {
                self.pos += 1;
            }
            return Ok(());
        }
        let c = match id {
            Some(b'u') => self.hex_char(4)?,
            Some(b'U') => self.hex_char(8)?,
            Some(b'b') => '\u{8}',
            Some(b't') => '\t',
            Some(b'n') => '\n',
            Some(b'f') => '\u{c}',
            Some(b'r') => '\r',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            _ => return Err(Stop::GiveUp),
        };
        out.push(c);
        Ok(())
    }

    fn hex_char(&mut self, len: usize) -> Read<char> {
        let digits = self.src.get(self.pos..self.pos + len).ok_or(Stop::GiveUp)?;
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(Stop::GiveUp);
        }
        let value = u32::from_str_radix(self.text(self.pos, self.pos + len)?, 16)
            .map_err(|_| Stop::GiveUp)?;
        self.pos += len;
        // Not a Unicode scalar value (a surrogate, or beyond U+10FFFF): tomli refuses it.
        char::from_u32(value).ok_or(Stop::GiveUp)
    }

    /// tomli's `parse_multiline_str`, at the opening quotes.
    fn multiline_str(&mut self, literal: bool) -> Read<Part> {
        self.pos += 3;
        if self.at(b"\n") {
            self.pos += 1;
        }
        let (delim, part) = if literal {
            let start = self.pos;
            while !self.at(b"'''") {
                match self.peek() {
                    None => return Err(Stop::GiveUp),
                    Some(c) if illegal(c, true) => return Err(Stop::GiveUp),
                    Some(_) => self.pos += 1,
                }
            }
            self.pos += 3;
            (b'\'', Part::Slice(start, self.pos - 3))
        } else {
            (b'"', self.basic_str(true)?)
        };
        // Up to two more quotes end the string as four or five in a row.
        let mut extra = 0;
        while extra < 2 && self.peek() == Some(delim) {
            self.pos += 1;
            extra += 1;
        }
        if extra == 0 {
            return Ok(part);
        }
        let mut s = part_text(self.src, &part)?.to_owned();
        s.extend(std::iter::repeat_n(delim as char, extra));
        Ok(Part::Owned(s))
    }

    /// tomli's RE_NUMBER and `match_to_number`; dates and times (tried before numbers) and
    /// tomli's inf and nan are given up.
    fn number(&mut self) -> Read<Bound<'py, PyAny>> {
        let src = self.src;
        let digit = |p: usize| src.get(p).is_some_and(u8::is_ascii_digit);
        // RE_DATETIME needs four digits and "-", RE_LOCALTIME two digits and ":".
        if (0..4).all(|i| digit(self.pos + i)) && src.get(self.pos + 4) == Some(&b'-')
            || digit(self.pos) && digit(self.pos + 1) && src.get(self.pos + 2) == Some(&b':')
        {
            return Err(Stop::GiveUp);
        }
        // (?:_?[0-9])* in the given radix, from p.
        let digits = |mut p: usize, ok: &dyn Fn(u8) -> bool| loop {
            match src.get(p) {
                Some(b'_') if src.get(p + 1).is_some_and(|c| ok(*c)) => p += 2,
                Some(c) if ok(*c) => p += 1,
                _ => return p,
            }
        };
        let start = self.pos;
        let radix = match (src.get(start), src.get(start + 1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'o')) => 8,
            (Some(b'0'), Some(b'b')) => 2,
            _ => 10,
        };
        let plain = |s: &str| s.replace('_', "");
        if radix != 10 {
            let ok = |c: u8| (c as char).is_digit(radix);
            if !src.get(start + 2).is_some_and(|c| ok(*c)) {
                return Err(Stop::GiveUp);
            }
            let end = digits(start + 3, &ok);
            let text = plain(self.text(start + 2, end)?);
            let n = i64::from_str_radix(&text, radix).map_err(|_| Stop::GiveUp)?;
            self.pos = end;
            return Ok(PyInt::new(self.py, n).into_any());
        }
        let mut p = start;
        if matches!(src.get(p), Some(b'+' | b'-')) {
            p += 1;
        }
        match src.get(p) {
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => p = digits(p + 1, &|c| c.is_ascii_digit()),
            _ => return Err(Stop::GiveUp), // not a number (or inf, nan)
        }
        let integer_end = p;
        if src.get(p) == Some(&b'.') && digit(p + 1) {
            p = digits(p + 2, &|c| c.is_ascii_digit());
        }
        if matches!(src.get(p), Some(b'e' | b'E')) {
            let mut q = p + 1;
            if matches!(src.get(q), Some(b'+' | b'-')) {
                q += 1;
            }
            if digit(q) {
                p = digits(q + 1, &|c| c.is_ascii_digit());
            }
        }
        let text = plain(self.text(start, p)?);
        self.pos = p;
        if p == integer_end {
            // Beyond 64 bits tomli gives Python's unbounded int: given up.
            let n: i64 = text.parse().map_err(|_| Stop::GiveUp)?;
            Ok(PyInt::new(self.py, n).into_any())
        } else {
            // Rust's and Python's `float` both round correctly: the same double.
            let x: f64 = text.parse().map_err(|_| Stop::GiveUp)?;
            Ok(PyFloat::new(self.py, x).into_any())
        }
    }
}

/// A string read from the text: where it stands (no escapes in it) or its decoded text.
enum Part {
    Slice(usize, usize),
    Owned(String),
}

fn text(src: &[u8], from: usize, to: usize) -> Read<&str> {
    std::str::from_utf8(&src[from..to]).map_err(|_| Stop::GiveUp)
}

fn part_text<'a>(src: &'a [u8], part: &'a Part) -> Read<&'a str> {
    match part {
        Part::Slice(from, to) => text(src, *from, *to),
        Part::Owned(s) => Ok(s),
    }
}
