//! Motion matching's search per query against database size (criterion, one core): 1,000 to
//! 200,000 frames of 27 features, brute force and accelerated (bounding boxes over 16 and 64
//! frames). The database is synthetic and smooth as clips are (a random walk per clip of 600
//! frames, 60 Hz for 10 s); a query is a frame's features moved a little (the current pose
//! and a goal near one the database holds) or, every fourth, anywhere.
//!
//! Then the built-in mannequin's own database (its idle and generated locomotion, 1,791
//! frames): a query is a frame's pose features with another frame's trajectory (the goal
//! asking for something else), searched from that frame, as the performer asks.
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
        // The two kinds apart: a query near a frame (as the performer asks: the frame
        // playing's pose and a goal the database holds) and one anywhere.
        for (kind, keep) in [("near", 0), ("anywhere", 3)] {
            let some: Vec<&(Vec<f32>, usize)> = (0..queries.len())
                .filter(|q| (q % 4 == 3) == (keep == 3))
                .map(|q| &queries[q])
                .collect();
            c.bench_function(&format!("match/from_current_{kind}/{frames}"), |b| {
                b.iter(|| {
                    k = (k + 1) % some.len();
                    let (query, current) = some[k];
                    black_box(index.search_from(query, Some(*current)).unwrap())
                })
            });
        }
    }
}

fn bench_mannequin(c: &mut Criterion) {
    use skinscope::pose::{FEATURES, MatchWeights, build_database};
    let character = skinscope::builtin::character().unwrap();
    let clips = skinscope::builtin::motion_clips(&character);
    let db = build_database(&character, &clips, &MatchWeights::default()).unwrap();
    let frames = db.frames.len();
    let queries: Vec<(Vec<f32>, usize)> = (0..64)
        .map(|q| {
            let (f, g) = ((q * 7919) % frames, (q * 104_729 + 13) % frames);
            let mut query = db.raw[f * FEATURES..(f + 1) * FEATURES].to_vec();
            query[15..].copy_from_slice(&db.raw[g * FEATURES + 15..(g + 1) * FEATURES]);
            (query, f)
        })
        .collect();
    let mut scratch = vec![0.0; FEATURES];
    let mut k = 0;
    c.bench_function(&format!("match/mannequin/brute/{frames}"), |b| {
        b.iter(|| {
            k = (k + 1) % queries.len();
            db.normalizer.apply(&queries[k].0, &mut scratch);
            black_box(db.index.brute(&scratch).unwrap())
        })
    });
    c.bench_function(&format!("match/mannequin/from_current/{frames}"), |b| {
        b.iter(|| {
            k = (k + 1) % queries.len();
            let (query, current) = &queries[k];
            black_box(db.nearest(query, Some(*current), &mut scratch).unwrap())
        })
    });
}

criterion_group!(benches, bench, bench_mannequin);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
