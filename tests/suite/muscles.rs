//! XPBD muscles: the solver against its promises on a two-bone arm built here (an
//! upper arm along +X from the origin, a forearm from x = 0.3 hinged about +Z at the elbow),
//! then the character's muscles through the performer, the CLI and the GPU.

use glam::{Affine3A, Quat, Vec3};
use skinscope::anim::{MuscleParams, MuscleShape, MuscleSim, MuscleSystem};
use std::sync::Arc;

const ELBOW: Vec3 = Vec3::new(0.3, 0.0, 0.0);

/// A biceps from the upper arm (joint 0) to just past the elbow on the forearm (joint 1).
fn biceps() -> MuscleSystem {
    let shape = MuscleShape {
        name: "biceps".into(),
        origin: Vec3::new(0.05, 0.0, 0.02),
        insertion: Vec3::new(0.34, 0.0, 0.02),
        joints: [0, 1],
        radius: 0.022,
        activation: 0.0,
    };
    MuscleSystem::new(&[shape], MuscleParams::default().density)
}

/// Each joint's motion since bind with the elbow flexed by `degrees` (the forearm turning
/// toward +Z, so the biceps on the +Z side shortens).
fn flexed(degrees: f32) -> [Affine3A; 2] {
    let turn = Quat::from_rotation_y(-degrees.to_radians());
    let about_elbow = Affine3A::from_translation(ELBOW)
        * Affine3A::from_quat(turn)
        * Affine3A::from_translation(-ELBOW);
    [Affine3A::IDENTITY, about_elbow]
}

fn rigid(system: &MuscleSystem, moved: &[Affine3A]) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; system.particle_count()];
    system.rigid_into(moved, &mut out);
    out
}

/// Steps `frames` 60 Hz frames at `moved` (the flexion ramped over the first `ramp` frames).
fn run(
    system: &MuscleSystem,
    params: &MuscleParams,
    degrees: f32,
    ramp: usize,
    frames: usize,
) -> MuscleSim {
    let mut sim = MuscleSim::new(system, &rigid(system, &flexed(0.0)));
    for f in 1..=frames {
        let d = degrees * (f.min(ramp) as f32 / ramp.max(1) as f32);
        sim.step(system, &rigid(system, &flexed(d)), 1.0 / 60.0, params);
    }
    sim
}

fn max_distance(a: &[Vec3], b: &[Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f32::max)
}

fn positions(sim: &MuscleSim) -> Vec<Vec3> {
    sim.positions().collect()
}

#[test]
fn a_muscle_on_still_bones_comes_to_rest_and_stays() {
    let system = biceps();
    let params = MuscleParams::default();
    let mut sim = run(&system, &params, 90.0, 20, 20);
    let at = rigid(&system, &flexed(90.0));
    for _ in 0..300 {
        sim.step(&system, &at, 1.0 / 60.0, &params);
    }
    let settled = positions(&sim);
    for _ in 0..120 {
        sim.step(&system, &at, 1.0 / 60.0, &params);
    }
    let moved = max_distance(&settled, &positions(&sim));
    println!("moved over the last 2 s: {moved:e}");
    assert!(moved < 1e-6, "moved {moved:e} after settling");
    // And it settled bulged: out of the rigid shape by millimetres.
    let mut d = vec![Vec3::ZERO; system.particle_count()];
    sim.displacement_into(&mut d);
    let bulge = d.iter().map(|v| v.length()).fold(0.0, f32::max);
    println!("bulge {bulge}");
    assert!(bulge > 1e-3, "bulge {bulge}");
}

#[test]
fn under_a_120_degree_flexion_the_biceps_keeps_its_volume_and_shortens() {
    let system = biceps();
    let params = MuscleParams::default();
    let body = &system.bodies[0];
    let mut sim = MuscleSim::new(&system, &rigid(&system, &flexed(0.0)));
    let mut worst = 0.0f64;
    for f in 1..=150 {
        let d = 120.0 * (f.min(60) as f32 / 60.0);
        sim.step(&system, &rigid(&system, &flexed(d)), 1.0 / 60.0, &params);
        worst = worst.max((sim.volume(body) / f64::from(body.rest_volume) - 1.0).abs());
    }
    let length = sim.length(body);
    println!(
        "volume off by {worst}, length {length} of {}",
        body.rest_length
    );
    assert!(worst < 0.02, "volume off by {worst}");
    assert!(
        length < 0.8 * f64::from(body.rest_length),
        "length {length}"
    );
}

#[test]
fn jiggle_decays_once_the_motion_stops() {
    let system = biceps();
    let params = MuscleParams::default();
    // A quick flexion, then still: the energy above the settled state's (kinetic plus the
    // compliant constraints' C²/2α) falls frame after frame. The single-iteration solver's fixed
    // point sits a hair above the energy's minimum, so a rise of 1e-5 of the jiggle's energy is
    // allowed.
    let mut sim = run(&system, &params, 90.0, 8, 8);
    let at = rigid(&system, &flexed(90.0));
    let mut energies = Vec::new();
    for _ in 0..180 {
        sim.step(&system, &at, 1.0 / 60.0, &params);
        energies.push(sim.energy(&system, &params));
    }
    let mut settled = sim.clone();
    for _ in 0..600 {
        settled.step(&system, &at, 1.0 / 60.0, &params);
    }
    let floor = settled.energy(&system, &params);
    let jiggle = energies[0] - floor;
    println!(
        "energy {:e} .. {:e}, settled {floor:e}",
        energies[0], energies[179]
    );
    assert!(jiggle > 1e-4 * floor, "no jiggle to decay: {jiggle:e}");
    for (k, pair) in energies.windows(2).enumerate() {
        assert!(
            pair[1] <= pair[0] + 1e-5 * jiggle,
            "frame {k}: {:e} -> {:e}",
            pair[0],
            pair[1]
        );
    }
    assert!(
        energies[59] - floor < 0.05 * jiggle,
        "after 1 s: {:e}",
        energies[59] - floor
    );
    assert!(energies[179] - floor < 1e-3 * jiggle);
}

#[test]
fn the_step_size_barely_changes_the_settled_shape() {
    let system = biceps();
    let settled = |substeps: u32| {
        let params = MuscleParams {
            substeps,
            ..MuscleParams::default()
        };
        let mut sim = run(&system, &params, 100.0, 30, 400);
        let mut d = vec![Vec3::ZERO; system.particle_count()];
        sim.displacement_into(&mut d);
        sim.step(
            &system,
            &rigid(&system, &flexed(100.0)),
            1.0 / 60.0,
            &params,
        );
        d
    };
    let (coarse, fine) = (settled(10), settled(40));
    let scale = fine.iter().map(|v| v.length()).fold(0.0, f32::max);
    let off = max_distance(&coarse, &fine);
    println!("substeps 10 vs 40: {off:e} of a {scale:e} displacement");
    assert!(off < 0.01 * scale, "{off:e} of {scale:e}");
}

#[test]
fn the_simulation_is_deterministic() {
    let system = biceps();
    let params = MuscleParams::default();
    let a = run(&system, &params, 110.0, 15, 90);
    let b = run(&system, &params, 110.0, 15, 90);
    assert_eq!(a, b);
}

use crate::common;

use skinscope::perform::{Inputs, MuscleInput, Performer};
use skinscope::pose::{CharacterPose, MuscleRig, PoseRequest};
use skinscope::posed::PosedVertices;

/// The mannequin at rest with its left elbow flexed by `degrees` toward the front (+Z), the
/// rotation about the scene's axis across the arm and +Z.
fn elbow_flexed(c: &skinscope::character::Character, degrees: f32) -> CharacterPose {
    let mut pose = CharacterPose::at_rest(c);
    let s = &c.skeleton;
    let (upper, fore) = (s.find("upperarm_l").unwrap(), s.find("forearm_l").unwrap());
    let model = pose.model.as_slice();
    let along =
        (Vec3::from(model[fore].translation) - Vec3::from(model[upper].translation)).normalize();
    let axis = along.cross(Vec3::Z).normalize();
    let world_turn = Quat::from_axis_angle(axis, degrees.to_radians());
    let (_, joint_rotation, _) = model[fore].to_scale_rotation_translation();
    let mut local = pose.local().clone();
    let t = &mut local.as_mut_slice()[fore];
    // parent_from_joint' = parent_from_joint * joint_from_world * turn * world_from_joint.
    t.rotation = (t.rotation * joint_rotation.inverse() * world_turn * joint_rotation).normalize();
    pose.compose_local(c, &local, skinscope::pose::PaletteMode::Animated)
        .unwrap();
    pose
}

/// The mannequin's own muscles, settled on `pose` through the performer (as `pose --muscles
/// default` poses a frame).
fn settled_on(c: &skinscope::character::Character, pose: &mut CharacterPose) -> Arc<MuscleRig> {
    let rig = Arc::new(skinscope::builtin::own_muscles(c).unwrap().unwrap());
    let mut performer = Performer::new(c, Arc::new(skinscope::scene::Ground::flat(0.0)), 1.8, None);
    let inputs = Inputs {
        muscles: Some(MuscleInput {
            rig: rig.clone(),
            dynamic: false,
        }),
        ..Inputs::default()
    };
    let mut request = PoseRequest::default();
    performer.apply_muscles(&inputs, &mut request, pose, 0.0);
    assert!(request.muscles.is_some() && pose.muscles.is_some());
    rig
}

#[test]
fn the_mannequin_ships_ten_muscles_and_its_skin_follows_them() {
    let c = skinscope::builtin::character().unwrap();
    let rig = skinscope::builtin::own_muscles(&c).unwrap().unwrap();
    let names: Vec<&str> = rig
        .system
        .bodies
        .iter()
        .map(|b| b.shape.name.as_str())
        .collect();
    for part in ["biceps", "triceps", "forearm", "quadriceps", "calf"] {
        for side in ["l", "r"] {
            assert!(
                names.contains(&format!("{part}_{side}").as_str()),
                "{names:?}"
            );
        }
    }
    let (vertices, entries) = rig.skin_counts();
    println!("{vertices} skin vertices follow the muscles by {entries} entries");
    assert!(
        vertices > 200 && entries >= vertices,
        "{vertices} {entries}"
    );
    // Every skin weight within (0, 1], a vertex's sum at most 1.
    for skin in rig.skin.iter().flatten().flatten() {
        for v in 0..skin.ranges.len() {
            let sum: f32 = skin.of(v).iter().map(|e| e.1).sum();
            assert!(sum <= 1.0 + 1e-5 && skin.of(v).iter().all(|e| e.1 > 0.0));
        }
    }
}

#[test]
fn at_bind_the_muscles_move_nothing() {
    let c = skinscope::builtin::character().unwrap();
    let mut pose = CharacterPose::at_rest(&c);
    settled_on(&c, &mut pose);
    let largest = pose.muscles.as_ref().unwrap().largest();
    assert!(largest < 1e-6, "{largest}");
}

#[test]
fn a_flexed_elbow_bulges_the_biceps_and_the_skin_over_it() {
    let c = skinscope::builtin::character().unwrap();
    let plain = elbow_flexed(&c, 120.0);
    let mut pose = elbow_flexed(&c, 120.0);
    let rig = settled_on(&c, &mut pose);
    let frame = pose.muscles.clone().unwrap();
    let b = rig
        .system
        .bodies
        .iter()
        .position(|b| b.shape.name == "biceps_l")
        .unwrap();
    let body = &rig.system.bodies[b];
    // The biceps' volume from its settled particles (an independent sum over its triangles).
    let volume = skinscope::anim::volume_of(
        &body.triangles,
        &frame.positions,
        frame.positions[body.first],
    );
    let length = frame.positions[body.first]
        .distance(frame.positions[body.first + skinscope::anim::PARTICLES_PER_MUSCLE - 1]);
    println!(
        "biceps: volume {volume} of {}, length {length} of {}",
        body.rest_volume, body.rest_length
    );
    assert!((volume / body.rest_volume - 1.0).abs() < 0.02);
    assert!(length < 0.9 * body.rest_length);
    // The skin: vertices far from every muscle (the head, the hands) exactly where skinning
    // put them; the upper arm's front moved out, away from the bone, by millimetres.
    let a = PosedVertices::on_cpu(&c, &plain, skinscope::anim::SkinningMethod::Linear);
    let m = PosedVertices::on_cpu(&c, &pose, skinscope::anim::SkinningMethod::Linear);
    let s = &c.skeleton;
    let head = Vec3::from(pose.model.as_slice()[s.find("head").unwrap()].translation);
    // The belly: the middle ring's centre where skinning would carry it.
    let ring = body.first + 1 + skinscope::anim::SEGMENTS * (skinscope::anim::RINGS / 2);
    let belly = (ring..ring + skinscope::anim::SEGMENTS)
        .map(|k| frame.positions[k] - frame.displacement[k])
        .sum::<Vec3>()
        / skinscope::anim::SEGMENTS as f32;
    // The upper arm's bone line: the bulge pushes the skin over the belly away from it.
    let model = pose.model.as_slice();
    let shoulder = Vec3::from(model[s.find("upperarm_l").unwrap()].translation);
    let elbow = Vec3::from(model[s.find("forearm_l").unwrap()].translation);
    let axis = (elbow - shoulder).normalize();
    let radial = |q: Vec3| {
        let from = q - shoulder;
        (from - axis * from.dot(axis)).normalize_or_zero()
    };
    let (mut moved, mut far_moved, mut out_sum, mut most_out) = (0, 0.0f32, 0.0f32, 0.0f32);
    for ((p0, _), (p1, _)) in a.instances.iter().zip(&m.instances) {
        for (q0, q1) in p0.iter().zip(p1) {
            let d = *q1 - *q0;
            if q0.distance(head) < 0.15 {
                far_moved = far_moved.max(d.length());
            }
            if q0.distance(belly) < 0.045 && d.length() > 1e-3 {
                moved += 1;
                let out = d.dot(radial(*q0));
                out_sum += out;
                most_out = most_out.max(out);
            }
        }
    }
    let mean_out = out_sum / moved.max(1) as f32;
    println!(
        "{moved} vertices over the belly moved over 1 mm: out from the bone by {mean_out} on average, {most_out} at most; the head's moved {far_moved}"
    );
    assert_eq!(far_moved, 0.0);
    assert!(moved > 20, "{moved}");
    assert!(mean_out > 1e-3 && most_out > 3e-3, "{mean_out} {most_out}");
}

#[test]
fn the_skin_pass_moves_the_skin_as_the_cpu_reference_does() {
    let gpu = skinscope::render::gpu::Gpu::headless().expect("a GPU adapter (lavapipe in CI)");
    let c = skinscope::builtin::character().unwrap();
    let plain = elbow_flexed(&c, 120.0);
    let mut pose = elbow_flexed(&c, 120.0);
    settled_on(&c, &mut pose);
    let linear = skinscope::anim::SkinningMethod::Linear;
    let height = {
        let (lo, hi) = skinscope::pose::rest_bounds(&c);
        (hi - lo).max_element()
    };
    for ddm in [false, true] {
        // With direct delta mush's Omega in the same binding, before the muscles' weights.
        let data = ddm.then(|| {
            let params = skinscope::deform::DdmParams::default();
            skinscope::deform::precompute(&c, &params, &mut |_| {}).unwrap()
        });
        let method = if ddm {
            skinscope::anim::SkinningMethod::DeltaMush
        } else {
            linear
        };
        let cpu = PosedVertices::on_cpu_with(&c, &pose, method, data.as_ref());
        let gpu_v = skinscope::draw::headless::skin_on_gpu_with(
            &gpu,
            &c,
            &pose,
            method,
            data.clone().map(Arc::new).as_ref(),
        )
        .unwrap();
        let without = PosedVertices::on_cpu_with(&c, &plain, method, data.as_ref());
        let (mut worst, mut moved) = (0.0f32, 0.0f32);
        for (((a, _), (b, _)), (w, _)) in cpu
            .instances
            .iter()
            .zip(&gpu_v.instances)
            .zip(&without.instances)
        {
            for ((p, q), r) in a.iter().zip(b).zip(w) {
                worst = worst.max(p.distance(*q));
                moved = moved.max(p.distance(*r));
            }
        }
        println!(
            "ddm {ddm}: GPU against CPU {worst:e} ({:e} of the height); the muscles moved the skin {moved}",
            worst / height
        );
        assert!(worst < 1e-5 * height, "{worst}");
        assert!(moved > 3e-3, "{moved}");
    }
}

#[test]
fn the_command_line_poses_settled_and_simulated_muscles() {
    let dir = common::temp_dir("muscles-cli");
    let out = |name: &str| dir.join(name).display().to_string();
    // The left hand brought up to the shoulder by reach IK: the elbow flexes.
    let posed = |extra: &[&str], name: &str| {
        let path = out(name);
        let mut args = vec!["pose", "--ik", "hand_l=0.3,1.3,0.15", "--out", &path];
        args.extend_from_slice(extra);
        let (code, _, err) = common::skinscope(&args);
        assert_eq!(code, 0, "{err}");
        common::obj_vertices(std::path::Path::new(&path))
    };
    let plain = posed(&[], "plain.obj");
    let settled = posed(&["--muscles", "default"], "settled.obj");
    let again = posed(&["--muscles", "default"], "again.obj");
    assert_eq!(settled, again, "deterministic");
    let moved = plain
        .iter()
        .zip(&settled)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    println!("settled muscles moved the skin by {moved}");
    assert!(moved > 2e-3 && moved < 0.03, "{moved}");
    // Simulated from t = 0 on a clip: the frame differs from the settled one (the muscles
    // lag and jiggle), and stays within the radius bound.
    let walk = ["--clip", "walk", "--muscles", "default"];
    let sim = posed(&[&walk[..], &["--simulate", "0.5"]].concat(), "sim.obj");
    let cued = posed(&[&walk[..], &["--time", "0.5"]].concat(), "cued.obj");
    assert_eq!(sim.len(), cued.len());
    let lag = sim
        .iter()
        .zip(&cued)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    println!("simulated against settled at 0.5 s: {lag}");
    assert!(lag > 1e-5 && lag < 0.05, "{lag}");
    // Bad files name the place.
    let bad = dir.join("bad.json");
    // More muscles than the skin pass's uniform holds the particles of.
    let one = "{\"radius\": 0.02, \"origin\": {\"joint\": \"upperarm_l\"}, \"insertion\": {\"joint\": \"forearm_l\"}}";
    let too_many = format!("{{\"muscles\": [{}]}}", vec![one; 55].join(","));
    for (text, says) in [
        (too_many.as_str(), "/muscles: 55 muscles: expected 1 to 54"),
        (
            "{\"muscles\": [{\"radius\": 0.02}]}",
            "/muscles/0/origin: missing",
        ),
        (
            "{\"muscles\": [{\"radius\": 0.02, \"origin\": {\"joint\": \"nope\"}, \"insertion\": {\"joint\": \"head\"}}]}",
            "/muscles/0/origin/joint: no joint \"nope\"",
        ),
        ("{\"muscles\": [", "line 1"),
        (
            "{\"settings\": {\"substeps\": 0}, \"muscles\": []}",
            "/settings/substeps",
        ),
    ] {
        std::fs::write(&bad, text).unwrap();
        let path = out("bad.obj");
        let (code, _, err) =
            common::skinscope(&["pose", "--muscles", bad.to_str().unwrap(), "--out", &path]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("bad.json") && err.contains(says), "{err}");
        assert!(
            !std::path::Path::new(&path).exists(),
            "no half-written output"
        );
    }
    // A file that ships none.
    let fox = common::shared("Fox/Fox.glb");
    let (code, _, err) = common::skinscope(&[
        "pose",
        fox.to_str().unwrap(),
        "--muscles",
        "default",
        "--out",
        &out("fox.obj"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("ships no muscles"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_panel_loads_draws_and_restarts_the_muscles() {
    use egui_kittest::kittest::Queryable;
    let c = skinscope::builtin::character().unwrap();
    let wave = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "wave")
        .unwrap();
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.controls.playback.clip = wave;
    let mut h = common::window_frames(viewer, (1100.0, 1800.0));
    h.get_by_label("Muscles").click();
    h.run();
    h.get_by_label("no muscles");
    h.get_by_label("The character's own").click();
    h.run();
    assert_eq!(
        h.state()
            .controls
            .muscles
            .rig
            .as_ref()
            .unwrap()
            .system
            .bodies
            .len(),
        10
    );
    h.get_by_label_contains("10 muscles, 740 particles");
    for _ in 0..40 {
        h.run();
    }
    let steps = h.state().performer.muscles().steps;
    let largest = h.state().pose.muscles.as_ref().unwrap().largest();
    println!("{steps} steps; largest displacement {largest}");
    assert!(steps >= 30, "{steps}");
    assert!(largest > 1e-4, "{largest}");
    // Drawn: the overlay gains the muscles' lines.
    let before = h.state().overlay_lines().len();
    h.get_by_label("Draw the muscles").click();
    h.run();
    let drawn = h.state().overlay_lines().len() - before;
    assert!(drawn >= 10 * 100, "{drawn}");
    let steps = h.state().performer.muscles().steps;
    h.get_by_label("Restart").click();
    h.run();
    let after = h.state().performer.muscles().steps;
    assert!(
        after < steps / 2,
        "{after} steps after a restart, {steps} before"
    );
    h.get_by_label("Drop").click();
    h.run();
    assert!(h.state().controls.muscles.rig.is_none() && h.state().pose.muscles.is_none());
}

/// One renderer, the muscles' weights uploaded: a frame with their displacement, then one
/// without (muscles off, or a crowd) skins as if there were none: no stale offset is left.
#[test]
fn a_frame_without_the_muscles_leaves_no_stale_offset() {
    use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
    let gpu = skinscope::render::gpu::Gpu::headless().expect("a GPU adapter (lavapipe in CI)");
    let c = skinscope::builtin::character().unwrap();
    let plain = elbow_flexed(&c, 120.0);
    let mut pose = elbow_flexed(&c, 120.0);
    settled_on(&c, &mut pose);
    let mut renderer = Renderer::new(
        &gpu.device,
        &gpu.queue,
        &c,
        skinscope::render::offscreen::COLOR_FORMAT,
        skinscope::draw::capacity(&c, 1),
    );
    let options = DrawOptions::default();
    let camera =
        skinscope::render::camera::Camera::framing(Vec3::splat(-1.0), Vec3::ONE, 45.0, 1.0);
    let read = |p: &CharacterPose, renderer: &mut Renderer| {
        let mut values = Vec::new();
        let frame = FrameInput {
            posed: skinscope::draw::extract(p, &mut values),
            camera: &camera,
            aspect: 1.0,
            bones: &[],
            options: &options,
        };
        renderer.prepare(View::Main, &gpu.queue, &frame);
        let mut deformers = skinscope::draw::deformers::Deformers::default();
        let assets = skinscope::draw::deformers::assets_of(&pose, None);
        renderer.set_deformers(&gpu.device, &gpu.queue, deformers.hold(&c, assets));
        let skinned = renderer
            .read_skinned(View::Main, &gpu.device, &gpu.queue)
            .unwrap();
        skinned
            .vertices
            .iter()
            .map(|v| Vec3::from_slice(&v.position))
            .collect::<Vec<_>>()
    };
    let with = read(&pose, &mut renderer);
    // Twice: the second lands in the frame-in-flight buffers the first frame filled.
    read(&plain, &mut renderer);
    let without = read(&plain, &mut renderer);
    let moved = with
        .iter()
        .zip(&without)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    assert!(moved > 3e-3, "{moved}");
    let expected = skinscope::draw::headless::skin_on_gpu(
        &gpu,
        &c,
        &plain,
        skinscope::anim::SkinningMethod::Linear,
    )
    .unwrap();
    let flat: Vec<Vec3> = expected
        .instances
        .iter()
        .flat_map(|(p, _)| p.clone())
        .collect();
    // The read-back is mesh space; the mannequin's mesh sits at the origin unscaled.
    let off = without
        .iter()
        .zip(&flat)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0f32, f32::max);
    assert!(off < 1e-6, "a stale muscle offset of {off}");
}

#[test]
fn a_plain_walk_moves_the_muscles_by_under_a_centimetre() {
    // The mannequin's own muscles simulated over three seconds of its walk, as `pose --clip walk
    // --muscles default --simulate 3` plays them. Their displacement (simulated minus rigid,
    // before the skin's cap at each muscle's radius) stays what reads as muscle: jiggle and
    // bulge, not a thigh swelling by its whole radius or a muscle lagging its bones.
    let c = skinscope::builtin::character().unwrap();
    let rig = Arc::new(skinscope::builtin::own_muscles(&c).unwrap().unwrap());
    let walk = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "walk")
        .unwrap();
    let mut pose = CharacterPose::new(&c);
    let mut performer =
        Performer::new(&c, Arc::new(skinscope::scene::Ground::flat(0.0)), 1.8, None);
    let inputs = Inputs {
        muscles: Some(MuscleInput {
            rig: rig.clone(),
            dynamic: true,
        }),
        playing: true,
        ..Inputs::default()
    };
    let (mut moved, mut rigid) = (Vec::new(), vec![Vec3::ZERO; rig.system.particle_count()]);
    let mut worst = (0.0f32, String::new());
    for frame in 0..180 {
        let mut request = PoseRequest {
            clip: Some(skinscope::pose::ClipTime {
                clip: walk,
                time_secs: frame as f32 / 60.0,
            }),
            ..PoseRequest::default()
        };
        pose.evaluate(&c, &request).unwrap();
        performer.apply_muscles(&inputs, &mut request, &mut pose, 1.0 / 60.0);
        let muscles = pose.muscles.as_ref().unwrap();
        rig.moved_into(pose.model.as_slice(), &mut moved);
        rig.system.rigid_into(&moved, &mut rigid);
        for body in &rig.system.bodies {
            let range = body.first..body.first + skinscope::anim::PARTICLES_PER_MUSCLE;
            for (x, r) in muscles.positions[range.clone()].iter().zip(&rigid[range]) {
                let d = x.distance(*r);
                if d > worst.0 {
                    worst = (
                        d,
                        format!("{} at {:.2} s", body.shape.name, frame as f32 / 60.0),
                    );
                }
            }
        }
    }
    println!(
        "a 3 s walk moves the muscles by {:.4} at most ({})",
        worst.0, worst.1
    );
    assert!(worst.0 < 0.01, "{} moved {}", worst.1, worst.0);
}
