//! A fast reader of Tmix connection-vector files for the front end (the format of ns-2.35's
//! Tmix: Weigle et al., "Tmix: A Tool for Generating Realistic TCP Application Workloads in
//! ns-2", ACM CCR 36(3), 2006; `python/ackclock/tmix.py` describes it line by line).
//!
//! Seed 003's background replays 150 000 connections per direction, some two million lines,
//! which the Python reader takes seconds to parse. This one reads only plain, well-formed
//! files (ASCII, one known line shape after another) and returns `None` at the first thing it
//! is not sure of; the Python reader then reads the file itself and reports the mistake with
//! its line. What it accepts, it reads to the same values as the Python reader (the tests of
//! `tests/integration/test_tmix.py` compare the two).

/// The vectors, one list per field, as the resolved document carries them
/// (`scenario.rs`, `tmix_columns`).
#[derive(Debug, Default, PartialEq)]
pub struct VectorColumns {
    pub start_ps: Vec<u64>,
    pub concurrent: Vec<bool>,
    pub rtt_ps: Vec<u64>,
    pub loss_initiator: Vec<f64>,
    pub loss_acceptor: Vec<f64>,
    /// The `w` line's two windows in bytes (0 without one).
    pub window_initiator: Vec<u32>,
    pub window_acceptor: Vec<u32>,
    /// A SEQ vector's trailing `t` (its closing write's wait, ns-2.35's per-connection
    /// `fin_time_`); 0 without one.
    pub fin_wait_ps: Vec<u64>,
    pub adus: Vec<u32>,
    pub adu_side: Vec<u8>,
    pub adu_bytes: Vec<u64>,
    pub adu_wait_ps: Vec<u64>,
}

/// A time in microseconds as whole picoseconds, rounded half to even as Python's `round`.
fn micros(x: f64) -> Option<u64> {
    let ps = (x * 1e6).round_ties_even();
    (x.is_finite() && x >= 0.0 && ps < 1.8e19).then_some(ps as u64)
}

/// One non-negative, finite number of microseconds as picoseconds.
fn one_time(args: &[&str]) -> Option<u64> {
    match args {
        [a] => micros(a.parse().ok()?),
        _ => None,
    }
}

/// An ADU's size: one whole, non-negative number of bytes.
fn bytes(args: &[&str]) -> Option<u64> {
    let [a] = args else {
        return None;
    };
    if let Ok(b) = a.parse::<u64>() {
        return Some(b);
    }
    let x: f64 = a.parse().ok()?;
    (x.is_finite() && x >= 0.0 && x == x.trunc() && x < 1.8e19).then_some(x as u64)
}

/// A `w` line's window: ns-2.35 reads it with `%d` (whole bytes); a value past `u32`, a
/// negative or a non-finite one is left to the careful reader.
fn window_bytes(x: f64) -> Option<u32> {
    (x.is_finite() && (0.0..=u32::MAX as f64).contains(&x)).then_some(x.trunc() as u32)
}

/// The vectors of `text`, or `None` when it is not a plain well-formed file.
pub fn read(text: &str) -> Option<VectorColumns> {
    // Python's str.split and str.splitlines also break at these control characters.
    if !text.is_ascii() || text.bytes().any(|b| matches!(b, 0x0b | 0x0c | 0x1c..=0x1f)) {
        return None;
    }
    let mut v = VectorColumns::default();
    let mut started = false;
    let mut concurrent = false;
    let mut seq_wait = 0;
    // A SEQ `t` line not yet followed by an ADU: at the connection's end, its closing wait.
    let mut seq_pending = false;
    let mut conc_wait = [0u64; 2];
    let mut words: Vec<&str> = Vec::with_capacity(8);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.contains('\r') {
            return None; // a bare CR: another line break for Python
        }
        let line = line.split('#').next().unwrap_or("");
        words.clear();
        words.extend(line.split([' ', '\t']).filter(|w| !w.is_empty()));
        let Some((&key, args)) = words.split_first() else {
            continue;
        };
        match key {
            "SEQ" | "CONC" => {
                let first = args.first()?.parse::<f64>().ok()?;
                for a in &args[1..] {
                    a.parse::<f64>().ok()?;
                }
                if started && v.adus.last() == Some(&0) {
                    return None;
                }
                if seq_pending {
                    *v.fin_wait_ps.last_mut()? = closing_wait(seq_wait);
                }
                started = true;
                concurrent = key == "CONC";
                v.start_ps.push(micros(first)?);
                v.concurrent.push(concurrent);
                v.rtt_ps.push(0);
                v.loss_initiator.push(0.0);
                v.loss_acceptor.push(0.0);
                v.window_initiator.push(0);
                v.window_acceptor.push(0);
                v.fin_wait_ps.push(0);
                v.adus.push(0);
                seq_wait = 0;
                seq_pending = false;
                conc_wait = [0, 0];
            }
            _ if !started => return None,
            "w" => {
                let mut w = [0u32; 2];
                for (k, a) in args.iter().enumerate() {
                    let x = a.parse::<f64>().ok()?;
                    if args.len() == 2 {
                        w[k] = window_bytes(x)?;
                    }
                }
                *v.window_initiator.last_mut()? = w[0];
                *v.window_acceptor.last_mut()? = w[1];
            }
            "r" => *v.rtt_ps.last_mut()? = one_time(args)?,
            "l" => {
                let [a, b] = args else {
                    return None;
                };
                let (a, b): (f64, f64) = (a.parse().ok()?, b.parse().ok()?);
                if !((0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b)) {
                    return None;
                }
                *v.loss_initiator.last_mut()? = a;
                *v.loss_acceptor.last_mut()? = b;
            }
            ">" | "<" if !concurrent => {
                v.adu_side.push(u8::from(key == "<"));
                v.adu_bytes.push(bytes(args)?);
                v.adu_wait_ps.push(seq_wait);
                *v.adus.last_mut()? += 1;
                seq_wait = 0;
                seq_pending = false;
            }
            "t" if !concurrent => {
                seq_wait = one_time(args)?;
                seq_pending = true;
            }
            "c>" | "c<" if concurrent => {
                let side = usize::from(key == "c<");
                v.adu_side.push(side as u8);
                v.adu_bytes.push(bytes(args)?);
                v.adu_wait_ps.push(conc_wait[side]);
                *v.adus.last_mut()? += 1;
                conc_wait[side] = 0;
            }
            "t>" | "t<" if concurrent => {
                conc_wait[usize::from(key == "t<")] = one_time(args)?;
            }
            _ => return None,
        }
    }
    if seq_pending {
        *v.fin_wait_ps.last_mut()? = closing_wait(seq_wait);
    }
    (started && v.adus.last() != Some(&0)).then_some(v)
}

/// A trailing `t` as the closing write's wait: ns-2.35's reader makes a wait of 0 one
/// microsecond (`Tmix::read_one_cvec`, "force a 1 micro sec wait").
fn closing_wait(ps: u64) -> u64 {
    ps.max(1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_seq_and_conc_connections() {
        let text = "# comment\nSEQ 0 4 0 1\nw 65535 65535\nr 50000\nl 0.1 0.2\n> 350\nt 5000\n\
                    < 12000 # trailing\r\n\nCONC 400000 2 1 0 3\nc> 5000\nt> 100000\nc> 7000\n\
                    t< 3\nc< 64000\n";
        let v = read(text).expect("well formed");
        assert_eq!(v.start_ps, vec![0, 400_000_000_000]);
        assert_eq!(v.concurrent, vec![false, true]);
        assert_eq!(v.rtt_ps, vec![50_000_000_000, 0]);
        assert_eq!((v.loss_initiator[0], v.loss_acceptor[0]), (0.1, 0.2));
        assert_eq!(v.window_initiator, vec![65535, 0]);
        assert_eq!(v.window_acceptor, vec![65535, 0]);
        assert_eq!(v.adus, vec![2, 3]);
        assert_eq!(v.adu_side, vec![0, 1, 0, 0, 1]);
        assert_eq!(v.adu_bytes, vec![350, 12000, 5000, 7000, 64000]);
        assert_eq!(
            v.adu_wait_ps,
            vec![0, 5_000_000_000, 0, 100_000_000_000, 3_000_000]
        );
    }

    #[test]
    fn a_seq_vectors_trailing_think_time_is_its_closing_wait() {
        // ns-2.35's Tmix::read_one_cvec: a `t` after the last ADU becomes the closing ADU's
        // wait (0 forced to 1 us); a CONC vector's trailing waits are not carried.
        let text = "SEQ 0 2\n> 350\nt 5000\n< 12000\nt 300000\nSEQ 1 1\n> 1\n\
                    SEQ 2 1\n> 1\nt 0\nCONC 3 1 1\nc> 5\nt> 7\n";
        let v = read(text).expect("well formed");
        assert_eq!(v.fin_wait_ps, vec![300_000_000_000, 0, 1_000_000, 0]);
        assert_eq!(v.adu_wait_ps, vec![0, 5_000_000_000, 0, 0, 0]);
    }

    #[test]
    fn leaves_anything_unusual_to_the_careful_reader() {
        for text in [
            "",
            "> 100\n",
            "SEQ 0 1\n",
            "SEQ 0 1\n> -1\n",
            "SEQ 0 1\n> 1.5\n",
            "SEQ 0 1\n> 1_000\n",
            "SEQ 0 1\nr nan\n> 1\n",
            "SEQ 0 1\nl 0.5\n> 1\n",
            "SEQ 0 1\nc> 1\n",
            "SEQ nan 1\n> 1\n",
            "SEQ 0 1\n> 1\rt 5\n",
            "SEQ 0 1\n> 1 \u{a0}\n",
            "SEQ 0 0\nSEQ 5 1\n> 1\n",
            "SEQ 0 1\nw -1 5\n> 1\n",
        ] {
            assert_eq!(read(text), None, "{text:?}");
        }
    }

    #[test]
    fn rounds_microseconds_half_to_even_as_python() {
        // 0.0000005 us is 0.5 ps: Python's round gives 0; 2.5e-6 us, 2.5 ps: 2.
        assert_eq!(micros(0.0000005), Some(0));
        assert_eq!(micros(0.0000025), Some(2));
        assert_eq!(micros(1.5), Some(1_500_000));
    }
}
