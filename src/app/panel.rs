//! The window's panel step: egui run over the viewer (`ui::run`) and tessellated, or its last
//! layout kept for a frame that has nothing new to show in it; then drawn over the 3D view.
//!
//! The panel's figures (the playhead, the statistics) change every frame while playing, but
//! nobody reads them 60 times a second. As Blender redraws a region only when it has something
//! to show, the panel is laid out again on any input, whenever egui asks for a frame (an
//! animation, a tooltip), for a batch run's every frame, and otherwise 30 times a second; a frame
//! in between draws the last layout again, at no CPU cost.

use std::time::{Duration, Instant};

use super::App;
use super::gfx::Gfx;
use crate::ui;
use crate::viewer::UiCommand;

/// How long the last layout is kept at most while nothing is input: 30 layouts a second.
pub const PANEL_KEPT_FOR: Duration = Duration::from_micros(33_333);

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
        let input = gfx.egui_state.take_egui_input(&gfx.window);
        let batch = self.options.frames.is_some();
        let names = self.viewer.controls.view.show_joint_names;
        if let Some(last) = &self.panel
            && !batch
            && !names
            && last.still_current(&input, now)
        {
            return Vec::new();
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
}
