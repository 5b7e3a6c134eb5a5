//! The window's CPU time a frame, outside the GPU (criterion): what `skinscope`'s frame does on
//! the CPU, without a window. The panel is laid out by egui (`ui::run`, the window's own call),
//! tessellated and uploaded; the viewer applies its commands, steps its clocks and poses once
//! (`Viewer::frame`); the overlays' lines are made; the palettes and uniforms are uploaded, the
//! 3D view and the panel are recorded into one command buffer and submitted. Only that is timed:
//! the GPU's work is waited for after the clock stops, as the window's "CPU" figure leaves out
//! waiting for its next image.
//!
//! Cases: the built-in mannequin walking, and a crowd of 100 of it, both at 1280x800 with the
//! panel open as it starts; each with the panel laid out (`*_cpu_frame`) and with its last
//! layout drawn again (`*_cpu_frame_panel_kept`), as the window does between its 30 layouts a
//! second while nothing is input. `cargo bench --bench viewer`; `cargo test --benches` runs each
//! once.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use skinscope::app::draw_options;
use skinscope::builtin;
use skinscope::draw;
use skinscope::render::camera::{Camera, OrbitCamera};
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
use skinscope::ui;
use skinscope::viewer::Viewer;

/// The window's size in pixels (one point a pixel).
const SIZE: (u32, u32) = (1280, 800);

/// A viewer, its renderer and egui's, and the targets a frame is drawn into.
struct Window {
    gpu: Gpu,
    viewer: Viewer,
    renderer: Renderer,
    ctx: egui::Context,
    egui_renderer: egui_wgpu::Renderer,
    target: Offscreen,
    srgb: wgpu::TextureView,
    camera: Camera,
    bones: Vec<draw::view::LineVertex>,
    values: Vec<[f32; 4]>,
    /// The panel's last layout, tessellated.
    jobs: Vec<egui::ClippedPrimitive>,
    pixels_per_point: f32,
    view: egui::Rect,
}

impl Window {
    /// The window with a crowd of `crowd`, or (`over_time`) ten onion skins (five each side, a
    /// frame apart) and three motion paths around the playhead, posed again every frame.
    fn new(crowd: usize, over_time: bool) -> Self {
        let gpu = Gpu::headless().expect("a GPU adapter (lavapipe without one)");
        let mut viewer = Viewer::new(builtin::character().expect("the built-in character"), None);
        viewer.crowd_limit = draw::crowd_limit(&gpu.device.limits(), &viewer.character);
        viewer.controls.view.crowd = crowd;
        let mut copies = crowd.max(1);
        if over_time {
            let o = &mut viewer.controls.over_time;
            o.onion.on = true;
            (o.onion.before, o.onion.after) = (5, 5);
            o.onion.step = skinscope::draw::onion::OnionSpacing::Frames(1);
            o.paths.on = true;
            o.paths.around_secs = Some(0.5);
            let s = &viewer.character.skeleton;
            o.paths.joints = ["hand_l", "hand_r", "foot_l"]
                .iter()
                .filter_map(|n| s.find(n))
                .collect();
            copies = 11;
        }
        let renderer = Renderer::new(
            &gpu.device,
            &gpu.queue,
            &viewer.character,
            COLOR_FORMAT,
            draw::capacity(&viewer.character, copies),
        );
        let linear = wgpu::TextureFormat::Rgba8Unorm;
        let target = Offscreen::with_formats(&gpu.device, SIZE, linear, &[COLOR_FORMAT]);
        let srgb = target.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(COLOR_FORMAT),
            ..Default::default()
        });
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, linear, Default::default());
        viewer.frame(Vec::new(), 1.0 / 60.0);
        let (min, max) = viewer.world_bounds().expect("a posed character");
        let aspect = SIZE.0 as f32 / SIZE.1 as f32;
        let camera = OrbitCamera::framing(min, max, 40.0, aspect).camera();
        viewer.camera_eye = Some(camera.eye);
        let mut window = Self {
            gpu,
            viewer,
            renderer,
            ctx: egui::Context::default(),
            egui_renderer,
            target,
            srgb,
            camera,
            bones: Vec::new(),
            values: Vec::new(),
            jobs: Vec::new(),
            pixels_per_point: 1.0,
            view: egui::Rect::NOTHING,
        };
        // egui's fonts and first layout are made in the first frames, not every frame.
        for _ in 0..3 {
            window.frame(true);
            window.wait();
        }
        window
    }

    /// One frame's CPU work, submitted; the panel laid out again or its last layout kept.
    fn frame(&mut self, lay_out: bool) {
        let commands = if lay_out { self.lay_out() } else { Vec::new() };
        let view = self.view;
        self.viewer.frame(commands, 1.0 / 60.0);
        let viewer = &self.viewer;
        let c = &viewer.controls;
        draw::view::overlay_lines(
            &viewer.character,
            &viewer.pose,
            c.view.bone_view(c.selected_joint),
            c.selected_joint,
            draw::view::bone_width(viewer.derived.rest_bounds),
            viewer.overlay_lines(),
            &mut self.bones,
        );
        let options = DrawOptions {
            viewport: Some([view.left(), view.top(), view.width(), view.height()]),
            adapter: self.gpu.adapter_kind(),
            ..draw_options(c)
        };
        let posed = match (&viewer.crowd, viewer.over_time.onion()) {
            (Some(crowd), _) => draw::extract_crowd(crowd),
            (None, Some(onion)) => onion.posed(&viewer.pose),
            (None, None) => draw::extract(&viewer.pose, &mut self.values),
        };
        self.renderer.prepare(
            View::Main,
            &self.gpu.queue,
            &FrameInput {
                posed,
                camera: &self.camera,
                aspect: view.width() / view.height().max(1.0),
                bones: &self.bones,
                options: &options,
            },
        );
        let device = &self.gpu.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        (self.renderer).paint(View::Main, device, &mut encoder, &self.srgb, SIZE, &options);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [SIZE.0, SIZE.1],
            pixels_per_point: self.pixels_per_point,
        };
        if lay_out {
            let queue = &self.gpu.queue;
            (self.egui_renderer).update_buffers(device, queue, &mut encoder, &self.jobs, &screen);
        }
        let (jobs, target) = (&self.jobs, &self.target.view);
        let egui = &self.egui_renderer;
        skinscope::draw::ui_overlay::render_pass(egui, &mut encoder, target, jobs, &screen);
        self.gpu.queue.submit([encoder.finish()]);
    }

    /// The panel laid out, its textures updated and its shapes tessellated. Returns its commands.
    fn lay_out(&mut self) -> Vec<skinscope::viewer::UiCommand> {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(SIZE.0 as f32, SIZE.1 as f32),
            )),
            ..Default::default()
        };
        let camera = self.camera;
        let clip_from_world = move |aspect: f32| camera.clip_from_world(aspect);
        let (output, commands, view) =
            ui::run(&self.ctx, input, &mut self.viewer, Some(&clip_from_world));
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let mut textures = output.textures_delta;
        for (id, deltas) in &textures.set {
            for delta in deltas {
                (self.egui_renderer).update_texture(device, queue, *id, delta);
            }
        }
        for id in &textures.free {
            self.egui_renderer.free_texture(id);
        }
        textures.clear();
        self.jobs = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        self.pixels_per_point = output.pixels_per_point;
        self.view = view;
        commands
    }

    fn wait(&self) {
        let poll = self.gpu.device.poll(wgpu::PollType::wait_indefinitely());
        poll.expect("the GPU finishes the frame");
    }
}

fn benches(c: &mut Criterion) {
    let cases = [
        ("mannequin", 0, false),
        ("crowd100_mannequin", 100, false),
        ("mannequin_10_ghosts_3_paths", 0, true),
    ];
    for (name, crowd, over_time) in cases {
        let mut window = Window::new(crowd, over_time);
        if crowd == 0 {
            // The whole frame, the GPU's work waited for: what stays interactive or not.
            c.bench_function(&format!("viewer/{name}_whole_frame"), |b| {
                b.iter(|| {
                    window.frame(true);
                    window.wait();
                })
            });
        }
        for (kept, lay_out) in [("", true), ("_panel_kept", false)] {
            c.bench_function(&format!("viewer/{name}_cpu_frame{kept}"), |b| {
                b.iter_custom(|frames| {
                    let mut cpu = Duration::ZERO;
                    for _ in 0..frames {
                        let start = Instant::now();
                        window.frame(lay_out);
                        cpu += start.elapsed();
                        window.wait();
                    }
                    cpu
                })
            });
        }
    }
}

criterion_group!(viewer, benches);
criterion_main!(viewer);
