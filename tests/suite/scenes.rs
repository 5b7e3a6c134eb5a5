//! The file's scenes and cameras: `--scene`, `render --camera`, the panel's choices, and
//! framing a model inside a closed environment on its contents.

use crate::common;

use std::path::{Path, PathBuf};

use common::{RawGltf, skinscope, temp_dir, window_frames};
use egui_kittest::kittest::Queryable;
use glam::{Mat4, Quat, Vec3, Vec4};
use serde_json::json;
use skinscope::character::Projection;
use skinscope::import;
use skinscope::pose::{CharacterPose, PoseRequest, motion_bounds};
use skinscope::render::camera::Camera;

/// Scene 0 ("stage"): a unit quad at the origin facing +Z, a sky box enclosing it, and a camera
/// ("front") 5 in front of it looking down -Z. Scene 1 ("far"): the quad moved to x = 10.
fn staged() -> RawGltf {
    staged_with(true)
}

fn staged_with(with_sky: bool) -> RawGltf {
    let mut raw = RawGltf::new();
    let quad = raw.add_f32(
        &[
            -0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.5, 0.5, 0.0, -0.5, 0.5, 0.0,
        ],
        "VEC3",
    );
    let quad_indices = raw.add_u16(&[0, 1, 2, 0, 2, 3], "SCALAR");
    let quad_mesh = raw.add_mesh(json!({"name": "quad", "primitives": [{"attributes": {"POSITION": quad}, "indices": quad_indices}]}));
    let s = 50.0f32;
    let corners: Vec<f32> = (0..8)
        .flat_map(|k| {
            [
                if k & 1 == 0 { -s } else { s },
                if k & 2 == 0 { -s } else { s },
                if k & 4 == 0 { -s } else { s },
            ]
        })
        .collect();
    let sky = raw.add_f32(&corners, "VEC3");
    let sky_indices = raw.add_u16(
        &[
            0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6,
        ],
        "SCALAR",
    );
    let sky_mesh = raw.add_mesh(json!({"name": "sky", "primitives": [{"attributes": {"POSITION": sky}, "indices": sky_indices}]}));
    raw.push(
        "cameras",
        json!({"name": "front", "type": "perspective",
        "perspective": {"yfov": 0.8, "znear": 0.1, "zfar": 100.0}}),
    );
    let q = raw.add_node(json!({"name": "quad", "mesh": quad_mesh}));
    let sky_node = raw.add_node(json!({"name": "sky", "mesh": sky_mesh}));
    let camera =
        raw.add_node(json!({"name": "front camera", "camera": 0, "translation": [0.0, 0.0, 5.0]}));
    let far = raw
        .add_node(json!({"name": "far quad", "mesh": quad_mesh, "translation": [10.0, 0.0, 0.0]}));
    let stage = if with_sky {
        vec![q, sky_node, camera]
    } else {
        vec![q, camera]
    };
    raw.json["scenes"] =
        json!([{"name": "stage", "nodes": stage}, {"name": "far", "nodes": [far]}]);
    raw.json["scene"] = json!(0);
    raw
}

fn write(raw: &RawGltf, name: &str) -> PathBuf {
    let dir = temp_dir("scenes");
    let path = dir.join(name);
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn scenes_and_cameras_load_and_are_chosen() {
    let c = import::load_bytes(&staged().to_glb(), Path::new("staged.glb")).unwrap();
    assert_eq!(c.scenes, ["stage", "far"]);
    assert_eq!(c.scene, 0);
    assert_eq!(c.cameras.len(), 1);
    assert_eq!(c.cameras[0].name, "front");
    assert!(
        matches!(c.cameras[0].projection, Projection::Perspective { yfov_radians, .. } if (yfov_radians - 0.8).abs() < 1e-6)
    );
    let far = import::load_bytes_with(
        &staged().to_glb(),
        Path::new("staged.glb"),
        import::LoadOptions {
            scene: Some(1),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(far.scene, 1);
    assert!(far.cameras.is_empty());
    let mut pose = CharacterPose::new(&far);
    pose.evaluate(&far, &PoseRequest::default()).unwrap();
    let (lo, hi) = pose.world_bounds(&far).unwrap();
    assert_eq!((lo.x, hi.x), (9.5, 10.5));
    let e = import::load_bytes_with(
        &staged().to_glb(),
        Path::new("staged.glb"),
        import::LoadOptions {
            scene: Some(2),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("no scene 2"), "{e}");
}

#[test]
fn a_model_inside_an_environment_is_framed_on_its_contents() {
    let c = import::load_bytes(&staged().to_glb(), Path::new("staged.glb")).unwrap();
    let (lo, hi) = motion_bounds(&c, &PoseRequest::default()).unwrap();
    assert_eq!(
        (lo, hi),
        (Vec3::new(-0.5, -0.5, 0.0), Vec3::new(0.5, 0.5, 0.0))
    );
}

#[test]
fn a_file_camera_projects_as_gltf_says() {
    // Looking down -Z from (0, 0, 5) with a 0.8 rad vertical field of view: a point at the top
    // edge of the view, tan(0.4) * 5 above the axis at the origin, lands at clip y = w.
    let camera = Camera::from_node(
        Mat4::from_translation(Vec3::new(0.0, 0.0, 5.0)),
        Projection::Perspective {
            yfov_radians: 0.8,
            znear: 0.1,
            zfar: Some(100.0),
        },
    );
    let top = Vec3::new(0.0, 0.4f32.tan() * 5.0, 0.0);
    let clip = camera.clip_from_world(1.5) * top.extend(1.0);
    assert!((clip.y / clip.w - 1.0).abs() < 1e-5, "{clip}");
    // Rolled 90 degrees about its view axis: +X of the world is up on screen.
    let rolled = Camera::from_node(
        Mat4::from_rotation_translation(
            Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2),
            Vec3::new(0.0, 0.0, 5.0),
        ),
        Projection::Perspective {
            yfov_radians: 0.8,
            znear: 0.1,
            zfar: None,
        },
    );
    let clip = rolled.clip_from_world(1.0) * Vec4::new(1.0, 0.0, 0.0, 1.0);
    assert!(clip.y > 0.0 && clip.x.abs() < 1e-4, "{clip}");
    // Orthographic, ymag 2: a point 2 above the axis at any depth is the top edge.
    let ortho = Camera::from_node(
        Mat4::from_translation(Vec3::new(0.0, 0.0, 5.0)),
        Projection::Orthographic {
            ymag: 2.0,
            znear: 0.1,
            zfar: 50.0,
        },
    );
    for z in [0.0, -10.0] {
        let clip = ortho.clip_from_world(1.0) * Vec4::new(0.0, 2.0, z, 1.0);
        assert!((clip.y / clip.w - 1.0).abs() < 1e-5, "{clip}");
    }
}

#[test]
fn render_looks_through_the_files_camera_and_shows_another_scene() {
    let file = write(&staged_with(false), "staged.glb");
    let file = file.to_str().unwrap();
    let out = std::env::temp_dir().join(format!("skinscope-camera-{}.png", std::process::id()));
    for key in ["front", "0"] {
        let (code, _, err) = skinscope(&[
            "render",
            file,
            "--camera",
            key,
            "--silhouette",
            "--size",
            "60x40",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let image = image::open(&out).unwrap().to_rgba8();
        // The quad, 1 wide and 5 away in a 0.8 rad view 40 px high, is 1 / (2 * 5 * tan 0.4)
        // = 23.6% of the height: about 9 px square in the middle; the corners stay black.
        assert_eq!(image.get_pixel(30, 20)[0], 255);
        assert_eq!(image.get_pixel(30, 14)[0], 0);
        assert_eq!(image.get_pixel(36, 20)[0], 0);
        assert_eq!(image.get_pixel(2, 2)[0], 0);
    }
    let (code, _, err) = skinscope(&[
        "render",
        file,
        "--camera",
        "back",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("its cameras are 0: \"front\""), "{err}");
    let obj = std::env::temp_dir().join(format!("skinscope-scene-{}.obj", std::process::id()));
    let (code, _, err) = skinscope(&[
        "pose",
        file,
        "--scene",
        "far",
        "--out",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&obj).unwrap();
    assert!(
        text.lines()
            .filter(|l| l.starts_with("v "))
            .all(|l| l.starts_with("v 9.5") || l.starts_with("v 10.5")),
        "{text}"
    );
}

#[test]
fn the_panel_offers_the_files_cameras_and_scenes() {
    let file = write(&staged(), "panel.glb");
    let mut viewer = skinscope::viewer::Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.open(&file).unwrap();
    let mut h = window_frames(viewer, (1100.0, 1600.0));
    h.run();
    h.get_by_label("Camera").click();
    h.run();
    h.get_by_label("front").click();
    h.run();
    assert_eq!(h.state().controls.view.file_camera, Some(0));
    h.get_by_label("Scene").click();
    h.run();
    h.get_by_label("far").click();
    h.run();
    assert_eq!(h.state().character.scene, 1);
}
