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

#[test]
fn a_new_crowd_size_resizes_buffers_without_uploading_or_compiling_again() {
    use skinscope::render::camera::Camera;
    use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
    use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let mut crowd = Crowd::new(&fox, 9, (0, 1), 200.0);
    crowd.update(&fox, 0.4);
    let camera = Camera::look_at(
        glam::Vec3::new(300.0, 500.0, 900.0),
        glam::Vec3::ZERO,
        45.0,
        10.0,
        5000.0,
    );
    let options = DrawOptions::default();
    let draw = |renderer: &mut Renderer| {
        renderer.prepare(
            View::Main,
            &gpu.queue,
            &FrameInput {
                posed: skinscope::draw::extract_crowd(&crowd),
                camera: &camera,
                aspect: 4.0 / 3.0,
                bones: &[],
                options: &options,
            },
        );
        let target = Offscreen::new(&gpu.device, (160, 120));
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        renderer.paint(
            View::Main,
            &gpu.device,
            &mut encoder,
            &target.view,
            target.size,
            &options,
        );
        gpu.queue.submit([encoder.finish()]);
        target.read_rgba(&gpu.device, &gpu.queue).unwrap()
    };
    let capacity = |copies| skinscope::draw::capacity(&fox, copies);
    // One copy, drawn once (the lazily built pipelines are made now), then resized for nine.
    let mut resized = Renderer::new(&gpu.device, &gpu.queue, &fox, COLOR_FORMAT, capacity(1));
    let one = draw(&mut resized);
    let before = resized.stats();
    resized.resize(&gpu.device, capacity(9));
    assert_eq!(resized.capacity().copies, 9);
    let nine = draw(&mut resized);
    assert_eq!(
        resized.stats(),
        before,
        "a resize uploads or compiles nothing"
    );
    assert_eq!(before.mesh_uploads, 1);
    // The resized renderer draws the nine foxes as one built for nine does, and not as one fox.
    let mut fresh = Renderer::new(&gpu.device, &gpu.queue, &fox, COLOR_FORMAT, capacity(9));
    assert_eq!(nine, draw(&mut fresh));
    assert_ne!(nine, one);
    // Renderers made from one cache (the window's, for each new character) share the pipelines
    // it compiled: the second compiles nothing.
    let with_cache = |copies| {
        Renderer::with_cache(
            &gpu.cache,
            &gpu.device,
            &gpu.queue,
            &fox,
            COLOR_FORMAT,
            capacity(copies),
        )
    };
    let mut first = with_cache(1);
    draw(&mut first);
    let compiled = first.stats().pipelines_built;
    assert!(
        compiled >= 2,
        "the skin pass's pipelines were built too: {compiled}"
    );
    // Before it draws anything, the second already has every family the first compiled (a
    // renderer of its own would have its base set only).
    let mut second = with_cache(9);
    assert_eq!(second.stats().pipelines_built, compiled);
    assert_eq!(draw(&mut second), nine);
    assert_eq!(second.stats().pipelines_built, compiled);
}
