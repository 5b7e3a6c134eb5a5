//! Window input the panel did not take: keys, the camera's mouse controls and clicks that pick.

use glam::Vec2;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, NamedKey};

use super::App;
use crate::debug::picking::ScreenView;
use crate::pose::PaletteMode;
use crate::render::renderer::{SkinPass, View};
use crate::viewer::UiCommand;

/// Whether the pointer (`pointer_px`, physical pixels) is over the 3D view (`view`, egui points;
/// `None` before the first frame): the wheel zooms only there, never over the panel, even once
/// the panel's scrolling has reached its end and egui lets the wheel through.
pub fn over_view(
    view: Option<egui::Rect>,
    pointer_px: Option<Vec2>,
    pixels_per_point: f32,
) -> bool {
    match (view, pointer_px) {
        (Some(view), Some(p)) => {
            let at = p / pixels_per_point.max(1e-3);
            view.contains(egui::pos2(at.x, at.y))
        }
        _ => false,
    }
}

/// The steering keys held while motion matching steers: W/A/S/D or the arrows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SteerKeys {
    ahead: bool,
    back: bool,
    left: bool,
    right: bool,
}

impl SteerKeys {
    /// Records a steering key going down or up; false for any other key.
    pub fn set(&mut self, key: &Key, down: bool) -> bool {
        let slot = match key {
            Key::Named(NamedKey::ArrowUp) => &mut self.ahead,
            Key::Named(NamedKey::ArrowDown) => &mut self.back,
            Key::Named(NamedKey::ArrowLeft) => &mut self.left,
            Key::Named(NamedKey::ArrowRight) => &mut self.right,
            Key::Character(s) => match s.to_lowercase().as_str() {
                "w" => &mut self.ahead,
                "s" => &mut self.back,
                "a" => &mut self.left,
                "d" => &mut self.right,
                _ => return false,
            },
            _ => return false,
        };
        *slot = down;
        true
    }

    /// The keys' direction: x to the right, y ahead, each -1, 0 or 1.
    pub fn direction(&self) -> Vec2 {
        let axis = |plus: bool, minus: bool| f32::from(u8::from(plus)) - f32::from(u8::from(minus));
        Vec2::new(axis(self.right, self.left), axis(self.ahead, self.back))
    }
}

impl App {
    /// A key the panel did not take: toggles edit the controls at once; one-off actions are
    /// queued and applied with the panel's, in this frame's command step.
    pub(super) fn handle_key(&mut self, key: &Key) {
        let c = &mut self.viewer.controls;
        match key {
            Key::Named(NamedKey::Space) => self.commands.push(UiCommand::PlayPause),
            Key::Named(NamedKey::ArrowLeft) => self.commands.push(UiCommand::Step(-1)),
            Key::Named(NamedKey::ArrowRight) => self.commands.push(UiCommand::Step(1)),
            Key::Character(s) => match s.as_str() {
                "f" | "F" => self.commands.push(UiCommand::FrameCamera),
                "r" | "R" => self.commands.push(UiCommand::ResetCamera),
                "b" | "B" => c.view.show_bones = !c.view.show_bones,
                "w" | "W" => c.view.wireframe = !c.view.wireframe,
                "h" | "H" => c.view.show_panel = !c.view.show_panel,
                // The history's kept frames, one back or forward (rewinding).
                "," | "<" => {
                    self.commands
                        .push(UiCommand::History(crate::viewer::HistoryCommand::Step(
                            true,
                        )))
                }
                "." | ">" => {
                    self.commands
                        .push(UiCommand::History(crate::viewer::HistoryCommand::Step(
                            false,
                        )))
                }
                "1" => c.view.palette = PaletteMode::Animated,
                "2" => c.view.palette = PaletteMode::Bind,
                "3" => c.view.palette = PaletteMode::Identity,
                _ => {}
            },
            _ => {}
        }
    }

    /// Mouse input the panel did not take: orbit (left drag), pan (middle or shift+left drag),
    /// zoom (wheel), reach IK's target (ctrl+left drag, with reach IK on).
    pub(super) fn camera_input(&mut self, event: &WindowEvent, height: f32) {
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
                    let reach = self.mouse.left
                        && self.mouse.modifiers.control_key()
                        && self.viewer.controls.motion.reach_ik;
                    if reach {
                        // Ctrl+drag: reach IK's target moves across the view with the cursor.
                        let forward = (camera.target - camera.eye()).normalize_or_zero();
                        let right = forward.cross(glam::Vec3::Y).normalize_or_zero();
                        let up = right.cross(forward);
                        let per_pixel = camera.distance * 2.0 * 20f32.to_radians().tan() / height;
                        self.viewer
                            .move_reach_target((right * d.x - up * d.y) * per_pixel);
                    } else if pan {
                        camera.pan(-d.x / height, d.y / height);
                    } else if self.mouse.left {
                        camera.orbit(-d.x * 0.01, d.y * 0.01);
                    }
                }
                self.mouse.position = Some(p);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let ppp = self
                    .gfx
                    .as_ref()
                    .map_or(1.0, |g| g.egui_ctx.pixels_per_point());
                if !over_view(self.last_view.map(|v| v.0), self.mouse.position, ppp) {
                    return;
                }
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => *y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                camera.zoom(0.9f32.powf(lines));
            }
            _ => {}
        }
    }

    /// A click (press and release without a drag) at `at` physical pixels: picks a joint or a
    /// vertex in the main 3D view (with Alt held: pushes the ragdoll's body there), among the vertices drawn: the skin pass's, read back, when it
    /// skinned the last frame.
    fn click(&mut self, at: Vec2) {
        let (Some(gfx), Some((rect, camera, aspect))) = (self.gfx.as_mut(), self.last_view) else {
            return;
        };
        let ppp = gfx.egui_ctx.pixels_per_point();
        let at = at / ppp;
        if !rect.contains(egui::pos2(at.x, at.y)) {
            return;
        }
        let view = ScreenView {
            origin: Vec2::new(rect.left(), rect.top()),
            size: Vec2::new(rect.width(), rect.height()),
            clip_from_world: camera.clip_from_world(aspect),
        };
        let drawn = (self.skinned_in == SkinPass::Compute && self.viewer.crowd.is_none())
            .then(|| {
                gfx.renderer
                    .read_skinned(View::Main, &gfx.gpu.device, &gfx.gpu.queue)
            })
            .and_then(|read| read.map_err(|e| log::warn!("picking on the CPU: {e}")).ok())
            .map(|skinned| {
                crate::draw::world_vertices(&skinned, &self.viewer.character, &self.viewer.pose)
            });
        if self.mouse.modifiers.alt_key() {
            // Alt+click: a push on the body hit (with the physics on).
            self.viewer.push(at, &view, drawn.as_ref());
        } else {
            self.viewer.pick(at, &view, drawn.as_ref());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steering_keys_give_a_direction_while_held() {
        let mut keys = SteerKeys::default();
        let w = Key::Character("w".into());
        let shift_a = Key::Character("A".into());
        assert!(keys.set(&w, true));
        assert_eq!(keys.direction(), Vec2::new(0.0, 1.0));
        assert!(keys.set(&shift_a, true));
        assert!(keys.set(&Key::Named(NamedKey::ArrowDown), true));
        assert_eq!(keys.direction(), Vec2::new(-1.0, 0.0));
        assert!(keys.set(&w, false));
        assert!(keys.set(&Key::Named(NamedKey::ArrowDown), false));
        assert_eq!(keys.direction(), Vec2::new(-1.0, 0.0));
        assert!(keys.set(&Key::Character("a".into()), false));
        assert_eq!(keys.direction(), Vec2::ZERO);
        // Not a steering key: nothing held changes.
        assert!(!keys.set(&Key::Character("f".into()), true));
        assert!(!keys.set(&Key::Named(NamedKey::Space), true));
        assert_eq!(keys, SteerKeys::default());
    }
}
