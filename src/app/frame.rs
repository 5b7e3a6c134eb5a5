//! One frame of the window, in order: input and panel -> apply commands -> advance clocks ->
//! pose once -> render. Each step is one function here.

use std::time::Duration;

use web_time::Instant;

use glam::Vec3;
use winit::event_loop::ActiveEventLoop;

use super::gfx::Gfx;
use super::panel::PanelOutput;
use super::surface::Acquired;
use super::{App, DialogFor, draw_options};
use crate::draw;
use crate::render::camera::{Camera, OrbitCamera};
use crate::render::deformers::DeformerKind;
use crate::render::offscreen::Offscreen;
use crate::render::renderer::{DrawOptions, FrameInput, SkinPass, View};
use crate::viewer::record::RecordCommand;
use crate::viewer::{Compared, CpuTimes, WindowRequest};

/// The clocks' step per frame in a batch run: the command line's 60 Hz.
pub const BATCH_STEP_SECS: f32 = 1.0 / 60.0;

/// The 3D view's layout this frame, in physical pixels: the main view, and the compared one
/// beside it in a split view.
struct Viewports {
    main: [f32; 4],
    compared: Option<[f32; 4]>,
    /// The main view in points (what a click picks in).
    main_rect: egui::Rect,
    aspect: f32,
}

/// The longest step the window's clocks take in one frame.
const MAX_STEP_SECS: f32 = 0.25;

impl App {
    /// The whole frame.
    pub(super) fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        // The real time since the last frame (what the statistics show), and the step the
        // clocks take: at most 0.25 s, so a stall (a dialog, a slow frame) is not a jump.
        let real_dt = (now - self.last_frame).as_secs_f32();
        let dt = real_dt.min(MAX_STEP_SECS);
        self.last_frame = now;
        self.cpu = CpuClock::started(now);
        if self.recover_lost_device(event_loop) {
            return;
        }
        let Some(gfx) = self.gfx.as_mut() else { return };
        let (width, height) = gfx.surface.size();
        if width == 0 || height == 0 {
            return;
        }
        // 1. Input (queued by the event handlers) and the panel.
        let panel_commands = self.run_panel(now);
        self.cpu.panel = now.elapsed();
        let mut commands = std::mem::take(&mut self.commands);
        commands.extend(panel_commands);
        // 2-4. Commands, clocks, and the pose, once. A batch run (--frames) steps the clocks by
        // 1/60 s a frame whatever the machine's speed, so its frames are reproducible (they are
        // `render --simulate`'s and `--time`'s).
        let step = if self.options.frames.is_some() {
            BATCH_STEP_SECS
        } else {
            dt
        };
        if self.viewer.controls.matching.on {
            let yaw = self.camera.map_or(0.0, |c| c.yaw_radians);
            let run = self.mouse.modifiers.shift_key();
            self.viewer.steer(self.steer.direction(), run, yaw);
        } else {
            self.steer = super::input::SteerKeys::default();
        }
        self.viewer.camera_eye = self.camera.map(|c| c.eye());
        let posing = Instant::now();
        self.viewer.frame(commands, step);
        self.cpu.pose = posing.elapsed();
        self.window_requests();
        // 5. Render what was posed.
        if let Some(mut panel) = self.panel.take() {
            self.render(event_loop, &mut panel, real_dt);
            self.panel = Some(panel);
        }
    }

    /// A lost device is rebuilt for the same window (the viewer's state stays). Returns whether
    /// this frame is skipped.
    fn recover_lost_device(&mut self, event_loop: &ActiveEventLoop) -> bool {
        let Some(gfx) = self.gfx.as_ref().filter(|g| g.is_lost()) else {
            return false;
        };
        let window = gfx.window.clone();
        self.gfx = None;
        #[cfg(not(target_arch = "wasm32"))]
        let made = Gfx::blocking(event_loop, window, &self.viewer);
        // A page cannot wait for a device: it is set up again by loading the page again.
        #[cfg(target_arch = "wasm32")]
        let made = {
            drop(window);
            Err(super::AppError::Surface("reload the page".into()))
        };
        match made {
            Ok(new) => {
                log::warn!("recreated the GPU device after it was lost");
                self.gfx = Some(new);
                self.renderer_copies = 1;
            }
            Err(e) => {
                self.result = Err(super::AppError::DeviceLost(Box::new(e)));
                event_loop.exit();
            }
        }
        true
    }

    /// What the viewer asked of the window this frame: the file dialog, saving the recent files,
    /// and a new renderer for another character or crowd size. (Camera requests are handled by
    /// `render`, which knows the view's aspect.)
    fn window_requests(&mut self) {
        // A file the dialog picked loads first (its camera reset is this frame's).
        self.dialog_answer();
        // Every request is taken here, once: the dialog opens now, camera moves wait for the
        // render step, which knows the view's aspect.
        for request in std::mem::take(&mut self.viewer.window_requests) {
            match request {
                WindowRequest::BrowseForFile => self.browse(DialogFor::Open),
                WindowRequest::BrowseForClips => self.browse(DialogFor::Clips),
                WindowRequest::BrowseForRetargetSource => self.browse(DialogFor::RetargetSource),
                WindowRequest::BrowseForRecording => self.browse(DialogFor::Recording),
                camera => self.camera_requests.push(camera),
            }
        }
        // A batch run (--frames: tests, screenshots) leaves the user's list as it was.
        if self.viewer.recent != self.saved_recent && self.options.frames.is_none() {
            super::recent::save(&self.viewer.recent);
            self.saved_recent.clone_from(&self.viewer.recent);
        }
        let onion = self.viewer.over_time.onion().map(|o| o.copies());
        let copies = (self.viewer.crowd.as_ref().map(|c| c.len()))
            .or(onion)
            .unwrap_or(1);
        let generation = self.viewer.character_generation();
        if generation != self.character_generation {
            // Another character: its meshes, textures and draw table.
            self.character_generation = generation;
            self.renderer_copies = copies;
            self.record_frames = None;
            if let Some(gfx) = self.gfx.as_mut() {
                gfx.rebuild_renderer(&self.viewer, copies);
                self.viewer.crowd_limit = gfx.crowd_limit(&self.viewer);
            }
        } else if copies != self.renderer_copies {
            // Another crowd size: the per-view buffers only.
            self.renderer_copies = copies;
            if let Some(gfx) = self.gfx.as_mut() {
                gfx.resize_renderer(copies);
            }
        }
    }

    /// Opens what a running file dialog picked, once it answers. The file is loaded now and
    /// posed next frame.
    fn dialog_answer(&mut self) {
        let answer = self.dialog.as_ref().map(|rx| rx.try_recv());
        match answer {
            Some(Ok(picked)) => {
                self.dialog = None;
                let quick = self
                    .dialog_opened
                    .take()
                    .is_some_and(|t| t.elapsed() < super::DIALOG_FAILED_WITHIN);
                match picked {
                    Some(path) if self.dialog_for == DialogFor::Clips => {
                        if let Err(e) = self.viewer.add_clips(&path) {
                            self.viewer.load_error = Some(e.to_string());
                        }
                    }
                    Some(path) if self.dialog_for == DialogFor::RetargetSource => {
                        self.viewer.controls.retarget_source = path.display().to_string();
                        let open = crate::viewer::retarget::RetargetCommand::Open(path);
                        self.viewer.apply(crate::viewer::UiCommand::Retarget(open));
                    }
                    Some(path) if self.dialog_for == DialogFor::Recording => {
                        self.viewer.apply(RecordCommand::Start(path).into());
                    }
                    Some(path) => {
                        let _ = self.viewer.open(&path);
                    }
                    None if quick => {
                        self.viewer.load_error = Some(
                            "the file dialog closed at once: no desktop portal answered (see the log); type the file's path above, or drop the file on the window".into(),
                        )
                    }
                    None => {}
                }
            }
            Some(Err(std::sync::mpsc::TryRecvError::Disconnected)) => self.dialog = None,
            Some(Err(std::sync::mpsc::TryRecvError::Empty)) | None => {}
        }
    }

    /// Splits the 3D view for a split view (the main palette on the left, the compared one on
    /// the right).
    fn viewports(&self, panel: &PanelOutput) -> Viewports {
        let ppp = panel.pixels_per_point;
        let r = panel.view_rect;
        let full = [
            r.left() * ppp,
            r.top() * ppp,
            r.width() * ppp,
            r.height() * ppp,
        ];
        let split = self.viewer.controls.compared() != Compared::Off && self.viewer.crowd.is_none();
        let (main, compared) = if split {
            let half = full[2] * 0.5;
            (
                [full[0], full[1], half, full[3]],
                Some([full[0] + half, full[1], half, full[3]]),
            )
        } else {
            (full, None)
        };
        Viewports {
            main,
            compared,
            main_rect: egui::Rect::from_min_size(
                egui::pos2(main[0] / ppp, main[1] / ppp),
                egui::vec2(main[2] / ppp, main[3] / ppp),
            ),
            aspect: (main[2] / main[3].max(1.0)).max(0.1),
        }
    }

    /// The camera after this frame's camera requests (framing what is drawn now), or the file's
    /// camera the panel picked.
    fn update_camera(&mut self, aspect: f32) -> Camera {
        let viewer = &self.viewer;
        if let Some(camera) = viewer
            .controls
            .view
            .file_camera
            .and_then(|k| draw::view::file_camera(&viewer.character, &viewer.pose, k))
        {
            self.camera_requests.clear();
            return camera;
        }
        // Follow a travelling character: the orbit target moves with its placement.
        let at = self.viewer.locomotion().placement().position;
        if let (Some(cam), Some(last)) = (self.camera.as_mut(), self.followed)
            && self.viewer.controls.motion.follow_camera
        {
            cam.target += at - last;
        }
        self.followed = Some(at);
        let requests = std::mem::take(&mut self.camera_requests);
        if self.camera.is_none() || !requests.is_empty() {
            let (min, max) = self
                .viewer
                .world_bounds()
                .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
            let framed = OrbitCamera::framing(min, max, 40.0, aspect);
            for r in &requests {
                match (r, self.camera.as_mut()) {
                    // F: aim at the character again, keeping the direction.
                    (WindowRequest::FrameCamera, Some(cam)) => {
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
        self.camera.map(|c| c.camera()).unwrap_or(Camera::look_at(
            Vec3::new(0.0, 1.0, 3.0),
            Vec3::ZERO,
            40.0,
            0.01,
            100.0,
        ))
    }

    /// The overlay of one view: its bones, the selected joint's marker, the scene's lines.
    fn bone_lines(&mut self, compared: bool) {
        let viewer = &self.viewer;
        let c = &viewer.controls;
        let pose = if compared {
            &viewer.compare_pose
        } else {
            &viewer.pose
        };
        draw::view::overlay_lines(
            &viewer.character,
            pose,
            c.view.bone_view(c.selected_joint),
            c.selected_joint,
            draw::view::bone_width(viewer.derived.rest_bounds),
            viewer.overlay_lines(),
            &mut self.bones,
        );
    }

    /// Step 5: the 3D views, then egui, into the window (and an offscreen copy for a screenshot).
    /// `real_dt`: the real time since the last frame, for the statistics.
    fn render(&mut self, event_loop: &ActiveEventLoop, panel: &mut PanelOutput, real_dt: f32) {
        let viewports = self.viewports(panel);
        let camera = self.update_camera(viewports.aspect);
        self.last_view = Some((viewports.main_rect, camera, viewports.aspect));
        self.update_stats(real_dt);
        let Some(gfx) = self.gfx.as_mut() else { return };
        let size = gfx.surface.size();
        let acquiring = Instant::now();
        let acquired = gfx.surface.acquire(&gfx.gpu.device, gfx.window_size());
        self.cpu.waited += acquiring.elapsed();
        let uploading = Instant::now();
        let surface_texture = match acquired {
            Acquired::Texture(t) => t,
            Acquired::Skip => {
                panel.free_textures(gfx);
                return;
            }
            Acquired::Failed(e) => {
                self.result = Err(e);
                event_loop.exit();
                return;
            }
        };
        let screenshot_now = self
            .options
            .frames
            .is_some_and(|n| self.frames_drawn + 1 >= n);
        let srgb = gfx.surface.srgb_format();
        let offscreen = screenshot_now
            .then(|| Offscreen::with_formats(&gfx.gpu.device, size, gfx.surface.format(), &[srgb]));
        let mut targets = vec![Targets::of(&surface_texture.texture, srgb)];
        if let Some(o) = &offscreen {
            targets.push(Targets::of(&o.texture, srgb));
        }
        let mut encoder = gfx.gpu.device.create_command_encoder(&Default::default());
        self.paint_views(&mut encoder, &targets, &viewports, &camera);
        let recording = Instant::now();
        self.record_frame(&camera);
        let recorded = recording.elapsed();
        self.cpu.waited += recorded;
        let Some(gfx) = self.gfx.as_mut() else { return };
        let linear: Vec<_> = targets.iter().map(|t| &t.linear).collect();
        panel.paint(gfx, &mut encoder, &linear, size);
        gfx.gpu.queue.submit([encoder.finish()]);
        let uploaded = uploading.elapsed().saturating_sub(recorded);
        gfx.window.pre_present_notify();
        let presenting = Instant::now();
        gfx.gpu.queue.present(surface_texture);
        self.cpu.waited += presenting.elapsed();
        let cpu = self.cpu.times(uploaded);
        self.viewer.stats.cpu.average_in(cpu);
        let Some(gfx) = self.gfx.as_mut() else { return };
        panel.free_textures(gfx);
        self.frames_drawn += 1;
        if let Some(o) = offscreen {
            if let Some(path) = &self.options.screenshot {
                self.result = save_screenshot(gfx, &o, path);
            }
            event_loop.exit();
        } else if self.options.frames.is_some_and(|n| self.frames_drawn >= n) {
            event_loop.exit();
        }
        #[cfg(target_arch = "wasm32")]
        self.page_drawn();
    }

    /// While recording ("Record..."): the main view drawn again offscreen at the recording's
    /// size (the same pose, camera and settings, the camera turned for a turntable), read back
    /// and handed to the viewer.
    fn record_frame(&mut self, camera: &Camera) {
        let Some(frame) = self.viewer.recording_frame() else {
            self.record_frames = None;
            return;
        };
        self.bone_lines(false);
        let Some(gfx) = self.gfx.as_ref() else { return };
        let viewer = &self.viewer;
        let frames = self
            .record_frames
            .get_or_insert_with(|| draw::headless::Frames::new(&viewer.character));
        let options = DrawOptions {
            adapter: gfx.gpu.adapter_kind(),
            ..draw_options(&viewer.controls)
        };
        let colors = options.vertex_colors.then(|| viewer.vertex_colors());
        let camera = draw::headless::turned(*camera, frame.turn_degrees);
        let drawn = draw::headless::Drawn {
            camera: &camera,
            size: frame.size,
            options: &options,
            bones: &self.bones,
            colors: colors.as_deref(),
            legend: None,
            ddm: viewer.ddm.current.as_ref(),
            environment: viewer.environment.current.as_ref(),
            stands_at: viewer.locomotion().placement().position,
        };
        let pixels = frames.draw(&gfx.gpu, &viewer.character, &viewer.pose, &drawn);
        self.viewer.recorded(pixels.map_err(|e| e.to_string()));
    }

    fn update_stats(&mut self, real_dt: f32) {
        self.viewer.stats.frame_took(real_dt);
    }

    /// The main view and, in a split view, the compared palette beside it: each view has its
    /// own camera and palette slot in the renderer, so a paused split view uploads nothing.
    fn paint_views(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        targets: &[Targets],
        viewports: &Viewports,
        camera: &Camera,
    ) {
        let base = draw_options(&self.viewer.controls);
        // The passes that draw the mesh: each view, and the wireframe over the shading.
        let views = 1 + u32::from(viewports.compared.is_some());
        let per_view = u32::from(base.mesh) + u32::from(base.wireframe);
        let main = DrawOptions {
            viewport: Some(viewports.main),
            mesh_passes: views * per_view.max(1),
            adapter: self
                .gfx
                .as_ref()
                .map_or(Default::default(), |g| g.gpu.adapter_kind()),
            ..base
        };
        if main.vertex_colors
            && let Some(gfx) = self.gfx.as_ref()
        {
            let colors = self.viewer.vertex_colors();
            gfx.renderer.set_vertex_colors(&gfx.gpu.queue, &colors);
        }
        let compared = viewports.compared.map(|right| {
            let c = &self.viewer.controls;
            let options = DrawOptions {
                viewport: Some(right),
                clear: false,
                skinning: if matches!(
                    c.compared(),
                    Compared::OtherSkinning | Compared::MlReference
                ) {
                    c.right_skinning()
                } else {
                    main.skinning
                },
                ..main
            };
            (View::Compared, options)
        });
        self.viewer.stats.palette_bytes = 0;
        if let Some(gfx) = self.gfx.as_mut() {
            gfx.sync_deformers(&self.viewer);
        }
        for (view, options) in [Some((View::Main, main)), compared].into_iter().flatten() {
            let overlay = Instant::now();
            self.bone_lines(view == View::Compared);
            self.cpu.overlay += overlay.elapsed();
            let Some(gfx) = self.gfx.as_mut() else { return };
            gfx.fit_lines(self.bones.len());
            // The grid under the character wherever it has travelled.
            let (lo, hi) = self.viewer.derived.rest_bounds;
            let moved = self.viewer.locomotion().placement().position.with_y(0.0);
            gfx.renderer
                .lay_grid(&gfx.gpu.device, (lo + moved, hi + moved));
            let values = &mut self.deformer_values;
            let posed = match (&self.viewer.crowd, view) {
                (Some(crowd), _) => draw::extract_crowd(crowd),
                // A model of the muscles stands in for them (the split view's right half, its
                // reference, draws them).
                (None, View::Main) if self.viewer.controls.ml_replaces_muscles() => {
                    let muscles = [DeformerKind::Muscles];
                    draw::extract_except(&self.viewer.pose, &muscles, values)
                }
                (None, View::Main) => match self.viewer.over_time.onion() {
                    Some(onion) => onion.posed(&self.viewer.pose),
                    None => draw::extract(&self.viewer.pose, values),
                },
                (None, View::Compared) => draw::extract(&self.viewer.compare_pose, values),
            };
            let uploaded = gfx.renderer.prepare(
                view,
                &gfx.gpu.queue,
                &FrameInput {
                    posed,
                    camera,
                    aspect: viewports.aspect,
                    bones: &self.bones,
                    options: &options,
                },
            );
            self.viewer.stats.palette_bytes += uploaded.palette_bytes;
            let size = gfx.surface.size();
            let mut ran = false;
            let mut skinned_in = SkinPass::Vertex;
            let mut why = "";
            for t in targets {
                let painted =
                    gfx.renderer
                        .paint(view, &gfx.gpu.device, encoder, &t.srgb, size, &options);
                ran |= painted.skin_pass_ran;
                skinned_in = painted.skinned_in;
                why = painted.why;
            }
            if view == View::Main {
                self.skinned_in = skinned_in;
                self.viewer.stats.skin_pass_ran = (skinned_in == SkinPass::Compute).then_some(ran);
                self.viewer.stats.skin_pass_why = why;
            }
        }
    }
}

/// The window frame's CPU time so far, by part, and the time spent waiting (for the surface's
/// next image, a recording's read-back, presenting), which is not CPU work.
pub(super) struct CpuClock {
    start: Instant,
    panel: Duration,
    pose: Duration,
    overlay: Duration,
    waited: Duration,
}

impl CpuClock {
    pub(super) fn started(start: Instant) -> Self {
        Self {
            start,
            panel: Duration::ZERO,
            pose: Duration::ZERO,
            overlay: Duration::ZERO,
            waited: Duration::ZERO,
        }
    }

    /// The frame's figures once it is presented; `uploaded` is the time from the image acquired
    /// to the submit, of which the overlays' lines are their own figure.
    fn times(&self, uploaded: Duration) -> CpuTimes {
        let ms = |d: Duration| d.as_secs_f32() * 1000.0;
        let total = self.start.elapsed().saturating_sub(self.waited);
        CpuTimes {
            panel_ms: ms(self.panel),
            pose_ms: ms(self.pose),
            overlay_ms: ms(self.overlay),
            upload_ms: ms(uploaded.saturating_sub(self.overlay)),
            total_ms: ms(total),
        }
    }
}

/// A texture's two views: sRGB for the 3D view, linear for egui.
struct Targets {
    srgb: wgpu::TextureView,
    linear: wgpu::TextureView,
}

impl Targets {
    fn of(texture: &wgpu::Texture, srgb: wgpu::TextureFormat) -> Self {
        Self {
            linear: texture.create_view(&Default::default()),
            srgb: texture.create_view(&wgpu::TextureViewDescriptor {
                format: Some(srgb),
                ..Default::default()
            }),
        }
    }
}

fn save_screenshot(
    gfx: &Gfx,
    target: &Offscreen,
    path: &std::path::Path,
) -> Result<(), super::AppError> {
    let pixels = target
        .read_rgba(&gfx.gpu.device, &gfx.gpu.queue)
        .map_err(|e| super::AppError::Screenshot(e.to_string()))?;
    Ok(crate::image_file::write_image(path, target.size, &pixels)?)
}
