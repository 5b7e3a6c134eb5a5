//! Lines that show a pose over time or through the frame's stages, for the window and
//! `render` alike: each stage's skeleton as a coloured ghost over the final pose (Unreal's Pose
//! Watch), and joints' motion paths with a tick per sample and a diamond at each key (Blender's).

use glam::Vec3;

use super::OverlayLine;
use crate::anim::ModelPose;
use crate::character::Character;
use crate::pose::{MotionPath, Stage, StagePoses};
use crate::render::bones::{BoneStyle, bone_shapes_into};
use crate::render::lines::LineVertex;

/// A stage ghost's colour (linear RGBA): one hue per stage, along the frame's order.
pub fn stage_color(stage: Stage) -> [f32; 4] {
    match stage {
        Stage::Raw => [0.95, 0.3, 0.95, 1.0],
        Stage::RootMotion => [0.6, 0.4, 1.0, 1.0],
        Stage::Transition => [0.3, 0.55, 1.0, 1.0],
        Stage::External => [0.2, 0.9, 0.95, 1.0],
        Stage::Layers => [0.3, 1.0, 0.45, 1.0],
        Stage::ReachIk => [0.85, 1.0, 0.25, 1.0],
        Stage::FootIk => [1.0, 0.6, 0.15, 1.0],
        Stage::Physics => [1.0, 0.25, 0.25, 1.0],
    }
}

/// The skeletons of `shown` stages from `stages` (one frame's record) in their colours, as
/// stick bones `width` wide, appended to `out`; `scratch` holds each stage's model pose.
pub fn stage_ghost_lines(
    character: &Character,
    stages: &StagePoses,
    shown: &[Stage],
    width: f32,
    scratch: &mut ModelPose,
    out: &mut Vec<LineVertex>,
) {
    for &stage in shown {
        if let Ok(true) = stages.model_into(character, stage, scratch) {
            let tint = Some(stage_color(stage));
            bone_shapes_into(character, scratch, BoneStyle::Stick, width, tint, out);
        }
    }
}

/// Line vertices (pairs, as `stage_ghost_lines` writes them) as overlay lines.
pub fn as_overlay(lines: &[LineVertex]) -> impl Iterator<Item = OverlayLine> + '_ {
    (lines.chunks_exact(2)).map(|w| (w[0].position.into(), w[1].position.into(), w[0].color))
}

/// The colour of the `k`th motion path.
pub fn path_color(k: usize) -> [f32; 4] {
    const COLORS: [[f32; 4]; 4] = [
        [1.0, 0.55, 0.1, 1.0],
        [0.25, 0.75, 1.0, 1.0],
        [0.9, 0.3, 0.9, 1.0],
        [0.4, 1.0, 0.4, 1.0],
    ];
    COLORS[k % COLORS.len()]
}

/// Each path as a polyline through its samples with a small tick across it at each one, and a
/// white diamond at each key, `size` the bone width.
pub fn motion_path_lines(paths: &[MotionPath], size: f32, out: &mut Vec<OverlayLine>) {
    for (k, path) in paths.iter().enumerate() {
        let color = path_color(k);
        let points: Vec<Vec3> = path.samples.iter().map(|s| s.position()).collect();
        for w in points.windows(2) {
            out.push((w[0], w[1], color));
        }
        for p in &points {
            let tick = Vec3::Y * size * 0.8;
            out.push((*p - tick, *p + tick, color));
        }
        let white = [1.0, 1.0, 1.0, 1.0];
        for key in &path.keys {
            let p = key.position();
            let r = size * 1.5;
            let d = [Vec3::X * r, Vec3::Y * r, -Vec3::X * r, -Vec3::Y * r];
            for i in 0..4 {
                out.push((p + d[i], p + d[(i + 1) % 4], white));
            }
        }
    }
}
