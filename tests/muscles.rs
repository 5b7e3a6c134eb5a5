//! XPBD muscles (issue 30): the solver against its promises on a two-bone arm built here (an
//! upper arm along +X from the origin, a forearm from x = 0.3 hinged about +Z at the elbow),
//! then the character's muscles through the performer, the CLI and the GPU.

use glam::{Affine3A, Quat, Vec3};
use skinscope::anim::{MuscleParams, MuscleShape, MuscleSim, MuscleSystem};

const ELBOW: Vec3 = Vec3::new(0.3, 0.0, 0.0);

/// A biceps from the upper arm (joint 0) to just past the elbow on the forearm (joint 1).
fn biceps() -> MuscleSystem {
    let shape = MuscleShape {
        name: "biceps".into(),
        origin: Vec3::new(0.05, 0.0, 0.02),
        insertion: Vec3::new(0.34, 0.0, 0.02),
        joints: [0, 1],
        pivot: ELBOW,
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
