//! Bones that show their orientation: octahedral bones whose square turns with the joint's roll,
//! each joint's local axes, and the bind axes from the inverse bind matrices that a transposed
//! or mirrored matrix turns away from the posed ones.

use crate::common;

use common::skinscope_bytes;
use glam::{Affine3A, Mat4, Quat, Vec3};
use skinscope::pose::CharacterPose;
use skinscope::render::bones::{AXIS_COLORS, AxesOptions, BoneStyle, axes_into, bone_shapes_into};
use skinscope::render::lines::LineVertex;
use skinscope_testkit::temp_dir;

fn segments(v: &[LineVertex]) -> Vec<(Vec3, Vec3, [f32; 4])> {
    v.chunks_exact(2)
        .map(|w| {
            (
                Vec3::from(w[0].position),
                Vec3::from(w[1].position),
                w[0].color,
            )
        })
        .collect()
}

#[test]
fn the_axes_are_each_joints_columns_in_red_green_and_blue() {
    let c = skinscope::builtin::character().unwrap();
    let pose = {
        let mut p = CharacterPose::new(&c);
        let request = skinscope::pose::PoseRequest::clip(1, 0.3);
        p.evaluate(&c, &request).unwrap();
        p
    };
    let mut out = Vec::new();
    let size = 0.01;
    axes_into(
        &c,
        pose.model.as_slice(),
        AxesOptions::default(),
        size,
        &mut out,
    );
    let lines = segments(&out);
    let skin_joints = c.skins[0].skin.len();
    assert_eq!(lines.len(), 3 * skin_joints);
    for (k, (a, b, color)) in lines.iter().enumerate() {
        let joint = c.skins[0].skin.joint(k / 3).unwrap();
        let m = pose.model.as_slice()[joint];
        let axis = Vec3::from([m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis][k % 3]);
        assert!(a.distance(Vec3::from(m.translation)) < 1e-6);
        assert!((*b - *a).normalize().dot(axis.normalize()) > 0.9999);
        assert!(((*b - *a).length() - 5.0 * size).abs() < 1e-5);
        assert_eq!(*color, AXIS_COLORS[k % 3]);
    }
    // One joint only.
    out.clear();
    let only = AxesOptions {
        only: Some(c.skeleton.find("hand_r").unwrap()),
        bind: false,
    };
    axes_into(&c, pose.model.as_slice(), only, size, &mut out);
    assert_eq!(out.len(), 6);
}

/// The bind axes' directions for `joint` (palette index `p`), after the posed axes.
fn bind_axes(c: &skinscope::character::Character, model: &[Affine3A], joint: usize) -> [Vec3; 3] {
    let mut out = Vec::new();
    let options = AxesOptions {
        only: Some(joint),
        bind: true,
    };
    axes_into(c, model, options, 0.01, &mut out);
    let lines = segments(&out);
    assert_eq!(lines.len(), 6, "posed and bind axes");
    [3, 4, 5].map(|k| (lines[k].1 - lines[k].0).normalize())
}

#[test]
fn at_the_bind_pose_the_bind_axes_lie_on_the_posed_ones_unless_the_inverse_bind_is_wrong() {
    let c = skinscope::builtin::character().unwrap();
    let rest = CharacterPose::at_rest(&c);
    let model = rest.model.as_slice();
    let joint = c.skeleton.find("forearm_l").unwrap();
    let m = model[joint];
    let posed =
        [m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis].map(|a| Vec3::from(a).normalize());
    let good = bind_axes(&c, model, joint);
    for (g, p) in good.iter().zip(posed) {
        assert!(g.dot(p) > 0.9999, "{g} against {p}");
    }
    let p = (0..c.skins[0].skin.len())
        .find(|&p| c.skins[0].skin.joint(p) == Some(joint))
        .unwrap();
    let with_inverse_bind = |m: Mat4| {
        let mut bad = c.clone();
        let skin = &mut bad.skins[0];
        let mut ibm = skin.skin.joint_from_bind().to_vec();
        ibm[p] = m;
        let joints = skin.skin.joints().iter().map(|&j| j as usize).collect();
        skin.skin = skinscope::anim::Skin::new(&bad.skeleton, joints, ibm).unwrap();
        bad
    };
    // Mirrored in X: the bind X axis points against the posed one.
    let ibm = c.skins[0].skin.joint_from_bind()[p];
    let mirrored = with_inverse_bind(Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)) * ibm);
    let axes = bind_axes(&mirrored, model, joint);
    assert!(
        axes[0].dot(posed[0]) < -0.9999,
        "{} against {}",
        axes[0],
        posed[0]
    );
    assert!(axes[1].dot(posed[1]) > 0.9999);
    // Transposed (a row-major matrix read as column-major): the turn is reversed and the
    // translation lands in the bottom row; the axes leave the posed ones.
    let forearm_turned = Mat4::from_quat(Quat::from_rotation_z(0.7)) * ibm;
    let turned = with_inverse_bind(forearm_turned);
    let transposed = with_inverse_bind(forearm_turned.transpose());
    let a = bind_axes(&turned, model, joint);
    let b = bind_axes(&transposed, model, joint);
    assert!(
        a[0].dot(b[0]) < 0.9,
        "transposing changed nothing visible: {} {}",
        a[0],
        b[0]
    );
}

#[test]
fn an_octahedral_bones_square_turns_with_the_joints_roll() {
    let c = skinscope::builtin::character().unwrap();
    let mut pose = CharacterPose::at_rest(&c);
    let joint = c.skeleton.find("upperarm_l").unwrap();
    let child = c.skeleton.find("forearm_l").unwrap();
    let draw = |pose: &CharacterPose| {
        let mut out = Vec::new();
        bone_shapes_into(&c, &pose.model, BoneStyle::Octahedral, 0.01, None, &mut out);
        segments(&out)
    };
    let before = draw(&pose);
    let head = Vec3::from(pose.model.as_slice()[joint].translation);
    let tail = Vec3::from(pose.model.as_slice()[child].translation);
    // The bone's 12 edges: 4 from the head, 4 round the square, 4 to the tail.
    let bone: Vec<_> = before
        .iter()
        .filter(|(a, b, _)| a.distance(head) < 1e-6 || b.distance(tail) < 1e-6)
        .collect();
    assert_eq!(bone.len(), 8, "four edges from the head, four to the tail");
    let corners: Vec<Vec3> = bone
        .iter()
        .filter(|(a, _, _)| a.distance(head) < 1e-6)
        .map(|s| s.1)
        .collect();
    let length = head.distance(tail);
    let dir = (tail - head) / length;
    for corner in &corners {
        let along = (*corner - head).dot(dir);
        assert!((along - 0.1 * length).abs() < 1e-5, "{along}");
        let across = (*corner - head - dir * along).length();
        assert!((across - 0.1 * length).abs() < 1e-5, "{across}");
    }
    // Roll the upper arm 30 degrees about its bone: the square turns with it, the tail stays.
    let mut local = pose.local().clone();
    let along_local = local.as_slice()[child].translation.normalize();
    let t = &mut local.as_mut_slice()[joint];
    t.rotation *= Quat::from_axis_angle(along_local, std::f32::consts::FRAC_PI_6);
    pose.compose_local(&c, &local, skinscope::pose::PaletteMode::Animated)
        .unwrap();
    assert!(Vec3::from(pose.model.as_slice()[child].translation).distance(tail) < 1e-5);
    let after = draw(&pose);
    let rolled: Vec<Vec3> = after
        .iter()
        .filter(|(a, b, _)| a.distance(head) < 1e-6 && b.distance(tail) > 1e-6)
        .map(|s| s.1)
        .collect();
    let moved = corners
        .iter()
        .map(|c| {
            rolled
                .iter()
                .map(|r| r.distance(*c))
                .fold(f32::MAX, f32::min)
        })
        .fold(0f32, f32::max);
    assert!(
        moved > 0.2 * length * 0.1,
        "the square did not turn: {moved}"
    );
}

#[test]
fn render_draws_each_style() {
    let dir = temp_dir("bone-styles");
    // The bind pose from the front, with `extra` options, into NAME.png.
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(format!("{name}.png"));
        let mut args = vec![
            "render",
            "--palette",
            "bind",
            "--size",
            "200x200",
            "--eye",
            "0,1,3",
            "--target",
            "0,1,0",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = skinscope_bytes(&args);
        assert_eq!(code, 0, "{err}");
        image::open(&out).unwrap().to_rgba8()
    };
    // Pure green: the axes' Y lines, drawn by no other style (the body is blue-grey).
    let green = |img: &image::RgbaImage| {
        img.pixels()
            .filter(|p| p[1] > 180 && p[0] < 120 && p[2] < 120)
            .count()
    };
    let stick = render("stick", &["--bones"]);
    let octahedral = render("octahedral", &["--bones", "octahedral"]);
    let axes = render("axes", &["--bones", "axes"]);
    assert_eq!(green(&stick), 0);
    assert_eq!(green(&octahedral), 0);
    assert!(green(&axes) > 20, "{} green pixels", green(&axes));
    // One joint's axes alone: some green, far less than every joint's.
    let one = render("one", &["--axes-of", "spine_02"]);
    let (one, all) = (green(&one), green(&axes));
    assert!(one > 0 && one * 4 < all, "{one} of {all}");
    let differ = stick
        .pixels()
        .zip(octahedral.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ > 100,
        "octahedral bones drew as sticks: {differ} pixels differ"
    );
    let (code, _, err) = skinscope_bytes(&["render", "--bones", "ribbon", "--out", "x.png"]);
    assert_eq!(code, 2);
    assert!(String::from_utf8_lossy(&err.into_bytes()).contains("ribbon"));
}
