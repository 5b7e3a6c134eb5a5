//! The pose as it leaves each stage of the frame (`palette --stage`, the stage ghosts): each
//! stage's pose equals a run whose later stages are off, and the last (physics) is the frame's
//! pose.

use crate::common;

use common::skinscope;
use glam::Mat4;
use serde_json::Value;
use skinscope_testkit::world_from_joint;

fn palette(args: &[&str]) -> Value {
    let mut all = vec!["palette", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = skinscope(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Every joint's `world_from_joint`, by name.
fn joints(v: &Value) -> Vec<(String, Mat4)> {
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let name = n["name"].as_str().unwrap().to_string();
            let m = world_from_joint(v, &name);
            (name, m)
        })
        .collect()
}

/// The largest difference of any joint's matrix between two poses.
fn largest_difference(a: &Value, b: &Value) -> f32 {
    let (a, b) = (joints(a), joints(b));
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(&b)
        .map(|((na, ma), (nb, mb))| {
            assert_eq!(na, nb);
            (*ma - *mb)
                .to_cols_array()
                .iter()
                .fold(0f32, |m, d| m.max(d.abs()))
        })
        .fold(0.0, f32::max)
}

const CLIP: [&str; 4] = ["--clip", "walk", "--time", "0.4"];
/// Root motion removed, an override layer (the wave on the right arm), an additive one and a
/// reach target for the left hand: each stage after the raw sample changes the pose.
const LATER: [&str; 8] = [
    "--root-motion",
    "in-place",
    "--layer",
    "wave:clavicle_r:1",
    "--additive",
    "twist:0.5",
    "--ik",
    "hand_l=0.35,1.1,0.3",
];

/// The clip with every later stage's options, and `extra`.
fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    [&CLIP[..], &LATER[..], extra].concat()
}

#[test]
fn each_stage_equals_the_run_with_the_later_stages_off() {
    let plain = palette(&CLIP);
    let raw = palette(&with(&["--stage", "raw"]));
    assert_eq!(raw["stage"], "raw");
    assert!(
        largest_difference(&raw, &plain) < 1e-6,
        "raw differs from the plain clip"
    );

    // Root motion in place: the pelvis's travel is gone, and that is the only change.
    let in_place = palette(&[&CLIP[..], &LATER[..2]].concat());
    let root = palette(&with(&["--stage", "root-motion"]));
    assert!(largest_difference(&root, &in_place) < 1e-6);
    assert!(
        largest_difference(&root, &raw) > 1e-3,
        "root motion removed nothing"
    );

    // The layers: the run with the two layers and no IK.
    let layered = palette(&[&CLIP[..], &LATER[..6]].concat());
    let layers = palette(&with(&["--stage", "layers"]));
    assert!(largest_difference(&layers, &layered) < 1e-6);
    assert!(
        largest_difference(&layers, &root) > 1e-2,
        "the layers changed nothing"
    );

    // Reach IK is the last stage on: it is the frame's pose, and moved the left hand.
    let full = palette(&with(&[]));
    let reach = palette(&with(&["--stage", "reach-ik"]));
    assert!(largest_difference(&reach, &full) < 1e-6);
    let hand = |v: &Value| world_from_joint(v, "hand_l").w_axis.truncate();
    let target = glam::Vec3::new(0.35, 1.1, 0.3);
    assert!(
        hand(&reach).distance(target) < hand(&layers).distance(target) - 0.05,
        "reach IK did not bring the hand toward its target: {} then {}",
        hand(&layers),
        hand(&reach)
    );
    // Stages that are off pass the pose on unchanged.
    for stage in ["foot-ik", "physics"] {
        let after = palette(&with(&["--stage", stage]));
        assert!(largest_difference(&after, &full) < 1e-6, "{stage}");
    }
    for stage in ["transition", "external"] {
        let after = palette(&with(&["--stage", stage]));
        assert!(largest_difference(&after, &root) < 1e-6, "{stage}");
    }
}

#[test]
fn the_pose_after_physics_is_the_final_pose_and_differs_from_the_animation_under_it() {
    let run = [
        "--clip",
        "walk",
        "--simulate",
        "0.5",
        "--physics",
        "limp",
        "--physics-weight",
        "thigh_l=1",
    ];
    let full = palette(&run);
    let physics = palette(&[&run[..], &["--stage", "physics"]].concat());
    assert!(largest_difference(&physics, &full) < 1e-6);
    // Under it, the animation: the limp leg has fallen away from it.
    let animated = palette(&[&run[..], &["--stage", "foot-ik"]].concat());
    let shin = |v: &Value| world_from_joint(v, "shin_l").w_axis.truncate();
    assert!(
        shin(&animated).distance(shin(&physics)) > 1e-3,
        "the limp leg sits on the animation: {} and {}",
        shin(&animated),
        shin(&physics)
    );
}

#[test]
fn an_unknown_stage_is_refused_with_the_stage_names() {
    let (code, _, err) = skinscope(&["palette", "--stage", "ik"]);
    assert_eq!(code, 2);
    assert!(err.contains("no stage \"ik\""), "{err}");
    assert!(err.contains("raw, root-motion, transition"), "{err}");
}
