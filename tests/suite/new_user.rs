//! Files this project had not seen, tried as a new user would: each case failed
//! before its fix.

use crate::common;

use std::path::PathBuf;

use common::{RawGltf, node_at, shared, skinscope, temp_dir};
use glam::{Mat4, Vec3};
use serde_json::{Value, json};
use skinscope::graph::MoveMode;
use skinscope::viewer::Viewer;

// Root motion on a rotated armature.

/// CesiumMan's hips joint (node 3, under the rotated `Z_UP` and `Armature` nodes).
const CESIUM_HIPS: &str = "Skeleton_torso_joint_1";
/// How far the fixture's hips travel along world +Z over one loop of the walk.
const TRAVEL: f32 = 1.5;

/// `world_from_parent` of CesiumMan's hips at rest, from the file's own matrices.
fn cesium_hips_parent(raw: &RawGltf) -> Mat4 {
    let matrix = |node: usize| {
        let m: Vec<f32> = raw.json["nodes"][node]["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        Mat4::from_cols_slice(&m)
    };
    matrix(0) * matrix(1)
}

/// CesiumMan with its walk's hip translation keys moved along world +Z by `TRAVEL` per loop
/// (the walk's own keys kept): (file, the hips' rest position in the world, the loop's length).
fn travelling_cesium() -> (PathBuf, Vec3, f32) {
    let mut raw = RawGltf::read_glb(&shared("CesiumMan/CesiumMan.glb"));
    let parent = cesium_hips_parent(&raw);
    // World +Z in the hips' parent space (its local +X, through the two rotated nodes).
    let along = parent.inverse().transform_vector3(Vec3::Z);
    let channel = raw.json["animations"][0]["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == 3 && c["target"]["path"] == "translation")
        .unwrap()
        .clone();
    let sampler = channel["sampler"].as_u64().unwrap() as usize;
    let s = raw.json["animations"][0]["samplers"][sampler].clone();
    let times: Vec<f32> = raw
        .read(s["input"].as_u64().unwrap() as usize)
        .iter()
        .map(|t| t[0] as f32)
        .collect();
    let keys = raw.read(s["output"].as_u64().unwrap() as usize);
    let duration = *times.last().unwrap();
    let moved: Vec<f32> = keys
        .iter()
        .zip(&times)
        .flat_map(|(k, &t)| {
            let k = Vec3::new(k[0] as f32, k[1] as f32, k[2] as f32);
            (k + along * TRAVEL * t / duration).to_array()
        })
        .collect();
    let output = raw.add_f32(&moved, "VEC3");
    raw.json["animations"][0]["samplers"][sampler]["output"] = json!(output);
    let rest: Vec<f32> = raw.json["nodes"][3]["translation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    let rest_world = parent.transform_point3(Vec3::from_slice(&rest));
    let path = temp_dir("travelling-cesium").join("travelling_cesium.glb");
    std::fs::write(&path, raw.to_glb()).unwrap();
    (path, rest_world, duration)
}

fn hips_at(file: &str, time: f32, mode: &str) -> Vec3 {
    let time = format!("{time}");
    let (code, out, err) = skinscope(&[
        "palette",
        "--json",
        file,
        "--time",
        &time,
        "--root-motion",
        mode,
    ]);
    assert_eq!(code, 0, "{err}");
    node_at(&serde_json::from_str(&out).unwrap(), CESIUM_HIPS)
}

#[test]
fn root_motion_on_a_rotated_armature_travels_and_stays_in_the_scene_s_frame() {
    let (file, rest, duration) = travelling_cesium();
    let file = file.to_str().unwrap();
    // As authored, (almost) one loop moves the hips TRAVEL along world +Z (the walk itself ends
    // where it starts); the loop's end is its start again.
    let end_secs = duration * 0.999;
    let start = hips_at(file, 0.0, "authored");
    let end = hips_at(file, end_secs, "authored");
    let authored = end - start;
    assert!(
        (authored - Vec3::Z * TRAVEL).length() < 0.05,
        "authored travel {authored}"
    );
    // In place: the horizontal travel is gone (held at the rest position's x and z) and the
    // walk's vertical bob stays (as authored).
    for k in 1..8 {
        let t = duration * k as f32 / 8.0;
        let held = hips_at(file, t, "in-place");
        let authored = hips_at(file, t, "authored");
        assert!(
            (held.x - rest.x).abs() < 1e-4 && (held.z - rest.z).abs() < 1e-4,
            "t = {t}: held at {held}, rest {rest}"
        );
        assert!(
            (held.y - authored.y).abs() < 1e-4,
            "t = {t}: height {} vs {}",
            held.y,
            authored.y
        );
    }
    // Applied: the character travels the loop's TRAVEL along world +Z, not +X.
    let applied = hips_at(file, end_secs, "applied") - start;
    assert!(applied.x.abs() < 0.05 * TRAVEL, "applied travel {applied}");
    assert!(
        (applied.z - TRAVEL).abs() < 0.05 * TRAVEL,
        "applied travel {applied}"
    );
}

#[test]
fn driven_mode_holds_a_rotated_armature_s_root_in_place_and_moves_its_placement() {
    let (file, rest, _) = travelling_cesium();
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.open(&file).unwrap();
    viewer.controls.motion.move_mode = MoveMode::Driven;
    viewer.controls.motion.drive_speed = 0.5;
    viewer.frame(Vec::new(), 0.0);
    for _ in 0..120 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let placed = viewer.locomotion().placement();
    assert!(
        (placed.position - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-3,
        "{placed:?}"
    );
    // The hips are where the placement puts their rest position: the clip's own travel along
    // world +Z is removed, not its sideways sway.
    let hips = viewer.character.skeleton.find(CESIUM_HIPS).unwrap();
    let drawn = Vec3::from(viewer.pose.model.as_slice()[hips].translation);
    let expected = rest + placed.position;
    assert!(
        (drawn.x - expected.x).abs() < 1e-3 && (drawn.z - expected.z).abs() < 1e-3,
        "hips drawn at {drawn}, expected {expected}"
    );
}

// The lint on valid files, and on inverse binds made without the armature.

fn check_json(file: &str) -> (i32, Value) {
    let (code, out, err) = skinscope(&["check", "--json", file]);
    let json: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}: {out} {err}"));
    (code, json)
}

fn findings(json: &Value, severity: &str) -> Vec<String> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == severity)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_asset_generator_skin_file_passes_the_lint_with_what_differs_as_information() {
    let mut files = common::gltf_files(&shared("AssetGenerator/Animation_Skin"));
    files.extend(common::gltf_files(&shared(
        "AssetGenerator/Animation_SkinType",
    )));
    assert_eq!(files.len(), 14);
    for file in &files {
        let (code, json) = check_json(file.to_str().unwrap());
        assert_eq!(
            (code, findings(&json, "error")),
            (0, Vec::new()),
            "{}",
            file.display()
        );
    }
    let info = |k: &str| {
        let file = shared(&format!(
            "AssetGenerator/Animation_Skin/Animation_Skin_{k}.gltf"
        ));
        findings(&check_json(file.to_str().unwrap()).1, "info")
    };
    // _07: every joint's rest rotation is -10 degrees where the bind chain bends 20 degrees at
    // joint1 (and 10 at each joint below, along turned bones): 10 degrees at joint1.
    let seven = info("07");
    assert!(
        seven
            .iter()
            .any(|m| m.starts_with("rest pose differs from bind pose at joint1 by 10 deg")),
        "{seven:?}"
    );
    // _09: skinE's two tips are bound 30 degrees away from their rest rotation.
    let nine = info("09");
    for joint in ["joint2", "joint3"] {
        let start = format!("rest pose differs from bind pose at {joint} by 30 deg");
        assert!(nine.iter().any(|m| m.starts_with(&start)), "{nine:?}");
    }
    // _06: one mesh drawn by two skins; the outer prism is a shell around the joints.
    let six = info("06");
    assert!(
        six.iter()
            .any(|m| m.contains("outerPrismSkinB") && m.contains("a shell or a cage")),
        "{six:?}"
    );
}

/// Fox with its `root` node (node 0, above every joint) given the transform `armature`, its
/// vertex data moved by it (bound in the scene, as it should be), and inverse binds computed
/// without it, as an exporter that forgot the armature writes them.
fn fox_with_armature_forgotten(armature: Mat4) -> PathBuf {
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    assert_eq!(raw.json["nodes"][0]["name"], "root");
    let original = skinscope::import::load(&shared("Fox/Fox.glb")).unwrap();
    let mut pose = skinscope::pose::CharacterPose::new(&original);
    pose.evaluate(
        &original,
        &skinscope::pose::PoseRequest::rest(skinscope::pose::PaletteMode::Bind),
    )
    .unwrap();
    raw.json["nodes"][0]["matrix"] = json!(armature.to_cols_array());
    // Without the armature, world_from_joint is the original file's.
    let skin = &original.skins[0];
    let ibms: Vec<Mat4> = (0..skin.skin.len())
        .map(|k| {
            let joint = skin.skin.joint(skin.palette_of_ordinal[k]).unwrap();
            Mat4::from(pose.model.as_slice()[joint]).inverse()
        })
        .collect();
    let flat: Vec<f32> = ibms.iter().flat_map(|m| m.to_cols_array()).collect();
    let ibm = raw.add_f32(&flat, "MAT4");
    raw.json["skins"][0]["inverseBindMatrices"] = json!(ibm);
    let position = raw.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    let moved: Vec<f32> = raw
        .read(position)
        .iter()
        .flat_map(|p| {
            armature
                .transform_point3(Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32))
                .to_array()
        })
        .collect();
    let moved = raw.add_f32(&moved, "VEC3");
    raw.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(moved);
    let path = temp_dir("armature-forgotten").join(format!("fox_{}.glb", armature.w_axis.x));
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn inverse_binds_made_without_the_armature_name_the_inverse_binds_and_the_node() {
    for armature in [
        // Scaled and turned (a Z-up tool's armature), and moved far off.
        Mat4::from_scale_rotation_translation(
            Vec3::splat(0.5),
            glam::Quat::from_rotation_x(-1.2),
            Vec3::new(3.0, 1.0, 0.0),
        ),
        Mat4::from_translation(Vec3::new(400.0, 0.0, 0.0)),
        Mat4::from_scale(Vec3::splat(0.01)),
    ] {
        let file = fox_with_armature_forgotten(armature);
        let (code, json) = check_json(file.to_str().unwrap());
        let errors = findings(&json, "error");
        assert_eq!(code, 1, "{errors:?}");
        assert!(
            errors.iter().any(|m| m.contains(
                "the inverse bind matrices were computed without node 0 \"root\"'s transform"
            )),
            "{armature}: {errors:?}"
        );
        assert!(
            !errors.iter().any(|m| m.contains("weighted to a far joint")),
            "the weights are not to blame: {errors:?}"
        );
    }
}

// Inverse binds of small scale (gltfpack's) are not singular.

#[test]
fn gltfpack_s_scaled_inverse_binds_are_invertible_and_every_command_agrees() {
    let compressed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf-compressed");
    for name in ["CesiumMan_q.glb", "Fox_q.glb", "Fox_qc.glb"] {
        let file = compressed.join(name);
        let file = file.to_str().unwrap();
        let (code, out, err) = skinscope(&["inspect", "--json", file]);
        assert_eq!(code, 0, "{err}");
        let inspect: Value = serde_json::from_str(&out).unwrap();
        let warnings: Vec<String> = inspect["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert!(
            !warnings.iter().any(|w| w.contains("not invertible")),
            "{name}: {warnings:?}"
        );
        let (_, check) = check_json(file);
        assert_eq!(findings(&check, "warning").len(), warnings.len(), "{name}");
    }
    // A matrix that really is singular (one axis flattened) still warns, in inspect and check.
    let mut raw = RawGltf::read_glb(&shared("CesiumMan/CesiumMan.glb"));
    let ibm = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let mut matrices: Vec<f32> = raw.read(ibm).concat().iter().map(|&v| v as f32).collect();
    for v in &mut matrices[4..8] {
        *v *= 1e-9;
    }
    let ibm = raw.add_f32(&matrices, "MAT4");
    raw.json["skins"][0]["inverseBindMatrices"] = json!(ibm);
    let file = temp_dir("singular-ibm").join("singular.glb");
    std::fs::write(&file, raw.to_glb()).unwrap();
    let (_, out, _) = skinscope(&["inspect", file.to_str().unwrap()]);
    assert!(
        out.contains("matrix 0 (joint node 3 \"Skeleton_torso_joint_1\") is not invertible"),
        "{out}"
    );
    let (_, check) = check_json(file.to_str().unwrap());
    let warned = findings(&check, "warning");
    assert!(
        warned.iter().any(|w| w.contains("is not invertible")),
        "{warned:?}"
    );
}

// The rest pose's morph weights.

#[test]
fn the_rest_pose_draws_the_file_s_default_morph_weights_not_the_clip_s() {
    let file = shared("SimpleMorph/SimpleMorph.gltf");
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let defaults: Vec<f64> = doc["meshes"][0]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect();
    assert_eq!(defaults, [0.5, 0.5]);
    let weights = |palette: &str| {
        let (code, out, err) = skinscope(&[
            "palette",
            "--json",
            file.to_str().unwrap(),
            "--palette",
            palette,
        ]);
        assert_eq!(code, 0, "{err}");
        let json: Value = serde_json::from_str(&out).unwrap();
        json["mesh_nodes"][0]["morph_weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_f64().unwrap())
            .collect::<Vec<f64>>()
    };
    assert_eq!(weights("bind"), defaults);
    assert_eq!(weights("identity"), defaults);
    // Animated at 0 s: the clip's first key (both targets at 0).
    assert_eq!(weights("animated"), [0.0, 0.0]);
}

// Cameras by their index.

/// A triangle at the origin seen by 14 unnamed cameras on the +Z axis (camera N at z = 2 + N),
/// the nodes listed in the opposite order (node k holds camera 13 - k).
fn fourteen_cameras() -> PathBuf {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[-0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.0, 0.5, 0.0], "VEC3");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions}}]}));
    for _ in 0..14 {
        raw.push(
            "cameras",
            json!({"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}),
        );
    }
    for k in 0..14usize {
        let camera = 13 - k;
        let node =
            raw.add_node(json!({"camera": camera, "translation": [0.0, 0.0, 2.0 + camera as f32]}));
        raw.add_root(node);
    }
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let path = temp_dir("cameras").join("cameras.glb");
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn camera_n_is_slash_cameras_slash_n_everywhere() {
    let file = fourteen_cameras();
    let file = file.to_str().unwrap();
    let (code, out, err) = skinscope(&["inspect", "--json", file]);
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let cameras: Vec<(u64, String, u64)> = json["cameras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["index"].as_u64().unwrap(),
                c["name"].as_str().unwrap().to_string(),
                c["node"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(u64, String, u64)> = (0..14)
        .map(|k| (k, format!("camera {k}"), 13 - k))
        .collect();
    assert_eq!(cameras, expected);
    let (_, text, _) = skinscope(&["inspect", file]);
    assert!(
        text.contains("\ncameras\n  0 \"camera 0\": perspective, on node 13\n"),
        "{text}"
    );
    // The error lists them from 0 up, each with its index.
    let dir = temp_dir("cameras-render");
    let png = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let render = |camera: &str, out: &str| {
        skinscope(&[
            "render", file, "--size", "48x48", "--camera", camera, "--out", out,
        ])
    };
    let (code, _, err) = render("nope", &png("nope.png"));
    assert_eq!(code, 2);
    assert!(
        err.contains("its cameras are 0: \"camera 0\", 1: \"camera 1\", 2: \"camera 2\""),
        "{err}"
    );
    // Camera 0 (nearest, at z = 2) draws the triangle larger than camera 13 (at z = 15).
    let covered = |path: &str| {
        let img = image::open(path).unwrap().to_rgba8();
        let background = *img.get_pixel(0, 0);
        img.pixels().filter(|p| **p != background).count()
    };
    for (camera, out) in [("0", "0.png"), ("camera 0", "named0.png"), ("13", "13.png")] {
        let (code, _, err) = render(camera, &png(out));
        assert_eq!(code, 0, "{err}");
    }
    let (near, named, far) = (
        covered(&png("0.png")),
        covered(&png("named0.png")),
        covered(&png("13.png")),
    );
    assert_eq!(near, named);
    assert!(
        near > 4 * far,
        "camera 0 covers {near} pixels, camera 13 {far}"
    );
}

// The second influence set in the lint.

#[test]
fn joints_in_the_second_influence_set_are_used_and_counted() {
    // Five joints in a row; one vertex weighs 0.2 to each, the last two through JOINTS_1; the
    // tip joint j4 carries nothing but its fifth influence.
    let mut raw = RawGltf::new();
    common::five_joint_row(&mut raw);
    let positions = raw.add_f32(&[0.0, 0.5, 0.0, 0.1, 0.5, 0.0, 0.0, 0.5, 0.1], "VEC3");
    let j0 = raw.add_u16(&[0, 1, 2, 3, 2, 0, 0, 0, 2, 0, 0, 0], "VEC4");
    let w0 = raw.add_f32(
        &[0.2, 0.2, 0.2, 0.2, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let j1 = raw.add_u16(&[4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "VEC4");
    let w1 = raw.add_f32(
        &[0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1}}]}));
    raw.add_node(json!({"name": "mesh", "mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(5);
    let file = temp_dir("five-influences").join("five.glb");
    std::fs::write(&file, raw.to_glb()).unwrap();
    let file = file.to_str().unwrap();
    let (_, json) = check_json(file);
    let warnings = findings(&json, "warning");
    assert!(
        !warnings.iter().any(|w| w.contains("no vertex uses")),
        "{warnings:?}"
    );
    let info = findings(&json, "info");
    assert!(
        info.iter()
            .any(|m| m.ends_with("at most 5 influences per vertex")),
        "{info:?}"
    );
    assert_eq!(json["skins"][0]["max_influences"], 5);
    let (_, out, _) = skinscope(&["inspect", "--json", file]);
    let inspect: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(inspect["influences"]["max_influences"], 5);
    assert_eq!(
        inspect["influences"]["vertices_by_influences"],
        json!([0, 2, 0, 0, 0, 1, 0, 0, 0])
    );
}

// Morphed primitives without normals.

/// A double-sided triangle facing +Z with no normals: (base positions, the target's deltas).
/// Without deltas its positions are baked (the control); with them they are a morph target.
fn bare_triangle(positions: &[f32], targets: &[&[f32]]) -> PathBuf {
    let mut raw = RawGltf::new();
    let p = raw.add_f32(positions, "VEC3");
    let targets: Vec<Value> = targets
        .iter()
        .map(|d| json!({"POSITION": raw.add_f32(d, "VEC3")}))
        .collect();
    raw.push(
        "materials",
        json!({"doubleSided": true, "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1.0], "metallicFactor": 0.0}}),
    );
    let mut primitive = json!({"attributes": {"POSITION": p}, "material": 0});
    if !targets.is_empty() {
        primitive["targets"] = json!(targets);
    }
    let mut mesh = json!({"primitives": [primitive]});
    if !targets.is_empty() {
        mesh["weights"] = json!(vec![0.0; targets.len()]);
    }
    let mesh = raw.add_mesh(mesh);
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let dir = temp_dir("bare-triangle");
    let path = dir.join(format!("triangle_{}_{}.glb", targets.len(), positions[7]));
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn a_morphed_primitive_without_normals_shades_by_its_morphed_triangle() {
    let base = [-0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.0, 0.5, 0.0];
    // Target 0 tips the apex toward the viewer (the face turns up); target 1 moves it below the
    // base (the winding reverses: the face now faces -Z).
    let tip = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.3, 0.8];
    let flip = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.3, 0.0];
    let morphed = bare_triangle(&base, &[&tip, &flip]);
    let baked = |delta: &[f32]| {
        let moved: Vec<f32> = base.iter().zip(delta).map(|(a, b)| a + b).collect();
        bare_triangle(&moved, &[])
    };
    let dir = temp_dir("bare-triangle-renders");
    let render = |file: &PathBuf, morph: Option<&str>, out: &str| {
        let out = dir.join(out);
        let mut args = vec![
            "render",
            file.to_str().unwrap(),
            "--size",
            "64x64",
            "--eye",
            "0.3,0.2,2.5",
            "--target",
            "0,-0.1,0",
            "--out",
            out.to_str().unwrap(),
        ];
        if let Some(m) = morph {
            args.extend(["--morph", m]);
        }
        let (code, _, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        image::open(&out).unwrap().to_rgba8().into_raw()
    };
    let mean_difference = |a: &[u8], b: &[u8]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y) as f64)
            .sum::<f64>()
            / a.len() as f64
    };
    for (name, morph, delta) in [("tipped", "0:0=1", &tip), ("flipped", "0:1=1", &flip)] {
        let drawn = render(&morphed, Some(morph), &format!("{name}.png"));
        let expected = render(&baked(delta), None, &format!("{name}_baked.png"));
        let unmorphed = render(&morphed, None, "unmorphed.png");
        let off = mean_difference(&drawn, &expected);
        assert!(off < 0.5, "{name}: {off} from the baked triangle");
        // The shading did change (the test would not catch stale normals otherwise).
        assert!(
            mean_difference(&drawn, &unmorphed) > 1.0,
            "{name}: looks unmorphed"
        );
    }
    // The export writes the morphed triangle's normal: the flipped face's is -Z.
    let obj = dir.join("flipped.obj");
    let (code, _, err) = skinscope(&[
        "pose",
        morphed.to_str().unwrap(),
        "--morph",
        "0:1=1",
        "--out",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&obj).unwrap();
    let normals: Vec<&str> = text.lines().filter(|l| l.starts_with("vn ")).collect();
    assert_eq!(normals.len(), 3);
    for n in normals {
        let v: Vec<f32> = n[3..].split(' ').map(|x| x.parse().unwrap()).collect();
        assert!((Vec3::from_slice(&v) - Vec3::NEG_Z).length() < 1e-5, "{n}");
    }
}

// A scene inside an open sky mesh.

/// A small scene (two boxes, 1 wide, standing on y = 0 around the origin) inside an
/// open-topped octagonal prism of radius 40 and height 30 whose floor is the scene's (y = 0):
/// the prism as one mesh, or as eight separate wall panels (`panels`).
fn town_in_an_octagon(panels: bool) -> skinscope::character::Character {
    let mut raw = RawGltf::new();
    let cube: Vec<f32> = (0..8)
        .flat_map(|k| {
            [
                if k & 1 == 0 { -0.5 } else { 0.5 },
                if k & 2 == 0 { 0.0 } else { 1.0 },
                if k & 4 == 0 { -0.5 } else { 0.5 },
            ]
        })
        .collect();
    let cube = raw.add_f32(&cube, "VEC3");
    let cube_indices = raw.add_u16(
        &[
            0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6,
            4, 1, 5, 7, 1, 7, 3,
        ],
        "SCALAR",
    );
    let house = raw.add_mesh(
        json!({"primitives": [{"attributes": {"POSITION": cube}, "indices": cube_indices}]}),
    );
    for x in [-1.0, 1.5] {
        let node = raw.add_node(json!({"mesh": house, "translation": [x, 0.0, 0.0]}));
        raw.add_root(node);
    }
    let corner = |k: usize| {
        let a = std::f32::consts::TAU * (k as f32 + 0.5) / 8.0;
        (40.0 * a.cos(), 40.0 * a.sin())
    };
    let wall = |k: usize| -> Vec<f32> {
        let ((x0, z0), (x1, z1)) = (corner(k), corner(k + 1));
        vec![x0, 0.0, z0, x1, 0.0, z1, x1, 30.0, z1, x0, 30.0, z0]
    };
    let quads = |n: usize| -> Vec<u16> {
        (0..n as u16)
            .flat_map(|q| [4 * q, 4 * q + 1, 4 * q + 2, 4 * q, 4 * q + 2, 4 * q + 3])
            .collect()
    };
    if panels {
        for k in 0..8 {
            let p = raw.add_f32(&wall(k), "VEC3");
            let i = raw.add_u16(&quads(1), "SCALAR");
            let mesh = raw
                .add_mesh(json!({"primitives": [{"attributes": {"POSITION": p}, "indices": i}]}));
            let node = raw.add_node(json!({"mesh": mesh}));
            raw.add_root(node);
        }
    } else {
        let walls: Vec<f32> = (0..8).flat_map(wall).collect();
        let p = raw.add_f32(&walls, "VEC3");
        let i = raw.add_u16(&quads(8), "SCALAR");
        let mesh = raw.add_mesh(
            json!({"name": "sky", "primitives": [{"attributes": {"POSITION": p}, "indices": i}]}),
        );
        let node = raw.add_node(json!({"mesh": mesh}));
        raw.add_root(node);
    }
    skinscope::import::load_bytes(&raw.to_glb(), std::path::Path::new("town.glb")).unwrap()
}

#[test]
fn a_scene_inside_an_open_sky_mesh_is_framed_on_the_scene() {
    use skinscope::pose::{PoseRequest, motion_bounds};
    for panels in [false, true] {
        let c = town_in_an_octagon(panels);
        let (lo, hi) = motion_bounds(&c, &PoseRequest::default()).unwrap();
        assert!(
            (lo - Vec3::new(-1.5, 0.0, -0.5)).length() < 1e-5
                && (hi - Vec3::new(2.0, 1.0, 0.5)).length() < 1e-5,
            "panels {panels}: framed {lo} .. {hi}"
        );
    }
    // A town without a sky keeps every house, the outer ones too.
    let mut raw = RawGltf::new();
    let p = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": p}}]}));
    for x in [-3.0, 0.0, 3.0] {
        let node = raw.add_node(json!({"mesh": mesh, "translation": [x, 0.0, 0.0], "scale": [if x == 0.0 { 1.0 } else { 2.0 }, 1.0, 1.0]}));
        raw.add_root(node);
    }
    let c = skinscope::import::load_bytes(&raw.to_glb(), std::path::Path::new("row.glb")).unwrap();
    let (lo, hi) = motion_bounds(&c, &PoseRequest::default()).unwrap();
    assert_eq!((lo.x, hi.x), (-3.0, 5.0));
}

// Option errors that say what is wrong, and JSON that is always JSON.

#[test]
fn out_of_range_options_say_which_and_why() {
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["palette"];
        all.extend_from_slice(args);
        let (code, _, err) = skinscope(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    };
    refused(&["--simulate", "-1"], "-1 must not be negative");
    refused(
        &["--clip", "-1"],
        "clip index -1 is outside 0..=18 (the clips of skinscope_mannequin.glb)",
    );
    refused(&["--clip", "19"], "clip index 19 is outside 0..=18");
    refused(
        &["--transition", "wave@0.2:-1"],
        "--transition \"wave@0.2:-1\": the duration -1 must not be negative",
    );
    // The built-in state machine's speed runs 0..=1.4.
    refused(
        &["--simulate", "1", "--param", "speed=99"],
        "--param \"speed=99\": 99 is outside speed's range 0..=1.4",
    );
    let (code, _, err) = skinscope(&[
        "render",
        "--compare",
        "clips",
        "--size",
        "16x16",
        "--out",
        temp_dir("compare").join("c.png").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--compare clips applies to --color-by displacement only"),
        "{err}"
    );
    // A state machine posed without --simulate: its first frame, and a note that says so.
    let graph = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/skinscope_mannequin.skinscope.json"
    );
    let (code, _, err) = skinscope(&["palette", "--graph", graph, "--param", "speed=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--graph without --simulate poses the state machine's first frame"),
        "{err}"
    );
}

#[test]
fn every_json_command_prints_json_when_the_file_cannot_load() {
    for command in [
        vec!["check", "--json"],
        vec!["check", "--json", "--foot-slide"],
        vec!["palette", "--json"],
        vec!["inspect", "--json"],
    ] {
        let mut args = command.clone();
        args.push("/nonexistent.glb");
        let (code, out, err) = skinscope(&args);
        assert_eq!(code, 2, "{command:?}");
        let json: Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{command:?}: {e}: {out:?}"));
        assert_eq!(json["loaded"], false, "{command:?}");
        assert_eq!(json["file"], "/nonexistent.glb", "{command:?}");
        assert_eq!(
            err.matches("cannot read the file").count(),
            1,
            "{command:?}: {err}"
        );
    }
    // In text, the error is said once.
    let (code, out, err) = skinscope(&["inspect", "/nonexistent.glb"]);
    assert_eq!(code, 2);
    assert_eq!(
        (out + &err).matches("cannot read the file").count(),
        1,
        "said more than once"
    );
}

// Driven mode's default speed and a reach target that follows the character.

#[test]
fn driven_mode_starts_at_the_clip_s_own_speed() {
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    let walk = viewer.controls.playback.clip;
    let ground = viewer.ground_speed(walk);
    assert!(ground > 0.1, "the walk moves its feet at {ground}");
    viewer.controls.motion.move_mode = MoveMode::Driven;
    assert!((viewer.controls.motion.drive_speed - ground).abs() < 1e-6);
    assert!((viewer.driven_rate().unwrap() - 1.0).abs() < 1e-5);
    // A file opened later gets its own clips' speed: Fox's first clip (Survey) stands still,
    // its second (Walk) moves.
    viewer.open(&shared("Fox/Fox.glb")).unwrap();
    assert_eq!(viewer.ground_speed(0), 0.0);
    let fox = viewer.ground_speed(1);
    assert!(fox > 0.0);
    assert!((viewer.controls.motion.drive_speed - fox).abs() < 1e-6);
}

#[test]
fn a_reach_target_follows_the_walking_character_by_default() {
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.controls.motion.reach_ik = true;
    viewer.controls.motion.move_mode = MoveMode::Driven;
    assert!(viewer.controls.motion.reach_follows);
    let start = viewer.reach_world_target();
    let hand = viewer.controls.motion.reach_end.unwrap();
    for _ in 0..120 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let placed = viewer.locomotion().placement();
    assert!(placed.position.length() > 0.5, "{placed:?}");
    let target = viewer.reach_world_target();
    assert!(
        (target - (start + placed.position)).length() < 1e-5,
        "{target} vs {start} + {}",
        placed.position
    );
    let at = Vec3::from(viewer.pose.model.as_slice()[hand].translation);
    assert!(
        (at - target).length() < 0.02,
        "the hand is {} off",
        (at - target).length()
    );
    // Left in the world, the target stays put as the character walks on, kept where it was.
    viewer.apply(skinscope::viewer::UiCommand::ReachFollows(false));
    assert!((viewer.reach_world_target() - target).length() < 1e-5);
    for _ in 0..60 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    assert!((viewer.reach_world_target() - target).length() < 1e-6);
    // And back: it follows again from where it is.
    viewer.apply(skinscope::viewer::UiCommand::ReachFollows(true));
    assert!((viewer.reach_world_target() - target).length() < 1e-5);
}

// Crowds: one bound, and copies that stay apart.

#[test]
fn the_panel_and_render_share_one_crowd_bound_from_the_device() {
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap();
    let fox = skinscope::import::load(&shared("Fox/Fox.glb")).unwrap();
    let limit = skinscope::draw::crowd_limit(&gpu.device.limits(), &fox);
    assert!(limit > skinscope::viewer::MAX_PANEL_CROWD, "{limit}");
    let too_many = (limit + 1).to_string();
    let (code, _, err) = skinscope(&[
        "render",
        shared("Fox/Fox.glb").to_str().unwrap(),
        "--crowd",
        &too_many,
        "--size",
        "16x16",
        "--out",
        temp_dir("crowd-bound").join("c.png").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("the largest it can draw is {limit}")),
        "{err}"
    );
}

#[test]
fn a_crowd_s_copies_stay_apart_whatever_they_play() {
    use skinscope::pose::{CharacterPose, PoseRequest};
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    let c = viewer.character.clone();
    let wave = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "wave")
        .unwrap();
    viewer.controls.playback.blend_b = wave;
    viewer.controls.view.crowd = 4;
    viewer.frame(Vec::new(), 1.0 / 60.0);
    let grid = viewer
        .crowd
        .as_ref()
        .unwrap()
        .bounds((Vec3::ZERO, Vec3::ZERO));
    let spacing = grid.1.x - grid.0.x;
    // Wider than one copy ever gets, sampled at times of its own, in either clip.
    let mut pose = CharacterPose::new(&c);
    for clip in [viewer.controls.playback.blend_a, wave] {
        let duration = c.clips[clip].duration_secs();
        for k in 0..37 {
            pose.evaluate(
                &c,
                &PoseRequest::clip(clip, duration * (k as f32 + 0.3) / 37.0),
            )
            .unwrap();
            let (lo, hi) = pose.world_bounds(&c).unwrap();
            let width = (hi.x - lo.x).max(hi.z - lo.z);
            assert!(
                width < spacing,
                "clip {clip} at {k}: {width} wide, {spacing} apart"
            );
        }
    }
    // The same spacing whatever frame the crowd was made on.
    viewer.controls.view.crowd = 0;
    for _ in 0..20 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    viewer.controls.view.crowd = 4;
    viewer.frame(Vec::new(), 1.0 / 60.0);
    let again = viewer
        .crowd
        .as_ref()
        .unwrap()
        .bounds((Vec3::ZERO, Vec3::ZERO));
    assert_eq!(again, grid);
}

// Recent files and the way back to the built-in character.

#[test]
fn recent_files_are_absolute_and_the_panel_goes_back_to_the_built_in_character() {
    use egui_kittest::kittest::Queryable;
    let viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    let builtin_name = viewer.character.name.clone();
    let mut h = common::window_frames(viewer, (1100.0, 1400.0));
    h.run();
    // No way "back" while the built-in character is shown.
    assert!(h.query_by_label("Built-in character").is_none());
    // Tests run in the crate's folder: this relative path is how a user types it.
    let relative = std::path::Path::new("../shared/gltf/Fox/Fox.glb");
    assert!(relative.is_relative() && relative.exists());
    h.state_mut().open(relative).unwrap();
    h.run();
    let recent = h.state().recent.clone();
    assert!(recent[0].is_absolute(), "{recent:?}");
    assert!(recent[0].exists());
    assert_eq!(
        std::fs::canonicalize(&recent[0]).unwrap(),
        std::fs::canonicalize(relative).unwrap()
    );
    h.get_by_label("Built-in character").click();
    h.run();
    let v = h.state();
    assert!(v.source.is_none());
    assert_eq!(v.character.name, builtin_name);
    assert!(v.load_error.is_none());
    // The Fox stays on the list.
    assert_eq!(v.recent, recent);
}

// Headless colour views say what their colours mean; a render on a ground shows it.

fn obj_vertices(path: &std::path::Path) -> Vec<Vec3> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("v "))
        .map(|l| {
            let v: Vec<f32> = l[2..].split(' ').map(|x| x.parse().unwrap()).collect();
            Vec3::from_slice(&v)
        })
        .collect()
}

#[test]
fn a_headless_colour_view_draws_and_prints_its_legend_with_the_range() {
    let dir = temp_dir("legend");
    let render = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec![
            "render",
            "--color-by",
            "displacement",
            "--time",
            "0.3",
            "--size",
            "640x400",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, stdout, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        (image::open(&out).unwrap().to_rgba8(), stdout)
    };
    let (with, text) = render(&[], "legend.png");
    let (without, text_too) = render(&["--no-legend"], "plain.png");
    assert_eq!(text, text_too, "the legend is printed either way");
    assert!(
        text.starts_with("how far each vertex moves against the bind palette\n"),
        "{text}"
    );
    // The largest displacement printed, against the posed exports' own vertices (the CPU
    // reference, animated and at the bind palette).
    let (animated, bind) = (dir.join("animated.obj"), dir.join("bind.obj"));
    for (palette, out) in [("animated", &animated), ("bind", &bind)] {
        let (code, _, err) = skinscope(&[
            "pose",
            "--time",
            "0.3",
            "--palette",
            palette,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let largest = obj_vertices(&animated)
        .iter()
        .zip(obj_vertices(&bind))
        .map(|(a, b)| a.distance(b))
        .fold(0.0f32, f32::max);
    let printed: f32 = text
        .split("largest here ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (printed - largest).abs() < 1e-3,
        "printed {printed}, measured {largest}"
    );
    // Drawn in the top-left corner only: the rest of the image is the plain render's.
    let differs = |x0: u32, x1: u32, y0: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| with.get_pixel(x, y) != without.get_pixel(x, y))
            .count()
    };
    assert!(differs(0, 200, 0, 60) > 2000, "no legend drawn");
    assert_eq!(differs(400, 640, 0, 400), 0);
    assert_eq!(differs(0, 640, 300, 400), 0);
}

#[test]
fn render_draws_the_ground_it_poses_on() {
    let dir = temp_dir("ground-render");
    let ground = dir.join("floor.json");
    std::fs::write(
        &ground,
        r#"{"steps": [{"min": [0.3, -0.5], "max": [1.0, 0.5], "height": 0.1}]}"#,
    )
    .unwrap();
    let render = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec![
            "render",
            "--size",
            "480x360",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        image::open(&out).unwrap().to_rgb8()
    };
    let plain = render(&[], "plain.png");
    let on_ground = render(&["--ground", ground.to_str().unwrap()], "ground.png");
    // New pixels in the outline's colour (linear 0.9, 0.75, 0.35: sRGB about 243, 225, 160),
    // where the plain render has the grid or the background.
    let outline = |p: &image::Rgb<u8>| {
        p[0] > 200 && p[1] > 180 && p[2] < 190 && p[0] as i32 - p[2] as i32 > 50
    };
    let drawn = plain
        .pixels()
        .zip(on_ground.pixels())
        .filter(|(a, b)| a != b && outline(b) && !outline(a))
        .count();
    assert!(drawn > 100, "{drawn} outline pixels");
}
