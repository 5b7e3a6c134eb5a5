//! Compressing a character's clips (anim::compress_clip) with settings taken from the character:
//! the default tolerance is 1e-4 of its height (0.18 mm on a 1.8 m character), and each joint's
//! virtual vertices sit as far from it as its skin reaches (the farthest vertex it weighs on
//! most, in the bind pose), as ACL sizes its per-bone shell.

use glam::Vec3;

use super::CharacterPose;
use crate::anim::{CompressionReport, CompressionSettings, compress_clip};
use crate::character::Character;

/// The default tolerance as a fraction of the character's height.
pub const DEFAULT_TOLERANCE_OF_HEIGHT: f32 = 1e-4;

/// The character's height in the file's units: the rest pose's vertical extent (its largest
/// extent when it is flat), over its vertices, or its joints when it has no mesh.
pub fn character_height(c: &Character) -> f32 {
    height_at_rest(c, &CharacterPose::at_rest(c))
}

fn height_at_rest(c: &Character, rest: &CharacterPose) -> f32 {
    let bounds = rest.world_bounds(c).or_else(|| rest.joint_bounds());
    let Some((lo, hi)) = bounds else {
        return 1.0;
    };
    let extent = hi - lo;
    let height = if extent.y > 0.1 * extent.max_element() {
        extent.y
    } else {
        extent.max_element()
    };
    if height.is_finite() && height > 0.0 {
        height
    } else {
        1.0
    }
}

/// How far the skin reaches from each skeleton joint, in the file's units: over the skinned
/// vertices whose heaviest influence is the joint, the farthest from it in the bind pose, scaled
/// into world units by the mesh node. 0 for joints that weigh on no vertex most.
pub fn skin_reach(c: &Character) -> Vec<f32> {
    reach_at_rest(c, &CharacterPose::at_rest(c))
}

fn reach_at_rest(c: &Character, pose: &CharacterPose) -> Vec<f32> {
    let mut reach = vec![0.0f32; c.skeleton.joint_count()];
    for (i, instance) in c.instances.iter().enumerate() {
        let Some(skin) = instance.skin.and_then(|s| c.skins.get(s)) else {
            continue;
        };
        let w = pose.world_from_mesh[i];
        let scale = w
            .x_axis
            .truncate()
            .length()
            .max(w.y_axis.truncate().length())
            .max(w.z_axis.truncate().length());
        // Each joint's bind position in mesh space: the inverse of its inverse bind matrix.
        let joint_at: Vec<Vec3> = skin
            .skin
            .joint_from_bind()
            .iter()
            .map(|m| m.inverse().w_axis.truncate())
            .collect();
        for primitive in &c.meshes[instance.mesh].primitives {
            let Some(s) = &primitive.skinning else {
                continue;
            };
            for ((p, joints), weights) in primitive.positions.iter().zip(&s.joints).zip(&s.weights)
            {
                let heaviest = (0..4).fold(0, |m, k| if weights[k] > weights[m] { k } else { m });
                let palette = usize::from(joints[heaviest]);
                let (Some(at), Some(&joint)) =
                    (joint_at.get(palette), skin.skin.joints().get(palette))
                else {
                    continue;
                };
                let d = p.distance(*at) * scale;
                if let Some(r) = reach.get_mut(usize::from(joint)).filter(|_| d.is_finite()) {
                    *r = r.max(d);
                }
            }
        }
    }
    reach
}

/// The settings `compress_clips` uses: `tolerance` (default 1e-4 of the height), and at each
/// joint virtual vertices as far as its skin reaches, at least 1% of the height (joints that
/// weigh on no vertex, characters without a skin) and at most the height.
pub fn compression_settings(c: &Character, tolerance: Option<f32>) -> CompressionSettings {
    let rest = CharacterPose::at_rest(c);
    let height = height_at_rest(c, &rest);
    CompressionSettings {
        tolerance: tolerance.unwrap_or(DEFAULT_TOLERANCE_OF_HEIGHT * height),
        distances: reach_at_rest(c, &rest)
            .into_iter()
            .map(|d| d.clamp(0.01 * height, height))
            .collect(),
        segments: true,
    }
}

/// Compresses every clip of `c` (joint tracks; morph weights stay raw) within `settings`
/// (`compression_settings`), keeping the compressed clips in `ClipData::compressed`, and reports
/// each.
pub fn compress_clips(c: &mut Character, settings: &CompressionSettings) -> Vec<CompressionReport> {
    let skeleton = &c.skeleton;
    c.clips
        .iter_mut()
        .map(|clip| {
            let (compressed, report) = compress_clip(skeleton, &clip.clip, settings);
            clip.compressed = Some(compressed);
            report
        })
        .collect()
}
