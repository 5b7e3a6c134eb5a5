//! Retargeting's costs (criterion): auto-mapping CesiumMan onto the built-in character (names
//! that say nothing, read from the skeletons' shapes), one frame retargeted by rotations and with
//! IK limbs (the per-frame cost of a live take: nothing allocates), and CesiumMan's walk
//! retargeted onto the built-in character and written into its GLB (`skinscope retarget`'s work, in memory).
//!
//! `cargo bench --bench retarget`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group};
use skinscope::anim::{
    JointMap, LocalPose, Retarget, RetargetScratch, RetargetSettings, sample_clip,
};
use skinscope::import::{self, RetargetPlan};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("retarget");
    let cesium_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb");
    let cesium = import::load(&cesium_path).unwrap();
    let builtin = skinscope::builtin::character().unwrap();
    let (s, t) = (&cesium.skeleton, &builtin.skeleton);
    g.bench_function("auto_map_cesium_onto_builtin", |b| {
        b.iter(|| black_box(JointMap::auto(s, t)))
    });
    let map = JointMap::auto(s, t);
    let clip = &cesium.clips[0].clip;
    let mut local = LocalPose::rest(s);
    let mut cursor = skinscope::anim::ClipCursor::new(clip);
    sample_clip(s, clip, 0.6, &mut cursor, &mut local).unwrap();
    for (name, ik_limbs) in [("frame_rotations", false), ("frame_ik_limbs", true)] {
        let settings = RetargetSettings {
            ik_limbs,
            ..Default::default()
        };
        let retarget = Retarget::with(s, t, map.indices(), settings);
        let mut scratch = RetargetScratch::new(s, t);
        let mut out = LocalPose::rest(t);
        g.bench_function(name, |b| {
            b.iter(|| {
                retarget
                    .frame((s, black_box(&local)), t, &mut scratch, &mut out)
                    .unwrap();
                black_box(&out);
            })
        });
    }
    // CesiumMan's walk onto the built-in character, written into its GLB.
    let mannequin = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/skinscope_mannequin.glb");
    let document = import::document::Document::open(&mannequin, &Default::default()).unwrap();
    let plan = RetargetPlan::default();
    g.sample_size(10);
    g.bench_function("cesium_walk_into_builtin_glb", |b| {
        b.iter(|| {
            let mut d = document.clone();
            let added = import::add_retargeted(
                &mut d,
                &builtin,
                std::slice::from_ref(&cesium_path),
                Some(&plan),
                import::Keys::SourceRate,
                &Default::default(),
            )
            .unwrap();
            black_box((added, d.to_glb()))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
