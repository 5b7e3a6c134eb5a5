//! The animation core against hand-worked numbers, and every refusal by name.

use glam::{Mat4, Quat, Vec3};
use skinscope_anim::*;

const DEG: f32 = std::f32::consts::PI / 180.0;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("j{i}")).collect()
}

fn rot_z(deg: f32) -> Quat {
    Quat::from_rotation_z(deg * DEG)
}

/// Signed angle in degrees of a rotation about +Z.
fn angle_z_deg(q: Quat) -> f32 {
    2.0 * q.z.atan2(q.w) / DEG
}

fn rotation_track(times: &[f32], degrees: &[f32]) -> Track<Quat> {
    let values = degrees.iter().map(|&d| rot_z(d)).collect();
    Track::new(times.to_vec(), values, Interpolation::Linear).unwrap()
}

fn sample_rotation(track: &Track<Quat>, t: f32) -> f32 {
    let mut hint = 0;
    angle_z_deg(sample_track(track, t, &mut hint))
}

#[test]
fn elbow_track_samples_hand_worked_angles() {
    let elbow = rotation_track(&[0.0, 0.2, 0.4], &[0.0, 100.0, 10.0]);
    assert!((sample_rotation(&elbow, 0.05) - 25.0).abs() < 1e-3);
    assert!((sample_rotation(&elbow, 0.13) - 65.0).abs() < 1e-3);
    let at_030 = sample_rotation(&elbow, 0.30);
    let at_035 = sample_rotation(&elbow, 0.35);
    assert!(at_030 > 10.0 && at_030 < 100.0, "{at_030}");
    assert!(
        at_035 < at_030,
        "decreasing between 100 and 10: {at_030} then {at_035}"
    );
    // Slerp is uniform in angle: exactly half-way.
    assert!((at_030 - 55.0).abs() < 1e-3, "{at_030}");

    let three = rotation_track(&[0.0, 0.5, 1.0], &[0.0, 45.0, 90.0]);
    assert!((sample_rotation(&three, 0.25) - 22.5).abs() < 1e-3);
    assert!((sample_rotation(&three, 0.75) - 67.5).abs() < 1e-3);
}

#[test]
fn linear_rotation_takes_the_short_arc_between_opposite_signs() {
    // 170 deg and -170 deg are 20 deg apart via 180; their quaternions lie in opposite
    // hemispheres, so a slerp without the sign flip would take the 340 degree way round via 0.
    let a = rot_z(170.0);
    let b = rot_z(-170.0);
    assert!(a.dot(b) < 0.0);
    let track = Track::new(vec![0.0, 1.0], vec![a, b], Interpolation::Linear).unwrap();
    let mut hint = 0;
    let mid = sample_track(&track, 0.5, &mut hint);
    assert!(mid.angle_between(rot_z(180.0)) < 1e-3, "{mid:?}");
}

#[test]
fn step_holds_each_key_over_its_half_open_interval() {
    let track = Track::new(
        vec![0.0, 1.0, 2.0],
        vec![Vec3::X, Vec3::Y, Vec3::Z],
        Interpolation::Step,
    )
    .unwrap();
    let mut hint = 0;
    assert_eq!(sample_track(&track, 0.999, &mut hint), Vec3::X);
    assert_eq!(sample_track(&track, 1.0, &mut hint), Vec3::Y);
    assert_eq!(sample_track(&track, 1.5, &mut hint), Vec3::Y);
    assert_eq!(sample_track(&track, 2.0, &mut hint), Vec3::Z);
}

#[test]
fn tracks_clamp_outside_their_keys() {
    // A track whose first key is after 0 holds that key before it.
    let track = Track::new(
        vec![1.0, 2.0],
        vec![Vec3::new(3.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)],
        Interpolation::Linear,
    )
    .unwrap();
    let mut hint = 0;
    assert_eq!(sample_track(&track, 0.3, &mut hint).x, 3.0);
    assert_eq!(sample_track(&track, -4.0, &mut hint).x, 3.0);
    assert_eq!(sample_track(&track, f32::NAN, &mut hint).x, 3.0);
    assert_eq!(sample_track(&track, 1.5, &mut hint).x, 4.0);
    assert_eq!(sample_track(&track, 9.0, &mut hint).x, 5.0);
}

#[test]
fn cubic_spline_uses_gltf_hermite_with_tangents_scaled_by_interval() {
    // Keys at 0 s and 2 s; values 0 and 1; out-tangent of key 0 is 1, in-tangent of key 1 is 0.
    // At u = 0.5: h = (0.5, 0.125, 0.5, -0.125); p = 0*0.5 + (1*2)*0.125 + 1*0.5 + 0 = 0.75.
    let v = |x: f32| Vec3::new(x, 0.0, 0.0);
    let values = vec![v(0.0), v(0.0), v(1.0), v(0.0), v(1.0), v(0.0)];
    let track = Track::new(vec![0.0, 2.0], values, Interpolation::CubicSpline).unwrap();
    let mut hint = 0;
    assert!((sample_track(&track, 1.0, &mut hint).x - 0.75).abs() < 1e-6);
    // u = 0.25: h0 = 0.84375, h1 = 0.140625, h2 = 0.15625 -> 0.140625*2 + 0.15625 = 0.4375.
    assert!((sample_track(&track, 0.5, &mut hint).x - 0.4375).abs() < 1e-6);
    assert_eq!(sample_track(&track, 2.0, &mut hint).x, 1.0);
}

#[test]
fn cubic_spline_rotations_are_renormalised() {
    let z = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let values = vec![z, Quat::IDENTITY, z, z, rot_z(90.0), z];
    let track = Track::new(vec![0.0, 1.0], values, Interpolation::CubicSpline).unwrap();
    let mut hint = 0;
    let q = sample_track(&track, 0.5, &mut hint);
    assert!((q.length() - 1.0).abs() < 1e-6);
    // Zero tangents: h0 = h2 = 0.5, the normalised sum is the 45 degree rotation.
    assert!((angle_z_deg(q) - 45.0).abs() < 1e-3);
}

#[test]
fn cursor_hints_give_the_same_values_as_a_fresh_search() {
    let times: Vec<f32> = (0..31).map(|i| i as f32 / 30.0).collect();
    let values: Vec<Vec3> = times
        .iter()
        .map(|t| Vec3::new(t.sin(), (3.0 * t).cos(), t * t))
        .collect();
    let track = Track::new(times, values, Interpolation::Linear).unwrap();
    let mut hint = 0;
    // Forward, backward and jumping.
    let mut queries: Vec<f32> = (0..200).map(|i| i as f32 / 199.0).collect();
    queries.extend((0..200).rev().map(|i| i as f32 / 199.0));
    queries.extend([0.9, 0.1, 0.5, 0.51, 0.02]);
    for t in queries {
        let mut fresh = 0;
        assert_eq!(
            sample_track(&track, t, &mut hint),
            sample_track(&track, t, &mut fresh),
            "t = {t}"
        );
    }
}

/// Shoulder (joint 0) at the origin, elbow (joint 1) at (1, 0, 0) in the bind pose.
fn arm() -> (Skeleton, Skin) {
    let skeleton = Skeleton::new(
        names(2),
        vec![None, Some(0)],
        vec![Transform::IDENTITY, Transform::from_translation(Vec3::X)],
    )
    .unwrap();
    let joint_from_bind = vec![Mat4::IDENTITY, Mat4::from_translation(-Vec3::X)];
    let skin = Skin::all_joints(&skeleton, joint_from_bind).unwrap();
    (skeleton, skin)
}

fn palette_for(skeleton: &Skeleton, skin: &Skin, local: &LocalPose) -> SkinPalette {
    let mut model = ModelPose::new(skeleton);
    local_to_model(skeleton, local, &mut model).unwrap();
    let mut palette = SkinPalette::new(skin);
    build_palette(&model, skin, Mat4::IDENTITY, &mut palette).unwrap();
    palette
}

#[test]
fn shoulder_rotation_moves_elbow_and_skinned_vertices() {
    let (skeleton, skin) = arm();
    let mut local = LocalPose::rest(&skeleton);
    local.as_mut_slice()[0].rotation = rot_z(90.0);
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &local, &mut model).unwrap();
    let elbow = model.as_slice()[1].translation;
    assert!(Vec3::from(elbow).abs_diff_eq(Vec3::Y, 1e-6), "{elbow}");

    let palette = palette_for(&skeleton, &skin, &local);
    let p = skin_position(
        palette.as_slice(),
        [1, 0, 0, 0],
        [1.0, 0.0, 0.0, 0.0],
        Vec3::X,
    )
    .unwrap();
    assert!(p.abs_diff_eq(Vec3::Y, 1e-6), "{p}");

    // Elbow bent 30 deg too; (1.2, 0, 0) weighted 50/50 shoulder/elbow.
    // Shoulder: R90 (1.2,0,0) = (0, 1.2, 0).
    // Elbow: R90 T(1,0,0) R30 T(-1,0,0) (1.2,0,0): (0.2,0,0) -> (0.2 cos30, 0.2 sin30, 0)
    //   = (0.173205, 0.1, 0) -> (1.173205, 0.1, 0) -> (-0.1, 1.173205, 0).
    // Half of each: (-0.05, 1.1866025, 0).
    local.as_mut_slice()[1].rotation = rot_z(30.0);
    let palette = palette_for(&skeleton, &skin, &local);
    let p = skin_position(
        palette.as_slice(),
        [0, 1, 0, 0],
        [0.5, 0.5, 0.0, 0.0],
        Vec3::new(1.2, 0.0, 0.0),
    )
    .unwrap();
    assert!(p.abs_diff_eq(Vec3::new(-0.05, 1.1866025, 0.0), 1e-6), "{p}");
    // The normal (0, 1, 0): shoulder turns it to (-1, 0, 0), elbow (120 deg in all) to
    // (-sin120, cos120, 0); their half-sum renormalised points at 150 degrees.
    let n = skin_normal(
        palette.as_slice(),
        [0, 1, 0, 0],
        [0.5, 0.5, 0.0, 0.0],
        Vec3::Y,
    )
    .unwrap();
    let expected = Vec3::new((195.0 * DEG).cos(), (195.0 * DEG).sin(), 0.0);
    assert!(n.abs_diff_eq(expected, 1e-6), "{n} vs {expected}");
}

#[test]
fn root_translation_track_carries_the_child() {
    let skeleton = Skeleton::new(
        names(2),
        vec![None, Some(0)],
        vec![Transform::IDENTITY, Transform::from_translation(Vec3::Y)],
    )
    .unwrap();
    let track = Track::new(
        vec![0.0, 1.0],
        vec![Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)],
        Interpolation::Linear,
    )
    .unwrap();
    let clip = Clip::new(
        "slide",
        2,
        vec![JointTrack {
            joint: 0,
            channel: Channel::Translation(track),
        }],
        vec![],
    )
    .unwrap();
    assert_eq!(clip.duration_secs(), 1.0);
    let mut cursor = ClipCursor::new(&clip);
    let mut local = LocalPose::rest(&skeleton);
    sample_clip(&skeleton, &clip, 0.5, &mut cursor, &mut local).unwrap();
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &local, &mut model).unwrap();
    let root = Vec3::from(model.as_slice()[0].translation);
    let child = Vec3::from(model.as_slice()[1].translation);
    assert!(root.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-6), "{root}");
    assert!(child.abs_diff_eq(Vec3::new(1.0, 1.0, 0.0), 1e-6), "{child}");
    // The child has no track: it keeps its rest value.
    assert_eq!(local.as_slice()[1], skeleton.rest()[1]);
}

/// A chain with rotations, non-uniform-free scales and offsets, with inverse binds computed
/// independently (f64 products of the rest matrices, inverted).
#[test]
fn bind_pose_palette_is_identity_and_wrong_order_is_not() {
    let rest = vec![
        Transform {
            translation: Vec3::new(0.3, 1.0, -0.2),
            rotation: Quat::from_euler(glam::EulerRot::XYZ, 0.3, -0.7, 0.2),
            scale: Vec3::splat(0.0254),
        },
        Transform {
            translation: Vec3::new(0.0, 12.0, 1.0),
            rotation: Quat::from_euler(glam::EulerRot::ZYX, 1.1, 0.4, -0.5),
            scale: Vec3::ONE,
        },
        Transform {
            translation: Vec3::new(5.0, 0.0, 0.0),
            rotation: rot_z(-40.0),
            scale: Vec3::splat(2.0),
        },
        Transform {
            translation: Vec3::new(-3.0, 2.0, 0.0),
            rotation: Quat::from_rotation_x(0.8),
            scale: Vec3::ONE,
        },
    ];
    let parents = vec![None, Some(0), Some(1), Some(1)];
    let skeleton = Skeleton::new(names(4), parents.clone(), rest.clone()).unwrap();
    let mut world = Vec::<glam::DMat4>::new();
    for (j, t) in rest.iter().enumerate() {
        let local = glam::DMat4::from_scale_rotation_translation(
            t.scale.as_dvec3(),
            t.rotation.as_dquat(),
            t.translation.as_dvec3(),
        );
        let w = match parents[j] {
            Some(p) => world[p] * local,
            None => local,
        };
        world.push(w);
    }
    let joint_from_bind: Vec<Mat4> = world.iter().map(|w| w.inverse().as_mat4()).collect();
    let skin = Skin::all_joints(&skeleton, joint_from_bind.clone()).unwrap();
    let palette = palette_for(&skeleton, &skin, &LocalPose::rest(&skeleton));
    for (j, m) in palette.as_slice().iter().enumerate() {
        assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-6), "joint {j}: {m}");
    }
    // The same product in the wrong order (inverse bind first) is not the identity.
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &LocalPose::rest(&skeleton), &mut model).unwrap();
    let wrong_order_identity = model
        .as_slice()
        .iter()
        .zip(&joint_from_bind)
        .all(|(m, ibm)| (*ibm * Mat4::from(*m)).abs_diff_eq(Mat4::IDENTITY, 1e-6));
    assert!(!wrong_order_identity);
}

#[test]
fn mesh_from_model_is_applied_on_the_left() {
    let (skeleton, skin) = arm();
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &LocalPose::rest(&skeleton), &mut model).unwrap();
    let mesh_from_model = Mat4::from_translation(Vec3::new(0.0, 0.0, -5.0));
    let mut palette = SkinPalette::new(&skin);
    build_palette(&model, &skin, mesh_from_model, &mut palette).unwrap();
    for m in palette.as_slice() {
        assert!(m.abs_diff_eq(mesh_from_model, 1e-6));
    }
}

/// The fast paths (the chain's parent kept in registers, the palette's product worked in its
/// output lanes) give the textbook products to the bit: each joint's model transform is its
/// parent's times its own, and each skin matrix is `Mat4::from(model * joint_from_bind)`.
#[test]
fn model_pose_and_palette_are_the_plain_products_to_the_bit() {
    // Chains (parent just before) and branches (parent further back), odd counts past a
    // four-joint block, scales that are not one.
    let parents = vec![
        None,
        Some(0),
        Some(1),
        Some(1),
        Some(3),
        Some(0),
        Some(5),
        Some(2),
        None,
    ];
    let transform = |i: usize| {
        let f = i as f32;
        Transform {
            translation: Vec3::new(0.3 * f - 1.0, 1.0 + 0.17 * f, -0.2 * f),
            rotation: Quat::from_euler(glam::EulerRot::XYZ, 0.3 * f, -0.7 + 0.1 * f, 0.2),
            scale: Vec3::new(1.0 + 0.05 * f, 0.9, 1.1 - 0.03 * f),
        }
    };
    let rest: Vec<Transform> = (0..parents.len()).map(transform).collect();
    let skeleton = Skeleton::new(names(parents.len()), parents.clone(), rest).unwrap();
    let joint_from_bind: Vec<Mat4> = (0..parents.len())
        .map(|i| transform(i + 3).to_affine().inverse().into())
        .collect();
    let skin = Skin::all_joints(&skeleton, joint_from_bind.clone()).unwrap();
    let mut local = LocalPose::rest(&skeleton);
    for (i, t) in local.as_mut_slice().iter_mut().enumerate() {
        t.rotation = (t.rotation * rot_z(11.0 * i as f32)).normalize();
    }
    let mut model = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &local, &mut model).unwrap();
    let mut expected = Vec::<glam::Affine3A>::new();
    for (j, t) in local.as_slice().iter().enumerate() {
        let own = t.to_affine();
        expected.push(parents[j].map_or(own, |p| expected[p] * own));
    }
    let bits = |m: Mat4| m.to_cols_array().map(f32::to_bits);
    for (j, (got, want)) in model.as_slice().iter().zip(&expected).enumerate() {
        assert_eq!(
            bits((*got).into()),
            bits((*want).into()),
            "model of joint {j}"
        );
    }
    let mut palette = SkinPalette::new(&skin);
    build_palette(&model, &skin, Mat4::IDENTITY, &mut palette).unwrap();
    for (j, got) in palette.as_slice().iter().enumerate() {
        let want = Mat4::from(expected[j] * glam::Affine3A::from_mat4(joint_from_bind[j]));
        assert_eq!(bits(*got), bits(want), "skin matrix of joint {j}");
    }

    // Both at once, for two skins in one palette: the second uses joints out of order and one
    // twice, after an identity entry and the first skin.
    let subset = [7, 2, 5, 2];
    let subset_binds: Vec<Mat4> = subset.iter().map(|&j| joint_from_bind[j]).collect();
    let second = Skin::new(&skeleton, subset.to_vec(), subset_binds).unwrap();
    let plan = PalettePlan::new([(&skin, 1), (&second, 1 + skin.len())]).unwrap();
    let mut fused = vec![Mat4::ZERO; 1 + skin.len() + second.len()];
    let mut fused_model = ModelPose::new(&skeleton);
    local_to_model_and_palette(&skeleton, &local, &mut fused_model, &plan, &mut fused).unwrap();
    assert_eq!(fused_model, model);
    let mut second_palette = SkinPalette::new(&second);
    build_palette(&model, &second, Mat4::IDENTITY, &mut second_palette).unwrap();
    let plain: Vec<&Mat4> = (palette.as_slice().iter())
        .chain(second_palette.as_slice())
        .collect();
    assert_eq!(
        bits(fused[0]),
        bits(Mat4::ZERO),
        "entry 0 is not the plan's"
    );
    for (e, (got, want)) in fused[1..].iter().zip(plain).enumerate() {
        assert_eq!(bits(*got), bits(*want), "fused entry {}", e + 1);
    }
    // One skin of consecutive joints in order (the plan then writes each joint's entry without
    // searching), neither from joint 0 nor at palette index 0: a skin under a root node that
    // is not a joint, after the identity entry.
    let run: Vec<usize> = (2..parents.len()).collect();
    let run_binds: Vec<Mat4> = run.iter().map(|&j| joint_from_bind[j]).collect();
    let run_skin = Skin::new(&skeleton, run.clone(), run_binds).unwrap();
    let run_plan = PalettePlan::new([(&run_skin, 1)]).unwrap();
    let mut run_fused = vec![Mat4::ZERO; 2 + run_skin.len()];
    let mut run_model = ModelPose::new(&skeleton);
    local_to_model_and_palette(&skeleton, &local, &mut run_model, &run_plan, &mut run_fused)
        .unwrap();
    assert_eq!(run_model, model);
    let mut run_palette = SkinPalette::new(&run_skin);
    build_palette(&model, &run_skin, Mat4::IDENTITY, &mut run_palette).unwrap();
    assert_eq!(run_palette.as_slice()[0], palette.as_slice()[2]);
    let untouched = [run_fused[0], run_fused[1 + run_skin.len()]];
    assert_eq!(
        untouched.map(bits),
        [bits(Mat4::ZERO); 2],
        "entries not the plan's"
    );
    for (e, (got, want)) in run_fused[1..]
        .iter()
        .zip(run_palette.as_slice())
        .enumerate()
    {
        assert_eq!(bits(*got), bits(*want), "run entry {}", e + 1);
    }
    let mut short = vec![Mat4::ZERO; run_skin.len()];
    assert!(
        local_to_model_and_palette(&skeleton, &local, &mut run_model, &run_plan, &mut short)
            .is_err()
    );

    // A mesh node away from the origin: the entries brought into its space as build_palette
    // brings them.
    let mesh_from_model = transform(4).to_affine().inverse();
    let mut moved = SkinPalette::new(&second);
    build_palette(&model, &second, mesh_from_model.into(), &mut moved).unwrap();
    let entries = &mut fused[1 + skin.len()..];
    bring_into_mesh_space(mesh_from_model, entries);
    for (e, (got, want)) in entries.iter().zip(moved.as_slice()).enumerate() {
        assert_eq!(bits(*got), bits(*want), "moved entry {e}");
    }
    // Too small a palette for the plan is an error, not a panic.
    let mut short = vec![Mat4::ZERO; skin.len()];
    assert!(
        local_to_model_and_palette(&skeleton, &local, &mut fused_model, &plan, &mut short).is_err()
    );
}

/// The palette's bottom row comes out of the products without masks (`compose` keeps the 4x4
/// matrix's bottom row in the model transforms' spare lanes): for every sign of every entry, each
/// entry is still `Mat4::from(model * joint_from_bind)` to the bit, its bottom row +0, +0, +0, 1
/// (a -0 there would show that a spare lane had taken a product's sign). Hundreds of random poses
/// of a hierarchy with long chains, branches, two roots and three joints past the last block of
/// four, with scales that are not uniform and some negative (mirrored joints).
#[test]
fn palette_bottom_rows_are_exact_for_every_sign_of_every_entry() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    // 0-1-2-3-4-5 a chain, 6 a second root with its own chain, branches back to 1 and 3.
    let parents = vec![
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(3),
        Some(4),
        None,
        Some(6),
        Some(7),
        Some(1),
        Some(9),
        Some(3),
        Some(11),
        Some(12),
        Some(8),
    ];
    let n = parents.len();
    let mut transform = || {
        // 0.5 to 1.5 each way, a tenth of them negative.
        let scale = |r: f32| (0.5 + r.abs()).copysign(r + 0.8);
        Transform {
            translation: Vec3::new(random(), random(), random()) * 3.0,
            rotation: Quat::from_euler(
                glam::EulerRot::ZYX,
                random() * 3.2,
                random() * 1.6,
                random() * 3.2,
            ),
            scale: Vec3::new(scale(random()), scale(random()), scale(random())),
        }
    };
    let rest: Vec<Transform> = (0..n).map(|_| transform()).collect();
    let skeleton = Skeleton::new(names(n), parents.clone(), rest).unwrap();
    let joint_from_bind: Vec<Mat4> = (0..n)
        .map(|_| transform().to_affine().inverse().into())
        .collect();
    let skin = Skin::all_joints(&skeleton, joint_from_bind.clone()).unwrap();
    let plan = PalettePlan::new([(&skin, 0)]).unwrap();
    let mut model = ModelPose::new(&skeleton);
    let mut palette = vec![Mat4::ZERO; n];
    let bits = |m: Mat4| m.to_cols_array().map(f32::to_bits);
    let mut negative_entries = 0;
    for _ in 0..400 {
        let local = LocalPose::from_transforms((0..n).map(|_| transform()).collect());
        local_to_model_and_palette(&skeleton, &local, &mut model, &plan, &mut palette).unwrap();
        let mut expected = Vec::<glam::Affine3A>::new();
        for (j, t) in local.as_slice().iter().enumerate() {
            let own = t.to_affine();
            expected.push(parents[j].map_or(own, |p| expected[p] * own));
        }
        for (j, got) in palette.iter().enumerate() {
            let want = Mat4::from(expected[j] * glam::Affine3A::from_mat4(joint_from_bind[j]));
            assert_eq!(bits(*got), bits(want), "skin matrix of joint {j}");
            assert_eq!(
                got.row(3).to_array().map(f32::to_bits),
                [0, 0, 0, 1f32.to_bits()]
            );
            negative_entries += got.to_cols_array().iter().filter(|v| **v < 0.0).count();
        }
    }
    // Every sign was met: about half of the 400 x 15 x 12 upper entries are negative.
    assert!(negative_entries > 30_000, "{negative_entries}");
}

fn pose_of(rotation: Quat, translation: Vec3) -> LocalPose {
    LocalPose::from_transforms(vec![Transform {
        translation,
        rotation,
        scale: Vec3::ONE,
    }])
}

fn one_joint() -> Skeleton {
    Skeleton::new(names(1), vec![None], vec![Transform::IDENTITY]).unwrap()
}

#[test]
fn q_and_minus_q_blend_to_the_same_rotation() {
    let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.9);
    let a = pose_of(q, Vec3::ZERO);
    let b = pose_of(-q, Vec3::ZERO);
    let rest = LocalPose::rest(&one_joint());
    let mut out = rest.clone();
    let layers = [
        BlendLayer {
            pose: &a,
            weight: 0.5,
        },
        BlendLayer {
            pose: &b,
            weight: 0.5,
        },
    ];
    blend_poses(&layers, &rest, &mut out).unwrap();
    assert!(out.as_slice()[0].rotation.angle_between(q) < 1e-4);
}

#[test]
fn blend_across_hemispheres_takes_the_short_arc_and_lerps_translation() {
    // 170 and -170 degrees: the short arc between them passes through 180.
    let a = pose_of(rot_z(170.0), Vec3::new(0.0, 0.0, 0.0));
    let b = pose_of(rot_z(-170.0), Vec3::new(4.0, 0.0, 0.0));
    assert!(a.as_slice()[0].rotation.dot(b.as_slice()[0].rotation) < 0.0);
    let rest = LocalPose::rest(&one_joint());
    let mut out = rest.clone();
    // Weights 1 and 3 normalise to 0.25 / 0.75.
    let layers = [
        BlendLayer {
            pose: &a,
            weight: 1.0,
        },
        BlendLayer {
            pose: &b,
            weight: 3.0,
        },
    ];
    blend_poses(&layers, &rest, &mut out).unwrap();
    let t = out.as_slice()[0];
    assert!(t.translation.abs_diff_eq(Vec3::new(3.0, 0.0, 0.0), 1e-6));
    // nlerp of half-angles 85 and 95 deg at 0.25/0.75: atan2(0.99619, -0.04358) = 92.505 deg.
    let angle = angle_z_deg(t.rotation).rem_euclid(360.0);
    assert!((angle - 185.01).abs() < 0.01, "{angle}");
    assert!((t.rotation.length() - 1.0).abs() < 1e-6);
}

#[test]
fn zero_total_weight_gives_the_rest_pose() {
    let skeleton = Skeleton::new(
        names(1),
        vec![None],
        vec![Transform::from_translation(Vec3::new(7.0, 0.0, 0.0))],
    )
    .unwrap();
    let rest = LocalPose::rest(&skeleton);
    let a = pose_of(rot_z(30.0), Vec3::ONE);
    let mut out = pose_of(rot_z(50.0), Vec3::ZERO);
    let layers = [BlendLayer {
        pose: &a,
        weight: 0.0,
    }];
    blend_poses(&layers, &rest, &mut out).unwrap();
    assert_eq!(out, rest);
    blend_poses(&[], &rest, &mut out).unwrap();
    assert_eq!(out, rest);
}

#[test]
fn looping_wraps_by_floor_modulo() {
    assert!((wrap_time(-0.25, 1.0) - 0.75).abs() < 1e-6);
    assert!((wrap_time(2.5, 1.0) - 0.5).abs() < 1e-6);
    assert_eq!(wrap_time(1.0, 1.0), 0.0);
    assert_eq!(wrap_time(3.0, 0.0), 0.0);

    let mut p = Playback::new(1.0);
    p.seek(0.1);
    p.speed = -1.0;
    p.advance(0.35);
    assert!((p.time_secs() - 0.75).abs() < 1e-6, "{}", p.time_secs());
    assert!((p.ratio() - 0.75).abs() < 1e-6);
    // A long session: many wraps stay in range.
    p.speed = 1.7;
    for _ in 0..10_000 {
        p.advance(1.0 / 60.0);
        assert!(p.time_secs() >= 0.0 && p.time_secs() < 1.0);
    }
}

#[test]
fn once_clamps_both_ends_and_zero_duration_holds_zero() {
    let mut p = Playback::new(2.0);
    p.mode = PlaybackMode::Once;
    p.advance(5.0);
    assert_eq!(p.time_secs(), 2.0);
    assert_eq!(p.ratio(), 1.0);
    p.speed = -1.0;
    p.advance(10.0);
    assert_eq!(p.time_secs(), 0.0);

    let mut zero = Playback::new(0.0);
    zero.advance(0.3);
    assert_eq!(zero.time_secs(), 0.0);
    assert_eq!(zero.ratio(), 0.0);
    zero.mode = PlaybackMode::Once;
    zero.advance(0.3);
    assert_eq!(zero.time_secs(), 0.0);
}

#[test]
fn paused_playback_does_not_move() {
    let mut p = Playback::new(1.0);
    p.seek(0.4);
    p.paused = true;
    p.advance(0.2);
    assert_eq!(p.time_secs(), 0.4);
}

fn events(times: &[(&str, f32)]) -> Vec<ClipEvent> {
    times
        .iter()
        .map(|&(name, time_secs)| ClipEvent {
            name: name.into(),
            time_secs,
        })
        .collect()
}

fn fired(p: &mut Playback, dt: f32, events: &[ClipEvent]) -> Vec<String> {
    let mut out = Vec::new();
    p.advance_with_events(dt, events, |e| out.push(e.name.clone()));
    out
}

#[test]
fn events_fire_once_across_the_loop_and_on_the_way_back() {
    let ev = events(&[("early", 0.05), ("late", 0.9)]);
    let mut p = Playback::new(1.0);
    p.seek(0.95);
    // 0.95 -> 1.1 (wraps to 0.1): crosses 0.05 once; 0.9 is behind.
    assert_eq!(fired(&mut p, 0.15, &ev), ["early"]);
    assert!((p.time_secs() - 0.1).abs() < 1e-6);
    // Sampling the same time again fires nothing.
    assert!(fired(&mut p, 0.0, &ev).is_empty());
    // On to 0.5: nothing new.
    assert!(fired(&mut p, 0.4, &ev).is_empty());
    // Reverse from 0.5 to 0.0 crosses 0.05 on the way back.
    p.speed = -1.0;
    assert_eq!(fired(&mut p, 0.5, &ev), ["early"]);
    // Reverse across the loop: 0.0 -> -0.2 (0.8) crosses 0.9 ("late") only.
    assert_eq!(fired(&mut p, 0.2, &ev), ["late"]);
    // Seeking fires nothing.
    p.seek(0.04);
    p.speed = 1.0;
    p.seek(0.06);
    assert!(fired(&mut p, 0.0, &ev).is_empty());
}

#[test]
fn events_fire_in_the_order_met() {
    let ev = events(&[("a", 0.05), ("b", 0.5), ("c", 0.95)]);
    let mut p = Playback::new(1.0);
    p.seek(0.4);
    assert_eq!(fired(&mut p, 0.7, &ev), ["b", "c", "a"]);
    p.speed = -1.0;
    assert_eq!(fired(&mut p, 0.7, &ev), ["a", "c", "b"]);
    // More than a lap at once: each event once.
    p.speed = 1.0;
    assert_eq!(fired(&mut p, 3.5, &ev), ["a", "b", "c"]);
}

#[test]
fn once_mode_fires_no_events_past_its_end() {
    let ev = events(&[("start", 0.0), ("mid", 0.5)]);
    let mut p = Playback::new(1.0);
    p.mode = PlaybackMode::Once;
    assert_eq!(fired(&mut p, 2.0, &ev), ["mid"]);
    assert!(fired(&mut p, 2.0, &ev).is_empty());
    p.speed = -1.0;
    assert_eq!(fired(&mut p, 2.0, &ev), ["mid", "start"]);
}

#[test]
fn synced_blend_keeps_both_clips_at_the_same_ratio() {
    // Idle 2 s, walk 1 s, weight 0.5: one shared cycle lasts 1.5 s.
    let mut blend = SyncedBlend::new(2.0, 1.0, 0.5);
    assert_eq!(blend.cycle_secs(), 1.5);
    let step = blend.advance(0.75);
    let (idle, walk) = blend.times_secs();
    assert!((idle - 1.0).abs() < 1e-6 && (walk - 0.5).abs() < 1e-6);
    assert!((step.b.to_secs - 0.5).abs() < 1e-6);
    // Walk only: the cycle is the walk's own duration.
    blend.weight = 1.0;
    blend.advance(0.25);
    let (idle, walk) = blend.times_secs();
    assert!((walk - 0.75).abs() < 1e-6 && (idle - 1.5).abs() < 1e-6);
    // Crossing the shared loop wraps both together.
    blend.advance(0.5);
    let (idle, walk) = blend.times_secs();
    assert!((walk - 0.25).abs() < 1e-5 && (idle - 0.5).abs() < 1e-5);
    // The walk's step maps to walk seconds, so its events fire: a foot plant at 0.1 s of walk.
    let plant = events(&[("foot_left", 0.1)]);
    let step = blend.advance(0.0);
    let mut n = 0;
    for_each_crossed_event(&plant, 1.0, PlaybackMode::Loop, step.b, |_| n += 1);
    assert_eq!(n, 0);
    blend.phase.seek(0.95);
    let step = blend.advance(0.2);
    for_each_crossed_event(&plant, 1.0, PlaybackMode::Loop, step.b, |_| n += 1);
    assert_eq!(n, 1);
}

// ---- Refusals: each names its error. ----

fn finite_rest(n: usize) -> Vec<Transform> {
    vec![Transform::IDENTITY; n]
}

#[test]
fn skeleton_refusals() {
    assert_eq!(
        Skeleton::new(names(2), vec![None], finite_rest(2)).unwrap_err(),
        SkeletonError::LengthMismatch {
            names: 2,
            parents: 1,
            rest: 2
        }
    );
    assert_eq!(
        Skeleton::new(names(2), vec![Some(1), None], finite_rest(2)).unwrap_err(),
        SkeletonError::ParentNotBeforeChild {
            joint: 0,
            parent: 1
        }
    );
    // Self-parenting.
    assert_eq!(
        Skeleton::new(names(2), vec![None, Some(1)], finite_rest(2)).unwrap_err(),
        SkeletonError::ParentNotBeforeChild {
            joint: 1,
            parent: 1
        }
    );
    // A cycle 1 -> 2 -> 1 cannot be written parent-before-child.
    assert_eq!(
        Skeleton::new(names(3), vec![None, Some(2), Some(1)], finite_rest(3)).unwrap_err(),
        SkeletonError::ParentNotBeforeChild {
            joint: 1,
            parent: 2
        }
    );
    let mut rest = finite_rest(2);
    rest[1].translation.y = f32::NAN;
    assert_eq!(
        Skeleton::new(names(2), vec![None, Some(0)], rest).unwrap_err(),
        SkeletonError::NonFiniteRest { joint: 1 }
    );
    let mut rest = finite_rest(2);
    rest[0].scale.x = f32::INFINITY;
    assert_eq!(
        Skeleton::new(names(2), vec![None, Some(0)], rest).unwrap_err(),
        SkeletonError::NonFiniteRest { joint: 0 }
    );
    let mut rest = finite_rest(2);
    rest[1].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    assert_eq!(
        Skeleton::new(names(2), vec![None, Some(0)], rest).unwrap_err(),
        SkeletonError::ZeroRotation { joint: 1 }
    );
    // Joint indices are stored as u16.
    let n = u16::MAX as usize + 2;
    let parents = (0..n).map(|j| j.checked_sub(1)).collect();
    assert_eq!(
        Skeleton::new(names(n), parents, finite_rest(n)).unwrap_err(),
        SkeletonError::TooManyJoints(n)
    );
}

#[test]
fn skin_refusals() {
    let (skeleton, _) = arm();
    assert_eq!(
        Skin::new(&skeleton, vec![0, 1], vec![Mat4::IDENTITY]).unwrap_err(),
        SkinError::LengthMismatch {
            joints: 2,
            inverse_binds: 1
        }
    );
    assert_eq!(
        Skin::new(&skeleton, vec![0, 2], vec![Mat4::IDENTITY; 2]).unwrap_err(),
        SkinError::JointOutOfRange {
            palette_index: 1,
            joint: 2,
            joint_count: 2
        }
    );
    let mut bad = Mat4::IDENTITY;
    bad.w_axis.x = f32::NAN;
    assert_eq!(
        Skin::new(&skeleton, vec![0, 1], vec![Mat4::IDENTITY, bad]).unwrap_err(),
        SkinError::NonFiniteInverseBind { palette_index: 1 }
    );
}

#[test]
fn track_refusals() {
    let linear = Interpolation::Linear;
    assert_eq!(
        Track::<Vec3>::new(vec![], vec![], linear).unwrap_err(),
        TrackError::NoKeys
    );
    assert_eq!(
        Track::new(vec![0.0, 1.0], vec![Vec3::ZERO], linear).unwrap_err(),
        TrackError::ValueCountMismatch {
            times: 2,
            values: 1,
            expected: 2,
            interpolation: linear
        }
    );
    // CUBICSPLINE needs three values per key.
    let cubic = Interpolation::CubicSpline;
    assert_eq!(
        Track::new(vec![0.0, 1.0], vec![Vec3::ZERO; 2], cubic).unwrap_err(),
        TrackError::ValueCountMismatch {
            times: 2,
            values: 2,
            expected: 6,
            interpolation: cubic
        }
    );
    assert_eq!(
        Track::new(vec![0.0, 1.0, 1.0], vec![Vec3::ZERO; 3], linear).unwrap_err(),
        TrackError::NonIncreasingKeyTimes {
            key: 2,
            time_secs: 1.0,
            previous_secs: 1.0
        }
    );
    assert_eq!(
        Track::new(vec![0.5, 0.2], vec![Vec3::ZERO; 2], linear).unwrap_err(),
        TrackError::NonIncreasingKeyTimes {
            key: 1,
            time_secs: 0.2,
            previous_secs: 0.5
        }
    );
    assert!(matches!(
        Track::new(vec![0.0, f32::NAN], vec![Vec3::ZERO; 2], linear).unwrap_err(),
        TrackError::BadKeyTime { key: 1, .. }
    ));
    assert_eq!(
        Track::new(vec![-1.0, 0.0], vec![Vec3::ZERO; 2], linear).unwrap_err(),
        TrackError::BadKeyTime {
            key: 0,
            time_secs: -1.0
        }
    );
    assert_eq!(
        Track::new(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::NAN], linear).unwrap_err(),
        TrackError::NonFiniteValue { value: 1 }
    );
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    assert_eq!(
        Track::new(vec![0.0, 1.0], vec![Quat::IDENTITY, zero], linear).unwrap_err(),
        TrackError::ZeroQuaternion { value: 1 }
    );
    // A zero tangent is fine; a zero key value (index 4 = key 1's value) is not.
    assert!(Track::new(vec![0.0], vec![zero, Quat::IDENTITY, zero], cubic).is_ok());
    assert_eq!(
        Track::new(
            vec![0.0, 1.0],
            vec![zero, Quat::IDENTITY, zero, zero, zero, zero],
            cubic
        )
        .unwrap_err(),
        TrackError::ZeroQuaternion { value: 4 }
    );
}

#[test]
fn clip_refusals() {
    let track = || Track::new(vec![0.0, 1.0], vec![Vec3::ZERO; 2], Interpolation::Linear).unwrap();
    let on = |joint| JointTrack {
        joint,
        channel: Channel::Translation(track()),
    };
    assert_eq!(
        Clip::new("c", 2, vec![on(0), on(2)], vec![]).unwrap_err(),
        ClipError::JointOutOfRange {
            track: 1,
            joint: 2,
            joint_count: 2
        }
    );
    assert_eq!(
        Clip::new("c", 2, vec![on(1), on(0), on(1)], vec![]).unwrap_err(),
        ClipError::DuplicateTarget {
            track: 2,
            first: 0,
            joint: 1,
            property: Property::Translation
        }
    );
    assert_eq!(
        Clip::new("c", 2, vec![on(0)], events(&[("late", 1.5)])).unwrap_err(),
        ClipError::EventOutOfRange {
            event: 0,
            name: "late".into(),
            time_secs: 1.5,
            duration_secs: 1.0
        }
    );
    // Translation and rotation on one joint are two targets, not a duplicate.
    let rot = Track::new(vec![0.0, 2.0], vec![Quat::IDENTITY; 2], Interpolation::Step).unwrap();
    let clip = Clip::new(
        "ok",
        2,
        vec![
            on(0),
            JointTrack {
                joint: 0,
                channel: Channel::Rotation(rot),
            },
        ],
        events(&[("b", 1.5), ("a", 0.5)]),
    )
    .unwrap();
    assert_eq!(clip.duration_secs(), 2.0);
    assert_eq!(clip.events()[0].name, "a");
}

#[test]
fn stages_refuse_buffers_of_the_wrong_size() {
    let (skeleton, skin) = arm();
    let other = one_joint();
    let mut model = ModelPose::new(&skeleton);
    assert_eq!(
        local_to_model(&skeleton, &LocalPose::rest(&other), &mut model).unwrap_err(),
        PoseError::LengthMismatch {
            what: "local pose",
            expected: 2,
            actual: 1
        }
    );
    let mut small = SkinPalette::new(&Skin::all_joints(&other, vec![Mat4::IDENTITY]).unwrap());
    assert!(matches!(
        build_palette(&model, &skin, Mat4::IDENTITY, &mut small),
        Err(PoseError::LengthMismatch {
            what: "skin palette",
            ..
        })
    ));
    let clip = Clip::new("empty", 1, vec![], vec![]).unwrap();
    let mut local = LocalPose::rest(&skeleton);
    assert!(matches!(
        sample_clip(
            &skeleton,
            &clip,
            0.0,
            &mut ClipCursor::new(&clip),
            &mut local
        ),
        Err(PoseError::LengthMismatch {
            what: "clip joints",
            ..
        })
    ));
    let rest = LocalPose::rest(&skeleton);
    let wrong = LocalPose::rest(&other);
    let layers = [BlendLayer {
        pose: &wrong,
        weight: 1.0,
    }];
    assert!(matches!(
        blend_poses(&layers, &rest, &mut local),
        Err(PoseError::LengthMismatch {
            what: "blend layer",
            ..
        })
    ));
    assert_eq!(
        skin_position(
            &[Mat4::IDENTITY],
            [1, 0, 0, 0],
            [1.0, 0.0, 0.0, 0.0],
            Vec3::X
        ),
        None
    );
}

#[test]
fn fast_slerp_matches_the_trigonometric_formula() {
    // Against slerp computed in f64 with acos and sines, over angles up to 179 degrees.
    for deg in [0.5f64, 10.0, 45.0, 90.0, 135.0, 170.0, 179.0] {
        let axis = glam::DVec3::new(0.3, -0.8, 0.52).normalize();
        let a = glam::DQuat::from_axis_angle(glam::DVec3::new(1.0, 0.2, 0.1).normalize(), 0.4);
        let b = glam::DQuat::from_axis_angle(axis, deg.to_radians()) * a;
        for k in 0..=20 {
            let u = k as f64 / 20.0;
            let theta = a.dot(b).clamp(-1.0, 1.0).acos();
            let expected = if theta < 1e-9 {
                a
            } else {
                glam::DQuat::from_vec4(
                    glam::DVec4::from(a) * (((1.0 - u) * theta).sin() / theta.sin())
                        + glam::DVec4::from(b) * ((u * theta).sin() / theta.sin()),
                )
            };
            let got =
                glam::DVec4::from(slerp_shortest(a.as_quat(), b.as_quat(), u as f32).as_dquat());
            let expected = glam::DVec4::from(expected);
            // Component distance (angle_between's acos is too coarse near identity in f32).
            let error = (got - expected).length().min((got + expected).length());
            assert!(error < 1e-5, "{deg} deg at {u}: {error}");
        }
    }
}

#[test]
fn clip_sampling_slerps_along_the_arc_as_the_trigonometric_formula() {
    // The clip sampler's own slerp (each interval's arc, worked out once): one joint, two keys
    // 0.5 to 179 degrees apart, against slerp in f64 with acos and sines.
    let skeleton = Skeleton::new(names(1), vec![None], vec![Transform::IDENTITY]).unwrap();
    for deg in [0.5f64, 10.0, 45.0, 90.0, 135.0, 170.0, 179.0] {
        let axis = glam::DVec3::new(0.3, -0.8, 0.52).normalize();
        let a = glam::DQuat::from_axis_angle(glam::DVec3::new(1.0, 0.2, 0.1).normalize(), 0.4);
        let b = glam::DQuat::from_axis_angle(axis, deg.to_radians()) * a;
        let track = Track::new(
            vec![0.0, 1.0],
            vec![a.as_quat(), b.as_quat()],
            Interpolation::Linear,
        )
        .unwrap();
        let clip = Clip::new(
            "arc",
            1,
            vec![JointTrack {
                joint: 0,
                channel: Channel::Rotation(track),
            }],
            vec![],
        )
        .unwrap();
        let mut cursor = ClipCursor::new(&clip);
        let mut pose = LocalPose::rest(&skeleton);
        let theta = a.dot(b).clamp(-1.0, 1.0).acos();
        for k in 0..=20 {
            let u = k as f64 / 20.0;
            sample_clip(&skeleton, &clip, u as f32, &mut cursor, &mut pose).unwrap();
            let expected = glam::DVec4::from(a) * (((1.0 - u) * theta).sin() / theta.sin())
                + glam::DVec4::from(b) * ((u * theta).sin() / theta.sin());
            let got = glam::DVec4::from(pose.as_slice()[0].rotation.as_dquat());
            let error = (got - expected).length().min((got + expected).length());
            assert!(error < 1e-6, "{deg} deg at {u}: {error}");
            assert!(
                (got.length() - 1.0).abs() < 1e-6,
                "unit without renormalising"
            );
        }
    }
}

#[test]
fn sampling_a_clip_equals_sampling_each_track_alone() {
    // Tracks sharing key times and tracks with their own, STEP, LINEAR and CUBICSPLINE, over forward,
    // backward and jumping times: the same values as sampling each track by itself.
    let shared: Vec<f32> = (0..10).map(|k| k as f32 * 0.1).collect();
    let own: Vec<f32> = vec![0.05, 0.3, 0.31, 0.9];
    let n = 4;
    let mut tracks = Vec::new();
    for j in 0..n {
        let times = if j % 2 == 0 {
            shared.clone()
        } else {
            own.clone()
        };
        let f = |k: usize| (j * 7 + k) as f32 * 0.3;
        let tr = Track::new(
            times.clone(),
            (0..times.len())
                .map(|k| Vec3::new(f(k).sin(), f(k), 0.0))
                .collect(),
            Interpolation::Linear,
        )
        .unwrap();
        let rot = Track::new(
            times.clone(),
            (0..times.len())
                .map(|k| Quat::from_rotation_y(f(k)))
                .collect(),
            if j % 2 == 0 {
                Interpolation::Step
            } else {
                Interpolation::Linear
            },
        )
        .unwrap();
        let cubic: Vec<Vec3> = (0..3 * shared.len())
            .map(|k| Vec3::splat(f(k).cos()))
            .collect();
        let sc = Track::new(shared.clone(), cubic, Interpolation::CubicSpline).unwrap();
        tracks.push(JointTrack {
            joint: j,
            channel: Channel::Translation(tr),
        });
        tracks.push(JointTrack {
            joint: j,
            channel: Channel::Rotation(rot),
        });
        tracks.push(JointTrack {
            joint: j,
            channel: Channel::Scale(sc),
        });
    }
    let skeleton = Skeleton::new(
        names(n),
        (0..n).map(|j| j.checked_sub(1)).collect(),
        vec![Transform::IDENTITY; n],
    )
    .unwrap();
    let clip = Clip::new("mixed", n, tracks, vec![]).unwrap();
    let mut cursor = ClipCursor::new(&clip);
    let mut pose = LocalPose::rest(&skeleton);
    let mut times: Vec<f32> = (0..60).map(|k| k as f32 / 59.0).collect();
    times.extend((0..60).rev().map(|k| k as f32 / 59.0 - 0.05));
    times.extend([0.7, 0.1, 1.2, -0.3, 0.55]);
    for t in times {
        sample_clip(&skeleton, &clip, t, &mut cursor, &mut pose).unwrap();
        for jt in clip.tracks() {
            let mut hint = 0;
            let got = pose.as_slice()[jt.joint];
            // The clip sampler interpolates from decoded intervals, four rotations at a time:
            // the same values as the track sampler to float rounding.
            let close = match &jt.channel {
                Channel::Translation(tr) => got
                    .translation
                    .abs_diff_eq(sample_track(tr, t, &mut hint), 1e-6),
                Channel::Rotation(r) => got
                    .rotation
                    .abs_diff_eq(sample_track(r, t, &mut hint), 1e-6),
                Channel::Scale(s) => got.scale.abs_diff_eq(sample_track(s, t, &mut hint), 1e-6),
            };
            assert!(
                close,
                "joint {} {:?} at t={t}: {got:?}",
                jt.joint,
                jt.channel.property()
            );
        }
    }
}

#[test]
fn three_layers_blend_by_normalised_weights() {
    // Weights 1, 1, 2 normalise to 0.25, 0.25, 0.5: x = 0.25*0 + 0.25*4 + 0.5*8 = 5.
    let rest = LocalPose::rest(&one_joint());
    let poses: Vec<LocalPose> = [0.0, 4.0, 8.0]
        .iter()
        .map(|&x| pose_of(rot_z(30.0), Vec3::new(x, 0.0, 0.0)))
        .collect();
    let layers: Vec<BlendLayer> = poses
        .iter()
        .zip([1.0, 1.0, 2.0])
        .map(|(pose, weight)| BlendLayer { pose, weight })
        .collect();
    let mut out = rest.clone();
    blend_poses(&layers, &rest, &mut out).unwrap();
    assert!(
        out.as_slice()[0]
            .translation
            .abs_diff_eq(Vec3::new(5.0, 0.0, 0.0), 1e-6)
    );
    assert!(out.as_slice()[0].rotation.angle_between(rot_z(30.0)) < 1e-5);
    // The two-layer path gives what the general one gives for the same two poses.
    let two = [
        layers[0],
        BlendLayer {
            pose: &poses[2],
            weight: 3.0,
        },
    ];
    let three = [
        layers[0],
        BlendLayer {
            pose: &poses[2],
            weight: 3.0,
        },
        BlendLayer {
            pose: &poses[1],
            weight: 0.0,
        },
    ];
    let (mut a, mut b) = (rest.clone(), rest.clone());
    blend_poses(&two, &rest, &mut a).unwrap();
    blend_poses(&three, &rest, &mut b).unwrap();
    assert!(
        a.as_slice()[0]
            .translation
            .abs_diff_eq(b.as_slice()[0].translation, 1e-6)
    );
    assert!(
        a.as_slice()[0]
            .rotation
            .abs_diff_eq(b.as_slice()[0].rotation, 1e-6)
    );
}

/// Three 70-joint poses (two whole chunks of eight blocks of four, a part chunk and a tail of
/// two) with rotations on both sides of one another's hemisphere. At joint 37, `b` is `a`
/// negated (the same rotation: the blend is `a`'s); at joint 38, `b` is orthogonal to `a` (a dot
/// product of zero: the shortest sum, of squared length 0.4^2 + 0.6^2).
fn many_joint_poses() -> [LocalPose; 3] {
    let pose = |seed: f32| {
        (0..70)
            .map(|j| {
                let f = seed + j as f32 * 0.77;
                let axis = Vec3::new(f.sin(), (1.3 * f).cos(), 0.5 + (0.7 * f).sin()).normalize();
                let q = Quat::from_axis_angle(axis, 3.0 * f.cos());
                Transform {
                    translation: Vec3::new(f.cos(), 2.0 * f.sin(), -(3.0 * f).sin()),
                    rotation: if j % 3 == 0 { -q } else { q },
                    scale: Vec3::new(1.0 + 0.1 * f.sin(), 0.9, 1.2 + 0.05 * f.cos()),
                }
            })
            .collect::<Vec<_>>()
    };
    let [a, mut b, rest] = [pose(0.0), pose(2.5), pose(7.0)];
    b[37].rotation = -a[37].rotation;
    // (x, y, z, w) -> (-y, x, -w, z) is orthogonal to it.
    let [x, y, z, w] = a[38].rotation.to_array();
    b[38].rotation = Quat::from_xyzw(-y, x, -w, z);
    [a, b, rest].map(LocalPose::from_transforms)
}

/// An independent nlerp of `0.4 a + 0.6 b` in f64, `b` flipped into `a`'s hemisphere.
fn nlerp_f64(qa: Quat, qb: Quat) -> [f64; 4] {
    let (qa, qb) = (qa.to_array().map(f64::from), qb.to_array().map(f64::from));
    let dot: f64 = (0..4).map(|c| qa[c] * qb[c]).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let sum: [f64; 4] = std::array::from_fn(|c| 0.4 * qa[c] + 0.6 * sign * qb[c]);
    let len = sum.iter().map(|v| v * v).sum::<f64>().sqrt();
    sum.map(|v| v / len)
}

#[test]
fn two_layer_blend_of_many_joints_is_the_general_blend_and_an_f64_nlerp() {
    let [a, b, rest] = many_joint_poses();
    let (none, mut two, mut general) = (rest.clone(), rest.clone(), rest.clone());
    let layer = |pose, weight| BlendLayer { pose, weight };
    blend_poses(&[layer(&a, 0.4), layer(&b, 0.6)], &rest, &mut two).unwrap();
    // A third layer of weight zero takes the general path (a layer at a time).
    let three = [layer(&a, 0.4), layer(&b, 0.6), layer(&none, 0.0)];
    blend_poses(&three, &rest, &mut general).unwrap();
    for (j, (x, y)) in two.as_slice().iter().zip(general.as_slice()).enumerate() {
        assert!(x.translation.abs_diff_eq(y.translation, 1e-6), "joint {j}");
        assert!(x.scale.abs_diff_eq(y.scale, 1e-6), "joint {j}");
        assert!(x.rotation.abs_diff_eq(y.rotation, 1e-6), "joint {j}");
        assert!((x.rotation.length() - 1.0).abs() < 1e-6, "joint {j}");
        let expected = nlerp_f64(a.as_slice()[j].rotation, b.as_slice()[j].rotation);
        for (c, got) in x.rotation.to_array().into_iter().enumerate() {
            assert!(
                (f64::from(got) - expected[c]).abs() < 1e-6,
                "joint {j} lane {c}"
            );
        }
    }
    // Opposite signs of one rotation blend to it; orthogonal ones to (0.4 a + 0.6 b) / sqrt(0.52).
    assert!(
        two.as_slice()[37]
            .rotation
            .abs_diff_eq(a.as_slice()[37].rotation, 1e-6)
    );
    let (qa, qb) = (a.as_slice()[38].rotation, b.as_slice()[38].rotation);
    let orthogonal = (qa * 0.4 + qb * 0.6) * (1.0 / 0.52f32.sqrt());
    assert!(two.as_slice()[38].rotation.abs_diff_eq(orthogonal, 1e-6));
    // In place (`blend_pair`): the two-layer blend over the first pose.
    let mut in_place = a.clone();
    blend_pair(&mut in_place, &b, 0.6).unwrap();
    // blend_pair's first weight is 1 - 0.6, not 0.4 / (0.4 + 0.6): equal to within rounding.
    for (j, (x, y)) in in_place.as_slice().iter().zip(two.as_slice()).enumerate() {
        assert!(x.translation.abs_diff_eq(y.translation, 1e-6), "joint {j}");
        assert!(x.scale.abs_diff_eq(y.scale, 1e-6), "joint {j}");
        assert!(x.rotation.abs_diff_eq(y.rotation, 1e-6), "joint {j}");
    }
}

#[test]
fn blending_three_layers_falls_back_to_rest_where_the_rotations_cancel() {
    // Zero quaternions (no valid pose holds them) sum to nothing: the rest rotation, not NaN.
    let [mut a, mut b, rest] = many_joint_poses();
    for pose in [&mut a, &mut b] {
        pose.as_mut_slice()[5].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    }
    let mut out = rest.clone();
    let layer = |pose, weight| BlendLayer { pose, weight };
    blend_poses(
        &[layer(&a, 0.3), layer(&b, 0.6), layer(&a, 0.1)],
        &rest,
        &mut out,
    )
    .unwrap();
    assert_eq!(out.as_slice()[5].rotation, rest.as_slice()[5].rotation);
    let expected = nlerp_f64(a.as_slice()[6].rotation, b.as_slice()[6].rotation);
    for (c, got) in out.as_slice()[6]
        .rotation
        .to_array()
        .into_iter()
        .enumerate()
    {
        assert!((f64::from(got) - expected[c]).abs() < 1e-6, "lane {c}");
    }
}
