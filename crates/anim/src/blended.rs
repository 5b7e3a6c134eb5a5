//! Weight-blended skinning: linear blend and dual-quaternion skinning mixed
//! per vertex by a per-joint method weight (0: LBS, 1: DQS), each vertex weighing its
//! influences' method weights by their skin weights, as Maya's weight-blended skinning does. So
//! DQS acts only where it helps (the joints that twist) and a vertex of only LBS joints moves
//! exactly as LBS. CPU reference; and the joints whose clips twist them about their bone by
//! more than a threshold, for the method weights' "auto".

use glam::{Mat4, Quat, Vec3};

use super::{Clip, Skeleton, blend_matrix, dq_skin_direction, dq_skin_position, swing_twist};

/// A method weight this close to 0 or 1 is taken as exactly that: skin weights sum to one only
/// to rounding, and a vertex of only DQS joints must move exactly as DQS (`skinning.wgsl` too).
pub const METHOD_SNAP: f32 = 1e-5;

/// A vertex's method weight: its influences' method weights (`method[palette index]`, 0..1)
/// by their skin weights, snapped to 0 and 1 within `METHOD_SNAP`.
pub fn vertex_method(method: &[f32], influences: impl IntoIterator<Item = (u32, f32)>) -> f32 {
    let m = influences
        .into_iter()
        .map(|(j, w)| w * method.get(j as usize).copied().unwrap_or(0.0))
        .sum::<f32>();
    if m < METHOD_SNAP {
        0.0
    } else if m > 1.0 - METHOD_SNAP {
        1.0
    } else {
        m
    }
}

/// CPU reference of weight-blended skinning of a position: linear blend over `palette`
/// (`mesh_from_bind`), dual quaternions over `packed` (`dq_entry` of each), mixed by the
/// vertex's method weight (exactly one of them when it is 0 or 1).
pub fn blended_skin_position(
    (palette, packed, method): (&[Mat4], &[Mat4], &[f32]),
    influences: impl IntoIterator<Item = (u32, f32)> + Clone,
    position: Vec3,
) -> Option<Vec3> {
    let m = vertex_method(method, influences.clone());
    let lbs = || blend_matrix(palette, influences.clone()).map(|s| s.transform_point3(position));
    if m <= 0.0 {
        return lbs();
    }
    let dqs = dq_skin_position(packed, influences.clone(), position)?;
    if m >= 1.0 {
        return Some(dqs);
    }
    Some(lbs()?.lerp(dqs, m))
}

/// CPU reference of weight-blended skinning of a direction (a normal when `normal`: then
/// renormalised): each method's direction mixed by the vertex's method weight, as the shader's
/// `skin_vertex` and `skin_direction` do.
pub fn blended_skin_direction(
    (palette, packed, method): (&[Mat4], &[Mat4], &[f32]),
    influences: impl IntoIterator<Item = (u32, f32)> + Clone,
    direction: Vec3,
    normal: bool,
) -> Option<Vec3> {
    let m = vertex_method(method, influences.clone());
    let lbs = blend_matrix(palette, influences.clone())?.transform_vector3(direction);
    let lbs = if normal { lbs.normalize_or_zero() } else { lbs };
    let out = if m <= 0.0 {
        lbs
    } else {
        lbs.lerp(dq_skin_direction(packed, influences, direction, normal)?, m)
    };
    Some(if normal { out.normalize_or_zero() } else { out })
}

/// Per-joint method weights: 1 on every joint of the subtrees of `roots` (dual quaternions),
/// 0 elsewhere (linear blend).
pub fn subtree_methods(skeleton: &Skeleton, roots: &[usize]) -> Vec<f32> {
    let n = skeleton.joint_count();
    let mut out = vec![0.0f32; n];
    for &r in roots.iter().filter(|&&r| r < n) {
        out[r] = 1.0;
    }
    // Parents come before their children, so one pass in joint order spreads each root down.
    for j in 0..n {
        if skeleton.parent(j).is_some_and(|p| out[p] > 0.0) {
            out[j] = 1.0;
        }
    }
    out
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
    let axis = skeleton.bone_axes();
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
