//! A crowd: each member's palette is the character posed at its own phase and weight, whatever
//! the number of threads; drawn instanced on the GPU.

mod common;

use skinscope::anim::wrap_time;
use skinscope::import;
use skinscope::pose::{CharacterPose, Crowd, PoseRequest};

#[test]
fn members_are_posed_at_their_own_phase_and_weight() {
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let (a, b) = (0, 1);
    let mut crowd = Crowd::new(&fox, 16, (a, b), 3.0);
    let time = 1.37;
    crowd.update(&fox, time);
    let len = crowd.palette_len();
    let (da, db) = (fox.clips[a].duration_secs(), fox.clips[b].duration_secs());
    let mut seen = Vec::new();
    for k in 0..16 {
        // The crowd's documented spread: golden-ratio phases and weights.
        let phase = (k as f32 * 0.618_034).fract();
        let weight = (k as f32 * 0.414_213_57).fract();
        let cycle = da + (db - da) * weight;
        let ratio = wrap_time(time / cycle + phase, 1.0);
        let mut pose = CharacterPose::new(&fox);
        // Clip A at the member's ratio of its cycle, clip B in step (at the same ratio).
        let request = PoseRequest::clip(a, ratio * da).with_blend(b, weight);
        pose.evaluate(&fox, &request).unwrap();
        assert_eq!(
            &crowd.palette[k * len..(k + 1) * len],
            &pose.palette[..],
            "member {k}"
        );
        seen.push(pose.palette[3]);
    }
    // Members really differ from each other.
    assert!(seen.windows(2).all(|w| w[0] != w[1]));
    // One thread gives exactly what the default pool gave.
    let parallel = crowd.palette.clone();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    one.install(|| crowd.update(&fox, time));
    assert_eq!(crowd.palette, parallel);
    // Placed on a 4 x 4 grid, 3 apart.
    let x = |k: usize| crowd.world_from_mesh[k * fox.instances.len()].w_axis.x;
    assert!((x(1) - x(0) - 3.0).abs() < 1e-5 && (x(4) - x(0)).abs() < 1e-5);
}

#[test]
fn a_crowd_renders_instanced_from_one_palette_buffer() {
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let silhouette = |crowd| {
        let request = skinscope::draw::headless::FrameRequest {
            size: (160, 120),
            pose: PoseRequest::clip(0, 0.0),
            crowd,
            options: skinscope::render::renderer::DrawOptions {
                silhouette: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let pixels = skinscope::draw::headless::render_frame(&gpu, &fox, &request).unwrap();
        pixels.chunks_exact(4).filter(|p| p[0] > 127).count()
    };
    let one = silhouette(None);
    let nine = silhouette(Some(9));
    // Nine foxes framed together: each smaller, together covering a different, non-zero area.
    assert!(one > 500 && nine > 300, "one fox {one} px, nine {nine} px");
    assert_ne!(one, nine);
}
