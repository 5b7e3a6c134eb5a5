//! Weight-blended skinning (issue 29, started): linear blend and dual-quaternion skinning mixed
//! per vertex by a per-joint method weight (0: LBS, 1: DQS), each vertex weighing its
//! influences' method weights by their skin weights, as Maya's weight-blended skinning does. So
//! DQS acts only where it helps (the joints that twist) and a vertex of only LBS joints moves
//! exactly as LBS. CPU reference; and the joints whose clips twist them about their bone by
//! more than a threshold, for the method weights' "auto".

use glam::{Mat4, Quat, Vec3};

use super::{Clip, Skeleton, dq_skin_position, skin_position, swing_twist};

/// A vertex's method weight: its influences' method weights (`method[palette index]`, 0..1)
/// by their skin weights.
pub fn vertex_method(method: &[f32], influences: impl IntoIterator<Item = (u32, f32)>) -> f32 {
    influences
        .into_iter()
        .map(|(j, w)| w * method.get(j as usize).copied().unwrap_or(0.0))
        .sum::<f32>()
        .clamp(0.0, 1.0)
}

/// CPU reference of weight-blended skinning of a position: linear blend over `palette`
/// (`mesh_from_bind`), dual quaternions over `packed` (`dq_entry` of each), mixed by the
/// vertex's method weight (exactly one of them when it is 0 or 1).
pub fn blended_skin_position(
    (palette, packed, method): (&[Mat4], &[Mat4], &[f32]),
    joints: [u32; 4],
    weights: [f32; 4],
    position: Vec3,
) -> Option<Vec3> {
    let influences = || joints.into_iter().zip(weights);
    let m = vertex_method(method, influences());
    if m <= 0.0 {
        return skin_position(palette, joints, weights, position);
    }
    let dqs = dq_skin_position(packed, influences(), position)?;
    if m >= 1.0 {
        return Some(dqs);
    }
    Some(skin_position(palette, joints, weights, position)?.lerp(dqs, m))
}

/// The joints a clip of `clips` twists about their bone (toward their first child, +Y without
/// one) by more than `threshold` radians from their rest rotation at any key: where dual
/// quaternions keep the volume linear blending loses. Roots are left out (their turn is the
/// heading).
pub fn twisting_joints<'c>(
    skeleton: &Skeleton,
    clips: impl IntoIterator<Item = &'c Clip>,
    threshold: f32,
) -> Vec<usize> {
    let n = skeleton.joint_count();
    let axis: Vec<Vec3> = (0..n).map(|j| skeleton.bone_axis(j)).collect();
    let mut most = vec![0.0f32; n];
    for clip in clips {
        for track in clip.tracks() {
            let super::Channel::Rotation(keys) = &track.channel else {
                continue;
            };
            let j = track.joint;
            // A root's turn about its bone is the character's heading, not a twist.
            if j >= n || skeleton.parent(j).is_none() {
                continue;
            }
            let rest = skeleton.rest()[j].rotation;
            let per = keys.interpolation().values_per_key().max(1);
            for q in keys.values().iter().skip(per / 2).step_by(per) {
                let delta: Quat = rest.inverse() * *q;
                let (_, twist) = swing_twist(delta, axis[j]);
                let angle = twist.angle_between(Quat::IDENTITY);
                most[j] = most[j].max(angle);
            }
        }
    }
    (0..n).filter(|&j| most[j] > threshold).collect()
}
