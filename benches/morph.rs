//! Morph target benchmarks (criterion): `morph/cpu_*` evaluates one frame's weights and morphs a
//! 50,000-vertex mesh on the CPU (the reference `pose`, `check` and picking use) with 8, 64 and
//! 200 active targets; `morph/render_*` draws one frame of that mesh on whatever adapter wgpu
//! picks (lavapipe without a GPU): prepare, paint and wait for the GPU.
//!
//! `cargo bench --bench morph`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Vec2, Vec3};
use skinscope::anim::{Skeleton, Transform};
use skinscope::character::{Character, Material, MeshData, MeshInstance, MorphTarget, Primitive};
use skinscope::pose::{CharacterPose, PoseRequest, morphed_vertices};

const SIDE: usize = 224; // 224 x 224 = 50,176 vertices
const TARGETS: usize = 200;

/// A rippled grid of about 50,000 vertices with 200 dense morph targets (each displaces every
/// vertex a little, differently), weights `active` of them non-zero.
fn rippled_grid(active: usize) -> Character {
    let n = SIDE * SIDE;
    let positions: Vec<Vec3> = (0..n)
        .map(|v| {
            Vec3::new(
                (v % SIDE) as f32 / SIDE as f32,
                (v / SIDE) as f32 / SIDE as f32,
                0.0,
            )
        })
        .collect();
    let mut indices = Vec::new();
    for y in 0..SIDE - 1 {
        for x in 0..SIDE - 1 {
            let v = (y * SIDE + x) as u32;
            let s = SIDE as u32;
            indices.extend([v, v + 1, v + s, v + 1, v + s + 1, v + s]);
        }
    }
    let morph_targets = (0..TARGETS)
        .map(|t| MorphTarget {
            positions: Some(
                positions
                    .iter()
                    .map(|p| Vec3::Z * 0.01 * ((p.x * (t + 1) as f32).sin() + p.y))
                    .collect(),
            ),
            normals: None,
            tangents: None,
        })
        .collect();
    let primitive = Primitive {
        normals: vec![Vec3::Z; n],
        uvs: Some(positions.iter().map(|p| Vec2::new(p.x, p.y)).collect()),
        uvs1: None,
        colors: None,
        tangents: None,
        positions,
        indices: Some(indices),
        skinning: None,
        material: Material::default(),
        morph_targets,
        normals_computed: false,
    };
    let weights: Vec<f32> = (0..TARGETS)
        .map(|t| if t < active { 0.5 } else { 0.0 })
        .collect();
    let skeleton = Skeleton::new(vec!["grid".into()], vec![None], vec![Transform::IDENTITY])
        .expect("one joint");
    Character {
        name: format!("grid with {active} active targets"),
        skeleton,
        node_of_skeleton_joint: vec![0],
        skeleton_joint_of_node: vec![0],
        skins: Vec::new(),
        meshes: vec![MeshData {
            name: "grid".into(),
            index: 0,
            primitives: vec![primitive],
            morph_weights: weights.clone(),
            target_names: (0..TARGETS).map(|t| t.to_string()).collect(),
        }],
        instances: vec![MeshInstance {
            node: 0,
            skeleton_joint: 0,
            mesh: 0,
            skin: None,
            default_weights: weights,
        }],
        clips: Vec::new(),
        driver_extras: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
        scenes: vec!["grid".into()],
        scene: 0,
        cameras: Vec::new(),
    }
}

fn benches(c: &mut Criterion) {
    let mut cpu = c.benchmark_group("morph");
    cpu.sample_size(10);
    for active in [8, 64, 200] {
        let grid = rippled_grid(active);
        let mut pose = CharacterPose::new(&grid);
        cpu.bench_function(format!("cpu_{active}_targets_50k_vertices"), |b| {
            b.iter(|| {
                pose.evaluate(&grid, &PoseRequest::default()).unwrap();
                black_box(morphed_vertices(
                    &grid.meshes[0].primitives[0],
                    pose.morph.of(0),
                ))
            })
        });
    }
    let Ok(gpu) = skinscope::render::gpu::Gpu::headless() else {
        eprintln!("morph/render_*: no GPU adapter (install lavapipe)");
        return;
    };
    for active in [8, 64, 200] {
        let grid = rippled_grid(active);
        let mut renderer = skinscope::render::renderer::Renderer::new(
            &gpu.device,
            &gpu.queue,
            &grid,
            skinscope::render::offscreen::COLOR_FORMAT,
            skinscope::draw::capacity(&grid, 1),
        );
        let target = skinscope::render::offscreen::Offscreen::new(&gpu.device, (320, 240));
        let mut pose = CharacterPose::new(&grid);
        pose.evaluate(&grid, &PoseRequest::default()).unwrap();
        let camera = skinscope::render::camera::Camera::framing(
            Vec3::ZERO,
            Vec3::new(1.0, 1.0, 0.1),
            40.0,
            4.0 / 3.0,
        );
        let options = skinscope::render::renderer::DrawOptions::default();
        cpu.bench_function(format!("render_{active}_targets_50k_vertices"), |b| {
            b.iter(|| {
                renderer.prepare(
                    skinscope::render::renderer::View::Main,
                    &gpu.queue,
                    &skinscope::render::renderer::FrameInput {
                        posed: skinscope::draw::extract(&pose, &mut Vec::new()),
                        camera: &camera,
                        aspect: 4.0 / 3.0,
                        bones: &[],
                        options: &options,
                    },
                );
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                renderer.paint(
                    skinscope::render::renderer::View::Main,
                    &gpu.device,
                    &mut encoder,
                    &target.view,
                    target.size,
                    &options,
                );
                gpu.queue.submit([encoder.finish()]);
                gpu.device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("the GPU finishes the frame");
            })
        });
    }
    cpu.finish();
}

criterion_group!(morph_benches, benches);
criterion_main!(morph_benches);
