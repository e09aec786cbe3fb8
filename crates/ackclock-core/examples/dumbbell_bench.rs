//! Whole-scenario benchmark: N Reno flows over a dumbbell, reporting events/s,
//! packet-hops/s and delivered packets/s.
//!
//! `cargo run --release -p ackclock-core --example dumbbell_bench -- [flows] [seconds]`
//! Default: 10 flows, 1 Gb/s 10 ms bottleneck with a 1000-packet buffer, 10 Gb/s 1 ms
//! access links, 1448 B segments (1500 B... with 52 B headers), 30 s simulated.

use std::time::Instant;

use ackclock_core::fixtures::{dumbbell, ns2_tcp};
use ackclock_core::Simulator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let mut tcp = ns2_tcp();
    tcp.packet_size = 1448;
    tcp.header_size = 52;
    tcp.ack_size = 52;
    tcp.window = 10_000;
    let sc = dumbbell(n, 10e9, 1, 1e9, 10, 1000, tcp, secs);
    let mut sim = Simulator::new(sc).expect("valid scenario");
    let t0 = Instant::now();
    sim.run();
    let wall = t0.elapsed().as_secs_f64();
    let r = sim.results().expect("finished");
    let tput: f64 = r.flows.f64_column("throughput_mbps").unwrap().iter().sum();
    let s = &r.summary;
    println!(
        "scenario            {} flows, 1 Gb/s 10 ms bottleneck, 1000-pkt buffer, {secs} s",
        n
    );
    println!("wall time           {wall:.3} s");
    println!("events              {}", s.events);
    println!("events/s            {:.3e}", s.events as f64 / wall);
    println!("packet-hops         {}", s.packet_hops);
    println!("packet-hops/s       {:.3e}", s.packet_hops as f64 / wall);
    println!(
        "delivered packets/s {:.3e}",
        s.packets_delivered as f64 / wall
    );
    println!("aggregate throughput {tput:.1} Mb/s");
}
