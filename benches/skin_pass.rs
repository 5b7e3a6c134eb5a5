//! Skinning in the vertex shader against skinning once a frame in a compute pass (criterion):
//! one animated frame (a new palette every frame) drawn at 1280x720 and waited for, on whatever
//! adapter wgpu picks (lavapipe without a GPU), in 1, 2 and 3 passes: shaded; shaded +
//! wireframe; shaded + wireframe + the split view's right half (the bind palette, its own
//! skinning either way). Cases: CesiumMan, the built-in mannequin (22,500 vertices) and a crowd
//! of 100 CesiumMen. BrainStem is not among ../shared/gltf's samples.
//!
//! Then one pass skinned in the skin pass by each method (LBS, DQS, per joint, direct delta
//! mush) on CesiumMan and the mannequin, and direct delta mush's precomputation on both.
//!
//! `cargo bench --bench skin_pass`; `cargo test --benches` runs each once as a smoke test. The
//! figures behind `SkinPass::Auto` are in `docs/skinning.md` ("Skinning once a frame").

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Mat4;
use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::draw::{capacity, extract_crowd, rest_bounds};
use skinscope::pose::{CharacterPose, Crowd, PaletteMode, PoseRequest};
use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
use skinscope::render::renderer::{DrawOptions, Posed, Renderer, SkinPass, View};

mod common;

use common::{SIZE, draw_and_wait};
/// Frames posed ahead and cycled through, so every drawn frame has a new palette.
const FRAMES: usize = 16;

/// Every copy's palette of `FRAMES` frames of the first clip, and what stays the same.
struct Frames {
    palettes: Vec<Vec<Mat4>>,
    stride: usize,
    palette_base: Vec<u32>,
    world_from_mesh: Vec<Mat4>,
    morph_weights: Vec<f32>,
    morph_stride: usize,
    morph_base: Vec<u32>,
    bind: Vec<Mat4>,
    copies: usize,
    /// Per-joint skinning's method weights ("auto").
    palette_method: Vec<f32>,
}

impl Frames {
    fn posed(&self, frame: usize) -> Posed<'_> {
        Posed {
            palette: &self.palettes[frame % self.palettes.len()],
            palette_stride: self.stride,
            palette_base: &self.palette_base,
            world_from_mesh: &self.world_from_mesh,
            morph_weights: &self.morph_weights,
            morph_stride: self.morph_stride,
            morph_base: &self.morph_base,
            palette_method: &self.palette_method,
            deformer_values: &[],
            tints: &[],
        }
    }

    fn compared(&self) -> Posed<'_> {
        Posed {
            palette: &self.bind,
            ..self.posed(0)
        }
    }

    fn single(c: &Character) -> Self {
        let duration = c.clips[0].clip.duration_secs();
        let palettes = (0..FRAMES)
            .map(|f| {
                let mut pose = CharacterPose::new(c);
                let request = PoseRequest::clip(0, duration * f as f32 / FRAMES as f32);
                pose.evaluate(c, &request).expect("poses");
                pose.palette
            })
            .collect();
        let mut pose = CharacterPose::new(c);
        pose.evaluate(c, &PoseRequest::rest(PaletteMode::Bind))
            .expect("poses");
        Self {
            palettes,
            stride: pose.palette.len(),
            palette_base: pose.palette_base.clone(),
            world_from_mesh: pose.world_from_mesh.clone(),
            morph_weights: pose.morph.weights.clone(),
            morph_stride: pose.morph.weights.len(),
            morph_base: pose.morph.base.clone(),
            palette_method: {
                let methods = skinscope::pose::DqsJoints::Auto.methods(c).expect("auto");
                pose.set_joint_methods(c, &methods);
                pose.palette_method.clone()
            },
            bind: pose.palette,
            copies: 1,
        }
    }

    fn crowd(c: &Character, copies: usize) -> Self {
        let (lo, hi) = rest_bounds(c);
        let mut crowd = Crowd::new(c, copies, (0, 0), (hi - lo).max_element() * 1.2);
        let duration = c.clips[0].clip.duration_secs();
        let palettes = (0..FRAMES)
            .map(|f| {
                crowd.update(c, duration * f as f32 / FRAMES as f32);
                crowd.palette.clone()
            })
            .collect();
        let posed = extract_crowd(&crowd);
        Self {
            palettes,
            stride: posed.palette_stride,
            palette_base: posed.palette_base.to_vec(),
            world_from_mesh: posed.world_from_mesh.to_vec(),
            morph_weights: posed.morph_weights.to_vec(),
            morph_stride: posed.morph_stride,
            morph_base: posed.morph_base.to_vec(),
            bind: crowd.palette.clone(),
            copies,
            palette_method: Vec::new(),
        }
    }
}

fn bench_case(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    gpu: &Gpu,
    name: &str,
    c: &Character,
    frames: &Frames,
) {
    let (lo, hi) = rest_bounds(c);
    let spread = (hi - lo).max_element() * 1.2 * (frames.copies as f32).sqrt();
    let camera = Camera::framing(
        lo,
        lo + (hi - lo).max(glam::Vec3::splat(spread)),
        40.0,
        16.0 / 9.0,
    );
    let target = Offscreen::new(&gpu.device, SIZE);
    for passes in 1..=3u32 {
        for (mode, skin_pass) in [("vertex", SkinPass::Vertex), ("compute", SkinPass::Compute)] {
            let mut renderer = Renderer::new(
                &gpu.device,
                &gpu.queue,
                c,
                COLOR_FORMAT,
                capacity(c, frames.copies),
            );
            let main = DrawOptions {
                wireframe: passes >= 2,
                skin_pass,
                viewport: (passes == 3).then_some([0.0, 0.0, 640.0, 720.0]),
                ..Default::default()
            };
            let right = DrawOptions {
                viewport: Some([640.0, 0.0, 640.0, 720.0]),
                clear: false,
                ..main
            };
            let mut frame = 0;
            group.bench_function(format!("{name}_{passes}_passes_{mode}"), |b| {
                b.iter(|| {
                    frame += 1;
                    let views = [
                        Some((View::Main, main, frames.posed(frame))),
                        (passes == 3).then(|| (View::Compared, right, frames.compared())),
                    ];
                    draw_and_wait(
                        gpu,
                        &mut renderer,
                        (&target, &camera),
                        views.into_iter().flatten(),
                    );
                })
            });
        }
    }
}

/// One shaded pass skinned in the skin pass by each method (direct delta mush's Ω uploaded
/// first): the frame cost of DDM against LBS and DQS.
fn method_case(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    gpu: &Gpu,
    name: &str,
    c: &Character,
    frames: &Frames,
) {
    let (lo, hi) = rest_bounds(c);
    let camera = Camera::framing(lo, hi, 40.0, 16.0 / 9.0);
    let target = Offscreen::new(&gpu.device, SIZE);
    let ddm = skinscope::deform::precompute(c, &Default::default(), &mut |_| {}).expect("ddm");
    let words = (skinscope::draw::deformers::Deformers::default())
        .hold(c, [std::sync::Arc::new(ddm) as _])
        .clone();
    for method in SkinningMethod::ALL {
        let mut renderer = Renderer::new(&gpu.device, &gpu.queue, c, COLOR_FORMAT, capacity(c, 1));
        renderer.set_deformers(&gpu.device, &gpu.queue, &words);
        let options = DrawOptions {
            skinning: method,
            skin_pass: SkinPass::Compute,
            ..Default::default()
        };
        let mut frame = 0;
        let label = format!("{name}_{}", method.name().replace(' ', "_"));
        group.bench_function(label, |b| {
            b.iter(|| {
                frame += 1;
                let view = (View::Main, options, frames.posed(frame));
                draw_and_wait(gpu, &mut renderer, (&target, &camera), [view]);
            })
        });
    }
}

fn benches(criterion: &mut Criterion) {
    let Ok(gpu) = Gpu::headless() else {
        eprintln!("skin_pass/*: no GPU adapter (install lavapipe)");
        return;
    };
    let cesium_man = skinscope::import::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb"),
    )
    .expect("CesiumMan.glb from ../shared/gltf");
    let mannequin = skinscope::builtin::character().expect("the built-in character loads");
    let mut group = criterion.benchmark_group("skin_pass");
    group.sample_size(10);
    bench_case(
        &mut group,
        &gpu,
        "cesium_man",
        &cesium_man,
        &Frames::single(&cesium_man),
    );
    bench_case(
        &mut group,
        &gpu,
        "mannequin",
        &mannequin,
        &Frames::single(&mannequin),
    );
    bench_case(
        &mut group,
        &gpu,
        "crowd_100",
        &cesium_man,
        &Frames::crowd(&cesium_man, 100),
    );
    group.finish();
    let mut group = criterion.benchmark_group("skinning_method");
    group.sample_size(10);
    method_case(
        &mut group,
        &gpu,
        "cesium_man",
        &cesium_man,
        &Frames::single(&cesium_man),
    );
    method_case(
        &mut group,
        &gpu,
        "mannequin",
        &mannequin,
        &Frames::single(&mannequin),
    );
    group.finish();
    // Direct delta mush's precomputation (CPU).
    let mut group = criterion.benchmark_group("ddm_precompute");
    group.sample_size(10);
    for (name, c) in [("cesium_man", &cesium_man), ("mannequin", &mannequin)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                skinscope::deform::precompute(c, &Default::default(), &mut |_| {}).expect("ddm")
            })
        });
    }
    group.finish();
}

criterion_group!(skin_pass_benches, benches);
criterion_main!(skin_pass_benches);
