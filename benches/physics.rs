//! The physics pose's cost per character (criterion): one fixed 60 Hz step of the ragdoll
//! (`physics/step/*`, powered toward the walk, and limp) next to that character's pose update
//! (`physics/pose/*`: evaluating the frame's request, every stage and the palettes), on the
//! built-in mannequin (24 bodies) and CesiumMan.
//!
//! Then the mannequin's XPBD muscles (`muscles/*`).
//!
//! `cargo bench --bench physics`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group};
use skinscope::anim::JointMask;
use skinscope::character::Character;
use skinscope::physics::{PhysicsMode, Ragdoll};
use skinscope::pose::{CharacterPose, PoseRequest};
use skinscope::scene::Ground;

const DT: f32 = 1.0 / 60.0;

fn characters() -> Vec<(&'static str, Character)> {
    let man = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb");
    vec![
        ("mannequin", skinscope::builtin::character().unwrap()),
        (
            "cesium_man",
            skinscope::import::load(&man).expect("CesiumMan from ../shared/gltf"),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, character) in characters() {
        let height = skinscope::pose::character_height(&character);
        let clip = character
            .clips
            .iter()
            .position(|k| k.clip.name() == "walk")
            .unwrap_or(0);
        let duration = character.clips[clip].duration_secs().max(DT);
        let mut pose = CharacterPose::new(&character);
        let mut t = 0.0f32;
        c.bench_function(&format!("physics/pose/{name}"), |b| {
            b.iter(|| {
                t = (t + DT) % duration;
                pose.evaluate(&character, &PoseRequest::clip(clip, t))
                    .unwrap();
                black_box(&pose.palette);
            })
        });
        // The walk's frames, posed once, for the ragdoll to chase.
        let frames: Vec<CharacterPose> = (0..60)
            .map(|k| {
                let mut p = CharacterPose::new(&character);
                let at = (k as f32 * DT) % duration;
                p.evaluate(&character, &PoseRequest::clip(clip, at))
                    .unwrap();
                p
            })
            .collect();
        let weights = JointMask::uniform(&character.skeleton, 1.0);
        for (mode, label) in [
            (PhysicsMode::Powered, "powered"),
            (PhysicsMode::Limp, "limp"),
        ] {
            let mut ragdoll = Ragdoll::new(&character, &Ground::flat(0.0), height).unwrap();
            let mut k = 0usize;
            c.bench_function(&format!("physics/step/{label}/{name}"), |b| {
                b.iter(|| {
                    k += 1;
                    let target = &frames[k % frames.len()].model;
                    ragdoll.step(target, &weights, (mode, 20.0), DT);
                })
            });
        }
    }
}

/// The mannequin's ten XPBD muscles (740 particles, 10 substeps): one 60 Hz step toward the
/// walk's frames (`muscles/step`), and the step with the rigid positions and the frame the skin
/// follows, as the performer runs it (`muscles/stage`).
fn muscles(c: &mut Criterion) {
    let character = skinscope::builtin::character().unwrap();
    let rig = std::sync::Arc::new(
        skinscope::builtin::own_muscles(&character)
            .unwrap()
            .unwrap(),
    );
    let walk = (character.clips.iter())
        .position(|k| k.clip.name() == "walk")
        .unwrap_or(0);
    let duration = character.clips[walk].duration_secs().max(DT);
    let mut moved = Vec::new();
    let rigid: Vec<Vec<glam::Vec3>> = (0..60)
        .map(|k| {
            let mut p = CharacterPose::new(&character);
            let at = (k as f32 * DT) % duration;
            p.evaluate(&character, &PoseRequest::clip(walk, at))
                .unwrap();
            rig.moved_into(p.model.as_slice(), &mut moved);
            let mut out = vec![glam::Vec3::ZERO; rig.system.particle_count()];
            rig.system.rigid_into(&moved, &mut out);
            out
        })
        .collect();
    let mut sim = skinscope::anim::MuscleSim::new(&rig.system, &rigid[0]);
    let mut k = 0usize;
    c.bench_function("muscles/step/mannequin", |b| {
        b.iter(|| {
            k += 1;
            sim.step(&rig.system, &rigid[k % rigid.len()], DT, &rig.params);
        })
    });
    let mut performer = skinscope::perform::Performer::new(
        &character,
        std::sync::Arc::new(Ground::flat(0.0)),
        1.8,
        None,
    );
    let inputs = skinscope::perform::Inputs {
        clip: Some(walk),
        muscles: Some(skinscope::perform::MuscleInput {
            rig: rig.clone(),
            dynamic: true,
        }),
        ..Default::default()
    };
    let mut pose = CharacterPose::new(&character);
    let mut request = PoseRequest::clip(walk, 0.0);
    let mut t = 0.0f32;
    c.bench_function("muscles/stage/mannequin", |b| {
        b.iter(|| {
            t = (t + DT) % duration;
            request.clip = Some(skinscope::pose::ClipTime {
                clip: walk,
                time_secs: t,
            });
            pose.evaluate(&character, &request).unwrap();
            performer.apply_muscles(&inputs, &mut request, &mut pose, DT);
            black_box(&pose.muscles);
        })
    });
}

criterion_group!(benches, bench, muscles);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
