//! The window: winit's event loop, where the viewer state, the egui panel and the renderer meet.
//! None of them knows about winit; this file is the only one that does.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use glam::{Vec2, Vec3};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::{Window, WindowId};

use crate::builtin;
use crate::posing::PaletteMode;
use crate::render::camera::OrbitCamera;
use crate::render::gpu::{GpuError, LAVAPIPE_HINT};
use crate::render::headless::Offscreen;
use crate::render::renderer::{self, DrawOptions, FrameInput, LineVertex, Posed, Renderer};
use crate::ui;
use crate::viewer::{UiCommand, Viewer};

/// What the command line asks of the window.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// A file to open at start (default: the built-in character).
    pub file: Option<PathBuf>,
    /// Draw this many frames, then exit (for tests and screenshots).
    pub frames: Option<u64>,
    /// Save the last frame drawn (panel included) as PNG.
    pub screenshot: Option<PathBuf>,
    /// Inner size of the window in logical pixels.
    pub size: (u32, u32),
}

/// Opens the window and runs until it is closed (or `frames` are drawn).
pub fn run(options: AppOptions) -> Result<(), String> {
    let event_loop = EventLoop::new().map_err(|e| format!("cannot open a window: {e}"))?;
    let character = builtin::character().map_err(|e| e.to_string())?;
    let mut viewer = Viewer::new(character, None);
    let saved_recent = load_recent();
    viewer.recent.clone_from(&saved_recent);
    if let Some(file) = &options.file {
        // A bad file leaves the built-in character on screen and the error in the panel.
        if let Err(e) = viewer.open(file) {
            log::error!("{e}");
        }
    }
    let mut app = App {
        options,
        viewer,
        gfx: None,
        camera: None,
        last_frame: Instant::now(),
        frames_drawn: 0,
        mouse: Mouse::default(),
        bones: Vec::new(),
        result: Ok(()),
        character_generation: 0,
        last_view: None,
        renderer_members: 1,
        dialog: None,
        saved_recent,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("the event loop failed: {e}"))?;
    app.result
}

#[derive(Default)]
struct Mouse {
    position: Option<Vec2>,
    /// Where the left button went down and how far the cursor has moved since (pixels).
    press: Option<(Vec2, f32)>,
    left: bool,
    middle: bool,
    modifiers: ModifiersState,
}

struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    _instance: wgpu::Instance,
    adapter: wgpu::Adapter,
    /// Set by wgpu when the device is lost (driver reset, GPU removed): the next frame rebuilds.
    lost: Arc<std::sync::atomic::AtomicBool>,
}

struct App {
    options: AppOptions,
    viewer: Viewer,
    gfx: Option<Gfx>,
    camera: Option<OrbitCamera>,
    last_frame: Instant,
    frames_drawn: u64,
    mouse: Mouse,
    bones: Vec<LineVertex>,
    result: Result<(), String>,
    /// Bumped when the viewer loads another character, so the renderer is rebuilt.
    character_generation: u64,
    /// The last frame's main 3D view (points), camera and aspect: what a click picks in.
    last_view: Option<(egui::Rect, crate::render::camera::Camera, f32)>,
    /// Copies the renderer was built for.
    renderer_members: usize,
    /// A file dialog running on its own thread (the window keeps drawing); `None` when closed.
    dialog: Option<std::sync::mpsc::Receiver<Option<PathBuf>>>,
    /// The recent-files list as last saved.
    saved_recent: Vec<PathBuf>,
}

/// Where the recent-files list is kept between sessions: `$XDG_CONFIG_HOME/skinscope/recent-files`
/// (or `~/.config/...`), one path a line.
fn recent_files_path() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("skinscope").join("recent-files"))
}

fn load_recent() -> Vec<PathBuf> {
    let Some(text) = recent_files_path().and_then(|p| std::fs::read_to_string(p).ok()) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.is_empty())
        .take(8)
        .map(PathBuf::from)
        .collect()
}

fn save_recent(list: &[PathBuf]) {
    let Some(path) = recent_files_path() else {
        return;
    };
    let text: String = list.iter().map(|p| format!("{}\n", p.display())).collect();
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| std::fs::write(&path, text));
    if let Err(e) = written {
        log::warn!(
            "cannot save the recent-files list to {}: {e}",
            path.display()
        );
    }
}

fn surface_config(
    surface: &wgpu::Surface<'_>,
    adapter: &wgpu::Adapter,
    size: (u32, u32),
) -> Option<wgpu::SurfaceConfiguration> {
    // The surface stores a linear-encoded format, what egui draws into; the 3D view draws through
    // an sRGB view of the same texture (its shaders output linear colour).
    let mut config = surface.get_default_config(adapter, size.0.max(1), size.1.max(1))?;
    config.format = config.format.remove_srgb_suffix();
    config.view_formats = vec![config.format.add_srgb_suffix()];
    config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
    config.present_mode = wgpu::PresentMode::AutoVsync;
    Some(config)
}

impl Gfx {
    fn new(
        event_loop: &ActiveEventLoop,
        viewer: &Viewer,
        size: (u32, u32),
    ) -> Result<Self, String> {
        let attributes = Window::default_attributes()
            .with_title("skinscope")
            .with_inner_size(winit::dpi::LogicalSize::new(size.0, size.1));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| format!("cannot open a window: {e}"))?,
        );
        Self::with_window(event_loop, window, viewer)
    }

    /// The GPU side of a window: instance, surface, device, renderers. Also what recovers from a
    /// lost device (the window stays).
    fn with_window(
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        viewer: &Viewer,
    ) -> Result<Self, String> {
        let mut desc = wgpu::InstanceDescriptor::new_with_display_handle(Box::new(
            event_loop.owned_display_handle(),
        ));
        desc.flags = wgpu::InstanceFlags::from_build_config();
        let desc = desc.with_env();
        let backends = desc.backends;
        let instance = wgpu::Instance::new(desc);
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot draw into the window: {e}"))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: Some(&surface),
            ..Default::default()
        }))
        .map_err(|source| GpuError::NoAdapter { backends, source }.to_string())?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("skinscope window"),
            ..Default::default()
        }))
        .map_err(|e| format!("cannot create a GPU device: {e}; {LAVAPIPE_HINT}"))?;
        let lost = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            log::error!("the GPU device was lost ({reason:?}): {message}");
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let inner = window.inner_size();
        let config = surface_config(&surface, &adapter, (inner.width, inner.height))
            .ok_or_else(|| "the window's surface supports no format on this adapter".to_string())?;
        if inner.width > 0 && inner.height > 0 {
            surface.configure(&device, &config);
        }
        let renderer = Renderer::new(
            &device,
            &queue,
            &viewer.character,
            config.format.add_srgb_suffix(),
        );
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(
            &device,
            config.format,
            egui_wgpu::RendererOptions::default(),
        );
        Ok(Self {
            window,
            surface,
            device,
            queue,
            config,
            renderer,
            egui_ctx,
            egui_state,
            egui_renderer,
            _instance: instance,
            adapter,
            lost,
        })
    }

    fn resize(&mut self, width: u32, height: u32) {
        // Minimised: nothing to configure; drawing is skipped until the size returns.
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.device, &self.config);
    }
}

impl App {
    fn handle_key(&mut self, key: &Key) {
        let c = &mut self.viewer.controls;
        match key {
            Key::Named(NamedKey::Space) => c.playing = !c.playing,
            Key::Named(NamedKey::ArrowLeft) => self.viewer.apply(UiCommand::Step(-1)),
            Key::Named(NamedKey::ArrowRight) => self.viewer.apply(UiCommand::Step(1)),
            Key::Character(s) => match s.as_str() {
                "f" | "F" => self.viewer.apply(UiCommand::FrameCamera),
                "r" | "R" => self.viewer.apply(UiCommand::ResetCamera),
                "b" | "B" => c.show_bones = !c.show_bones,
                "w" | "W" => c.wireframe = !c.wireframe,
                "1" => c.palette = PaletteMode::Animated,
                "2" => c.palette = PaletteMode::Bind,
                "3" => c.palette = PaletteMode::Identity,
                _ => {}
            },
            _ => {}
        }
    }

    /// Mouse input the panel did not take: orbit (left drag), pan (middle or shift+left drag),
    /// zoom (wheel).
    fn camera_input(&mut self, event: &WindowEvent, height: f32) {
        let Some(camera) = self.camera.as_mut() else {
            return;
        };
        match event {
            WindowEvent::MouseInput { state, button, .. } => {
                let down = *state == ElementState::Pressed;
                match button {
                    MouseButton::Left => {
                        self.mouse.left = down;
                        if down {
                            self.mouse.press = self.mouse.position.map(|p| (p, 0.0));
                        } else if let Some((at, moved)) = self.mouse.press.take()
                            && moved < 4.0
                        {
                            self.click(at);
                        }
                    }
                    MouseButton::Middle => self.mouse.middle = down,
                    _ => {}
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let p = Vec2::new(position.x as f32, position.y as f32);
                if let Some(last) = self.mouse.position {
                    let d = p - last;
                    if let Some((_, moved)) = self.mouse.press.as_mut() {
                        *moved += d.length();
                    }
                    let pan =
                        self.mouse.middle || (self.mouse.left && self.mouse.modifiers.shift_key());
                    if pan {
                        camera.pan(-d.x / height, d.y / height);
                    } else if self.mouse.left {
                        camera.orbit(-d.x * 0.01, d.y * 0.01);
                    }
                }
                self.mouse.position = Some(p);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => *y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                camera.zoom(0.9f32.powf(lines));
            }
            _ => {}
        }
    }

    fn draw(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let dt = (now - self.last_frame).as_secs_f32().min(0.25);
        self.last_frame = now;
        let Some(gfx) = self.gfx.as_mut() else { return };
        if gfx.lost.load(std::sync::atomic::Ordering::SeqCst) {
            // Rebuild everything on the GPU side for the same window; the viewer's state stays.
            let window = gfx.window.clone();
            self.gfx = None;
            match Gfx::with_window(event_loop, window, &self.viewer) {
                Ok(new) => {
                    log::warn!("recreated the GPU device after it was lost");
                    self.gfx = Some(new);
                    self.renderer_members = 1;
                }
                Err(e) => {
                    self.result = Err(format!(
                        "the GPU device was lost and could not be recreated: {e}"
                    ));
                    event_loop.exit();
                }
            }
            return;
        }
        if gfx.config.width == 0 || gfx.config.height == 0 {
            return;
        }
        // Playback, then the pose, timed.
        self.viewer.advance(dt);
        let pose_start = Instant::now();
        self.viewer.pose_frame();
        let pose_ms = pose_start.elapsed().as_secs_f32() * 1000.0;

        // The panel, and joint names over the 3D view (placed with last frame's camera).
        let raw_input = gfx.egui_state.take_egui_input(&gfx.window);
        let mut commands = Vec::new();
        let mut view_rect = egui::Rect::NOTHING;
        let viewer = &mut self.viewer;
        let last_camera = self.camera;
        let full_output = gfx.egui_ctx.run_ui(raw_input, |ui| {
            let (c, rect) = ui::show(ui, viewer);
            commands = c;
            view_rect = rect;
            if let (true, Some(camera)) = (viewer.controls.show_joint_names, last_camera) {
                // The names label the main (left, when split) view.
                let main = if viewer.controls.split {
                    egui::Rect::from_min_size(
                        rect.min,
                        egui::vec2(rect.width() * 0.5, rect.height()),
                    )
                } else {
                    rect
                };
                paint_joint_names(ui, viewer, &camera.camera(), main);
            }
        });
        gfx.egui_state
            .handle_platform_output(&gfx.window, full_output.platform_output);
        // egui's texture changes are applied now and freed after drawing (dropping them
        // unhandled panics in debug builds).
        let mut textures_delta = full_output.textures_delta;
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                gfx.egui_renderer
                    .update_texture(&gfx.device, &gfx.queue, *id, delta);
            }
        }
        let textures_to_free: Vec<egui::TextureId> = textures_delta.free.iter().copied().collect();
        textures_delta.clear();
        for command in commands {
            self.viewer.apply(command);
        }
        // The file dialog: start one when asked, open what it picked when it answers.
        if let Some(i) = self
            .viewer
            .window_requests
            .iter()
            .position(|r| *r == UiCommand::BrowseForFile)
        {
            self.viewer.window_requests.remove(i);
            self.browse();
        }
        let answer = self.dialog.as_ref().map(|rx| rx.try_recv());
        match answer {
            Some(Ok(picked)) => {
                self.dialog = None;
                if let Some(path) = picked {
                    let _ = self.viewer.open(&path);
                }
            }
            Some(Err(std::sync::mpsc::TryRecvError::Disconnected)) => self.dialog = None,
            Some(Err(std::sync::mpsc::TryRecvError::Empty)) | None => {}
        }
        if self.viewer.recent != self.saved_recent {
            save_recent(&self.viewer.recent);
            self.saved_recent.clone_from(&self.viewer.recent);
        }
        let members = self.viewer.crowd.as_ref().map_or(1, |c| c.len());
        if self.viewer_generation_changed() || members != self.renderer_members {
            self.renderer_members = members;
            if let Some(gfx) = self.gfx.as_mut() {
                gfx.renderer = Renderer::with_members(
                    &gfx.device,
                    &gfx.queue,
                    &self.viewer.character,
                    gfx.config.format.add_srgb_suffix(),
                    members,
                );
            }
            self.viewer.pose_frame();
        }
        let Some(gfx) = self.gfx.as_mut() else { return };
        let ppp = full_output.pixels_per_point;
        let size = (gfx.config.width, gfx.config.height);
        let viewport = [
            view_rect.left() * ppp,
            view_rect.top() * ppp,
            view_rect.width() * ppp,
            view_rect.height() * ppp,
        ];
        // Split view: the main palette on the left, the compared one on the right.
        let split = self.viewer.controls.split && self.viewer.crowd.is_none();
        let (main_view, compare_view) = if split {
            let half = viewport[2] * 0.5;
            (
                [viewport[0], viewport[1], half, viewport[3]],
                Some([viewport[0] + half, viewport[1], half, viewport[3]]),
            )
        } else {
            (viewport, None)
        };
        let aspect = (main_view[2] / main_view[3].max(1.0)).max(0.1);
        let main_rect = egui::Rect::from_min_size(
            egui::pos2(main_view[0] / ppp, main_view[1] / ppp),
            egui::vec2(main_view[2] / ppp, main_view[3] / ppp),
        );
        let requests = std::mem::take(&mut self.viewer.window_requests);
        if self.camera.is_none() || !requests.is_empty() {
            let (min, max) = self
                .viewer
                .world_bounds()
                .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
            let framed = OrbitCamera::framing(min, max, 40.0, aspect);
            for r in &requests {
                match (r, self.camera.as_mut()) {
                    // F: aim at the character again, keeping the direction.
                    (UiCommand::FrameCamera, Some(cam)) => {
                        cam.target = framed.target;
                        cam.distance = framed.distance;
                        cam.radius = framed.radius;
                    }
                    _ => self.camera = Some(framed),
                }
            }
            if self.camera.is_none() {
                self.camera = Some(framed);
            }
        }
        let camera = self
            .camera
            .map(|c| c.camera())
            .unwrap_or(crate::render::camera::Camera {
                eye: Vec3::new(0.0, 1.0, 3.0),
                target: Vec3::ZERO,
                fov_y_degrees: 40.0,
                near: 0.01,
                far: 100.0,
            });

        // Bones overlay and the selected joint.
        let c = &self.viewer.controls;
        let radius = self.camera.map_or(1.0, |c| c.radius);
        self.bones.clear();
        if c.show_bones {
            renderer::bone_lines_into(
                &self.viewer.character,
                &self.viewer.pose,
                radius * 0.01,
                &mut self.bones,
            );
        }
        if let Some(j) = c.selected_joint {
            renderer::joint_marker(&self.viewer.pose, j, radius * 0.04, &mut self.bones);
        }
        self.last_view = Some((main_rect, camera, aspect));
        self.viewer.stats.pose_ms = pose_ms;
        self.viewer.stats.frame_ms = dt * 1000.0;
        self.viewer.stats.fps = if dt > 0.0 {
            0.9 * self.viewer.stats.fps + 0.1 / dt
        } else {
            0.0
        };

        let shapes = full_output.shapes;
        let paint_jobs = gfx.egui_ctx.tessellate(shapes, ppp);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: ppp,
        };

        let screenshot_now = self
            .options
            .frames
            .is_some_and(|n| self.frames_drawn + 1 >= n);
        let surface_texture = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                // Resized or lost under us: configure again and draw next time.
                let inner = gfx.window.inner_size();
                gfx.resize(inner.width, inner.height);
                free_textures(gfx, &textures_to_free);
                return;
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                free_textures(gfx, &textures_to_free);
                return;
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                self.result = Err("the window's surface reported a validation error".into());
                event_loop.exit();
                return;
            }
        };
        let srgb = gfx.config.format.add_srgb_suffix();
        let views = |texture: &wgpu::Texture| {
            let linear = texture.create_view(&Default::default());
            let srgb = texture.create_view(&wgpu::TextureViewDescriptor {
                format: Some(srgb),
                ..Default::default()
            });
            (srgb, linear)
        };
        let offscreen = screenshot_now
            .then(|| Offscreen::with_formats(&gfx.device, size, gfx.config.format, &[srgb]));
        let mut targets = vec![views(&surface_texture.texture)];
        if let Some(o) = &offscreen {
            targets.push(views(&o.texture));
        }
        let mut encoder = gfx.device.create_command_encoder(&Default::default());
        gfx.egui_renderer.update_buffers(
            &gfx.device,
            &gfx.queue,
            &mut encoder,
            &paint_jobs,
            &screen,
        );
        let options = DrawOptions {
            viewport: Some(main_view),
            ..self.viewer.draw_options()
        };
        if options.vertex_colors {
            let colors = self.viewer.vertex_colors();
            gfx.renderer
                .set_vertex_colors(&gfx.queue, &self.viewer.character, &colors);
        }
        gfx.renderer.prepare(
            &gfx.queue,
            &FrameInput {
                character: &self.viewer.character,
                posed: match &self.viewer.crowd {
                    Some(crowd) => Posed::Crowd(crowd),
                    None => Posed::One(&self.viewer.pose),
                },
                camera: &camera,
                aspect,
                bones: &self.bones,
                options: &options,
            },
        );
        self.viewer.stats.palette_bytes = gfx.renderer.palette_bytes_uploaded;
        for (srgb_view, _) in &targets {
            gfx.renderer
                .paint(&gfx.device, &mut encoder, srgb_view, size, &options);
        }
        if let Some(right) = compare_view {
            // The compared palette into the other frame slot, drawn beside the first.
            let compare_options = DrawOptions {
                viewport: Some(right),
                clear: false,
                ..options
            };
            let c = &self.viewer.controls;
            self.bones.clear();
            if c.show_bones {
                renderer::bone_lines_into(
                    &self.viewer.character,
                    &self.viewer.compare_pose,
                    radius * 0.01,
                    &mut self.bones,
                );
            }
            if let Some(j) = c.selected_joint {
                renderer::joint_marker(
                    &self.viewer.compare_pose,
                    j,
                    radius * 0.04,
                    &mut self.bones,
                );
            }
            gfx.renderer.prepare(
                &gfx.queue,
                &FrameInput {
                    character: &self.viewer.character,
                    posed: Posed::One(&self.viewer.compare_pose),
                    camera: &camera,
                    aspect,
                    bones: &self.bones,
                    options: &compare_options,
                },
            );
            self.viewer.stats.palette_bytes += gfx.renderer.palette_bytes_uploaded;
            for (srgb_view, _) in &targets {
                gfx.renderer
                    .paint(&gfx.device, &mut encoder, srgb_view, size, &compare_options);
            }
        }
        for (_, linear_view) in &targets {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: linear_view,
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
            gfx.egui_renderer
                .render(&mut pass.forget_lifetime(), &paint_jobs, &screen);
        }
        gfx.queue.submit([encoder.finish()]);
        gfx.window.pre_present_notify();
        gfx.queue.present(surface_texture);
        free_textures(gfx, &textures_to_free);
        self.frames_drawn += 1;

        if let Some(o) = offscreen {
            if let Some(path) = &self.options.screenshot {
                self.result = save_screenshot(gfx, &o, path);
            }
            event_loop.exit();
        } else if self.options.frames.is_some_and(|n| self.frames_drawn >= n) {
            event_loop.exit();
        }
    }

    /// Opens a file dialog on its own thread; its answer arrives through `self.dialog`.
    fn browse(&mut self) {
        if self.dialog.is_some() {
            return;
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let picked = rfd::FileDialog::new()
                .set_title("Open a glTF character")
                .add_filter("glTF", &["gltf", "glb"])
                .pick_file();
            let _ = sender.send(picked);
        });
        self.dialog = Some(receiver);
    }

    /// A click (press and release without a drag) at `at` physical pixels: picks a joint or a
    /// vertex in the main 3D view.
    fn click(&mut self, at: Vec2) {
        let (Some(gfx), Some((rect, camera, aspect))) = (self.gfx.as_ref(), self.last_view) else {
            return;
        };
        let ppp = gfx.egui_ctx.pixels_per_point();
        let at = at / ppp;
        if !rect.contains(egui::pos2(at.x, at.y)) {
            return;
        }
        let view = (
            Vec2::new(rect.left(), rect.top()),
            Vec2::new(rect.width(), rect.height()),
        );
        self.viewer.pick(at, view, camera.clip_from_world(aspect));
    }

    fn viewer_generation_changed(&mut self) -> bool {
        let generation = self.viewer.character_generation();
        let changed = generation != self.character_generation;
        self.character_generation = generation;
        changed
    }
}

/// Each skin joint's name beside it, over the 3D view.
fn paint_joint_names(
    ui: &egui::Ui,
    viewer: &Viewer,
    camera: &crate::render::camera::Camera,
    view: egui::Rect,
) {
    let aspect = view.width() / view.height().max(1.0);
    let clip_from_world = camera.clip_from_world(aspect);
    let painter = ui.ctx().layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        ui.scope_id().with("joint-names"),
    ));
    let painter = painter.with_clip_rect(view);
    let font = egui::FontId::proportional(11.0);
    let model = viewer.pose.model.as_slice();
    for skin in &viewer.character.skins {
        for joint in (0..skin.skin.len()).filter_map(|p| skin.skin.joint(p)) {
            let p = Vec3::from(model[joint].translation);
            let clip = clip_from_world * p.extend(1.0);
            if clip.w <= 0.0 {
                continue;
            }
            let ndc = clip.truncate() / clip.w;
            let pos = egui::pos2(
                view.left() + (ndc.x + 1.0) * 0.5 * view.width() + 4.0,
                view.top() + (1.0 - ndc.y) * 0.5 * view.height() - 6.0,
            );
            painter.text(
                pos,
                egui::Align2::LEFT_CENTER,
                &viewer.character.skeleton.names()[joint],
                font.clone(),
                egui::Color32::from_rgb(255, 240, 180),
            );
        }
    }
}

fn free_textures(gfx: &mut Gfx, ids: &[egui::TextureId]) {
    for id in ids {
        gfx.egui_renderer.free_texture(id);
    }
}

fn save_screenshot(gfx: &Gfx, target: &Offscreen, path: &std::path::Path) -> Result<(), String> {
    let pixels = target
        .read_rgba(&gfx.device, &gfx.queue)
        .map_err(|e| e.to_string())?;
    crate::render::headless::write_png(path, target.size, &pixels)
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match Gfx::new(event_loop, &self.viewer, self.options.size) {
            Ok(gfx) => {
                log::info!("adapter: {:?}", gfx.adapter.get_info());
                self.gfx = Some(gfx);
                self.character_generation = self.viewer.character_generation();
                self.last_frame = Instant::now();
            }
            Err(e) => {
                self.result = Err(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gfx) = self.gfx.as_mut() else { return };
        let response = gfx.egui_state.on_window_event(&gfx.window, &event);
        let egui_wants_pointer =
            gfx.egui_ctx.is_pointer_over_egui() || gfx.egui_ctx.egui_is_using_pointer();
        let egui_wants_keys = gfx.egui_ctx.egui_wants_keyboard_input();
        let height = gfx.config.height.max(1) as f32;
        match &event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => gfx.resize(size.width, size.height),
            WindowEvent::RedrawRequested => self.draw(event_loop),
            WindowEvent::DroppedFile(path) => {
                let _ = self.viewer.open(path);
            }
            WindowEvent::ModifiersChanged(m) => self.mouse.modifiers = m.state(),
            WindowEvent::KeyboardInput { event: key, .. }
                if !response.consumed && !egui_wants_keys && key.state == ElementState::Pressed =>
            {
                self.handle_key(&key.logical_key);
            }
            WindowEvent::MouseInput {
                state: ElementState::Released,
                ..
            } => self.camera_input(&event, height),
            WindowEvent::MouseInput { .. } | WindowEvent::MouseWheel { .. }
                if !response.consumed && !egui_wants_pointer =>
            {
                self.camera_input(&event, height)
            }
            WindowEvent::CursorMoved { .. } => {
                if response.consumed && !self.mouse.left && !self.mouse.middle {
                    self.mouse.position = None;
                }
                self.camera_input(&event, height);
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(gfx) = &self.gfx {
            gfx.window.request_redraw();
        }
    }
}
