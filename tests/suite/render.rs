//! The renderer on whatever adapter exists (lavapipe in CI): GPU skinning equals the CPU
//! reference, silhouettes match CPU-projected triangles, bind and identity palettes agree where
//! the file is consistent, paused frames upload nothing, and golden images hold.
//!
//! Regenerate the golden images (after a deliberate change to how things look) with
//! `SKINSCOPE_BLESS=1 cargo test --test suite render::golden`.

use crate::common;

use std::path::{Path, PathBuf};

use common::{RawGltf, shared};
use glam::{Mat4, Vec3};
use skinscope::character::Character;
use skinscope::draw::headless::{self, CameraSpec, FrameRequest, render_frame};
use skinscope::import;
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest, TimeWrap};
use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::COLOR_FORMAT;
use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
use skinscope::render::skin_check::{CheckVertex, skin_on_gpu};

fn gpu() -> Gpu {
    Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"))
}

fn load(rel: &str) -> Character {
    import::load(&shared(rel)).unwrap_or_else(|e| panic!("{e}"))
}

fn clip_named(c: &Character, name: &str) -> usize {
    c.clips
        .iter()
        .position(|clip| clip.clip.name() == name)
        .unwrap()
}

#[test]
fn gpu_skinning_equals_the_cpu_reference_on_real_characters() {
    let gpu = gpu();
    for (file, times) in [
        ("Fox/Fox.glb", [0.1, 0.9, 2.7]),
        ("CesiumMan/CesiumMan.glb", [0.0, 0.7, 1.3]),
        ("RiggedFigure/RiggedFigure.glb", [0.2, 0.6, 1.1]),
    ] {
        let c = load(file);
        let mut pose = CharacterPose::new(&c);
        for t in times {
            pose.evaluate(&c, &PoseRequest::at(Some(0), t).with_wrap(TimeWrap::Clamp))
                .unwrap();
            let (min, max) = pose.world_bounds(&c).unwrap();
            let tolerance = 1e-5 * (max - min).length();
            let mut compared = 0;
            for (i, instance) in c.instances.iter().enumerate() {
                let Some(palette) = pose.instance_palette(i) else {
                    continue;
                };
                for primitive in &c.meshes[instance.mesh].primitives {
                    let Some(s) = &primitive.skinning else {
                        continue;
                    };
                    let vertices: Vec<CheckVertex> = (0..primitive.positions.len())
                        .map(|v| {
                            CheckVertex::new(
                                primitive.positions[v],
                                primitive.normals[v],
                                s.joints[v].map(u32::from),
                                s.weights[v],
                            )
                        })
                        .collect();
                    let on_gpu = skin_on_gpu(&gpu, palette, &vertices).unwrap();
                    for (v, (gpu_p, _)) in on_gpu.iter().enumerate() {
                        // Compare in world space, where the tolerance is measured.
                        let cpu = skinscope::anim::skin_position(
                            palette,
                            vertices[v].joints,
                            s.weights[v],
                            primitive.positions[v],
                        )
                        .unwrap();
                        let w = pose.world_from_mesh[i];
                        let d = w.transform_point3(*gpu_p).distance(w.transform_point3(cpu));
                        assert!(d <= tolerance, "{file} t={t} vertex {v}: {d} > {tolerance}");
                        compared += 1;
                    }
                }
            }
            assert_eq!(compared, c.vertex_count(), "{file}");
        }
    }
}

/// CPU coverage of triangles projected with `clip_from_world`: a pixel is in when its centre is
/// inside (or on the edge of) a triangle in front of the camera.
fn cpu_silhouette(
    c: &Character,
    pose: &CharacterPose,
    clip_from_world: Mat4,
    size: (u32, u32),
) -> Vec<bool> {
    let (w, h) = (size.0 as usize, size.1 as usize);
    let mut mask = vec![false; w * h];
    let world = pose.world_positions(c);
    let mut offset = 0;
    for instance in &c.instances {
        for primitive in &c.meshes[instance.mesh].primitives {
            let n = primitive.positions.len();
            let screen: Vec<Option<(f32, f32)>> = world[offset..offset + n]
                .iter()
                .map(|p| {
                    let clip = clip_from_world * p.extend(1.0);
                    (clip.w > 0.0).then(|| {
                        let ndc = clip.truncate() / clip.w;
                        (
                            (ndc.x + 1.0) * 0.5 * w as f32,
                            (1.0 - ndc.y) * 0.5 * h as f32,
                        )
                    })
                })
                .collect();
            let indices: Vec<u32> = primitive
                .indices
                .clone()
                .unwrap_or_else(|| (0..n as u32).collect());
            for t in indices.chunks_exact(3) {
                let [Some(a), Some(b), Some(c)] = [0, 1, 2].map(|k| screen[t[k] as usize]) else {
                    continue;
                };
                let edge = |p: (f32, f32), q: (f32, f32), x: f32, y: f32| {
                    (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
                };
                let (x0, x1) = (
                    a.0.min(b.0).min(c.0).floor().max(0.0) as usize,
                    a.0.max(b.0).max(c.0).ceil().min(w as f32) as usize,
                );
                let (y0, y1) = (
                    a.1.min(b.1).min(c.1).floor().max(0.0) as usize,
                    a.1.max(b.1).max(c.1).ceil().min(h as f32) as usize,
                );
                for y in y0..y1 {
                    for x in x0..x1 {
                        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                        let e = [edge(a, b, px, py), edge(b, c, px, py), edge(c, a, px, py)];
                        if e.iter().all(|&v| v >= 0.0) || e.iter().all(|&v| v <= 0.0) {
                            mask[y * w + x] = true;
                        }
                    }
                }
            }
            offset += n;
        }
    }
    mask
}

/// The GPU's silhouette of `request` against the CPU-projected triangles of the same pose and
/// camera: intersection over union, the pixels either covers, and the pose.
fn silhouette_iou(gpu: &Gpu, c: &Character, request: &FrameRequest) -> (f64, usize, CharacterPose) {
    let pixels = render_frame(gpu, c, request).unwrap();
    let gpu_mask: Vec<bool> = pixels.chunks_exact(4).map(|p| p[0] > 127).collect();
    let mut pose = CharacterPose::new(c);
    let camera = headless::pose_and_frame(c, &mut pose, request).unwrap();
    let aspect = request.size.0 as f32 / request.size.1 as f32;
    let cpu_mask = cpu_silhouette(c, &pose, camera.clip_from_world(aspect), request.size);
    let both = gpu_mask
        .iter()
        .zip(&cpu_mask)
        .filter(|(a, b)| **a && **b)
        .count();
    let either = gpu_mask
        .iter()
        .zip(&cpu_mask)
        .filter(|(a, b)| **a || **b)
        .count();
    (both as f64 / either.max(1) as f64, either, pose)
}

#[test]
fn fox_silhouette_matches_cpu_projected_triangles() {
    let gpu = gpu();
    let c = load("Fox/Fox.glb");
    // Seen from the side, where the running fox fills the frame.
    let mut rest = CharacterPose::new(&c);
    rest.evaluate(&c, &PoseRequest::rest(PaletteMode::Bind))
        .unwrap();
    let (min, max) = rest.world_bounds(&c).unwrap();
    let center = (min + max) * 0.5;
    let request = FrameRequest {
        size: (320, 240),
        pose: PoseRequest::clip(clip_named(&c, "Run"), 0.4),
        camera: CameraSpec::Explicit {
            eye: center + Vec3::new(2.2 * (max - min).length(), 0.0, 0.0),
            target: Some(center),
            fov_y_degrees: 30.0,
            near: None,
            far: None,
        },
        options: DrawOptions {
            silhouette: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let pixels = render_frame(&gpu, &c, &request).unwrap();
    let (iou, either, _) = silhouette_iou(&gpu, &c, &request);
    assert!(
        either > 320 * 240 / 20,
        "the fox covers only {either} pixels"
    );
    assert!(iou >= 0.99, "IoU {iou} of {either} pixels");
    // Background and silhouette only: pure black or white.
    assert!(
        pixels
            .chunks_exact(4)
            .all(|p| (p[0] == 0 || p[0] == 255) && p[0] == p[1] && p[1] == p[2])
    );
}

#[test]
fn bind_and_identity_palettes_agree_only_where_the_file_is_consistent() {
    let gpu = gpu();
    let difference = |c: &Character| headless::bind_identity_difference(&gpu, c, 200).unwrap();
    for file in ["Fox/Fox.glb", "CesiumMan/CesiumMan.glb"] {
        let c = load(file);
        let f = difference(&c);
        assert!(f < 0.001, "{file}: {f} of pixels differ");
    }
    // RiggedSimple's vertices are authored in another node's space: its bind palette is the
    // inverse of its Armature rotation, not the identity (the file's authoring, not a bug). That
    // rotation is -90 degrees about the cylinder's own axis, so the two renders look alike.
    let c = load("RiggedSimple/RiggedSimple.glb");
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::rest(PaletteMode::Bind))
        .unwrap();
    let bind = pose.instance_palette(0).unwrap().to_vec();
    let axis_turn = Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
    assert!(
        bind.iter().all(|m| m.abs_diff_eq(axis_turn, 1e-4)),
        "{bind:?}"
    );
    let f = difference(&c);
    assert!(f < 0.01, "RiggedSimple: {f} of pixels differ");
    // Fox with one inverse bind matrix deliberately broken (the head's moved up by a unit).
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let ibm = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let mut matrices: Vec<f32> = raw
        .read(ibm)
        .into_iter()
        .flatten()
        .map(|v| v as f32)
        .collect();
    let head = 6;
    let m = Mat4::from_cols_slice(&matrices[16 * head..16 * head + 16]);
    let broken = Mat4::from_translation(Vec3::new(0.0, -40.0, 0.0)) * m;
    matrices[16 * head..16 * head + 16].copy_from_slice(&broken.to_cols_array());
    let new = raw.add_f32(&matrices, "MAT4");
    raw.json["skins"][0]["inverseBindMatrices"] = serde_json::json!(new);
    let c = import::load_bytes(&raw.to_glb(), Path::new("broken-fox.glb")).unwrap();
    let f = difference(&c);
    assert!(f > 0.002, "broken inverse binds: only {f} of pixels differ");
}

fn still_camera() -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.0, 4.0), Vec3::ZERO, 45.0, 0.1, 20.0)
}

/// Prepares `view` for `pose` and returns the palette bytes it uploaded.
fn prepare(renderer: &mut Renderer, gpu: &Gpu, view: View, pose: &CharacterPose) -> u64 {
    prepare_with(renderer, gpu, view, pose, &DrawOptions::default())
}

/// `prepare` with `options`.
fn prepare_with(
    renderer: &mut Renderer,
    gpu: &Gpu,
    view: View,
    pose: &CharacterPose,
    options: &DrawOptions,
) -> u64 {
    renderer
        .prepare(
            view,
            &gpu.queue,
            &FrameInput {
                posed: skinscope::draw::extract(pose, &mut Vec::new()),
                camera: &still_camera(),
                aspect: 1.0,
                bones: &[],
                options,
            },
        )
        .palette_bytes
}

fn posed_at(c: &Character, t: f32) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &PoseRequest::clip(0, t)).unwrap();
    pose
}

/// Prepares and paints one frame of `pose` with `options` into a small target; returns the
/// pipelines the renderer has compiled so far.
fn paint_counting(
    renderer: &mut Renderer,
    gpu: &Gpu,
    pose: &CharacterPose,
    options: &DrawOptions,
) -> u32 {
    prepare_with(renderer, gpu, View::Main, pose, options);
    let target = skinscope::render::offscreen::Offscreen::new(&gpu.device, (32, 32));
    skinscope::draw::headless::paint_main(gpu, renderer, &target, options);
    renderer.stats().pipelines_built
}

#[test]
fn pipelines_are_compiled_when_a_frame_first_draws_with_them_and_only_then() {
    use skinscope::display::SkinPass;
    let gpu = gpu();
    // One primitive, so one kind of faces: one pipeline for each look drawn.
    let c = load("CesiumMan/CesiumMan.glb");
    assert_eq!(
        c.meshes.iter().map(|m| m.primitives.len()).sum::<usize>(),
        1
    );
    let capacity = skinscope::draw::capacity(&c, 1);
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity);
    assert_eq!(
        renderer.stats().pipelines_built,
        0,
        "nothing before the first frame"
    );
    let pose = posed_at(&c, 0.5);
    let vertex = DrawOptions {
        skin_pass: SkinPass::Vertex,
        ..DrawOptions::default()
    };
    let silhouette = DrawOptions {
        silhouette: true,
        ..vertex
    };
    let wireframe = DrawOptions {
        wireframe: true,
        ..vertex
    };
    let compute = DrawOptions {
        skin_pass: SkinPass::Compute,
        ..wireframe
    };
    let mut frame = |options: &DrawOptions| paint_counting(&mut renderer, &gpu, &pose, options);
    // The silhouette alone (no grid, a flat background).
    assert_eq!(frame(&silhouette), 1);
    assert_eq!(frame(&silhouette), 1);
    // Shaded, and the grid's lines.
    assert_eq!(frame(&vertex), 3);
    // The wireframe over it.
    assert_eq!(frame(&wireframe), 4);
    // Skinned in the skin pass: its compute pipeline, and the shaded and wireframe pipelines
    // that read its output.
    assert_eq!(frame(&compute), 7);
    // Nothing again, whatever is drawn of what was drawn before.
    for options in [&silhouette, &vertex, &wireframe, &compute, &vertex] {
        assert_eq!(frame(options), 7);
    }
}

#[test]
fn paused_frames_upload_no_palette_bytes() {
    let gpu = gpu();
    let c = load("CesiumMan/CesiumMan.glb");
    let capacity = skinscope::draw::capacity(&c, 1);
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity);
    let palette_bytes = (1 + 19) * 64;
    let mut frame = |pose: &CharacterPose| prepare(&mut renderer, &gpu, View::Main, pose);
    let pose = posed_at(&c, 0.5);
    // Each of the two frames in flight gets the palette once; after that, nothing while paused.
    assert_eq!(frame(&pose), palette_bytes);
    assert_eq!(frame(&pose), palette_bytes);
    for _ in 0..5 {
        assert_eq!(frame(&pose), 0);
    }
    assert_eq!(frame(&posed_at(&c, 0.6)), palette_bytes);
}

#[test]
fn a_paused_split_view_uploads_nothing() {
    // The split view draws two palettes a frame (animated on the left, bind on the right). Each
    // view has its own palette slot, so once both are written a paused frame uploads nothing.
    let gpu = gpu();
    let c = load("CesiumMan/CesiumMan.glb");
    let capacity = skinscope::draw::capacity(&c, 1);
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity);
    let palette_bytes = (1 + 19) * 64;
    let animated = posed_at(&c, 0.5);
    let mut bind = CharacterPose::new(&c);
    bind.evaluate(&c, &PoseRequest::rest(PaletteMode::Bind))
        .unwrap();
    assert_ne!(animated.palette, bind.palette);
    let frame = |renderer: &mut Renderer| {
        prepare(renderer, &gpu, View::Main, &animated)
            + prepare(renderer, &gpu, View::Compared, &bind)
    };
    assert_eq!(frame(&mut renderer), 2 * palette_bytes);
    assert_eq!(frame(&mut renderer), 2 * palette_bytes);
    for _ in 0..5 {
        assert_eq!(frame(&mut renderer), 0, "a paused split view");
    }
    // Each view draws with its own camera and palette: both paint without a validation error.
    let target = skinscope::render::offscreen::Offscreen::new(&gpu.device, (64, 32));
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for (view, x) in [(View::Main, 0.0), (View::Compared, 32.0)] {
        let options = DrawOptions {
            viewport: Some([x, 0.0, 32.0, 32.0]),
            clear: view == View::Main,
            ..Default::default()
        };
        renderer.paint(
            view,
            &gpu.device,
            &mut encoder,
            &target.view,
            (64, 32),
            &options,
        );
    }
    gpu.queue.submit([encoder.finish()]);
    assert!(pollster::block_on(scope.pop()).is_none());
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Compares with a golden image: mean absolute difference at most 1.5 (of 255) per channel, and
/// at most 1% of pixels off by more than 24 in a channel (edges rasterised a little differently
/// by another GPU or driver).
fn check_golden(name: &str, size: (u32, u32), pixels: &[u8]) {
    let path = golden_path(name);
    if std::env::var_os("SKINSCOPE_BLESS").is_some() {
        skinscope::image_file::write_png(&path, size, pixels).unwrap();
        return;
    }
    let golden = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; regenerate with SKINSCOPE_BLESS=1", path.display()))
        .to_rgba8();
    assert_eq!(golden.dimensions(), size, "{name}");
    let golden = golden.into_raw();
    let total: u64 = golden
        .iter()
        .zip(pixels)
        .map(|(a, b)| a.abs_diff(*b) as u64)
        .sum();
    let mean = total as f64 / golden.len() as f64;
    let far_off = golden
        .chunks_exact(4)
        .zip(pixels.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count() as f64
        / (golden.len() / 4) as f64;
    if mean > 1.5 || far_off > 0.01 {
        let failed = std::env::temp_dir().join(format!("skinscope-failed-{name}"));
        skinscope::image_file::write_png(&failed, size, pixels).unwrap();
        panic!(
            "{name}: mean difference {mean:.3}, {:.2}% of pixels far off; this run's image is {}",
            far_off * 100.0,
            failed.display()
        );
    }
}

#[test]
fn golden_images() {
    let gpu = gpu();
    let fox = load("Fox/Fox.glb");
    let walk = FrameRequest {
        size: (256, 192),
        pose: PoseRequest::clip(clip_named(&fox, "Walk"), 0.3),
        options: DrawOptions {
            bones: true,
            ..Default::default()
        },
        ..Default::default()
    };
    check_golden(
        "fox_walk_0.3s_bones.png",
        walk.size,
        &render_frame(&gpu, &fox, &walk).unwrap(),
    );
    let man = load("CesiumMan/CesiumMan.glb");
    let wire = FrameRequest {
        size: (192, 256),
        pose: PoseRequest::clip(0, 1.1),
        options: DrawOptions {
            wireframe: true,
            ..Default::default()
        },
        ..Default::default()
    };
    check_golden(
        "cesiumman_1.1s_wireframe.png",
        wire.size,
        &render_frame(&gpu, &man, &wire).unwrap(),
    );
    // The shaded path: base colour texture, metallic-roughness, lights and tone mapping.
    let shaded = FrameRequest {
        size: (192, 256),
        pose: PoseRequest::clip(0, 1.1),
        ..Default::default()
    };
    check_golden(
        "cesiumman_1.1s_shaded.png",
        shaded.size,
        &render_frame(&gpu, &man, &shaded).unwrap(),
    );
    // The same path through a gltfpack'd file (quantized, meshopt-compressed, texture transform).
    let fox_qc = load("../gltf-compressed/Fox_qc.glb");
    let walk_qc = FrameRequest {
        size: (256, 192),
        pose: PoseRequest::clip(clip_named(&fox_qc, "Walk"), 0.3),
        ..Default::default()
    };
    check_golden(
        "fox_qc_walk_0.3s_shaded.png",
        walk_qc.size,
        &render_frame(&gpu, &fox_qc, &walk_qc).unwrap(),
    );
    // Two primitives, two materials, one morph target at its default weight.
    let prims = load("MorphPrimitivesTest/MorphPrimitivesTest.glb");
    let morphed = FrameRequest {
        size: (192, 192),
        pose: PoseRequest::default(),
        ..Default::default()
    };
    check_golden(
        "morphprimitives_shaded.png",
        morphed.size,
        &render_frame(&gpu, &prims, &morphed).unwrap(),
    );
    // The key light's shadow and the contact darkening on the solid ground (`render --shadows`).
    let shadowed = FrameRequest {
        options: DrawOptions {
            shadows: true,
            ..Default::default()
        },
        ..shaded
    };
    check_golden(
        "cesiumman_1.1s_shadows.png",
        shadowed.size,
        &render_frame(&gpu, &man, &shadowed).unwrap(),
    );
}

#[test]
fn morphed_silhouettes_match_cpu_projected_triangles() {
    // The vertex shader's morph (before skinning) against the CPU reference, through the real
    // pipeline: AnimatedMorphCube squashed mid-clip, and MorphPrimitivesTest at its defaults.
    let gpu = gpu();
    for (file, time) in [
        ("AnimatedMorphCube/AnimatedMorphCube.glb", 1.5),
        ("MorphPrimitivesTest/MorphPrimitivesTest.glb", 0.0),
    ] {
        let c = load(file);
        let request = FrameRequest {
            size: (240, 180),
            pose: if c.clips.is_empty() {
                PoseRequest::default()
            } else {
                PoseRequest::clip(0, time)
            },
            options: DrawOptions {
                silhouette: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let (iou, either, pose) = silhouette_iou(&gpu, &c, &request);
        assert!(pose.morph.weights.iter().any(|w| *w != 0.0), "{file}");
        assert!(either > 240 * 180 / 50, "{file}: {either} pixels");
        assert!(iou >= 0.98, "{file}: IoU {iou}");
    }
}
