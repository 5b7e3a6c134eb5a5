//! Characters as pipelines ship them (`../shared/gltf-compressed`): gltfpack's quantized
//! (KHR_mesh_quantization, KHR_texture_transform) and meshopt-compressed
//! (EXT_meshopt_compression) files load, render like their originals and pose like them; Draco
//! is refused by name; unknown extensions are refused or noted.

mod common;

use std::path::{Path, PathBuf};

use common::{RawGltf, shared};
use glam::{Vec2, Vec3};
use serde_json::json;
use skinscope::character::Character;
use skinscope::draw::headless::{CameraSpec, FrameRequest, render_frame};
use skinscope::import;
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest};
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::DrawOptions;

fn compressed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/gltf-compressed")
        .join(name)
}

fn clip(c: &Character, name: &str) -> usize {
    c.clips.iter().position(|k| k.clip.name() == name).unwrap()
}

fn posed(c: &Character, request: &PoseRequest) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, request).unwrap();
    pose
}

/// A silhouette seen by `camera`, as a mask.
fn mask(gpu: &Gpu, c: &Character, request: &PoseRequest, camera: CameraSpec) -> Vec<bool> {
    let frame = FrameRequest {
        size: (256, 192),
        pose: request.clone(),
        camera,
        options: DrawOptions {
            silhouette: true,
            ..Default::default()
        },
        ..Default::default()
    };
    render_frame(gpu, c, &frame)
        .unwrap()
        .chunks_exact(4)
        .map(|p| p[0] > 127)
        .collect()
}

/// The fraction of pixels whose value some pixel within one pixel of it in the other mask has.
fn within_one_pixel(a: &[bool], b: &[bool], (w, h): (usize, usize)) -> f64 {
    let near = |m: &[bool], x: usize, y: usize, value: bool| {
        (y.saturating_sub(1)..=(y + 1).min(h - 1))
            .any(|yy| (x.saturating_sub(1)..=(x + 1).min(w - 1)).any(|xx| m[yy * w + xx] == value))
    };
    let ok = (0..w * h)
        .filter(|&i| near(b, i % w, i / w, a[i]) && near(a, i % w, i / w, b[i]))
        .count();
    ok as f64 / (w * h) as f64
}

#[test]
fn compressed_characters_render_and_pose_like_their_originals() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    for (original, packed, clip_name, time) in [
        ("Fox/Fox.glb", "Fox_q.glb", "Run", 0.35),
        ("Fox/Fox.glb", "Fox_qc.glb", "Walk", 0.6),
        (
            "CesiumMan/CesiumMan.glb",
            "CesiumMan_q.glb",
            "animation 0",
            0.9,
        ),
    ] {
        let a = import::load(&shared(original)).unwrap();
        let b = import::load(&compressed(packed)).unwrap_or_else(|e| panic!("{e}"));
        let name_a = if clip_name == "animation 0" {
            a.clips[0].clip.name().to_owned()
        } else {
            clip_name.to_owned()
        };
        let name_b = if clip_name == "animation 0" {
            b.clips[0].clip.name().to_owned()
        } else {
            clip_name.to_owned()
        };
        let rest = PoseRequest::rest(PaletteMode::Bind);
        let (lo, hi) = posed(&a, &rest).world_bounds(&a).unwrap();
        let diagonal = (hi - lo).length();
        let camera = skinscope::render::camera::Camera::framing(lo, hi, 40.0, 256.0 / 192.0);
        let spec = CameraSpec::Explicit {
            eye: camera.eye,
            target: Some(camera.target),
            fov_y_degrees: 40.0,
            near: Some(camera.near),
            far: Some(camera.far * 2.0),
        };
        for (ra, rb) in [
            (rest.clone(), rest.clone()),
            (
                PoseRequest::clip(clip(&a, &name_a), time),
                PoseRequest::clip(clip(&b, &name_b), time),
            ),
        ] {
            let fraction = within_one_pixel(
                &mask(&gpu, &a, &ra, spec),
                &mask(&gpu, &b, &rb, spec),
                (256, 192),
            );
            assert!(fraction >= 0.99, "{packed} {ra:?}: {fraction}");
            // Every joint stands where the original's does (by name), within 1e-3 of the
            // bounds' diagonal; and the posed meshes span the same bounds.
            let (pa, pb) = (posed(&a, &ra), posed(&b, &rb));
            let skin_joints: Vec<usize> = (0..a.skins[0].skin.len())
                .filter_map(|p| a.skins[0].skin.joint(p))
                .collect();
            for &j in &skin_joints {
                let name = &a.skeleton.names()[j];
                let k = b
                    .skeleton
                    .find(name)
                    .unwrap_or_else(|| panic!("{packed}: no joint {name}"));
                let at_a = Vec3::from(pa.model.as_slice()[j].translation);
                let at_b = Vec3::from(pb.model.as_slice()[k].translation);
                assert!(
                    at_a.distance(at_b) <= 1e-3 * diagonal,
                    "{packed}: joint {name}: {at_a} vs {at_b}"
                );
            }
            let (la, ha) = pa.world_bounds(&a).unwrap();
            let (lb, hb) = pb.world_bounds(&b).unwrap();
            assert!(
                la.distance(lb) <= 1e-3 * diagonal && ha.distance(hb) <= 1e-3 * diagonal,
                "{packed}"
            );
        }
    }
}

#[test]
fn draco_and_other_unsupported_required_extensions_are_refused_by_name() {
    let e = import::load(&compressed("Fox_draco.glb")).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("/extensionsRequired/0"), "{text}");
    assert!(text.contains("KHR_draco_mesh_compression"), "{text}");
    // Used but not required: ignored, with a note.
    let mut raw = RawGltf::read_glb(&shared("RiggedSimple/RiggedSimple.glb"));
    raw.json["extensionsUsed"] = json!(["EXT_made_up"]);
    let c = import::load_bytes(&raw.to_glb(), Path::new("used.glb")).unwrap();
    assert!(
        c.notes
            .iter()
            .any(|n| n.pointer == "/extensionsUsed/0" && n.message.contains("EXT_made_up"))
    );
    raw.json["extensionsRequired"] = json!(["EXT_made_up"]);
    let e = import::load_bytes(&raw.to_glb(), Path::new("required.glb")).unwrap_err();
    assert!(e.to_string().contains("requires EXT_made_up"), "{e}");
}

#[test]
fn the_base_colour_texture_transform_moves_the_uvs() {
    // offset (0.5, 0), rotation 90 degrees, scale (2, 1): (1, 0) -> scaled (2, 0) -> rotated
    // (cos * 2 + sin * 0, -sin * 2 + cos * 0) = (0, -2) -> offset (0.5, -2).
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let uvs = raw.add_f32(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2");
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &[255u8, 255, 255, 255],
        1,
        1,
        image::ExtendedColorType::Rgba8,
    )
    .unwrap();
    let bytes = raw.add_u8(&png, "SCALAR", false);
    let view = raw.json["accessors"][bytes]["bufferView"].clone();
    raw.push(
        "images",
        json!({"bufferView": view, "mimeType": "image/png"}),
    );
    raw.push("textures", json!({"source": 0}));
    raw.push("materials", json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0,
        "extensions": {"KHR_texture_transform": {"offset": [0.5, 0.0], "rotation": std::f32::consts::FRAC_PI_2, "scale": [2.0, 1.0]}}}}}));
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "TEXCOORD_0": uvs}, "material": 0}]}));
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    raw.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
    raw.json["extensionsRequired"] = json!(["KHR_texture_transform"]);
    let c = import::load_bytes(&raw.to_glb(), Path::new("transform.glb"))
        .unwrap_or_else(|e| panic!("{e}"));
    let primitive = &c.meshes[0].primitives[0];
    let transform = primitive.material.base_color_transform;
    let uv: Vec<Vec2> = primitive
        .uvs
        .as_ref()
        .unwrap()
        .iter()
        .map(|uv| transform.apply(*uv))
        .collect();
    assert!(uv[0].abs_diff_eq(Vec2::new(0.5, 0.0), 1e-6), "{}", uv[0]);
    assert!(uv[1].abs_diff_eq(Vec2::new(0.5, -2.0), 1e-6), "{}", uv[1]);
    assert!(uv[2].abs_diff_eq(Vec2::new(1.5, 0.0), 1e-6), "{}", uv[2]);
}
