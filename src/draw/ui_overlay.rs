//! egui drawn over an offscreen frame (the headless `render`'s colour legend), with the same
//! egui-wgpu renderer the window draws its panel with.

use crate::render::offscreen::Offscreen;

/// The format egui paints through: the offscreen target's non-sRGB view (egui blends in gamma
/// space, as it does into the window's surface).
pub const UI_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Records egui's paint jobs over what `view` holds (its buffers already updated): the window's
/// panel and the headless legend alike.
pub fn render_pass(
    renderer: &egui_wgpu::Renderer,
    encoder: &mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    jobs: &[egui::ClippedPrimitive],
    screen: &egui_wgpu::ScreenDescriptor,
) {
    let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("egui"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    renderer.render(&mut pass.forget_lifetime(), jobs, screen);
}

/// Paints one egui frame's output over `target` (made with `UI_FORMAT` among its view formats),
/// applying and then freeing its texture changes.
pub fn paint(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    target: &Offscreen,
    ctx: &egui::Context,
    output: egui::FullOutput,
) {
    let mut renderer =
        egui_wgpu::Renderer::new(device, UI_FORMAT, egui_wgpu::RendererOptions::default());
    let mut textures = output.textures_delta;
    for (id, deltas) in &textures.set {
        for delta in deltas {
            renderer.update_texture(device, queue, *id, delta);
        }
    }
    let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [target.size.0, target.size.1],
        pixels_per_point: output.pixels_per_point,
    };
    let view = target.texture.create_view(&wgpu::TextureViewDescriptor {
        format: Some(UI_FORMAT),
        ..Default::default()
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    let commands = renderer.update_buffers(device, queue, &mut encoder, &jobs, &screen);
    render_pass(&renderer, &mut encoder, &view, &jobs, &screen);
    queue.submit(commands.into_iter().chain([encoder.finish()]));
    for id in &textures.free {
        renderer.free_texture(id);
    }
    textures.clear();
}
