//! Two-bone IK, root motion and the ground: hand-worked numbers.

use glam::{Quat, Vec3};
use skinscope_anim::{
    Chain, Clip, Displacement, LocalPose, ModelPose, Placement, RootFrame, Skeleton, Transform,
    TwoBoneSettings, clip_displacement, local_to_model, remove_root_motion, soft_reach,
    solve_two_bone, yaw_of,
};
use skinscope_core::scene::{Ground, Mover, MoverSettings};

/// hip at the origin, a thigh of 0.5 down -Y to the knee, a shin of 0.5 to the ankle.
fn leg() -> (Skeleton, Chain) {
    let skeleton = Skeleton::new(
        vec!["hip".into(), "knee".into(), "ankle".into()],
        vec![None, Some(0), Some(1)],
        vec![
            Transform::IDENTITY,
            Transform::from_translation(Vec3::new(0.0, -0.5, 0.0)),
            Transform::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        ],
    )
    .unwrap();
    let chain = Chain::ending_at(&skeleton, 2).unwrap();
    (skeleton, chain)
}

fn solve(target: Vec3, pole: Vec3, settings: TwoBoneSettings) -> (ModelPose, f32) {
    let (skeleton, chain) = leg();
    let mut local = LocalPose::rest(&skeleton);
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &local, &mut model).unwrap();
    let reach =
        solve_two_bone(&skeleton, chain, target, pole, settings, &model, &mut local).unwrap();
    local_to_model(&skeleton, &local, &mut model).unwrap();
    (model, reach)
}

fn at(model: &ModelPose, j: usize) -> Vec3 {
    Vec3::from(model.as_slice()[j].translation)
}

#[test]
fn two_bones_of_half_a_unit_reach_a_target_0_7_away_bending_toward_the_pole() {
    // Hand-worked: the target 0.7 below and ahead of the hip at (0, -0.7, 0) rotated 30 degrees
    // about X; the pole ahead (+Z). Law of cosines: cos(hip angle) = 0.7 / (2 * 0.5) = 0.7, so
    // the knee sits 0.5 * 0.7 = 0.35 along the target direction and 0.5 * sqrt(0.51) = 0.3571
    // off it, toward the pole.
    let dir = Quat::from_rotation_x(30f32.to_radians()) * Vec3::new(0.0, -1.0, 0.0);
    let target = dir * 0.7;
    let pole = Vec3::new(0.0, -0.5, 2.0);
    let (model, reach) = solve(target, pole, TwoBoneSettings::default());
    assert!((reach - 0.7).abs() < 1e-6);
    assert!(
        (at(&model, 2) - target).length() < 1e-5,
        "{}",
        at(&model, 2)
    );
    let knee = at(&model, 1);
    assert!((knee.length() - 0.5).abs() < 1e-5);
    assert!(((knee - target).length() - 0.5).abs() < 1e-5);
    let along = knee.dot(dir);
    let off = (knee - dir * along).length();
    assert!((along - 0.35).abs() < 1e-5 && (off - 0.51f32.sqrt() * 0.5).abs() < 1e-5);
    // The knee lies in the plane of hip, target and pole, on the pole's side.
    let normal = target.cross(pole).normalize();
    assert!(knee.dot(normal).abs() < 1e-5);
    let pole_side = (pole - dir * pole.dot(dir)).normalize();
    assert!((knee - dir * along).dot(pole_side) > 0.0);
}

#[test]
fn an_unreachable_target_straightens_the_chain_toward_it_without_a_snap() {
    let target = Vec3::new(2.0, -1.0, 0.0);
    let (model, reach) = solve(target, Vec3::new(0.0, 0.0, 1.0), TwoBoneSettings::default());
    let dir = target.normalize();
    assert!(reach <= 1.0 && reach > 0.9999, "{reach}");
    let end = at(&model, 2);
    assert!((end - dir * reach).length() < 1e-4, "{end}");
    assert!(at(&model, 1).dot(dir) > 0.49);
    // Softening: the reach is continuous and rises smoothly through the soft zone.
    let soft = 0.02;
    let mut last = soft_reach(0.9, 1.0, soft);
    for k in 0..=400 {
        let d = 0.9 + k as f32 * 0.0005;
        let r = soft_reach(d, 1.0, soft);
        assert!(r >= last - 1e-7 && r < 1.0, "{d}: {r}");
        assert!(r - last < 0.0006, "a jump at {d}");
        last = r;
    }
    assert_eq!(soft_reach(0.97, 1.0, soft), 0.97);
}

#[test]
fn the_hinge_limit_bounds_the_bend_and_the_weight_blends_back() {
    // A target at the hip itself would fold the knee completely: a 90 degree limit keeps the
    // ends sqrt(0.5) apart.
    let settings = TwoBoneSettings {
        max_bend_degrees: 90.0,
        ..TwoBoneSettings::default()
    };
    let (model, reach) = solve(Vec3::new(0.0, -0.01, 0.0), Vec3::Z, settings);
    assert!((reach - 0.5f32.sqrt()).abs() < 1e-5);
    assert!((at(&model, 2).length() - 0.5f32.sqrt()).abs() < 1e-5);
    // Weight 0: the authored (straight) leg.
    let none = TwoBoneSettings {
        weight: 0.0,
        ..TwoBoneSettings::default()
    };
    let (model, _) = solve(Vec3::new(0.3, -0.5, 0.2), Vec3::Z, none);
    assert!((at(&model, 2) - Vec3::new(0.0, -1.0, 0.0)).length() < 1e-6);
}

/// A one-joint skeleton whose clip moves it +1 along Z and turns it `turn_degrees` about Y over
/// a 1 s loop (LINEAR keys at 0, 0.5 and 1 s).
fn travelling_clip(turn_degrees: f32) -> (Skeleton, Clip) {
    let skeleton =
        Skeleton::new(vec!["root".into()], vec![None], vec![Transform::IDENTITY]).unwrap();
    let times = vec![0.0, 0.5, 1.0];
    let translation = skinscope_anim::Track::new(
        times.clone(),
        vec![
            Vec3::ZERO,
            Vec3::new(0.0, 0.0, 0.5),
            Vec3::new(0.0, 0.0, 1.0),
        ],
        skinscope_anim::Interpolation::Linear,
    )
    .unwrap();
    let yaw = |f: f32| Quat::from_rotation_y((turn_degrees * f).to_radians());
    let rotation = skinscope_anim::Track::new(
        times,
        vec![yaw(0.0), yaw(0.5), yaw(1.0)],
        skinscope_anim::Interpolation::Linear,
    )
    .unwrap();
    let clip = Clip::new(
        "travel",
        1,
        vec![
            skinscope_anim::JointTrack {
                joint: 0,
                channel: skinscope_anim::Channel::Translation(translation),
            },
            skinscope_anim::JointTrack {
                joint: 0,
                channel: skinscope_anim::Channel::Rotation(rotation),
            },
        ],
        Vec::new(),
    )
    .unwrap();
    (skeleton, clip)
}

/// Integrates root motion over `frames` steps of 1/60 s from t = 0 into a placement (applied
/// mode), on a flat floor.
fn integrate(clip: &Clip, frames: usize) -> Placement {
    let rest = Transform::IDENTITY;
    let mut mover = Mover::new(MoverSettings {
        radius: 0.1,
        max_step: 0.3,
    });
    let ground = Ground::flat(0.0);
    let mut before = clip_displacement(clip, (0, &rest, &RootFrame::IDENTITY), 0.0);
    for k in 1..=frames {
        let now = clip_displacement(clip, (0, &rest, &RootFrame::IDENTITY), k as f32 / 60.0);
        let (travel, turn) = mover.placement.step(before, now);
        mover.step(&ground, travel, turn);
        before = now;
    }
    mover.placement
}

#[test]
fn a_root_moving_one_unit_a_loop_travels_three_in_three_loops() {
    let (_, clip) = travelling_clip(0.0);
    let placed = integrate(&clip, 180);
    assert!(
        (placed.position - Vec3::new(0.0, 0.0, 3.0)).length() < 1e-5,
        "{}",
        placed.position
    );
    assert!(placed.yaw.abs() < 1e-6);
    // Across the loop wrap the whole-loop travel is added: 2.5 s is 2.5 units.
    let d = clip_displacement(&clip, (0, &Transform::IDENTITY, &RootFrame::IDENTITY), 2.5);
    assert!((d.offset - Vec3::new(0.0, 0.0, 2.5)).length() < 1e-5);
    // Backwards it runs back: -0.25 s is a quarter unit behind the start.
    let d = clip_displacement(
        &clip,
        (0, &Transform::IDENTITY, &RootFrame::IDENTITY),
        -0.25,
    );
    assert!(
        (d.offset - Vec3::new(0.0, 0.0, -0.25)).length() < 1e-5,
        "{:?}",
        d
    );
    // In place the pose keeps none of it: the root is held at its rest position and heading.
    let mut t = skinscope_anim::root_transform(&clip, 0, &Transform::IDENTITY, 0.75);
    assert!((t.translation.z - 0.75).abs() < 1e-6);
    remove_root_motion(&mut t, &Transform::IDENTITY, &RootFrame::IDENTITY);
    assert_eq!(t.translation, Vec3::ZERO);
}

#[test]
fn a_ninety_degree_turn_over_a_loop_turns_the_entity_ninety_degrees() {
    let (_, clip) = travelling_clip(90.0);
    let placed = integrate(&clip, 60);
    assert!(
        (placed.yaw - 90f32.to_radians()).abs() < 1e-5,
        "{}",
        placed.yaw.to_degrees()
    );
    // Two loops: 180 degrees, and the second loop's travel runs along the turned heading.
    let d = clip_displacement(&clip, (0, &Transform::IDENTITY, &RootFrame::IDENTITY), 2.0);
    assert!((d.yaw - 180f32.to_radians()).abs() < 1e-5);
    let whole = clip_displacement(&clip, (0, &Transform::IDENTITY, &RootFrame::IDENTITY), 1.0);
    let second = Quat::from_rotation_y(whole.yaw) * whole.offset;
    assert!((d.offset - (whole.offset + second)).length() < 1e-5);
    // The pose in place keeps no turn.
    let mut t = skinscope_anim::root_transform(&clip, 0, &Transform::IDENTITY, 0.5);
    assert!((yaw_of(t.rotation) - 45f32.to_radians()).abs() < 1e-5);
    remove_root_motion(&mut t, &Transform::IDENTITY, &RootFrame::IDENTITY);
    assert!(yaw_of(t.rotation).abs() < 1e-6);
    let blended = Displacement::blend([(whole, 0.5), (Displacement::default(), 0.5)]);
    assert!((blended.yaw - 45f32.to_radians()).abs() < 1e-6);
}

#[test]
fn the_mover_climbs_a_low_step_stops_at_a_high_one_and_slides_along_a_wall() {
    let ground = Ground::parse(
        r#"{"steps": [{"min": [1, -1], "max": [2, 1], "height": 0.2},
                      {"min": [-2, -1], "max": [-1, 1], "height": 0.5}],
            "slopes": [{"min": [-1, 2], "max": [1, 4], "axis": "z", "from": 0, "to": 1}],
            "walls": [{"from": [-5, -2], "to": [5, -2]}]}"#,
    )
    .unwrap();
    assert_eq!(ground.height(1.5, 0.0), 0.2);
    assert_eq!(ground.height(0.0, 3.0), 0.5);
    assert_eq!(ground.height(5.0, 5.0), 0.0);
    let settings = MoverSettings {
        radius: 0.25,
        max_step: 0.3,
    };
    let mut m = Mover::new(settings);
    m.step(&ground, Vec3::new(1.2, 0.0, 0.0), 0.0);
    assert_eq!(m.placement.position, Vec3::new(1.2, 0.2, 0.0));
    let mut m = Mover::new(settings);
    m.step(&ground, Vec3::new(-1.2, 0.0, 0.0), 0.0);
    assert_eq!(m.placement.position, Vec3::ZERO, "0.5 is too high to climb");
    // Into the wall at z = -2 diagonally: held 0.25 from it, still moving along x.
    let mut m = Mover::new(settings);
    m.step(&ground, Vec3::new(0.5, 0.0, -3.0), 0.0);
    assert!((m.placement.position - Vec3::new(0.5, 0.0, -1.75)).length() < 1e-6);
    let bad =
        Ground::parse(r#"{"steps": [{"min": [1, 1], "max": [0, 2], "height": 1}]}"#).unwrap_err();
    assert_eq!(bad.pointer, "/steps/0");
}
