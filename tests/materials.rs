//! Materials as glTF draws them: single-sided faces culled, the winding flipped under a negative
//! determinant (NegativeScaleTest's pattern), double-sided ones seen from behind, MASK cut-outs
//! and BLEND drawn over what is opaque.

mod common;

use std::path::Path;

use common::RawGltf;
use glam::Vec3;
use serde_json::{Value, json};
use skinscope::draw::headless::{CameraSpec, FrameRequest, render_frame};
use skinscope::import;
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::DrawOptions;

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

/// The centre pixel of a render seen from `eye` (looking at the origin).
fn centre(gpu: &Gpu, raw: &RawGltf, eye: Vec3, silhouette: bool) -> [u8; 4] {
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
            silhouette,
            grid: false,
            background: [0.0; 3],
            ..Default::default()
        },
        ..Default::default()
    };
    let pixels = render_frame(gpu, &c, &request).unwrap();
    let at = 4 * (16 * 32 + 16);
    [pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]]
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
