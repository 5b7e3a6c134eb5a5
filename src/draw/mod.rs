//! From posed characters to pixels, above the renderer: the extract step (a pose or a crowd as
//! the renderer's plain data) and one frame drawn without a window (`headless`), which the
//! `render` and `check` commands and the tests use.

pub mod deformers;
pub mod ghosts;
pub mod headless;
pub mod legend;
pub mod onion;
pub mod ui_overlay;
pub mod view;

use glam::Vec3;

use crate::character::Character;
use crate::pose::{CharacterPose, Crowd};
use crate::posed::PosedVertices;
use crate::render::renderer::{Capacity, Posed, SkinnedFrame};

/// One posed character as the renderer reads it; its deformers' values are packed into
/// `values` (caller-owned, reused from frame to frame).
pub fn extract<'a>(pose: &'a CharacterPose, values: &'a mut Vec<[f32; 4]>) -> Posed<'a> {
    extract_except(pose, &[], values)
}

/// `extract`, leaving out the deformers `except` names (their values zeros).
pub fn extract_except<'a>(
    pose: &'a CharacterPose,
    except: &[crate::render::deformers::DeformerKind],
    values: &'a mut Vec<[f32; 4]>,
) -> Posed<'a> {
    deformers::values_into(pose, except, values);
    Posed {
        palette: &pose.palette,
        palette_stride: pose.palette.len(),
        palette_base: &pose.palette_base,
        world_from_mesh: &pose.world_from_mesh,
        morph_weights: &pose.morph.weights,
        morph_stride: pose.morph.weights.len(),
        morph_base: &pose.morph.base,
        palette_method: &pose.palette_method,
        deformer_values: values,
        tints: &[],
    }
}

/// Every member of a crowd as the renderer reads it.
pub fn extract_crowd(crowd: &Crowd) -> Posed<'_> {
    Posed {
        palette: &crowd.palette,
        palette_stride: crowd.palette_len(),
        palette_base: &crowd.palette_base,
        world_from_mesh: &crowd.world_from_mesh,
        morph_weights: &crowd.morph_weights,
        morph_stride: crowd.morph_stride,
        morph_base: &crowd.morph_base,
        palette_method: &crowd.palette_method,
        deformer_values: &[],
        tints: &[],
    }
}

pub use crate::pose::rest_bounds;

/// The largest crowd of `character` a device with `limits` can draw.
pub fn max_crowd(limits: &wgpu::Limits, character: &Character) -> usize {
    capacity(character, 1).max_copies(limits, character)
}

/// The ground's outline as overlay lines (start, end, linear RGBA) for a character `height`
/// tall: what the viewer's "Ground and trail" and `render --ground` draw.
pub fn ground_lines(
    ground: &crate::scene::Ground,
    height: f32,
) -> impl Iterator<Item = (Vec3, Vec3, [f32; 4])> {
    ground
        .outline(height * 0.6)
        .into_iter()
        .map(|(a, b)| (a, b, [0.9, 0.75, 0.35, 1.0]))
}

/// An overlay line: start, end, linear RGBA.
pub type OverlayLine = (Vec3, Vec3, [f32; 4]);

/// The root's trail on the floor as overlay lines, for a character `height` tall: what the
/// viewer's "Ground and trail" and a travelling `render` draw.
pub fn trail_lines(
    trail: &std::collections::VecDeque<Vec3>,
    height: f32,
) -> impl Iterator<Item = OverlayLine> + '_ {
    let lift = Vec3::Y * height * 0.005;
    (trail.iter().zip(trail.iter().skip(1)))
        .map(move |(a, b)| (*a + lift, *b + lift, [0.3, 0.9, 0.5, 1.0]))
}

/// Motion matching's goal trajectory (yellow) and the matched frame's own (blue), each point
/// with a tick along its facing, for a character `height` tall.
pub fn matching_lines(stats: &crate::perform::MatchStats, height: f32, out: &mut Vec<OverlayLine>) {
    let lift = Vec3::Y * height * 0.006;
    for (points, color) in [
        (&stats.goal, [1.0, 0.85, 0.2, 1.0]),
        (&stats.matched, [0.2, 0.85, 1.0, 1.0]),
    ] {
        for w in points.windows(2) {
            out.push((w[0].0 + lift, w[1].0 + lift, color));
        }
        for (p, yaw) in points {
            let facing = crate::anim::from_yaw(*yaw) * Vec3::Z * height * 0.08;
            out.push((*p + lift, *p + lift + facing, color));
        }
    }
}

/// The largest crowd offered and drawn, by the panel and by `render --crowd` alike: what the
/// device's buffers hold, at most `headless::MAX_CROWD`.
pub fn crowd_limit(limits: &wgpu::Limits, character: &Character) -> usize {
    max_crowd(limits, character).min(headless::MAX_CROWD)
}

/// A crowd's grid spacing: the widest horizontal extent of one copy over the whole motion of
/// either clip it blends (a wave's arm, a stride), with a fifth more between copies, so no two
/// copies overlap whatever they play.
pub fn crowd_spacing(character: &Character, (a, b): (usize, usize)) -> f32 {
    let bounds = |clip: usize| {
        let request = if clip < character.clips.len() {
            crate::pose::PoseRequest::clip(clip, 0.0)
        } else {
            crate::pose::PoseRequest::default()
        };
        crate::pose::motion_bounds(character, &request)
    };
    let footprint = [bounds(a), bounds(b)]
        .into_iter()
        .flatten()
        .map(|(lo, hi)| (hi.x - lo.x).max(hi.z - lo.z))
        .fold(0.0f32, f32::max);
    footprint.max(1e-3) * 1.2
}

/// What a renderer needs to hold `copies` copies of the character.
pub fn capacity(character: &Character, copies: usize) -> Capacity {
    let pose = CharacterPose::new(character);
    Capacity {
        copies,
        palette_entries: pose.palette.len(),
        morph_weights: pose.morph.weights.len(),
        grid_around: rest_bounds(character),
        overlay_vertices: crate::render::renderer::OVERLAY_VERTICES,
    }
}

/// The skin pass's copy-0 vertices (read back) in the world: each instance's primitives in file
/// order, placed by `pose`'s `world_from_mesh`, as the CPU reference lays them out.
pub fn world_vertices(
    skinned: &SkinnedFrame,
    character: &Character,
    pose: &CharacterPose,
) -> PosedVertices {
    let instances: Vec<Vec<(Vec3, Vec3)>> = (character.instances.iter().enumerate())
        .map(|(i, instance)| {
            (0..character.meshes[instance.mesh].primitives.len())
                .flat_map(|p| skinned.of(i, p, 0))
                .map(|v| (Vec3::from_slice(&v.position), Vec3::from_slice(&v.normal)))
                .collect()
        })
        .collect();
    PosedVertices::from_mesh_space(pose, &instances)
}
