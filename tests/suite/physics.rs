//! The physics pose: a rapier ragdoll dropped limp falls onto the floor with its bones
//! at their lengths and its joints inside their limits at every step; weights of 0 leave the
//! animation bit for bit; a stiff powered ragdoll tracks the animation; runs repeat exactly; an
//! impulse pushes the body it names; bad options are refused.

use crate::common;

use std::sync::Arc;

use glam::{Quat, Vec3};
use skinscope::character::Character;
use skinscope::perform::{Inputs, Performer, PhysicsInput};
use skinscope::physics::{DENSITY, PhysicsMode};
use skinscope::pose::CharacterPose;
use skinscope::scene::Ground;

const DT: f32 = 1.0 / 60.0;

/// A performer of `c` on the floor, and inputs playing `clip` (the rest pose for `None`) with
/// the physics `mode`.
fn performer(
    c: &Character,
    clip: Option<usize>,
    mode: PhysicsMode,
    stiffness: f32,
) -> (Performer, Inputs) {
    let height = skinscope::pose::character_height(c);
    let mut performer = Performer::new(c, Arc::new(Ground::flat(0.0)), height, None);
    let inputs = Inputs {
        clip,
        physics: PhysicsInput {
            mode: Some(mode),
            stiffness,
            weights: Vec::new(),
        },
        ..Inputs::default()
    };
    // From t = 0, as the command line starts a run.
    performer.cue(c, &inputs, 0.0);
    (performer, inputs)
}

/// One frame as the command line plays it: the clocks stepped (after the first), the animated
/// pose posed into `animated`, then the physics stage into `pose`.
fn frame(
    c: &Character,
    p: &mut Performer,
    inputs: &Inputs,
    k: usize,
    animated: &mut CharacterPose,
    pose: &mut CharacterPose,
) {
    if k > 0 {
        p.step(c, inputs, DT);
    }
    let mut request = p.request(c, inputs);
    animated.evaluate(c, &request).unwrap();
    pose.evaluate(c, &request).unwrap();
    p.apply_physics(c, inputs, &mut request, pose, if k > 0 { DT } else { 0.0 })
        .unwrap();
}

/// A joint frame's swing (the angle its X axis turned from the parent's) and twist (about X),
/// by a swing-twist split worked here.
fn swing_and_twist(parent: Quat, child: Quat) -> (f32, f32) {
    let r = parent.inverse() * child;
    let r = if r.w < 0.0 { -r } else { r };
    let swing = (parent * Vec3::X).angle_between(child * Vec3::X);
    let twist = 2.0 * r.x.atan2(r.w);
    (swing, twist)
}

#[test]
fn a_limp_ragdoll_dropped_from_rest_falls_onto_the_floor_in_one_piece() {
    let c = skinscope::builtin::character().unwrap();
    let height = skinscope::pose::character_height(&c);
    let (mut p, inputs) = performer(&c, None, PhysicsMode::Limp, 0.0);
    let (mut animated, mut pose) = (CharacterPose::new(&c), CharacterPose::new(&c));
    frame(&c, &mut p, &inputs, 0, &mut animated, &mut pose);
    let ragdoll = p.physics().ragdoll().unwrap();
    let specs = ragdoll.specs().to_vec();
    let frames: Vec<_> = ragdoll.joint_frames().map(|f| f.copied()).collect();
    assert_eq!(specs.len(), 24, "a body per weighted joint");
    // Mass from the capsules' volume, at the density of water: a plausible adult.
    let bodies: Vec<_> = ragdoll.bodies().collect();
    let mass: f32 = bodies.iter().map(|b| b.mass).sum();
    for (b, s) in bodies.iter().zip(&specs) {
        assert!(
            (b.mass - DENSITY * s.volume()).abs() <= 1e-3 * b.mass,
            "{}",
            b.mass
        );
    }
    assert!((40.0..120.0).contains(&mass), "{mass} kg");
    let hips_at_rest = bodies[0].position.y;
    let rest_length =
        |i: usize, parent: usize| specs[i].rest_position.distance(specs[parent].rest_position);
    let mut worst_stretch = 0.0f32;
    for k in 1..=180 {
        frame(&c, &mut p, &inputs, k, &mut animated, &mut pose);
        let bodies: Vec<_> = p.physics().ragdoll().unwrap().bodies().collect();
        for (i, f) in frames.iter().enumerate() {
            let Some(f) = f else { continue };
            let parent = &bodies[f.parent_body];
            // Bone lengths: each body's joint as far from its parent body's joint as at rest.
            let rest = rest_length(i, f.parent_body);
            let now = bodies[i].position.distance(parent.position);
            if rest > 1e-3 * height {
                worst_stretch = worst_stretch.max((now / rest - 1.0).abs());
            }
            // Joint limits: the swing inside its cone, the twist inside its range.
            let (swing, twist) = swing_and_twist(
                parent.rotation * f.in_parent.1,
                bodies[i].rotation * f.in_child.1,
            );
            let limits = specs[i].limits;
            let name = &c.skeleton.names()[specs[i].joint];
            assert!(
                swing <= limits.swing + 1e-3,
                "step {k}, {name}: swing {swing} > {}",
                limits.swing
            );
            assert!(
                twist.abs() <= limits.twist + 1e-3,
                "step {k}, {name}: twist {twist} > {}",
                limits.twist
            );
        }
    }
    assert!(worst_stretch < 0.01, "bones stretched by {worst_stretch}");
    let bodies: Vec<_> = p.physics().ragdoll().unwrap().bodies().collect();
    // After 3 s: fallen by more than a third of the height, and nothing through the floor by
    // more than its capsule's radius, in the bodies and in the posed skeleton.
    assert!(
        hips_at_rest - bodies[0].position.y > height / 3.0,
        "{} -> {}",
        hips_at_rest,
        bodies[0].position.y
    );
    for b in &bodies {
        let posed = Vec3::from(pose.model.as_slice()[b.joint].translation);
        assert!(b.position.y > -b.radius, "{}", c.skeleton.names()[b.joint]);
        assert!(
            posed.y > -b.radius - 1e-3 * height,
            "{} posed at {posed}",
            c.skeleton.names()[b.joint]
        );
    }
}

/// The largest distance between the animated and the physics pose's joints over 2 s of `clip`
/// powered at `stiffness`, and the frames' (joint, animated position, distance) beyond `limit`.
fn tracking(
    c: &Character,
    clip: &str,
    stiffness: f32,
    limit: f32,
) -> (f32, Vec<(usize, Vec3, f32)>) {
    let clip = c.clips.iter().position(|k| k.clip.name() == clip);
    let (mut p, inputs) = performer(c, clip, PhysicsMode::Powered, stiffness);
    let (mut animated, mut pose) = (CharacterPose::new(c), CharacterPose::new(c));
    let (mut worst, mut beyond) = (0.0f32, Vec::new());
    for k in 0..=120 {
        frame(c, &mut p, &inputs, k, &mut animated, &mut pose);
        for (j, (a, b)) in animated
            .model
            .as_slice()
            .iter()
            .zip(pose.model.as_slice())
            .enumerate()
        {
            let (a, b) = (Vec3::from(a.translation), Vec3::from(b.translation));
            let d = a.distance(b);
            worst = worst.max(d);
            if d > limit {
                beyond.push((j, a, d));
            }
        }
    }
    (worst, beyond)
}

#[test]
fn a_stiff_powered_ragdoll_tracks_the_animation() {
    let c = skinscope::builtin::character().unwrap();
    let height = skinscope::pose::character_height(&c);
    let stiff = skinscope::physics::MAX_STIFFNESS;
    let limit = 0.02 * height;
    // Waving and idling: every joint within 2% of the height at every frame.
    for clip in ["wave", "idle"] {
        let (worst, _) = tracking(&c, clip, stiff, limit);
        assert!(worst < limit, "{clip}: {worst} of a {height} character");
    }
    // Walking: the walk puts its toes up to 1.6 cm through the floor, where the ragdoll's feet
    // stop on it; everywhere else within 2%.
    let (_, beyond) = tracking(&c, "walk", stiff, limit);
    let ragdoll_radius = |j: usize| {
        let specs = skinscope::physics::body_specs(&c, height);
        specs
            .iter()
            .find(|s| s.joint == j)
            .map_or(0.0, |s| s.radius)
    };
    for (j, at, d) in beyond {
        let name = &c.skeleton.names()[j];
        assert!(
            name.starts_with("toe") && at.y < ragdoll_radius(j),
            "{name} off by {d} at {at}"
        );
    }
    // A soft one lags behind: the comparison can fail.
    let (soft, _) = tracking(&c, "wave", 2.0, limit);
    assert!(soft > 0.05 * height, "{soft}");
}

fn palette(args: &[&str]) -> String {
    let mut all = vec!["palette", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = common::skinscope(&all);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn with_every_weight_zero_the_palettes_are_the_animation_s_bit_for_bit() {
    let plain = palette(&["--clip", "walk", "--simulate", "1"]);
    let zero = palette(&[
        "--clip",
        "walk",
        "--simulate",
        "1",
        "--physics",
        "powered",
        "--physics-weight",
        "pelvis=0",
    ]);
    assert_eq!(plain, zero);
    // And a weight of 1 changes them (limp, the body falls).
    let limp = palette(&["--clip", "walk", "--simulate", "1", "--physics", "limp"]);
    assert_ne!(plain, limp);
}

#[test]
fn two_runs_with_the_same_inputs_pose_the_same_palettes() {
    let args = [
        "--clip",
        "walk",
        "--simulate",
        "1.5",
        "--physics",
        "limp",
        "--impulse",
        "head=0,0,30@0.2",
    ];
    assert_eq!(palette(&args), palette(&args));
}

#[test]
fn an_impulse_pushes_the_body_it_names_and_a_subtree_weight_frees_only_it() {
    let at = |json: &str, name: &str| common::node_at(&serde_json::from_str(json).unwrap(), name);
    let base = [
        "--clip",
        "idle",
        "--simulate",
        "1",
        "--physics",
        "powered",
        "--physics-stiffness",
        "5",
    ];
    let still = palette(&base);
    let pushed = palette(&[&base[..], &["--impulse", "head=0,0,60@0.5"]].concat());
    let moved = at(&pushed, "head") - at(&still, "head");
    assert!(moved.z > 0.05, "the head moved by {moved}");
    // Only the waving (right) arm simulated, limp: it falls from the wave; the left arm keeps the
    // animation exactly.
    let args = ["--clip", "wave", "--simulate", "0.8"];
    let plain = palette(&args);
    let arm = palette(
        &[
            &args[..],
            &["--physics", "limp", "--physics-weight", "upperarm_r=1"],
        ]
        .concat(),
    );
    assert_eq!(at(&arm, "hand_l"), at(&plain, "hand_l"));
    assert!(at(&arm, "hand_r").y < at(&plain, "hand_r").y - 0.1);
}

#[test]
fn bad_physics_options_are_refused() {
    for (args, says) in [
        (&["--physics", "limp"][..], "give --simulate"),
        (
            &[
                "--simulate",
                "1",
                "--physics",
                "limp",
                "--physics-weight",
                "tail=1",
            ][..],
            "no joint \"tail\"",
        ),
        (
            &[
                "--simulate",
                "1",
                "--physics",
                "limp",
                "--physics-weight",
                "head=2",
            ][..],
            "outside 0..1",
        ),
        (
            &[
                "--simulate",
                "1",
                "--physics",
                "limp",
                "--impulse",
                "head=1,2@0.5",
            ][..],
            "head=1,2@0.5",
        ),
        (
            &[
                "--simulate",
                "1",
                "--physics",
                "limp",
                "--impulse",
                "head=1,2,3",
            ][..],
            "JOINT=X,Y,Z@SECS",
        ),
        (
            &[
                "--simulate",
                "1",
                "--physics",
                "powered",
                "--physics-stiffness",
                "500",
            ][..],
            "0..=60",
        ),
        (
            &["--simulate", "1", "--impulse", "head=1,2,3@0"][..],
            "--physics",
        ),
    ] {
        let mut all = vec!["palette"];
        all.extend_from_slice(args);
        let (code, _, err) = common::skinscope(&all);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A skeleton without a mesh (a BVH) has no body to simulate: refused, not ignored.
    let c = skinscope::builtin::character().unwrap();
    let take = common::walk_bvh(&c, "physics-bvh");
    let (code, _, err) = common::skinscope(&[
        "palette",
        take.to_str().unwrap(),
        "--clip",
        "0",
        "--simulate",
        "0.5",
        "--physics",
        "limp",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("walk.bvh: no joint weighs a vertex"), "{err}");
}

#[test]
fn other_skeletons_ragdolls_fall_too() {
    // CesiumMan (rotated joints, a Z-up armature) and the Fox (a quadruped, names no table
    // knows: the default cone): a body per weighted joint, finite and on the floor after 2 s.
    for (file, bodies) in [("CesiumMan/CesiumMan.glb", 15), ("Fox/Fox.glb", 15)] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/gltf")
            .join(file);
        let c = skinscope::import::load(&path).unwrap();
        let height = skinscope::pose::character_height(&c);
        let (mut p, inputs) = performer(&c, None, PhysicsMode::Limp, 0.0);
        let (mut animated, mut pose) = (CharacterPose::new(&c), CharacterPose::new(&c));
        let rest_y = |pose: &CharacterPose| {
            let ys = pose.model.as_slice().iter().map(|m| m.translation.y);
            ys.fold(f32::MIN, f32::max)
        };
        frame(&c, &mut p, &inputs, 0, &mut animated, &mut pose);
        let top_at_rest = rest_y(&pose);
        for k in 1..=120 {
            frame(&c, &mut p, &inputs, k, &mut animated, &mut pose);
        }
        let r = p.physics().ragdoll().unwrap();
        assert!(
            r.specs().len() >= bodies,
            "{file}: {} bodies",
            r.specs().len()
        );
        // No joint below the floor by more than its capsule's radius.
        for b in r.bodies() {
            let name = &c.skeleton.names()[b.joint];
            assert!(
                b.position.is_finite() && b.position.y > -b.radius,
                "{file}: {name} at {}",
                b.position
            );
        }
        assert!(
            rest_y(&pose) < top_at_rest - 0.1 * height,
            "{file} did not fall"
        );
        assert!(pose.palette.iter().all(|m| m.is_finite()), "{file}");
    }
}

#[test]
fn the_panel_drops_the_ragdoll_limp_and_resets_it() {
    use egui_kittest::kittest::Queryable;
    let c = skinscope::builtin::character().unwrap();
    let height = skinscope::pose::character_height(&c);
    let viewer = skinscope::viewer::Viewer::new(c, None);
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.get_by_label("Physics (ragdoll)").click();
    h.run();
    h.get_by_label("limp").click();
    for _ in 0..90 {
        h.run();
    }
    let pelvis = |h: &egui_kittest::Harness<'_, skinscope::viewer::Viewer>| {
        let v = h.state();
        let j = v.character.skeleton.find("pelvis").unwrap();
        Vec3::from(v.pose.model.as_slice()[j].translation)
    };
    assert_eq!(
        h.state().controls.physics.input.mode,
        Some(PhysicsMode::Limp)
    );
    assert!(pelvis(&h).y < 0.5 * height, "the pelvis at {}", pelvis(&h));
    h.get_by_label_contains("24 bodies");
    h.get_by_label_contains("steps at 60 Hz");
    // Reset: the bodies back where the animation is, then falling again.
    let before = h.state().performer.physics().steps;
    h.get_by_label("Reset ragdoll").click();
    h.run();
    let after = h.state().performer.physics().steps;
    assert!(before >= 90 && after < 10, "{before} steps, then {after}");
    assert!(pelvis(&h).y > 0.5 * height);
    // Off: the animation alone.
    h.get_by_label("off").click();
    h.run();
    assert!(h.state().performer.physics().ragdoll().is_none());
}

#[test]
fn an_alt_click_pushes_the_body_under_the_cursor_away_from_the_camera() {
    use skinscope::debug::picking::ScreenView;
    let c = skinscope::builtin::character().unwrap();
    let make = || {
        let mut v = skinscope::viewer::Viewer::new(skinscope::builtin::character().unwrap(), None);
        v.controls.physics.input.mode = Some(PhysicsMode::Powered);
        v.controls.physics.input.stiffness = 5.0;
        v.controls.playback.clip = v
            .character
            .clips
            .iter()
            .position(|k| k.clip.name() == "idle")
            .unwrap();
        v
    };
    let (mut pushed, mut still) = (make(), make());
    for v in [&mut pushed, &mut still] {
        for _ in 0..10 {
            v.frame(Vec::new(), DT);
        }
    }
    // A camera 3 m in front of the character (+Z), looking back at its chest.
    let camera = skinscope::render::camera::Camera::look_at(
        Vec3::new(0.0, 1.2, 3.0),
        Vec3::new(0.0, 1.2, 0.0),
        45.0,
        0.05,
        50.0,
    );
    let clip_from_world = camera.clip_from_world(1.0);
    let view = ScreenView {
        origin: glam::Vec2::ZERO,
        size: glam::Vec2::splat(800.0),
        clip_from_world,
    };
    let head = c.skeleton.find("head").unwrap();
    let at = view
        .project(Vec3::from(pushed.pose.model.as_slice()[head].translation))
        .unwrap();
    assert!(pushed.push(at, &view, None));
    for v in [&mut pushed, &mut still] {
        for _ in 0..15 {
            v.frame(Vec::new(), DT);
        }
    }
    let z = |v: &skinscope::viewer::Viewer| v.pose.model.as_slice()[head].translation.z;
    // The view looks down -Z: the head went that way.
    assert!(
        z(&pushed) < z(&still) - 0.03,
        "{} vs {}",
        z(&pushed),
        z(&still)
    );
    // Without the physics, nothing is pushed.
    let mut off = skinscope::viewer::Viewer::new(c, None);
    off.frame(Vec::new(), DT);
    assert!(!off.push(at, &view, None));
}
