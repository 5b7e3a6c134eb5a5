//! Characters as pipelines ship them (`../shared/gltf-compressed`): gltfpack's quantized
//! (KHR_mesh_quantization, KHR_texture_transform) and meshopt-compressed
//! (EXT_meshopt_compression) files load, render like their originals and pose like them; Draco
//! (KHR_draco_mesh_compression) decodes to the original's vertices within its quantization;
//! unknown extensions are refused or noted.

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

/// The influences of vertex `v` as (joint, weight) pairs, the zero weights left out, sorted.
fn influences(p: &skinscope::character::Primitive, v: usize) -> Vec<(u16, f32)> {
    let s = p.skinning.as_ref().unwrap();
    let mut out: Vec<(u16, f32)> = s.joints[v]
        .iter()
        .zip(s.weights[v])
        .filter(|(_, w)| *w > 0.0)
        .map(|(&j, w)| (j, w))
        .collect();
    out.sort_by_key(|&(j, _)| j);
    out
}

#[test]
fn draco_decodes_to_the_originals_vertices_within_its_quantization() {
    let draco = import::load(&compressed("Fox_draco.glb")).unwrap_or_else(|e| panic!("{e}"));
    let original = import::load(&shared("Fox/Fox.glb")).unwrap();
    let (d, o) = (
        &draco.meshes[0].primitives[0],
        &original.meshes[0].primitives[0],
    );
    // Draco welds the original's unwelded corners: 434 points, every one of the original's
    // 1,728 corners among them, and the same 576 triangles.
    assert_eq!(d.positions.len(), 434);
    assert_eq!(d.indices.as_ref().unwrap().len(), 576 * 3);
    // Positions within Draco's default 14-bit step over the Fox's extent (about 9.5e-3 units on
    // 155), UVs within its 12-bit step, weights within 12 bits and joints equal: each decoded
    // point against the nearest original corner (its position, then its UV).
    let (min, max) = o
        .positions
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
    let step = (max - min).max_element() / 16383.0;
    let (mut worst_p, mut worst_uv, mut worst_w) = (0.0f32, 0.0f32, 0.0f32);
    for v in 0..d.positions.len() {
        let p = d.positions[v];
        let uv = d.uvs.as_ref().unwrap()[v];
        let best = (0..o.positions.len())
            .filter(|&k| o.positions[k].distance(p) <= step)
            .min_by(|&a, &b| {
                let ua = o.uvs.as_ref().unwrap()[a].distance(uv);
                let ub = o.uvs.as_ref().unwrap()[b].distance(uv);
                ua.total_cmp(&ub)
            })
            .unwrap_or_else(|| panic!("point {v} at {p} is more than a step from every corner"));
        worst_p = worst_p.max(o.positions[best].distance(p));
        worst_uv = worst_uv.max(o.uvs.as_ref().unwrap()[best].distance(uv));
        let (a, b) = (influences(d, v), influences(o, best));
        assert_eq!(
            a.iter().map(|x| x.0).collect::<Vec<_>>(),
            b.iter().map(|x| x.0).collect::<Vec<_>>(),
            "point {v}'s joints"
        );
        for (x, y) in a.iter().zip(&b) {
            worst_w = worst_w.max((x.1 - y.1).abs());
        }
    }
    assert!(worst_p <= step, "positions {worst_p} off (step {step})");
    assert!(worst_uv <= 2.0 / 4095.0, "UVs {worst_uv} off");
    assert!(worst_w <= 2.0 / 4095.0, "weights {worst_w} off");
    // Every original corner is within a step of a decoded point.
    for (k, p) in o.positions.iter().enumerate() {
        assert!(
            d.positions.iter().any(|q| q.distance(*p) <= step),
            "corner {k} at {p} has no decoded point"
        );
    }
    // Posed, the silhouettes match: the same skeleton and clips.
    let gpu = Gpu::headless().unwrap();
    let walk = PoseRequest::at(Some(clip(&original, "Walk")), 0.3);
    let camera = CameraSpec::Explicit {
        eye: Vec3::new(150.0, 80.0, 200.0),
        target: Some(Vec3::new(0.0, 40.0, 0.0)),
        fov_y_degrees: 40.0,
        near: Some(1.0),
        far: Some(1000.0),
    };
    let a = mask(&gpu, &draco, &walk, camera);
    let b = mask(&gpu, &original, &walk, camera);
    let (both, either) = a.iter().zip(&b).fold((0, 0), |(n, u), (x, y)| {
        (n + usize::from(*x && *y), u + usize::from(*x || *y))
    });
    assert!(both as f64 / either as f64 > 0.99, "IoU {both}/{either}");
}

#[test]
fn a_corrupt_draco_stream_is_an_error_at_its_primitive() {
    let fox = RawGltf::read_glb(&compressed("Fox_draco.glb"));
    let ext = &fox.json["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"];
    let view = &fox.json["bufferViews"][ext["bufferView"].as_u64().unwrap() as usize];
    let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let length = view["byteLength"].as_u64().unwrap() as usize;
    let at = "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression";
    // Its magic overwritten; the stream cut to a quarter; its middle scrambled.
    let mut cases = Vec::new();
    let mut magic = fox.clone();
    magic.bin[offset..offset + 5].copy_from_slice(b"OCARD");
    cases.push(("magic", magic));
    let mut cut = fox.clone();
    let view_index = ext["bufferView"].as_u64().unwrap() as usize;
    cut.json["bufferViews"][view_index]["byteLength"] = json!(length / 4);
    cases.push(("cut", cut));
    let mut scrambled = fox.clone();
    for (k, b) in scrambled.bin[offset + length / 3..offset + 2 * length / 3]
        .iter_mut()
        .enumerate()
    {
        *b = (k * 37 % 251) as u8;
    }
    cases.push(("scrambled", scrambled));
    for (what, raw) in cases {
        match import::load_bytes(&raw.to_glb(), Path::new("fox.glb")) {
            Err(e) => assert!(e.to_string().contains(at), "{what}: {e}"),
            // A scrambled middle may still decode (Draco has no checksum); then it is a mesh
            // of the declared counts, never a crash.
            Ok(c) => {
                assert_eq!(what, "scrambled", "{what} loaded");
                assert_eq!(c.meshes[0].primitives[0].positions.len(), 434);
            }
        }
    }
    // Accessors that ask for more than the stream can hold are refused before decoding.
    let mut greedy = fox.clone();
    let position = fox.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    greedy.json["accessors"][position]["count"] = json!(1u64 << 28);
    let e = import::load_bytes(&greedy.to_glb(), Path::new("fox.glb")).unwrap_err();
    assert!(e.to_string().contains("more than"), "{e}");
}

#[test]
fn unsupported_required_extensions_are_refused_by_name() {
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
    assert!(e.to_string().contains("/extensionsRequired/0"), "{e}");
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
