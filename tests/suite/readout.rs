//! The panel's numbers behind a vertex and a joint: a picked vertex's influences with each
//! one's share of the vertex's displacement (worked by hand), and a joint's inverse bind beside
//! the inverse of its rest transform (a transposed one reads off as different).

use crate::common;

use common::{RawGltf, shared};
use egui_kittest::kittest::Queryable;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use skinscope::debug::picking::{PickedVertex, vertex_influences};
use skinscope::debug::readout::{bind_readouts, influence_rows};
use skinscope::import;
use skinscope::pose::{CharacterPose, PoseRequest};

/// Joint a at the origin, b one unit up; a triangle whose vertex 0 at (1, 1, 0) weighs 0.25 on
/// a and 0.75 on b; one clip holding a moved by +X and b turned 90 degrees about Z.
fn two_joints() -> skinscope::character::Character {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "a", "children": [1]}));
    raw.add_node(json!({"name": "b", "translation": [0.0, 1.0, 0.0]}));
    raw.add_skin(&[0, 1], &[Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)]);
    let positions = raw.add_f32(&[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    raw.json["accessors"][positions]["min"] = json!([0.0, 0.0, 0.0]);
    raw.json["accessors"][positions]["max"] = json!([1.0, 1.0, 0.0]);
    let joints = raw.add_u16(&[0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], "VEC4");
    let weights = raw.add_f32(
        &[0.25, 0.75, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0],
        "VEC4",
    );
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}));
    raw.add_node(json!({"name": "body", "mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(2);
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    raw.json["accessors"][times]["min"] = json!([0.0]);
    raw.json["accessors"][times]["max"] = json!([1.0]);
    let moved = raw.add_f32(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "VEC3");
    let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2).to_array();
    let turned = raw.add_f32(&[q, q].concat(), "VEC4");
    raw.json["animations"] = json!([{
        "name": "hold",
        "samplers": [{"input": times, "output": moved}, {"input": times, "output": turned}],
        "channels": [
            {"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
        ],
    }]);
    import::load_bytes(&raw.to_glb(), std::path::Path::new("two.glb")).unwrap()
}

#[test]
fn each_influence_s_share_of_the_displacement_is_worked_by_hand() {
    let c = two_joints();
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::clip(0, 0.5)).unwrap();
    let picked = PickedVertex {
        instance: 0,
        primitive: 0,
        vertex: 0,
        position: Vec3::ZERO,
        influences: vertex_influences(&c, 0, 0, 0),
    };
    // a's term: 0.25 (1, 0, 0). b's: the vertex turned about b (now at (1, 1, 0)) lands at
    // (1, 2, 0), one up from (1, 1, 0): 0.75 (0, 1, 0). d = (0.25, 0.75, 0), |d|^2 = 0.625:
    // shares 0.0625 / 0.625 = 0.1 and 0.5625 / 0.625 = 0.9.
    let rows = influence_rows(&c, &pose, &picked);
    let got: Vec<(&str, f32, f32)> = rows
        .iter()
        .map(|r| (r.joint.as_str(), r.weight, r.share))
        .collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!((got[0].0, got[1].0), ("b", "a"));
    assert!(
        (got[0].2 - 0.9).abs() < 1e-5 && (got[1].2 - 0.1).abs() < 1e-5,
        "{got:?}"
    );
    // In the bind pose nothing moved: no shares.
    pose.evaluate(&c, &PoseRequest::default()).unwrap();
    assert!(
        influence_rows(&c, &pose, &picked)
            .iter()
            .all(|r| r.share == 0.0)
    );
}

#[test]
fn a_transposed_inverse_bind_reads_off_against_the_rest_pose() {
    let fox = shared("Fox/Fox.glb");
    let original = import::load(&fox).unwrap();
    let mut raw = RawGltf::read_glb(&fox);
    let a = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let mut m: Vec<Mat4> = raw
        .read(a)
        .iter()
        .map(|m| Mat4::from_cols_slice(&m.iter().map(|v| *v as f32).collect::<Vec<_>>()))
        .collect();
    m[9] = m[9].transpose();
    let flat: Vec<f32> = m.iter().flat_map(|x| x.to_cols_array()).collect();
    let t = raw.add_f32(&flat, "MAT4");
    raw.json["skins"][0]["inverseBindMatrices"] = json!(t);
    let broken = import::load_bytes(&raw.to_glb(), std::path::Path::new("t.glb")).unwrap();
    let node = raw.json["skins"][0]["joints"][9].as_u64().unwrap() as usize;
    let name = raw.json["nodes"][node]["name"].as_str().unwrap();
    let joint = original.skeleton.find(name).unwrap();
    let before = &bind_readouts(&original, joint)[0];
    let after = &bind_readouts(&broken, broken.skeleton.find(name).unwrap())[0];
    // The file's matrix as the file has it, beside the same rest inverse.
    assert!(after.inverse_bind.abs_diff_eq(m[9], 1e-6));
    assert!(after.rest_inverse.abs_diff_eq(before.rest_inverse, 1e-4));
    assert!(before.difference < 1e-3, "{}", before.difference);
    let expected = (m[9] - before.rest_inverse)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |x, v| x.max(v.abs()));
    assert!((after.difference - expected).abs() < 1e-3 && after.difference > 1.0);
}

#[test]
fn the_panel_shows_the_table_and_the_readout() {
    let c = two_joints();
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.picked_vertex = Some(PickedVertex {
        instance: 0,
        primitive: 0,
        vertex: 0,
        position: Vec3::ZERO,
        influences: vertex_influences(&viewer.character, 0, 0, 0),
    });
    viewer.controls.selected_joint = viewer.character.skeleton.find("b");
    let mut h = common::window_frames(viewer, (1100.0, 2400.0));
    h.run();
    for label in [
        "joint",
        "palette",
        "weight",
        "share",
        "inverse bind",
        "rest, inverted",
    ] {
        h.get_by_label(label);
    }
    h.get_by_label("largest difference 0.0000");
}
