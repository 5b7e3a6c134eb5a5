//! What the GPU benches share: one 1280x720 frame prepared, painted, submitted and waited for.

use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::Offscreen;
use skinscope::render::renderer::{DrawOptions, FrameInput, Posed, Renderer, View};

/// The frame's size.
pub const SIZE: (u32, u32) = (1280, 720);

/// Prepares and paints each (view, options, posed) into `target`, submits and waits.
pub fn draw_and_wait<'a>(
    gpu: &Gpu,
    renderer: &mut Renderer,
    (target, camera): (&Offscreen, &Camera),
    views: impl IntoIterator<Item = (View, DrawOptions, Posed<'a>)>,
) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for (view, options, posed) in views {
        let input = FrameInput {
            posed,
            camera,
            aspect: 16.0 / 9.0,
            bones: &[],
            options: &options,
        };
        renderer.prepare(view, &gpu.queue, &input);
        renderer.paint(
            view,
            &gpu.device,
            &mut encoder,
            &target.view,
            SIZE,
            &options,
        );
    }
    gpu.queue.submit([encoder.finish()]);
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes the frame");
}
