//! What a new user ran into: each case failed before its fix.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{RawGltf, shared, skinscope, temp_dir};
use glam::Mat4;
use serde_json::json;
use skinscope::import;

fn fox() -> PathBuf {
    shared("Fox/Fox.glb")
}

// Crashes.

#[test]
fn a_crowd_beyond_the_gpus_buffers_is_refused_naming_the_largest() {
    // Fox: 24 joints + the identity entry = 25 palette entries of 64 bytes per copy; the default
    // device's storage binding holds 128 MiB: 134,217,728 / 1,600 = 83,886 copies.
    let out = temp_dir("crowd").join("crowd.png");
    let (code, _, err) = skinscope(&[
        "render",
        fox().to_str().unwrap(),
        "--crowd",
        "100000",
        "--size",
        "64x64",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the largest it can draw is 83886"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn the_renderer_never_writes_past_its_buffers() {
    // The window once prepared a 2,000-member crowd with a renderer built for fewer copies.
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&fox()).unwrap();
    let capacity = skinscope::draw::capacity(&fox, 1);
    let mut renderer = skinscope::render::renderer::Renderer::new(
        &gpu.device,
        &gpu.queue,
        &fox,
        skinscope::render::offscreen::COLOR_FORMAT,
        capacity,
    );
    let mut crowd = skinscope::pose::Crowd::new(&fox, 2000, (0, 1), 2.0);
    crowd.update(&fox, 0.5);
    let camera = skinscope::render::camera::Camera::framing(
        glam::Vec3::splat(-1.0),
        glam::Vec3::ONE,
        40.0,
        1.0,
    );
    let uploaded = renderer.prepare(
        skinscope::render::renderer::View::Main,
        &gpu.queue,
        &skinscope::render::renderer::FrameInput {
            posed: skinscope::draw::extract_crowd(&crowd),
            camera: &camera,
            aspect: 1.0,
            bones: &[],
            options: &Default::default(),
        },
    );
    // One copy's palette, not 2,000.
    assert_eq!(uploaded.palette_bytes, 25 * 64);
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    for args in [
        vec!["inspect", "--json"],
        vec!["palette", "--json"],
        vec!["palette"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(&args)
            .arg(fox())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the first line is written (`| head -0`).
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    }
}

// Refusals that should be loads.

/// Fox with joint 6's inverse bind written row-major (transposed).
fn fox_with_a_transposed_inverse_bind() -> RawGltf {
    let mut raw = RawGltf::read_glb(&fox());
    let ibm = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let mut m: Vec<f32> = raw
        .read(ibm)
        .into_iter()
        .flatten()
        .map(|v| v as f32)
        .collect();
    let t = Mat4::from_cols_slice(&m[96..112]).transpose();
    m[96..112].copy_from_slice(&t.to_cols_array());
    let new = raw.add_f32(&m, "MAT4");
    raw.json["skins"][0]["inverseBindMatrices"] = json!(new);
    raw
}

#[test]
fn a_transposed_inverse_bind_loads_with_a_warning_naming_its_joint_and_is_drawn() {
    let raw = fox_with_a_transposed_inverse_bind();
    let c = import::load_bytes(&raw.to_glb(), Path::new("transposed.glb")).unwrap();
    let warning = c
        .warnings
        .iter()
        .find(|w| w.pointer == "/skins/0/inverseBindMatrices")
        .unwrap_or_else(|| panic!("{:?}", c.warnings));
    let joint = raw.json["skins"][0]["joints"][6].as_u64().unwrap() as usize;
    let name = raw.json["nodes"][joint]["name"].as_str().unwrap();
    assert!(warning.message.contains(name), "{warning}");
    assert!(warning.message.contains("written row-major?"), "{warning}");
    // Every command takes it: render draws it (exploded), inspect and palette load it.
    let dir = temp_dir("transposed");
    let file = dir.join("transposed.glb");
    std::fs::write(&file, raw.to_glb()).unwrap();
    let file = file.to_str().unwrap();
    let png = dir.join("t.png");
    let (code, _, err) = skinscope(&[
        "render",
        file,
        "--size",
        "64x64",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(skinscope(&["inspect", file]).0, 0);
    assert_eq!(skinscope(&["palette", file]).0, 0);
}

#[test]
fn an_inverse_bind_accessor_without_a_buffer_view_reads_as_zeros_with_a_warning() {
    // Valid glTF (the validator's skin/valid.gltf has this shape): an accessor without a buffer
    // view is all zeros.
    let mut raw = RawGltf::read_glb(&shared("RiggedSimple/RiggedSimple.glb"));
    let joints = raw.json["skins"][0]["joints"].as_array().unwrap().len();
    raw.json["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"componentType": 5126, "count": joints, "type": "MAT4"}));
    let zeros = raw.json["accessors"].as_array().unwrap().len() - 1;
    raw.json["skins"][0]["inverseBindMatrices"] = json!(zeros);
    let c = import::load_bytes(&raw.to_glb(), Path::new("zeros.glb")).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.pointer == "/skins/0/inverseBindMatrices" && w.message.contains("zeros")),
        "{:?}",
        c.warnings
    );
    assert!(
        c.skins[0]
            .skin
            .joint_from_bind()
            .iter()
            .all(|m| *m == Mat4::ZERO)
    );
}

#[test]
fn a_channel_this_viewer_does_not_animate_is_skipped_with_a_warning() {
    let mut raw = RawGltf::read_glb(&shared("CesiumMan/CesiumMan.glb"));
    let channels = raw.json["animations"][0]["channels"]
        .as_array_mut()
        .unwrap();
    let count = channels.len();
    // KHR_animation_pointer: no node, the property in the extension.
    channels.push(json!({"sampler": 0, "target": {"path": "pointer",
        "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/alpha"}}}}));
    raw.json["extensionsUsed"] = json!(["KHR_animation_pointer"]);
    let c = import::load_bytes(&raw.to_glb(), Path::new("pointer.glb")).unwrap();
    let pointer = format!("/animations/0/channels/{count}/target/path");
    assert!(
        c.warnings.iter().any(|w| w.pointer == pointer),
        "{:?}",
        c.warnings
    );
    assert_eq!(c.clips[0].channels.len(), count, "the other channels play");
}

#[test]
fn glb_lengths_that_disagree_with_the_file_warn() {
    let glb = RawGltf::read_glb(&shared("RiggedSimple/RiggedSimple.glb")).to_glb();
    // The header declares 8 bytes fewer than the file has (the gltf crate loaded this silently).
    let mut short = glb.clone();
    let declared = (glb.len() as u32 - 8).to_le_bytes();
    short[8..12].copy_from_slice(&declared);
    let c = import::load_bytes(&short, Path::new("short.glb")).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.pointer.is_empty() && w.message.contains("declares"))
    );
    // Bytes after the last chunk: its length disagrees with the file.
    let mut trailing = glb.clone();
    trailing.extend_from_slice(&[0; 16]);
    let total = (trailing.len() as u32).to_le_bytes();
    trailing[8..12].copy_from_slice(&total);
    let c = import::load_bytes(&trailing, Path::new("trailing.glb")).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.pointer.is_empty() && w.message.contains("follow the GLB's last chunk")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_node_whose_weights_do_not_match_its_mesh_targets_is_refused_like_the_mesh() {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let delta = raw.add_f32(&[0.0; 9], "VEC3");
    let mesh = raw.add_mesh(
        json!({"primitives": [{"attributes": {"POSITION": positions},
        "targets": [{"POSITION": delta}]}]}),
    );
    let node = raw.add_node(json!({"mesh": mesh, "weights": [0.5, 0.5]}));
    raw.add_root(node);
    let e = import::load_bytes(&raw.to_glb(), Path::new("weights.glb")).unwrap_err();
    assert!(
        e.errors.iter().any(|p| p.pointer == "/nodes/0/weights"),
        "{e}"
    );
}

// Messages.

#[test]
fn files_that_are_not_gltf_say_what_they_are() {
    let png =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/viewer.png")).unwrap();
    let e = import::load_bytes(&png, Path::new("picture.glb")).unwrap_err();
    assert!(e.to_string().contains("not a GLB (no glTF magic"), "{e}");
    let e = import::load_bytes(&[0x13, 0x37, 0x00, 0xff], Path::new("random.glb")).unwrap_err();
    assert!(e.to_string().contains("not a GLB (no glTF magic"), "{e}");
    let e = import::load_bytes(&[], Path::new("empty.glb")).unwrap_err();
    assert!(e.to_string().contains("the file is empty"), "{e}");
}

// Command line.

fn render_args(extra: &[&str]) -> (i32, String, String) {
    let out = temp_dir("args").join("frame.png");
    let mut args = vec!["render", "--size", "32x32", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    skinscope(&args)
}

#[test]
fn negative_numbers_are_values_and_out_of_range_ones_say_so() {
    let (code, _, err) = render_args(&["--eye", "-3,2,-3", "--target", "0,1,0"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = render_args(&["--fov-y", "-10"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be between 0 and 180"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
    let (code, _, err) = render_args(&["--crowd", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("a crowd of -1 is outside 1..=100000"), "{err}");
    let (code, _, err) = render_args(&["--time", "-0.25"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn an_impossible_camera_is_refused() {
    for (args, says) in [
        (
            vec!["--eye", "1,1,1", "--target", "1,1,1"],
            "the same point",
        ),
        (
            vec!["--eye", "0,1,3", "--near", "5", "--far", "1"],
            "must be less than --far",
        ),
        (
            vec!["--eye", "0,1,3", "--near", "0"],
            "must be greater than 0",
        ),
    ] {
        let (code, _, err) = render_args(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn frames_at_different_times_share_one_camera() {
    use skinscope::draw::headless::{FrameRequest, pose_and_frame};
    let fox = import::load(&fox()).unwrap();
    let run = fox
        .clips
        .iter()
        .position(|c| c.clip.name() == "Run")
        .unwrap();
    let camera = |t: f32| {
        let request = FrameRequest {
            pose: skinscope::pose::PoseRequest::clip(run, t),
            ..Default::default()
        };
        let mut pose = skinscope::pose::CharacterPose::new(&fox);
        pose_and_frame(&fox, &mut pose, &request).unwrap()
    };
    assert_eq!(camera(0.1), camera(0.45));
    // The whole motion fits: every time's posed vertices are inside the framed bounds.
    let bounds =
        skinscope::pose::motion_bounds(&fox, &skinscope::pose::PoseRequest::clip(run, 0.0))
            .unwrap();
    for t in [0.05, 0.2, 0.33, 0.5, 0.61] {
        let mut pose = skinscope::pose::CharacterPose::new(&fox);
        pose.evaluate(&fox, &skinscope::pose::PoseRequest::clip(run, t))
            .unwrap();
        let (lo, hi) = pose.world_bounds(&fox).unwrap();
        let slack = 0.05 * (bounds.1 - bounds.0).length();
        assert!(
            lo.cmpge(bounds.0 - slack).all() && hi.cmple(bounds.1 + slack).all(),
            "t = {t}"
        );
    }
}

#[test]
fn output_formats_are_written_or_refused_up_front() {
    let dir = temp_dir("formats");
    let jpg = dir.join("frame.jpg");
    let (code, _, err) = skinscope(&["render", "--size", "32x32", "--out", jpg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&jpg).unwrap()[..2], &[0xFF, 0xD8], "a JPEG");
    let bmp = dir.join("frame.bmp");
    let (code, _, err) = skinscope(&["render", "--out", bmp.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains(".png, .jpg or .jpeg"), "{err}");
    let stl = dir.join("posed.stl");
    let (code, _, err) = skinscope(&["pose", "--out", stl.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains(".obj or .glb"), "{err}");
    assert!(!stl.exists());
}

#[test]
fn palette_json_names_the_file_as_given() {
    let relative = "../shared/gltf/Fox/Fox.glb";
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["palette", relative, "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["file"], relative);
}

#[test]
fn render_help_and_the_guide_list_the_same_options() {
    let (_, help, _) = skinscope(&["render", "--help"]);
    let flags = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(|c: char| c.is_whitespace() || "[]|,=`()".contains(c))
            .filter(|w| w.starts_with("--") && w.len() > 2 && !w.contains(['\'', '*']))
            .map(|w| w.trim_end_matches(['.', ')', ':']).to_owned())
            .collect()
    };
    // The guide's "Posing a frame" and "render" sections, which together describe render.
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide.md");
    let guide = std::fs::read_to_string(guide).unwrap();
    let section = |heading: &str| {
        let start = guide.find(heading).unwrap() + heading.len();
        let rest = &guide[start..];
        rest[..rest.find("\n### ").unwrap()].to_owned()
    };
    let mut documented = flags(&section("\n### Posing a frame\n"));
    documented.extend(flags(&section("\n### render\n")));
    let mut offered = flags(&help);
    offered.remove("--help");
    assert_eq!(documented, offered);
}

#[test]
fn no_egl_noise_on_the_vulkan_adapter_and_no_rule_warnings_on_render() {
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .arg("gpu-info")
        .env_remove("WGPU_BACKEND")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("egl"), "{err}");
    // CesiumMan's skinned mesh node has a transform: glTF's rule, noted by inspect only.
    let man = shared("CesiumMan/CesiumMan.glb");
    let png = temp_dir("noise").join("man.png");
    let (code, _, err) = skinscope(&[
        "render",
        man.to_str().unwrap(),
        "--size",
        "32x32",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("do not move a skinned mesh"), "{err}");
    let (_, text, _) = skinscope(&["inspect", man.to_str().unwrap()]);
    assert!(text.contains("do not move a skinned mesh"), "{text}");
}

// Exports.

#[test]
fn the_posed_obj_has_normals_and_uvs_and_the_glb_its_texture() {
    let man = shared("CesiumMan/CesiumMan.glb");
    let dir = temp_dir("exports");
    let obj = dir.join("man.obj");
    let (code, _, err) = skinscope(&[
        "pose",
        man.to_str().unwrap(),
        "--out",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&obj).unwrap();
    let count = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("v "), 3273);
    assert_eq!(count("vn "), 3273);
    assert_eq!(count("vt "), 3273);
    let face = text.lines().find(|l| l.starts_with("f ")).unwrap();
    assert!(
        face.split_whitespace()
            .skip(1)
            .all(|c| c.split('/').count() == 3),
        "{face}"
    );
    // The first UV as stored, v flipped (OBJ's origin is bottom-left).
    let c = import::load(&man).unwrap();
    let uv = c.meshes[0].primitives[0].uvs.as_ref().unwrap()[0];
    let vt: Vec<f32> = text.lines().find(|l| l.starts_with("vt ")).unwrap()[3..]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert!((vt[0] - uv.x).abs() < 1e-6 && (vt[1] - (1.0 - uv.y)).abs() < 1e-6);
    // The GLB loads back with its UVs and the base colour texture.
    let glb = dir.join("man.glb");
    let (code, _, err) = skinscope(&[
        "pose",
        man.to_str().unwrap(),
        "--out",
        glb.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let back = import::load(&glb).unwrap();
    let primitive = &back.meshes[0].primitives[0];
    assert_eq!(primitive.uvs.as_ref().unwrap()[0], uv);
    let texture = primitive.material.base_color_texture.as_ref().unwrap();
    let original = c.meshes[0].primitives[0]
        .material
        .base_color_texture
        .as_ref()
        .unwrap();
    assert_eq!(
        (texture.width, texture.height),
        (original.width, original.height)
    );
    assert_eq!(texture.rgba8, original.rgba8);
}
