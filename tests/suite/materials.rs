//! Materials as glTF draws them: single-sided faces culled, the winding flipped under a negative
//! determinant (NegativeScaleTest's pattern), double-sided ones seen from behind, MASK cut-outs
//! and BLEND drawn over what is opaque.

use crate::common;

use std::path::Path;

use common::RawGltf;
use glam::Vec3;
use serde_json::{Value, json};
use skinscope::draw::headless::{CameraSpec, FrameRequest, render_frame};
use skinscope::import;
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::{DrawOptions, ToneMap};

/// Quads facing +Z (counter-clockwise from the front), one per `(node, material)`.
fn quads(nodes: &[(Value, Value)]) -> RawGltf {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(
        &[
            -0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.5, 0.5, 0.0, -0.5, 0.5, 0.0,
        ],
        "VEC3",
    );
    let indices = raw.add_u16(&[0, 1, 2, 0, 2, 3], "SCALAR");
    for (k, (node, material)) in nodes.iter().enumerate() {
        raw.push("materials", material.clone());
        let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions}, "indices": indices, "material": k}]}));
        let mut node = node.clone();
        node["mesh"] = json!(mesh);
        let n = raw.add_node(node);
        raw.add_root(n);
    }
    raw
}

/// The centre pixel of a 32x32 render seen from `eye` (looking at the origin), without the grid,
/// on black, drawn with `options` otherwise.
fn centre_pixel(gpu: &Gpu, raw: &RawGltf, eye: Vec3, options: DrawOptions) -> [u8; 4] {
    let pixels = frame_pixels(gpu, raw, eye, options);
    let at = 4 * (16 * 32 + 16);
    [pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]]
}

/// A 32x32 render seen from `eye` (looking at the origin), without the grid, on black.
fn frame_pixels(gpu: &Gpu, raw: &RawGltf, eye: Vec3, options: DrawOptions) -> Vec<u8> {
    let c =
        import::load_bytes(&raw.to_glb(), Path::new("quads.glb")).unwrap_or_else(|e| panic!("{e}"));
    let request = FrameRequest {
        size: (32, 32),
        camera: CameraSpec::Explicit {
            eye,
            target: Some(Vec3::ZERO),
            fov_y_degrees: 30.0,
            near: Some(0.1),
            far: Some(100.0),
        },
        options: DrawOptions {
            grid: false,
            background: [0.0; 3],
            ..options
        },
        ..Default::default()
    };
    render_frame(gpu, &c, &request).unwrap()
}

/// The centre pixel of a render seen from `eye` (looking at the origin).
fn centre(gpu: &Gpu, raw: &RawGltf, eye: Vec3, silhouette: bool) -> [u8; 4] {
    let options = DrawOptions {
        silhouette,
        ..Default::default()
    };
    centre_pixel(gpu, raw, eye, options)
}

#[test]
fn single_sided_faces_are_culled_and_a_negative_scale_flips_the_winding() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let front = Vec3::new(0.0, 0.0, 3.0);
    let back = Vec3::new(0.0, 0.0, -3.0);
    let single = json!({});
    let plain = quads(&[(json!({}), single.clone())]);
    assert_eq!(
        centre(&gpu, &plain, front, true)[0],
        255,
        "front face drawn"
    );
    assert_eq!(centre(&gpu, &plain, back, true)[0], 0, "back face culled");
    // Mirrored in X: its triangles wind clockwise on screen from the front, yet glTF says the
    // face still faces +Z (the winding flips with the determinant).
    let mirrored = quads(&[(json!({"scale": [-1.0, 1.0, 1.0]}), single)]);
    assert_eq!(
        centre(&gpu, &mirrored, front, true)[0],
        255,
        "mirrored front drawn"
    );
    assert_eq!(
        centre(&gpu, &mirrored, back, true)[0],
        0,
        "mirrored back culled"
    );
    let double = quads(&[(json!({}), json!({"doubleSided": true}))]);
    assert_eq!(
        centre(&gpu, &double, back, true)[0],
        255,
        "double-sided seen from behind"
    );
}

#[test]
fn mask_cuts_out_and_blend_mixes_over_what_is_opaque() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let front = Vec3::new(0.0, 0.0, 3.0);
    let mask = |alpha: f32| {
        quads(&[(
            json!({}),
            json!({"alphaMode": "MASK", "alphaCutoff": 0.5, "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, alpha]}}),
        )])
    };
    assert_eq!(
        centre(&gpu, &mask(0.3), front, true)[0],
        0,
        "below the cutoff: a hole"
    );
    assert_eq!(
        centre(&gpu, &mask(0.7), front, true)[0],
        255,
        "above it: drawn"
    );
    // A half-transparent red quad in front of an opaque green one, listed first: it is still
    // drawn after the opaque one, so the pixel mixes both.
    let scene = quads(&[
        (
            json!({"translation": [0.0, 0.0, 0.5]}),
            json!({"alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.0, 0.0, 0.5]}}),
        ),
        (
            json!({}),
            json!({"pbrMetallicRoughness": {"baseColorFactor": [0.0, 1.0, 0.0, 1.0]}}),
        ),
    ]);
    let [r, g, b, _] = centre(&gpu, &scene, front, false);
    assert!(r > 60 && g > 60 && b < 30, "{r} {g} {b}");
    // Opaque: alpha is ignored.
    let opaque = quads(&[(
        json!({}),
        json!({"pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.0, 0.0, 0.1]}}),
    )]);
    let [r, _, _, _] = centre(&gpu, &opaque, front, false);
    assert!(r > 150, "{r}");
}

/// A 1x1 PNG image of `rgba`, added to `raw` as an image; returns the texture index.
fn texture(raw: &mut RawGltf, rgba: [u8; 4]) -> usize {
    let image = png_image(raw, &rgba, 1);
    raw.push("textures", json!({"source": image}))
}

/// A PNG image of `rgba` pixels, `width` wide (as many rows as they fill), added to `raw`;
/// returns the image index.
fn png_image(raw: &mut RawGltf, rgba: &[u8], width: u32) -> usize {
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        rgba,
        width,
        rgba.len() as u32 / (4 * width),
        image::ExtendedColorType::Rgba8,
    )
    .unwrap();
    embedded_image(raw, &png, "image/png")
}

/// Encoded image bytes added to `raw` as an image in a buffer view; returns the image index.
fn embedded_image(raw: &mut RawGltf, encoded: &[u8], mime_type: &str) -> usize {
    let accessor = raw.add_u8(encoded, "SCALAR", false);
    let view = raw.json["accessors"][accessor]["bufferView"].clone();
    raw.push("images", json!({"bufferView": view, "mimeType": mime_type}))
}

/// The centre pixel of one front-facing quad with `material`, tone mapping and exposure.
fn shaded(gpu: &Gpu, raw: &RawGltf, tone_map: ToneMap, exposure_ev: f32) -> [u8; 4] {
    let options = DrawOptions {
        tone_map,
        exposure_ev,
        ..Default::default()
    };
    centre_pixel(gpu, raw, Vec3::new(0.0, 0.0, 3.0), options)
}

#[test]
fn unlit_emissive_and_vertex_colours_give_hand_worked_pixels() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    // Unlit: the base colour as it is; linear (0.5, 0.25, 1) is sRGB (188, 137, 255).
    let mut unlit = quads(&[(
        json!({}),
        json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1.0, 1.0]},
        "extensions": {"KHR_materials_unlit": {}}}),
    )]);
    unlit.json["extensionsUsed"] = json!(["KHR_materials_unlit"]);
    let [r, g, b, _] = shaded(&gpu, &unlit, ToneMap::None, 0.0);
    assert!(
        r.abs_diff(188) <= 1 && g.abs_diff(137) <= 1 && b == 255,
        "{r} {g} {b}"
    );
    // Exposure scales before the tone curve: +1 EV doubles the linear value (0.25 -> 0.5).
    let [r, g, _, _] = shaded(&gpu, &unlit, ToneMap::None, 1.0);
    assert!(r == 255 && g.abs_diff(188) <= 1, "{r} {g}");
    // Emissive times KHR_materials_emissive_strength on a black, rough dielectric: about 0.5
    // red (the sky's faint reflection off a 4% Fresnel adds a little to every channel).
    let mut glow = quads(&[(
        json!({}),
        json!({"pbrMetallicRoughness": {"baseColorFactor": [0.0, 0.0, 0.0, 1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0},
        "emissiveFactor": [1.0, 0.0, 0.0], "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 0.5}}}),
    )]);
    glow.json["extensionsUsed"] = json!(["KHR_materials_emissive_strength"]);
    let [r, g, _, _] = shaded(&gpu, &glow, ToneMap::None, 0.0);
    assert!(r.abs_diff(188) <= 20 && g < 60, "{r} {g}");
    // COLOR_0 multiplies the base colour.
    let mut coloured = unlit.clone();
    let colors = coloured.add_f32(&[1.0, 0.0, 0.0, 1.0].repeat(4), "VEC4");
    coloured.json["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = json!(colors);
    let [r, g, b, _] = shaded(&gpu, &coloured, ToneMap::None, 0.0);
    assert!(r.abs_diff(188) <= 1 && g == 0 && b == 0, "{r} {g} {b}");
}

#[test]
fn metal_roughness_normal_occlusion_and_tone_maps_change_the_shading() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let pixel = |material: Value, textures: &[(&str, [u8; 4])], tone_map| {
        let mut raw = quads(&[(json!({}), material)]);
        let uvs = raw.add_f32(&[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], "VEC2");
        raw.json["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = json!(uvs);
        for (slot, rgba) in textures {
            let t = texture(&mut raw, *rgba);
            match *slot {
                "metallicRoughnessTexture" => {
                    raw.json["materials"][0]["pbrMetallicRoughness"][*slot] = json!({"index": t})
                }
                _ => raw.json["materials"][0][*slot] = json!({"index": t}),
            }
        }
        shaded(&gpu, &raw, tone_map, 0.0)
    };
    let grey = json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.5}});
    let metal = json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 1.0, "roughnessFactor": 0.5}});
    let plain = pixel(grey.clone(), &[], ToneMap::None);
    assert_ne!(plain, pixel(metal, &[], ToneMap::None), "metallic");
    // A metallic-roughness texture of (_, roughness 0.1, metal 1): like a smooth metal.
    assert_ne!(
        plain,
        pixel(
            grey.clone(),
            &[("metallicRoughnessTexture", [0, 25, 255, 255])],
            ToneMap::None
        )
    );
    // A normal map tilting the surface 45 degrees about Y changes its light.
    assert_ne!(
        plain,
        pixel(
            grey.clone(),
            &[("normalTexture", [218, 128, 218, 255])],
            ToneMap::None
        )
    );
    // Full occlusion removes the environment's light: darker.
    let occluded = pixel(
        grey.clone(),
        &[("occlusionTexture", [0, 0, 0, 255])],
        ToneMap::None,
    );
    assert!(occluded[0] < plain[0], "{occluded:?} vs {plain:?}");
    // The tone curves differ from each other and from none.
    let aces = pixel(grey.clone(), &[], ToneMap::Aces);
    let neutral = pixel(grey, &[], ToneMap::KhronosNeutral);
    assert_ne!(aces, neutral);
    assert_ne!(aces, plain);
}

#[test]
fn morph_targets_move_tangents_under_a_normal_map() {
    // A normal map tilting the normal toward +tangent; target 0 turns the tangent from +X to +Y,
    // so the surface leans another way and catches the light differently.
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let with_weight = |w: f32| {
        let mut raw = quads(&[(
            json!({}),
            json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.5}}),
        )]);
        let t = texture(&mut raw, [218, 128, 218, 255]);
        raw.json["materials"][0]["normalTexture"] = json!({"index": t});
        let uvs = raw.add_f32(&[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], "VEC2");
        let normals = raw.add_f32(&[0.0, 0.0, 1.0].repeat(4), "VEC3");
        let tangents = raw.add_f32(&[1.0, 0.0, 0.0, 1.0].repeat(4), "VEC4");
        let delta = raw.add_f32(&[-1.0, 1.0, 0.0].repeat(4), "VEC3");
        let attributes = &mut raw.json["meshes"][0]["primitives"][0]["attributes"];
        attributes["TEXCOORD_0"] = json!(uvs);
        attributes["NORMAL"] = json!(normals);
        attributes["TANGENT"] = json!(tangents);
        raw.json["meshes"][0]["primitives"][0]["targets"] = json!([{"TANGENT": delta}]);
        raw.json["meshes"][0]["weights"] = json!([w]);
        shaded(&gpu, &raw, ToneMap::None, 0.0)
    };
    assert_ne!(with_weight(0.0), with_weight(1.0));
}

#[test]
fn a_normal_texture_reads_its_own_texture_transform() {
    // A 2x1 normal map: flat on the left texel, tilted on the right; every vertex reads
    // (0.25, 0.5), the left texel's centre, unless the transform shifts it by 0.5 to the right.
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let render = |transform: Option<Value>| {
        let mut raw = quads(&[(
            json!({}),
            json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.5}}),
        )]);
        let image = png_image(&mut raw, &[128, 128, 255, 255, 218, 128, 218, 255], 2);
        raw.push("samplers", json!({"magFilter": 9728, "minFilter": 9728}));
        let t = raw.push("textures", json!({"source": image, "sampler": 0}));
        let mut normal = json!({"index": t});
        if let Some(tr) = transform {
            normal["extensions"] = json!({"KHR_texture_transform": tr});
            raw.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
        }
        raw.json["materials"][0]["normalTexture"] = normal;
        let uvs = raw.add_f32(&[0.25, 0.5].repeat(4), "VEC2");
        raw.json["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = json!(uvs);
        shaded(&gpu, &raw, ToneMap::None, 0.0)
    };
    let flat = render(None);
    assert_eq!(flat, render(Some(json!({"offset": [0.0, 0.0]}))));
    assert_ne!(flat, render(Some(json!({"offset": [0.5, 0.0]}))));
}

/// A 32x32 render of an unlit quad whose every vertex reads `uv` (or, with `span`, UVs from 0
/// to `span` across it) from a `width` x `height` base colour texture sampled by `sampler`.
fn sampled(
    gpu: &Gpu,
    (rgba, width, height): (&[u8], u32, u32),
    sampler: Value,
    uv: Option<[f32; 2]>,
    span: f32,
) -> Vec<u8> {
    let mut raw = quads(&[(
        json!({}),
        json!({"pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0]},
        "extensions": {"KHR_materials_unlit": {}}}),
    )]);
    raw.json["extensionsUsed"] = json!(["KHR_materials_unlit"]);
    assert_eq!(rgba.len() as u32, 4 * width * height);
    let image = png_image(&mut raw, rgba, width);
    raw.push("samplers", sampler);
    let t = raw.push("textures", json!({"source": image, "sampler": 0}));
    raw.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": t});
    let uvs: Vec<f32> = match uv {
        Some(uv) => uv.repeat(4),
        None => vec![0.0, span, span, span, span, 0.0, 0.0, 0.0],
    };
    let uvs = raw.add_f32(&uvs, "VEC2");
    raw.json["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = json!(uvs);
    let options = DrawOptions {
        tone_map: ToneMap::None,
        ..Default::default()
    };
    frame_pixels(gpu, &raw, Vec3::new(0.0, 0.0, 3.0), options)
}

/// The centre 8x8 pixels' red: mean and standard deviation.
fn centre_red(pixels: &[u8]) -> (f64, f64) {
    let reds: Vec<f64> = (12..20)
        .flat_map(|y| (12..20).map(move |x| f64::from(pixels[4 * (y * 32 + x)])))
        .collect();
    let mean = reds.iter().sum::<f64>() / reds.len() as f64;
    let var = reds.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / reds.len() as f64;
    (mean, var.sqrt())
}

#[test]
fn each_texture_is_sampled_as_its_sampler_says() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    // Two texels: red on the left, blue on the right.
    let red_blue: (&[u8], u32, u32) = (&[255, 0, 0, 255, 0, 0, 255, 255], 2, 1);
    const NEAREST: u32 = 9728;
    const LINEAR: u32 = 9729;
    let at = |wrap: u32, u: f32, mag: u32| {
        let sampler =
            json!({"wrapS": wrap, "wrapT": 33071, "magFilter": mag, "minFilter": NEAREST});
        let pixels = sampled(&gpu, red_blue, sampler, Some([u, 0.5]), 0.0);
        let at = 4 * (16 * 32 + 16);
        [pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]]
    };
    let (red, blue) = ([255, 0, 0, 255], [0, 0, 255, 255]);
    // REPEAT: 1.25 is 0.25, the red texel; 1.75 is 0.75, the blue one.
    assert_eq!(at(10497, 1.25, NEAREST), red);
    assert_eq!(at(10497, 1.75, NEAREST), blue);
    // CLAMP_TO_EDGE: past 1 is the right edge, blue.
    assert_eq!(at(33071, 1.25, NEAREST), blue);
    // MIRRORED_REPEAT: 1.75 mirrors to 0.25, red.
    assert_eq!(at(33648, 1.75, NEAREST), red);
    // Magnified at u = 0.45: NEAREST is the red texel; LINEAR is 60% red and 40% blue in
    // linear light, sRGB (203, 0, 170).
    assert_eq!(at(33071, 0.45, NEAREST), red);
    let [r, g, b, _] = at(33071, 0.45, LINEAR);
    assert!(
        r.abs_diff(203) <= 3 && g == 0 && b.abs_diff(170) <= 3,
        "{r} {g} {b}"
    );

    // Minified: a 64x64 black-and-white checker repeated 32 times across the quad. With mip
    // levels (averaged in linear light) the centre is half the light, sRGB 188; glTF's
    // NEAREST minification reads the full-size image, one black or white texel.
    let checker: Vec<u8> = (0..64 * 64)
        .flat_map(|i| {
            let v = if (i % 64 + i / 64) % 2 == 0 { 0 } else { 255 };
            [v, v, v, 255]
        })
        .collect();
    let tile = (&checker[..], 64, 64);
    let mipmapped = json!({"magFilter": LINEAR, "minFilter": 9987});
    let (mean, spread) = centre_red(&sampled(&gpu, tile, mipmapped, None, 32.0));
    assert!(
        (mean - 188.0).abs() <= 8.0 && spread < 6.0,
        "a mipmapped minified checker: mean {mean:.1}, spread {spread:.1}"
    );
    // Without mip levels the texels alias: the pixels scatter far apart.
    let (mean, spread) = centre_red(&sampled(
        &gpu,
        tile,
        json!({"minFilter": NEAREST}),
        None,
        32.0,
    ));
    assert!(
        spread > 30.0,
        "NEAREST minification: mean {mean:.1}, spread {spread:.1}"
    );
}

#[test]
fn ext_texture_webp_images_are_decoded_and_preferred_over_their_fallback() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let mut webp = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut webp)
        .encode(&[0, 255, 0, 255], 1, 1, image::ExtendedColorType::Rgba8)
        .unwrap();
    // An unlit white quad whose base colour is a green WebP, with a red PNG fallback.
    let file = |fallback: bool, webp_source: Option<usize>| {
        let mut raw = quads(&[(
            json!({}),
            json!({"pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0]},
            "extensions": {"KHR_materials_unlit": {}}}),
        )]);
        let png = png_image(&mut raw, &[255, 0, 0, 255], 1);
        let image = embedded_image(&mut raw, &webp, "image/webp");
        let mut texture =
            json!({"extensions": {"EXT_texture_webp": {"source": webp_source.unwrap_or(image)}}});
        if fallback {
            texture["source"] = json!(png);
            raw.json["extensionsUsed"] = json!(["KHR_materials_unlit", "EXT_texture_webp"]);
        } else {
            raw.json["extensionsUsed"] = json!(["KHR_materials_unlit", "EXT_texture_webp"]);
            raw.json["extensionsRequired"] = json!(["EXT_texture_webp"]);
        }
        let t = raw.push("textures", texture);
        raw.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": t});
        raw
    };
    let green = [0, 255, 0, 255];
    assert_eq!(shaded(&gpu, &file(true, None), ToneMap::None, 0.0), green);
    // Required, without a fallback: it loads and draws the WebP.
    assert_eq!(shaded(&gpu, &file(false, None), ToneMap::None, 0.0), green);
    // A WebP source that names no image: a warning at the texture, drawn without it (white).
    let broken = file(false, Some(99));
    let c = import::load_bytes(&broken.to_glb(), Path::new("webp.glb")).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.to_string().contains("/textures/0")
                && w.to_string()
                    .contains("EXT_texture_webp's source 99 names no image")),
        "{:?}",
        c.warnings
    );
    assert_eq!(
        shaded(&gpu, &broken, ToneMap::None, 0.0),
        [255, 255, 255, 255]
    );
}
