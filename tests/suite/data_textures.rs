//! WebGL2's way of binding the shaders' arrays (palettes, per-draw data, morph weights and
//! deltas as textures of words, `render::words`) draws the same frames as storage buffers: both
//! on this device, skinned in the vertex shader, compared pixel by pixel.

use crate::common;

use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::display::SkinPass;
use skinscope::draw::headless::{FrameRequest, render_frame};
use skinscope::pose::PoseRequest;
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::DrawOptions;
use skinscope::render::words::DataMode;

fn gpu(data: DataMode) -> Gpu {
    let mut gpu = Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"));
    gpu.cache = skinscope::render::PipelineCache::with_data(&gpu.device, data);
    gpu
}

/// The largest channel difference and the share of pixels that differ at all.
fn difference(a: &[u8], b: &[u8]) -> (u8, f64) {
    let largest = a
        .iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0);
    let differing = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p != q)
        .count();
    (largest, differing as f64 / (a.len() / 4) as f64)
}

fn frame(c: &Character, clip: &str, time: f32, skinning: SkinningMethod) -> FrameRequest {
    let clip = c.find_clip(clip).unwrap();
    FrameRequest {
        size: (200, 150),
        pose: PoseRequest::clip(clip, time),
        options: DrawOptions {
            skinning,
            // Both ways skin in the vertex shader: a device without storage buffers has no
            // compute pass.
            skin_pass: SkinPass::Vertex,
            shadows: true,
            bones: true,
            wireframe: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn arrays_in_textures_draw_the_frames_storage_buffers_draw() {
    let storage = gpu(DataMode::Storage);
    let textures = gpu(DataMode::Textures);
    let mannequin = skinscope::builtin::character().unwrap();
    let fox = skinscope::import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let cube = skinscope::import::load(&common::shared("AnimatedMorphCube/AnimatedMorphCube.glb"))
        .unwrap();
    let cube_clip = cube.clips[0].clip.name().to_owned();
    let crowd = FrameRequest {
        crowd: Some(5),
        ..frame(&mannequin, "walk", 0.5, SkinningMethod::Linear)
    };
    let cases = [
        (
            "the walk",
            &mannequin,
            frame(&mannequin, "walk", 0.5, SkinningMethod::Linear),
        ),
        (
            "the twist, DQS",
            &mannequin,
            frame(&mannequin, "twist", 1.0, SkinningMethod::DualQuaternion),
        ),
        (
            "the Fox",
            &fox,
            frame(&fox, "Walk", 0.5, SkinningMethod::Linear),
        ),
        (
            "the morphed cube",
            &cube,
            frame(&cube, &cube_clip, 0.6, SkinningMethod::Linear),
        ),
        ("a crowd of five", &mannequin, crowd),
    ];
    for (what, c, request) in cases {
        let a = render_frame(&storage, c, &request).unwrap();
        let b = render_frame(&textures, c, &request).unwrap();
        let (largest, share) = difference(&a, &b);
        assert!(
            largest <= 2 && share < 0.001,
            "{what}: pixels differ by up to {largest} levels, {:.3}% of them",
            share * 100.0
        );
        // Not a blank pair: the character covers part of the frame.
        let background = a.chunks_exact(4).filter(|p| p[..3] == a[..3]).count();
        assert!(
            background < a.len() / 4 * 95 / 100,
            "{what}: {background} background pixels"
        );
    }
}
