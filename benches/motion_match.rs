//! Motion matching's search per query against database size (criterion, one core): 1,000 to
//! 200,000 frames of 27 features, brute force and accelerated (bounding boxes over 16 and 64
//! frames). The database is synthetic and smooth as clips are (a random walk per clip of 600
//! frames, 60 Hz for 10 s); a query is a frame's features moved a little (the current pose
//! and a goal near one the database holds) or, every fourth, anywhere.
//!
//! `cargo bench --bench motion_match`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use skinscope::anim::FeatureIndex;

const DIMS: usize = 27;

fn noise(seed: u64) -> impl FnMut() -> f32 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

/// `frames` frames in clips of 600, each a smooth random walk from its own start; every clip's
/// last 60 frames are not candidates (their future runs past the clip).
fn database(frames: usize) -> FeatureIndex {
    let mut r = noise(frames as u64);
    let mut features = Vec::with_capacity(frames * DIMS);
    let mut at = vec![0.0f32; DIMS];
    let mut ranges = Vec::new();
    for f in 0..frames {
        if f % 600 == 0 {
            at = (0..DIMS).map(|_| 2.0 * r()).collect();
            ranges.push(f..(f + 540).min(frames));
        }
        for x in at.iter_mut() {
            *x += 0.05 * r();
        }
        features.extend_from_slice(&at);
    }
    FeatureIndex::new(DIMS, features, ranges).unwrap()
}

fn bench(c: &mut Criterion) {
    for frames in [1_000, 10_000, 50_000, 200_000] {
        let index = database(frames);
        let mut r = noise(99);
        // (query, the frame playing when it is asked)
        let queries: Vec<(Vec<f32>, usize)> = (0..64)
            .map(|q| {
                let f = (q * 7919) % frames;
                let query = if q % 4 == 3 {
                    (0..DIMS).map(|_| 2.0 * r()).collect()
                } else {
                    index.row(f).iter().map(|x| x + 0.1 * r()).collect()
                };
                (query, f)
            })
            .collect();
        let mut k = 0;
        c.bench_function(&format!("match/brute/{frames}"), |b| {
            b.iter(|| {
                k = (k + 1) % queries.len();
                black_box(index.brute(&queries[k].0).unwrap())
            })
        });
        c.bench_function(&format!("match/accelerated/{frames}"), |b| {
            b.iter(|| {
                k = (k + 1) % queries.len();
                black_box(index.search(&queries[k].0).unwrap())
            })
        });
        c.bench_function(&format!("match/from_current/{frames}"), |b| {
            b.iter(|| {
                k = (k + 1) % queries.len();
                let (query, current) = &queries[k];
                black_box(index.search_from(query, Some(*current)).unwrap())
            })
        });
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
