//! Bounds of a posed character over its whole motion: what a camera frames, so a sequence of
//! frames at different times shares one camera (no jitter) and a wave's raised arm is not cut
//! off.

use glam::Vec3;

use super::evaluate::union;
use super::{CharacterPose, ClipTime, PaletteMode, PoseRequest, TimeWrap};
use crate::character::Character;

/// Times sampled over a clip for its bounds (both ends included).
pub const MOTION_SAMPLES: usize = 24;

/// Bounds (min, max) of the posed vertices over the request's whole main clip (the blend in
/// step, the transition as requested), sampled at `MOTION_SAMPLES` times that do not depend on
/// the request's own time, so every frame of a clip gets the same bounds; the request's own
/// frame alone for the rest pose or a bind or identity palette. `None` without vertices.
pub fn motion_bounds(c: &Character, request: &PoseRequest) -> Option<(Vec3, Vec3)> {
    let mut pose = CharacterPose::new(c);
    let mut bounds: Option<(Vec3, Vec3)> = None;
    let mut add = |pose: &CharacterPose| {
        if let Some(b) = pose.framing_bounds(c) {
            bounds = Some(bounds.map_or(b, |a| union(a, b)));
        }
    };
    let animated = request.palette == PaletteMode::Animated;
    let Some(main) = request.clip.filter(|m| animated && m.clip < c.clips.len()) else {
        pose.evaluate(c, request).ok()?;
        add(&pose);
        return bounds;
    };
    let duration = c.clips[main.clip].duration_secs();
    let mut at = PoseRequest {
        wrap: TimeWrap::Clamp,
        ..request.clone()
    };
    for k in 0..MOTION_SAMPLES {
        let time_secs = duration * k as f32 / (MOTION_SAMPLES - 1) as f32;
        at.clip = Some(ClipTime { time_secs, ..main });
        if pose.evaluate(c, &at).is_ok() {
            add(&pose);
        }
    }
    bounds
}
