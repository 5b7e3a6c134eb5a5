//! Shadows on lavapipe: a plate's shadow falls where the key light projects it, with the
//! ground's colour worked by hand in and out of it; a box resting on the ground darkens the
//! ground beside it by the contact darkening's own taps; the casters are skinned by the skin pass
//! the shaded pass reads (or, where the user chose the vertex shader, in their own).

use crate::common;

use std::path::Path;

use common::RawGltf;
use glam::Vec3;
use serde_json::json;
use skinscope::character::Character;
use skinscope::debug::colors::srgb8;
use skinscope::draw::headless::{CameraSpec, FrameRequest, render_frame};
use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, SkinPass, ToneMap, View};

fn gpu() -> Gpu {
    Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"))
}

/// A box from `lo` to `hi`, skinned to one joint at the origin (identity inverse bind).
fn box_character(lo: Vec3, hi: Vec3) -> Character {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "root"}));
    raw.add_skin(&[0], &[glam::Mat4::IDENTITY]);
    let mut positions = Vec::new();
    for corner in 0..8 {
        let pick = |bit: u32, l: f32, h: f32| if corner & bit == 0 { l } else { h };
        positions.extend([
            pick(1, lo.x, hi.x),
            pick(2, lo.y, hi.y),
            pick(4, lo.z, hi.z),
        ]);
    }
    // Each face as two triangles, counter-clockwise seen from outside.
    let faces: [[u16; 4]; 6] = [
        [0, 2, 6, 4], // -x
        [1, 5, 7, 3], // +x
        [0, 4, 5, 1], // -y
        [2, 3, 7, 6], // +y
        [0, 1, 3, 2], // -z
        [4, 6, 7, 5], // +z
    ];
    let indices: Vec<u16> = faces
        .iter()
        .flat_map(|[a, b, c, d]| [*a, *b, *c, *a, *c, *d])
        .collect();
    let positions = raw.add_f32(&positions, "VEC3");
    let joints = raw.add_u16(&[0; 32], "VEC4");
    let weights = raw.add_f32(&[1.0, 0.0, 0.0, 0.0].repeat(8), "VEC4");
    let indices = raw.add_u16(&indices, "SCALAR");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {
        "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}, "indices": indices}]}));
    raw.add_node(json!({"name": "box", "mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(1);
    skinscope::import::load_bytes(&raw.to_glb(), Path::new("box.glb")).unwrap()
}

const SIZE: (u32, u32) = (320, 240);

fn camera(eye: Vec3) -> (CameraSpec, Camera) {
    let (near, far) = (0.5, 10.0);
    let spec = CameraSpec::Explicit {
        eye,
        target: Some(Vec3::ZERO),
        fov_y_degrees: 45.0,
        near: Some(near),
        far: Some(far),
    };
    (spec, Camera::look_at(eye, Vec3::ZERO, 45.0, near, far))
}

/// The box drawn with shadows, tone mapping off (the colours stay as the shaders light them),
/// seen from `eye`; and a function giving the sRGB pixel where a world point falls.
fn shadowed(c: &Character, eye: Vec3) -> impl Fn(Vec3) -> [u8; 3] {
    let (spec, cam) = camera(eye);
    let request = FrameRequest {
        size: SIZE,
        camera: spec,
        options: DrawOptions {
            shadows: true,
            tone_map: ToneMap::None,
            ..Default::default()
        },
        ..Default::default()
    };
    let pixels = render_frame(&gpu(), c, &request).unwrap();
    let clip_from_world = cam.clip_from_world(SIZE.0 as f32 / SIZE.1 as f32);
    move |world: Vec3| {
        let ndc = clip_from_world.project_point3(world);
        let x = ((ndc.x + 1.0) * 0.5 * SIZE.0 as f32) as usize;
        let y = ((1.0 - ndc.y) * 0.5 * SIZE.1 as f32) as usize;
        assert!(
            x < SIZE.0 as usize && y < SIZE.1 as usize,
            "{world} is off screen"
        );
        let at = (y * SIZE.0 as usize + x) * 4;
        [pixels[at], pixels[at + 1], pixels[at + 2]]
    }
}

/// The ground's linear colour worked by hand (`ground.wgsl`): albedo (0.45, 0.45, 0.47) under
/// the key light (travelling along (-0.4, -1, -0.6), intensity 2.5) times `lit`, and the sky's
/// irradiance straight up (0.4 of the horizon's (0.9, 0.88, 0.85) and 0.6 of the zenith's
/// (0.35, 0.5, 0.8)) times one less 0.8 of `occlusion`.
fn ground_color(lit: f32, occlusion: f32) -> [u8; 3] {
    let albedo = Vec3::new(0.45, 0.45, 0.47);
    let cos = 1.0 / Vec3::new(-0.4, -1.0, -0.6).length();
    let direct = albedo / std::f32::consts::PI * 2.5 * cos * lit;
    let sky = Vec3::new(0.9, 0.88, 0.85) * 0.4 + Vec3::new(0.35, 0.5, 0.8) * 0.6;
    let c = direct + albedo * sky * (1.0 - 0.8 * occlusion);
    [srgb8(c.x), srgb8(c.y), srgb8(c.z)]
}

fn assert_near(what: &str, got: [u8; 3], want: [u8; 3], tolerance: u8) {
    let off = got.iter().zip(&want).map(|(a, b)| a.abs_diff(*b)).max();
    assert!(
        off.unwrap_or(0) <= tolerance,
        "{what}: {got:?}, worked by hand {want:?}"
    );
}

#[test]
fn a_plates_shadow_falls_where_the_key_light_projects_it() {
    // A thin 0.4 m plate 0.3 m up: the key light moves its shadow by (-0.4, -0.6) * 0.3 on the
    // ground, to x in -0.32..0.08, z in -0.38..0.02 (its top, 2 cm higher, a little further).
    let plate = box_character(Vec3::new(-0.2, 0.3, -0.2), Vec3::new(0.2, 0.32, 0.2));
    let pixel = shadowed(&plate, Vec3::new(-1.5, 3.0, -2.0));
    let (lit, dark) = (ground_color(1.0, 0.0), ground_color(0.0, 0.0));
    assert!(lit[0] > dark[0] + 40, "{lit:?} {dark:?}");
    for (x, z) in [(-0.12, -0.18), (-0.26, -0.32), (-0.25, -0.05), (0.0, -0.3)] {
        assert_near(
            &format!("in the shadow at ({x}, {z})"),
            pixel(Vec3::new(x, 0.0, z)),
            dark,
            3,
        );
    }
    // 6 cm outside each edge of the shadow, and far from it, the ground is lit.
    for (x, z) in [(-0.39, -0.18), (-0.12, -0.45), (0.14, -0.25), (-0.45, 0.2)] {
        assert_near(
            &format!("out of the shadow at ({x}, {z})"),
            pixel(Vec3::new(x, 0.0, z)),
            lit,
            3,
        );
    }
}

#[test]
fn a_box_resting_on_the_ground_darkens_the_ground_beside_it() {
    // 0.4 m box on the ground: the contact radius is 0.06 of its bounds' diagonal with their
    // 5% margin each side.
    let lo = Vec3::new(-0.2, 0.0, -0.2);
    let hi = Vec3::new(0.2, 0.4, 0.2);
    let boxed = box_character(lo, hi);
    let pixel = shadowed(&boxed, Vec3::new(1.5, 2.5, 1.0));
    let radius = (hi - lo).length() * 1.1 * 0.06;
    // One centimetre off the +x face, on its lit side: the darkening's 16 taps (a golden-angle
    // disk of the radius) that land under the box see it at height zero, each closing
    // 1 - distance / radius; the sum is scaled by three.
    let near = Vec3::new(0.21, 0.0, 0.0);
    let occlusion: f32 = (0..16)
        .map(|i| {
            let angle = i as f32 * 2.39996;
            let r = radius * ((i as f32 + 0.5) / 16.0).sqrt();
            let under = near.x + angle.cos() * r < hi.x;
            if under { 1.0 - r / radius } else { 0.0 }
        })
        .sum::<f32>()
        / 16.0
        * 3.0;
    assert!(occlusion > 0.2 && occlusion < 1.0, "{occlusion}");
    assert_near(
        "beside the box",
        pixel(near),
        ground_color(1.0, occlusion.min(1.0)),
        3,
    );
    // Beyond the radius, nothing darkens it.
    assert_near(
        "a radius and more away",
        pixel(Vec3::new(0.2 + 2.0 * radius, 0.0, 0.0)),
        ground_color(1.0, 0.0),
        3,
    );
}

/// Paints one frame of `c` with `options` and returns what `paint` reports.
fn paint(c: &Character, options: &DrawOptions) -> skinscope::render::renderer::Painted {
    let gpu = gpu();
    let capacity = skinscope::draw::capacity(c, 1);
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, c, COLOR_FORMAT, capacity);
    let mut pose = skinscope::pose::CharacterPose::new(c);
    pose.evaluate(c, &skinscope::pose::PoseRequest::default())
        .unwrap();
    let (_, cam) = camera(Vec3::new(1.5, 2.5, 1.0));
    renderer.prepare(
        View::Main,
        &gpu.queue,
        &FrameInput {
            posed: skinscope::draw::extract(&pose, &mut Vec::new()),
            camera: &cam,
            aspect: 1.0,
            bones: &[],
            options,
        },
    );
    let target = Offscreen::new(&gpu.device, (64, 64));
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let painted = renderer.paint(
        View::Main,
        &gpu.device,
        &mut encoder,
        &target.view,
        (64, 64),
        options,
    );
    gpu.queue.submit([encoder.finish()]);
    assert!(pollster::block_on(scope.pop()).is_none());
    painted
}

#[test]
fn the_casters_and_the_shaded_pass_read_one_skinning() {
    let boxed = box_character(Vec3::new(-0.2, 0.0, -0.2), Vec3::new(0.2, 0.4, 0.2));
    let shadows = DrawOptions {
        shadows: true,
        ..Default::default()
    };
    let painted = paint(&boxed, &shadows);
    assert_eq!(painted.skinned_in, SkinPass::Compute);
    assert!(painted.skin_pass_ran);
    assert_eq!(painted.shadows_from, Some(SkinPass::Compute));
    assert_eq!(
        painted.why,
        "the shadows and the shaded pass read one skinning"
    );
    // Where the user chose the vertex shader, the casters are skinned in theirs.
    let vertex = DrawOptions {
        skin_pass: SkinPass::Vertex,
        ..shadows
    };
    let painted = paint(&boxed, &vertex);
    assert_eq!(painted.skinned_in, SkinPass::Vertex);
    assert_eq!(painted.shadows_from, Some(SkinPass::Vertex));
    // On a discrete GPU `Auto` skins one pass in the vertex shader; shadows send it to the
    // skin pass. Without them nothing casts.
    let discrete = DrawOptions {
        adapter: skinscope::display::AdapterKind::DiscreteGpu,
        ..Default::default()
    };
    let painted = paint(&boxed, &discrete);
    assert_eq!(painted.shadows_from, None);
    assert_eq!(painted.skinned_in, SkinPass::Vertex);
    let painted = paint(
        &boxed,
        &DrawOptions {
            shadows: true,
            ..discrete
        },
    );
    assert_eq!(painted.skinned_in, SkinPass::Compute);
    assert_eq!(painted.shadows_from, Some(SkinPass::Compute));
}

#[test]
fn a_walking_characters_shadow_lies_on_the_ground() {
    // CesiumMan walking: the ground has pixels of its colour in full shadow (the key light's
    // whole share gone), beside the open ground's.
    let man = skinscope::import::load(&common::shared("CesiumMan/CesiumMan.glb")).unwrap();
    let request = FrameRequest {
        size: (192, 256),
        pose: skinscope::pose::PoseRequest::clip(0, 1.1),
        options: DrawOptions {
            shadows: true,
            tone_map: ToneMap::None,
            ..Default::default()
        },
        ..Default::default()
    };
    let pixels = render_frame(&gpu(), &man, &request).unwrap();
    let (lit, dark) = (ground_color(1.0, 0.0), ground_color(0.0, 0.0));
    let count = |want: [u8; 3]| {
        pixels
            .chunks_exact(4)
            .filter(|p| p[..3].iter().zip(&want).all(|(a, b)| a.abs_diff(*b) <= 2))
            .count()
    };
    // His shadow is a few hundred pixels of a 192x256 frame; the open ground, thousands.
    assert!(count(dark) > 200, "{} shadowed pixels", count(dark));
    assert!(count(lit) > 2000, "{} lit ground pixels", count(lit));
}
