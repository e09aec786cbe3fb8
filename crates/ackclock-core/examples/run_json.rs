//! Runs one resolved scenario document without Python, for profiling the engine on any
//! scenario (perf, callgrind): the document is what `ackclock.scenario.resolve` returns, or
//! the `scenario` entry of a results folder's summary.json.
//!
//! `cargo run --release -p ackclock-core --example run_json -- results/summary.json`

use std::time::Instant;

use ackclock_core::Simulator;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run_json SCENARIO.json (or a results folder's summary.json)");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    // A summary.json holds the document under "scenario"; a bare document is used as it is
    // (not parsed twice: a whole parse of a 10 000-flow document takes 75 MB).
    #[derive(serde::Deserialize)]
    struct Summary {
        scenario: Option<serde::de::IgnoredAny>,
    }
    let doc = match serde_json::from_str::<Summary>(&text) {
        Ok(Summary { scenario: Some(_) }) => {
            match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(serde_json::Value::Object(mut m)) => {
                    m.remove("scenario").unwrap_or_default().to_string()
                }
                _ => text,
            }
        }
        Ok(_) => text,
        Err(e) => {
            eprintln!("{path}: not JSON: {e}");
            std::process::exit(2);
        }
    };
    let mut sim = match Simulator::from_json(&doc) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let t0 = Instant::now();
    sim.run();
    let wall = t0.elapsed().as_secs_f64();
    let hops = sim.packet_hops();
    println!("wall time      {wall:.3} s");
    println!(
        "events         {} ({:.3e}/s)",
        sim.events(),
        sim.events() as f64 / wall
    );
    println!("packet-hops    {hops} ({:.3e}/s)", hops as f64 / wall);
}
