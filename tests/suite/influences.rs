//! More than four influences per vertex: JOINTS_1 / WEIGHTS_1 are drawn exactly, on
//! the CPU and in the shader, while `check` still reports what a four-influence engine loses.

use crate::common;

use std::path::Path;

use common::RawGltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use skinscope::anim::{self, SkinningMethod, dq_entry, dq_skin_position};
use skinscope::character::Character;
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest};
use skinscope::render::gpu::Gpu;
use skinscope::render::skin_check::{CheckMorph, CheckVertex, check_on_gpu};

/// Five joints in a row up +Y, 0.25 apart, and one vertex at the origin weighed 0.2 to each:
/// three in JOINTS_0 (and a zero), two in JOINTS_1. A clip moves joints 3 and 4 (in the second
/// set) +1 along X.
fn five_way_vertex() -> Character {
    let mut raw = RawGltf::new();
    common::five_joint_row(&mut raw);
    let positions = raw.add_f32(&[0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.1], "VEC3");
    let j0 = raw.add_u16(&[0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], "VEC4");
    let w0 = raw.add_f32(
        &[0.2, 0.2, 0.2, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let j1 = raw.add_u16(&[3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "VEC4");
    let w1 = raw.add_f32(
        &[0.2, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let indices = raw.add_u16(&[0, 1, 2], "SCALAR");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1}, "indices": indices}]}));
    raw.add_node(json!({"name": "mesh", "mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(5);
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    let third = raw.add_f32(&[0.0, 0.25, 0.0, 1.0, 0.25, 0.0], "VEC3");
    let fourth = raw.add_f32(&[0.0, 0.25, 0.0, 0.0, 0.25, 0.0], "VEC3");
    raw.push(
        "animations",
        json!({"name": "shift", "samplers": [
            {"input": times, "output": third, "interpolation": "LINEAR"},
            {"input": times, "output": fourth, "interpolation": "LINEAR"}],
          "channels": [
            {"sampler": 0, "target": {"node": 3, "path": "translation"}},
            {"sampler": 1, "target": {"node": 4, "path": "translation"}}]}),
    );
    skinscope::import::load_bytes(&raw.to_glb(), Path::new("five.glb"))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_fifth_influence_is_drawn_not_dropped() {
    let c = five_way_vertex();
    let sk = c.meshes[0].primitives[0].skinning.as_ref().unwrap();
    assert_eq!(sk.joints_1.len(), 3);
    assert_eq!(sk.weights_1[0], [0.2, 0.2, 0.0, 0.0]);
    assert_eq!(
        sk.weights[0],
        [0.2, 0.2, 0.2, 0.0],
        "eight sum to one: nothing rescaled"
    );
    assert!(
        (sk.dropped_weight[0] - 0.4).abs() < 1e-6,
        "a four-influence engine drops 0.4"
    );
    // At t = 1 joint 3 (and with it joint 4) has moved +1 along X: the vertex, 0.4 of it on
    // those two, moves 0.4 (four-influence skinning would move it 0 and shrink it).
    let mut pose = CharacterPose::new(&c);
    let end = PoseRequest::clip(0, 1.0).with_wrap(skinscope::pose::TimeWrap::Clamp);
    pose.evaluate(&c, &end).unwrap();
    let p = pose.world_positions(&c)[0];
    assert!((p - Vec3::new(0.4, 0.0, 0.0)).length() < 1e-6, "{p}");
    // check still says what a four-influence engine would lose.
    let report = skinscope::debug::check::check(&c, &PoseRequest::rest(PaletteMode::Bind));
    let text = report.to_text();
    assert!(text.contains("40.0%"), "{text}");
    // Picking lists all five.
    let influences: Vec<(u16, f32)> = sk.influences(0).filter(|i| i.1 > 0.0).collect();
    assert_eq!(
        influences,
        [(0, 0.2), (1, 0.2), (2, 0.2), (3, 0.2), (4, 0.2)]
    );
}

#[test]
fn the_shader_blends_eight_influences_as_the_cpu_does() {
    // Eight joints posed apart; vertices with four to eight influences, under both skinning
    // methods.
    let palette: Vec<Mat4> = (0..8)
        .map(|k| {
            let f = k as f32;
            Mat4::from_scale_rotation_translation(
                Vec3::splat(1.0 + 0.05 * f),
                Quat::from_euler(glam::EulerRot::XYZ, 0.2 * f, -0.1 * f, 0.3),
                Vec3::new(0.1 * f, -0.2, 0.05 * f * f),
            )
        })
        .collect();
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    type Set = ([u32; 4], [f32; 4]);
    let sets: [(Set, Set); 3] = [
        (([0, 1, 2, 3], [0.4, 0.3, 0.2, 0.1]), ([0; 4], [0.0; 4])),
        (
            ([0, 1, 2, 3], [0.2, 0.1, 0.1, 0.1]),
            ([4, 5, 0, 0], [0.3, 0.2, 0.0, 0.0]),
        ),
        (
            ([7, 6, 5, 4], [0.1, 0.1, 0.2, 0.1]),
            ([3, 2, 1, 0], [0.1, 0.2, 0.1, 0.1]),
        ),
    ];
    let vertices: Vec<CheckVertex> = (0..60)
        .map(|i| {
            let f = i as f32;
            let ((j, w), (j1, w1)) = sets[i % 3];
            let p = Vec3::new((f * 0.3).sin(), f * 0.02, (f * 0.7).cos());
            let n = Vec3::new(f.cos(), 0.5, f.sin()).normalize();
            CheckVertex::new(p, n, j, w).with_second(j1, w1)
        })
        .collect();
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"));
    // Weight-blended: every third joint linear blend, dual quaternions, or half of each; the
    // shader reads each matrix followed by its packed entry carrying the method weight.
    let method: Vec<f32> = (0..palette.len()).map(|j| [0.0, 1.0, 0.5][j % 3]).collect();
    let interleaved: Vec<Mat4> = (palette.iter().zip(&packed).zip(&method))
        .flat_map(|((m, dq), &w)| {
            let mut dq = *dq;
            dq.w_axis = glam::Vec4::new(w, 0.0, 0.0, 0.0);
            [*m, dq]
        })
        .collect();
    // (Direct delta mush is the skin pass's alone: tests/suite/ddm.rs.)
    for skinning in [
        SkinningMethod::Linear,
        SkinningMethod::DualQuaternion,
        SkinningMethod::Blended,
    ] {
        let uploaded = match skinning {
            SkinningMethod::Linear => &palette,
            SkinningMethod::DualQuaternion => &packed,
            _ => &interleaved,
        };
        let out = check_on_gpu(&gpu, uploaded, &vertices, CheckMorph::default(), skinning).unwrap();
        for (v, (gp, _)) in vertices.iter().zip(&out) {
            let p = Vec3::from_slice(&v.position[..3]);
            let influences = v
                .joints
                .into_iter()
                .zip(v.weights)
                .chain(v.joints1.into_iter().zip(v.weights1))
                .filter(|i| i.1 != 0.0);
            let cpu = match skinning {
                SkinningMethod::Linear => anim::blend_matrix(&palette, influences)
                    .unwrap()
                    .transform_point3(p),
                SkinningMethod::DualQuaternion => dq_skin_position(&packed, influences, p).unwrap(),
                _ => anim::blended_skin_position((&palette, &packed, &method), influences, p)
                    .unwrap(),
            };
            assert!(
                (*gp - cpu).length() < 1e-5,
                "{skinning:?}: gpu {gp} cpu {cpu}"
            );
        }
    }
}
