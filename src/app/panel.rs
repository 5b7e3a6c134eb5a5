//! The window's panel step: egui run over the viewer (`ui::run`) and tessellated, or its last
//! layout kept for a frame that has nothing new to show in it; then drawn over the 3D view.
//!
//! The panel's figures (the playhead, the statistics) change every frame while playing, but
//! nobody reads them 60 times a second. As Blender redraws a region only when it has something
//! to show, the panel is laid out again on any input, whenever egui asks for a frame (an
//! animation, a tooltip), for a batch run's every frame, and otherwise 30 times a second; a frame
//! in between draws the last layout again, at no CPU cost.

use std::time::Duration;

use web_time::Instant;

use super::App;
use super::gfx::Gfx;
use crate::ui;
use crate::viewer::UiCommand;

/// How long the last layout is kept at most while nothing is input: 30 layouts a second.
pub const PANEL_KEPT_FOR: Duration = Duration::from_micros(33_333);

/// egui's own limit on a click's press, in seconds (`InputOptions::max_click_duration`).
const CLICK_SECS: f64 = 0.8;

/// `input` and `ctx` paced to the window's real frame rate, `since_last` being the time since
/// the last layout. egui animates (and smooths the wheel) by `predicted_dt`, which egui-winit sets
/// to the display's refresh interval: at 2 frames a second the frame that sees a wheel turn moves
/// the panel by a third of it, and the rest comes in later frames, half a second apart. And egui
/// times a click's press between the frames that saw it go down and up, so a slow frame on either
/// side can make a quick click too long to count. So the frame's real interval is given as
/// `predicted_dt` (egui still caps what an animation takes of it at 0.1 s), and a press may last
/// a frame's interval beyond egui's 0.8 s.
pub(super) fn pace(input: &mut egui::RawInput, ctx: &egui::Context, since_last: Option<Duration>) {
    let Some(dt) = since_last else {
        return;
    };
    let dt = dt.as_secs_f32().clamp(1.0 / 240.0, 1.0);
    input.predicted_dt = dt;
    ctx.options_mut(|o| o.input_options.max_click_duration = CLICK_SECS + f64::from(dt));
}

/// The panel's layout, tessellated, and what the render step needs of it.
pub(super) struct PanelOutput {
    jobs: Vec<egui::ClippedPrimitive>,
    pub pixels_per_point: f32,
    /// The rect left for the 3D view, in points.
    pub view_rect: egui::Rect,
    /// egui textures to free once this frame is drawn.
    textures_to_free: Vec<egui::TextureId>,
    /// Whether `jobs` are in egui's buffers already (drawn once).
    uploaded: bool,
    laid_out_at: Instant,
    /// The window's rect the layout was made for, in points.
    screen_rect: Option<egui::Rect>,
    /// egui asked for the next frame at once.
    repaint_now: bool,
}

impl PanelOutput {
    /// Whether this layout can be drawn again for `input` at `now` instead of laying the panel
    /// out again: it has been drawn, nothing was input, the window kept its size, egui did not
    /// ask for a frame, and it is under `PANEL_KEPT_FOR` old.
    fn still_current(&self, input: &egui::RawInput, now: Instant) -> bool {
        self.uploaded
            && !self.repaint_now
            && input.events.is_empty()
            && input.dropped_files.is_empty()
            && input.hovered_files.is_empty()
            && input.screen_rect == self.screen_rect
            && now.duration_since(self.laid_out_at) < PANEL_KEPT_FOR
    }

    /// The panel over each of `targets` (linear views of the frame's textures), its shapes
    /// uploaded the first time this layout is drawn.
    pub fn paint(
        &mut self,
        gfx: &mut Gfx,
        encoder: &mut wgpu::CommandEncoder,
        targets: &[&wgpu::TextureView],
        size: (u32, u32),
    ) {
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: self.pixels_per_point,
        };
        if !self.uploaded {
            let (device, queue) = (&gfx.gpu.device, &gfx.gpu.queue);
            (gfx.egui_renderer).update_buffers(device, queue, encoder, &self.jobs, &screen);
            self.uploaded = true;
        }
        for target in targets {
            crate::draw::ui_overlay::render_pass(
                &gfx.egui_renderer,
                encoder,
                target,
                &self.jobs,
                &screen,
            );
        }
    }

    /// Frees the textures egui let go of in this layout (once).
    pub fn free_textures(&mut self, gfx: &mut Gfx) {
        gfx.free_textures(&std::mem::take(&mut self.textures_to_free));
    }
}

impl App {
    /// The panel step at `now`: egui's input taken, then the panel laid out (the joint names over
    /// the 3D view placed with last frame's camera), egui's texture updates applied and its
    /// shapes tessellated into `self.panel`, unless the last layout is still current (see the
    /// module). Returns the panel's commands.
    pub(super) fn run_panel(&mut self, now: Instant) -> Vec<UiCommand> {
        let Some(gfx) = self.gfx.as_mut() else {
            unreachable!("run_panel is called with graphics")
        };
        let mut input = gfx.egui_state.take_egui_input(&gfx.window);
        let batch = self.options.frames.is_some();
        let names = self.viewer.controls.view.show_joint_names;
        if let Some(last) = &self.panel
            && !batch
            && !names
            && last.still_current(&input, now)
        {
            return Vec::new();
        }
        // A batch run keeps egui's pace as it was: its clocks step 1/60 s a frame, whatever the
        // machine's speed.
        if !batch {
            let since_last = self
                .panel
                .as_ref()
                .map(|p| now.duration_since(p.laid_out_at));
            pace(&mut input, &gfx.egui_ctx, since_last);
        }
        let screen_rect = input.screen_rect;
        let last = self.last_view.map(|(_, camera, _)| camera);
        let clip_from_world = last.map(|c| move |aspect: f32| c.clip_from_world(aspect));
        let clip_from_world = clip_from_world
            .as_ref()
            .map(|f| f as &dyn Fn(f32) -> glam::Mat4);
        let (output, commands, view_rect) =
            ui::run(&gfx.egui_ctx, input, &mut self.viewer, clip_from_world);
        gfx.egui_state
            .handle_platform_output(&gfx.window, output.platform_output);
        // egui's texture changes are applied now and freed after drawing (dropping them
        // unhandled panics in debug builds).
        let mut textures_delta = output.textures_delta;
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                gfx.egui_renderer
                    .update_texture(&gfx.gpu.device, &gfx.gpu.queue, *id, delta);
            }
        }
        let repaint_now = output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .is_some_and(|v| v.repaint_delay.is_zero());
        let jobs = gfx
            .egui_ctx
            .tessellate(output.shapes, output.pixels_per_point);
        let mut textures_to_free: Vec<_> = textures_delta.free.iter().copied().collect();
        textures_delta.clear();
        // A kept layout that was never drawn still owes its frees.
        if let Some(old) = self.panel.take() {
            textures_to_free.extend(old.textures_to_free);
        }
        self.panel = Some(PanelOutput {
            jobs,
            pixels_per_point: output.pixels_per_point,
            view_rect,
            textures_to_free,
            uploaded: false,
            laid_out_at: now,
            screen_rect,
            repaint_now,
        });
        commands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn_at(at: Instant) -> PanelOutput {
        PanelOutput {
            jobs: Vec::new(),
            pixels_per_point: 1.0,
            view_rect: egui::Rect::NOTHING,
            textures_to_free: Vec::new(),
            uploaded: true,
            laid_out_at: at,
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            repaint_now: false,
        }
    }

    fn quiet(panel: &PanelOutput) -> egui::RawInput {
        egui::RawInput {
            screen_rect: panel.screen_rect,
            ..Default::default()
        }
    }

    #[test]
    fn a_drawn_layout_is_kept_a_thirtieth_of_a_second_while_nothing_is_input() {
        let at = Instant::now();
        let panel = drawn_at(at);
        let input = quiet(&panel);
        assert!(panel.still_current(&input, at));
        assert!(panel.still_current(&input, at + Duration::from_millis(33)));
        assert!(!panel.still_current(&input, at + Duration::from_millis(34)));
    }

    #[test]
    fn input_a_resize_a_repaint_or_an_undrawn_layout_lays_the_panel_out_again() {
        let at = Instant::now();
        let panel = drawn_at(at);
        let mut moved = quiet(&panel);
        moved
            .events
            .push(egui::Event::PointerMoved(egui::pos2(10.0, 10.0)));
        assert!(!panel.still_current(&moved, at));
        let mut dropped = quiet(&panel);
        dropped.hovered_files.push(egui::HoveredFile::default());
        assert!(!panel.still_current(&dropped, at));
        let resized = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1024.0, 600.0),
            )),
            ..Default::default()
        };
        assert!(!panel.still_current(&resized, at));
        let asked = PanelOutput {
            repaint_now: true,
            ..drawn_at(at)
        };
        assert!(!asked.still_current(&quiet(&asked), at));
        let undrawn = PanelOutput {
            uploaded: false,
            ..drawn_at(at)
        };
        assert!(!undrawn.still_current(&quiet(&undrawn), at));
    }

    /// egui frames at 2 a second (`FRAME` apart, as the window lays the panel out at 2 fps),
    /// paced as the window paces them or not: the frames' inputs, each at its time.
    const FRAME: Duration = Duration::from_millis(500);

    fn frame_input(
        frame: u32,
        events: Vec<egui::Event>,
        paced: bool,
        ctx: &egui::Context,
    ) -> egui::RawInput {
        let mut input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(400.0, 300.0),
            )),
            time: Some(FRAME.as_secs_f64() * f64::from(frame)),
            events,
            ..Default::default()
        };
        if paced && frame > 0 {
            pace(&mut input, ctx, Some(FRAME));
        }
        input
    }

    /// How far a scroll area over a tall column has moved after a wheel turn of three lines and
    /// one more frame at 2 frames a second, as a share of where it comes to rest.
    fn scrolled_after_one_frame(paced: bool) -> f32 {
        let ctx = egui::Context::default();
        let id = "column";
        let mut offset = 0.0;
        let mut frame = |n: u32, events: Vec<egui::Event>| {
            let input = frame_input(n, events, paced, &ctx);
            let mut output = ctx.run_ui(input, |ui| {
                let out = egui::ScrollArea::vertical().id_salt(id).show(ui, |ui| {
                    ui.allocate_space(egui::vec2(100.0, 5000.0));
                });
                offset = out.state.clamped_offset().y;
            });
            output.textures_delta.clear();
            offset
        };
        frame(0, vec![egui::Event::PointerMoved(egui::pos2(50.0, 50.0))]);
        let wheel = egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -3.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        };
        // A few quiet frames: egui asks for none once the first layouts have settled.
        for n in 1..4 {
            frame(n, Vec::new());
        }
        let first = frame(4, vec![wheel]);
        let rest = (5..40).map(|n| frame(n, Vec::new())).last().unwrap();
        assert!(rest > 100.0, "the wheel turn scrolled {rest} points in all");
        first / rest
    }

    #[test]
    fn at_two_frames_a_second_a_wheel_turn_scrolls_the_panel_within_the_frame() {
        // egui-winit's pace (the display's refresh) leaves most of the turn for later frames,
        // seconds later at this rate; the window's pace applies nine tenths of it at once.
        assert!(scrolled_after_one_frame(false) < 0.5);
        let paced = scrolled_after_one_frame(true);
        assert!(paced >= 0.89, "{paced}");
    }

    /// Whether a press that went down in frame 1 and came up in frame 3 clicks a button: at 2
    /// frames a second it may have lasted as little as half a second, and egui sees it last one.
    fn slow_click(paced: bool) -> bool {
        let ctx = egui::Context::default();
        let mut clicked = false;
        let at = egui::pos2(30.0, 12.0);
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        let events = [
            vec![egui::Event::PointerMoved(at)],
            vec![button(true)],
            Vec::new(),
            vec![button(false)],
            Vec::new(),
        ];
        for (n, events) in events.into_iter().enumerate() {
            let input = frame_input(n as u32, events, paced, &ctx);
            let mut output = ctx.run_ui(input, |ui| {
                clicked |= ui.button("Play").clicked();
            });
            output.textures_delta.clear();
        }
        clicked
    }

    #[test]
    fn at_two_frames_a_second_a_quick_press_still_clicks() {
        assert!(
            !slow_click(false),
            "egui's own limit lets it through: the test shows nothing"
        );
        assert!(slow_click(true));
    }
}
