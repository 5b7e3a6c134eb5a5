//! One pose request, one evaluation: `render`, `pose` and `palette` wrap a clip time by the same
//! rule (glTF: the clip's duration is its latest key over every channel, morph weights
//! included), so they pose the same frame.

use crate::common;

use std::path::{Path, PathBuf};

use common::{RawGltf, skinscope_bytes};
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use skinscope::debug::export::PaletteExport;

/// A root joint and an `arm` joint 1 above it carrying a quad (fully weighted to the arm). The
/// one clip turns the arm from 0 to 90 degrees about Z over its joint keys (0..1 s), while a
/// morph-weight track on the quad runs on to 2 s.
fn arm_with_a_longer_weight_track() -> RawGltf {
    let mut raw = RawGltf::new();
    let root = raw.add_node(json!({"name": "root", "children": [1]}));
    raw.add_node(json!({"name": "arm", "translation": [0.0, 1.0, 0.0]}));
    raw.add_skin(
        &[0, 1],
        &[
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
        ],
    );
    let quad = [
        -0.1, 1.0, 0.0, 0.1, 1.0, 0.0, 0.1, 2.0, 0.0, -0.1, 2.0, 0.0f32,
    ];
    let positions = raw.add_f32(&quad, "VEC3");
    let joints = raw.add_u16(&[1, 0, 0, 0].repeat(4), "VEC4");
    let weights = raw.add_f32(&[1.0, 0.0, 0.0, 0.0].repeat(4), "VEC4");
    let indices = raw.add_u16(&[0, 1, 2, 0, 2, 3], "SCALAR");
    // One morph target that moves nothing: only its weight track matters here.
    let deltas = raw.add_f32(&[0.0; 12], "VEC3");
    let mesh = raw.add_mesh(json!({
        "primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights},
                        "indices": indices, "targets": [{"POSITION": deltas}]}],
        "weights": [0.0]
    }));
    let body = raw.add_node(json!({"name": "body", "mesh": mesh, "skin": 0}));
    raw.add_root(root);
    raw.add_root(body);
    let joint_times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    let turn: Vec<f32> = [
        Quat::IDENTITY,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    ]
    .iter()
    .flat_map(|q| q.to_array())
    .collect();
    let turn = raw.add_f32(&turn, "VEC4");
    let weight_times = raw.add_f32(&[0.0, 2.0], "SCALAR");
    let weight_values = raw.add_f32(&[0.0, 1.0], "SCALAR");
    raw.push(
        "animations",
        json!({"name": "turn", "samplers": [{"input": joint_times, "output": turn},
                                            {"input": weight_times, "output": weight_values}],
               "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                            {"sampler": 1, "target": {"node": body, "path": "weights"}}]}),
    );
    raw
}

fn write_fixture(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("arm.glb");
    std::fs::write(&path, arm_with_a_longer_weight_track().to_glb()).unwrap();
    path
}

fn palette_at(file: &str, time: &str) -> PaletteExport {
    let (code, out, err) = skinscope_bytes(&["palette", file, "--time", time, "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_slice(&out).unwrap()
}

fn pose_at(file: &str, time: &str, dir: &Path) -> String {
    let out = dir.join(format!("pose-{time}.obj"));
    let (code, _, err) =
        skinscope_bytes(&["pose", file, "--time", time, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    std::fs::read_to_string(out).unwrap()
}

fn render_at(file: &str, time: &str, dir: &Path) -> Vec<u8> {
    let out = dir.join(format!("render-{time}.png"));
    let args = [
        "render",
        file,
        "--time",
        time,
        "--size",
        "64x64",
        "--silhouette",
        "--eye",
        "0,1,6",
        "--target",
        "0,1,0",
        "--out",
        out.to_str().unwrap(),
    ];
    let (code, _, err) = skinscope_bytes(&args);
    assert_eq!(code, 0, "{err}");
    image::open(out).unwrap().to_rgba8().into_raw()
}

#[test]
fn render_pose_and_palette_wrap_time_by_the_clip_duration_including_weight_tracks() {
    let dir = std::env::temp_dir().join(format!("skinscope-wrap-{}", std::process::id()));
    let file = write_fixture(&dir);
    let file = file.to_str().unwrap();
    // 1.5 s lies between the joint keys' end (1 s) and the weight keys' end (2 s): the clip
    // lasts 2 s, so 1.5 s is not wrapped and the arm holds its last key, 90 degrees. Wrapping
    // by the joint keys alone would give 0.5 s, 45 degrees.
    let palette = palette_at(file, "1.5");
    let arm = palette.nodes.iter().find(|n| n.name == "arm").unwrap();
    let world_from_arm = Mat4::from_cols_array(&arm.world_from_joint);
    let expected = Mat4::from_rotation_translation(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Vec3::new(0.0, 1.0, 0.0),
    );
    assert!(
        world_from_arm.abs_diff_eq(expected, 1e-5),
        "{world_from_arm}"
    );
    assert_eq!(palette.instances, palette_at(file, "1.0").instances);
    assert_ne!(palette.instances, palette_at(file, "0.5").instances);
    // The posed mesh: the quad, 1 long above the arm joint at (0, 1, 0), swung to x = -1.
    let obj = pose_at(file, "1.5", &dir);
    assert_eq!(obj, pose_at(file, "1.0", &dir));
    assert_ne!(obj, pose_at(file, "0.5", &dir));
    let min_x = obj
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|v| v.split_whitespace().next().unwrap().parse::<f32>().unwrap())
        .fold(f32::MAX, f32::min);
    assert!((min_x + 1.0).abs() < 1e-5, "{min_x}");
    // The render, by the same camera: the same silhouette as at 1 s, another than at 0.5 s.
    let image = render_at(file, "1.5", &dir);
    assert!(
        image.chunks_exact(4).any(|p| p[0] > 127),
        "the arm is drawn"
    );
    assert_eq!(image, render_at(file, "1.0", &dir));
    assert_ne!(image, render_at(file, "0.5", &dir));
    // Past the clip's 2 s end it loops: 2.5 s is 0.5 s.
    assert_eq!(
        palette_at(file, "2.5").instances,
        palette_at(file, "0.5").instances
    );
    let _ = std::fs::remove_dir_all(&dir);
}
