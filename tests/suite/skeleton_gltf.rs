//! A glTF with a skin and no mesh (an exported armature, a rig's animation file) opens as a BVH
//! does: its bones drawn, its clips played, in `render`, `inspect` and the window.

use crate::common;

use common::{RawGltf, skinscope};
use glam::{Mat4, Vec3};
use serde_json::json;

/// Hips -> spine -> head, 1 unit apart up +Y, a skin over them and no mesh; a clip "bend"
/// turning the spine 90 degrees about Z over one second.
fn armature() -> RawGltf {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "hips", "children": [1]}));
    raw.add_node(json!({"name": "spine", "translation": [0.0, 1.0, 0.0], "children": [2]}));
    raw.add_node(json!({"name": "head", "translation": [0.0, 1.0, 0.0]}));
    raw.add_root(0);
    let binds = [0.0, 1.0, 2.0].map(|y| Mat4::from_translation(Vec3::new(0.0, -y, 0.0)));
    raw.add_skin(&[0, 1, 2], &binds);
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    raw.json["accessors"][times]["min"] = json!([0.0]);
    raw.json["accessors"][times]["max"] = json!([1.0]);
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let turns = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half], "VEC4");
    raw.json["animations"] = json!([{
        "name": "bend",
        "samplers": [{"input": times, "output": turns}],
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
    }]);
    raw
}

#[test]
fn an_armature_without_a_mesh_shows_its_bones_and_plays_its_clips() {
    let dir = common::temp_dir("skeleton-gltf");
    let file = dir.join("armature.glb");
    std::fs::write(&file, armature().to_glb()).unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = skinscope(&["inspect", path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"bend\""), "{out}");
    // The head half way through the bend: the spine at (0, 1, 0) turned 45 degrees about Z (the
    // slerp's half way) puts the head at (-sin 45, 1 + cos 45, 0).
    let (code, out, err) =
        skinscope(&["palette", path, "--clip", "bend", "--time", "0.5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let head = common::node_at(&json, "head");
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(head.distance(Vec3::new(-h, 1.0 + h, 0.0)) < 1e-5, "{head}");
    // Rendered: its bones, drawn without --bones, move with the clip.
    let still = |t: &str, name: &str| {
        let png = dir.join(name);
        let (code, _, err) = skinscope(&[
            "render",
            path,
            "--out",
            png.to_str().unwrap(),
            "--size",
            "200x200",
            "--clip",
            "bend",
            "--time",
            t,
        ]);
        assert_eq!(code, 0, "{err}");
        image::open(&png).unwrap().to_rgba8().into_raw()
    };
    let (rest, bent) = (still("0", "rest.png"), still("0.9", "bent.png"));
    let changed = rest
        .chunks_exact(4)
        .zip(bent.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 50,
        "{changed} pixels changed between the rest and the bent frame"
    );
    // The window's viewer opens it with its bones shown and the clip playing.
    let character = skinscope::import::load(&file).unwrap();
    let viewer = skinscope::viewer::Viewer::new(character, Some(file.clone()));
    assert!(viewer.controls.view.show_bones);
    assert!(viewer.controls.playback.playing);
}
