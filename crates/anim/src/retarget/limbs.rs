//! Limbs retargeted as IK chains, so that a take keeps its contacts on a character of other
//! proportions: after the rotations are carried over, each arm and leg whose three joints (upper
//! arm or thigh, forearm or shin, hand or foot) are matched is solved by two-bone IK toward a
//! goal made from the source's end joint, bending toward the source's middle joint.
//!
//! - **Legs**: the foot's path mapped as the hips' travel is, across the ground (from the hips'
//!   rest place, by the travel's scale, less any travel removed), and by the leg-length ratio
//!   in height. A foot the source holds still stays still, at the place the target's hips
//!   travel relative to; its height above the ground scales with the leg.
//! - **Arms**: the hand's reach from the shoulder, scaled by the arm-length ratio, from the
//!   target's shoulder where the rotations put it.
//!
//! The end joint keeps the world rotation the rotation retarget gave it (a planted foot stays
//! flat).

use glam::{Quat, Vec3};

use super::Skeleton;
use crate::{Chain, ModelPose, TwoBoneSettings};

/// One limb: its target chain, the source joints matched to it, and the ratio of their lengths.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limb {
    pub target: Chain,
    /// Source (upper, middle, end).
    pub source: (usize, usize, usize),
    /// Target chain length over source chain length, at rest.
    pub ratio: f32,
    pub leg: bool,
}

/// How limbs are solved: exactly to the goal (an offline retarget has no snapping to hide).
pub(super) const SOLVE: TwoBoneSettings = TwoBoneSettings {
    weight: 1.0,
    max_bend_degrees: 170.0,
    soft: 0.0,
};

/// The target's arms and legs (by its body `parts`) whose three joints are all matched.
pub(super) fn find_limbs(
    target: &Skeleton,
    parts: &[Option<String>],
    source_of: &[Option<usize>],
    source_rest: &ModelPose,
    target_rest: &ModelPose,
) -> Vec<Limb> {
    let find = |part: String| {
        parts
            .iter()
            .position(|p| p.as_deref() == Some(part.as_str()))
    };
    let at = |m: &ModelPose, j: usize| Vec3::from(m.as_slice()[j].translation);
    let descends = |mut j: usize, from: usize| {
        while let Some(p) = target.parent(j) {
            if p == from {
                return true;
            }
            j = p;
        }
        false
    };
    let mut limbs = Vec::new();
    for side in ["left", "right"] {
        for (names, leg) in [
            (["upperarm", "forearm", "hand"], false),
            (["thigh", "shin", "foot"], true),
        ] {
            let joints: Option<Vec<usize>> =
                names.iter().map(|n| find(format!("{side} {n}"))).collect();
            let Some([upper, middle, end]) = joints.as_deref().map(|j| [j[0], j[1], j[2]]) else {
                continue;
            };
            if !(descends(middle, upper) && descends(end, middle)) {
                continue;
            }
            let (Some(su), Some(sm), Some(se)) =
                (source_of[upper], source_of[middle], source_of[end])
            else {
                continue;
            };
            let length = |m: &ModelPose, (a, b, c): (usize, usize, usize)| {
                at(m, a).distance(at(m, b)) + at(m, b).distance(at(m, c))
            };
            let (lt, ls) = (
                length(target_rest, (upper, middle, end)),
                length(source_rest, (su, sm, se)),
            );
            if lt <= 1e-6 || ls <= 1e-6 {
                continue;
            }
            limbs.push(Limb {
                target: Chain { upper, middle, end },
                source: (su, sm, se),
                ratio: lt / ls,
                leg,
            });
        }
    }
    limbs
}

/// The hips' part in a leg's goal: where they rest on both sides, the travel's scale, and the
/// source's travel removed from the target's (none kept: the whole of it).
pub(super) struct GroundFrame {
    pub source_hips_rest: Vec3,
    pub target_hips_rest: Vec3,
    pub scale: f32,
    pub removed: Vec3,
}

/// The goal of `limb` for the source posed as `source` and the target as `target` (composed
/// from the rotation retarget).
pub(super) fn goal(
    limb: &Limb,
    source: &ModelPose,
    target: &ModelPose,
    ground: Option<&GroundFrame>,
) -> (Vec3, Vec3) {
    let at = |m: &ModelPose, j: usize| Vec3::from(m.as_slice()[j].translation);
    let (su, sm, se) = limb.source;
    let upper = at(target, limb.target.upper);
    let pole = upper + (at(source, sm) - at(source, su));
    let end = at(source, se);
    let goal = match (limb.leg, ground) {
        (true, Some(g)) => {
            let across = g.target_hips_rest + (end - g.source_hips_rest - g.removed) * g.scale;
            Vec3::new(across.x, end.y * limb.ratio, across.z)
        }
        _ => upper + (end - at(source, su)) * limb.ratio,
    };
    (goal, pole)
}

/// How far the hips must come down for `limb` (a leg) to reach its goal: none when it reaches
/// (to within a thousandth of its length), else the drop that brings the goal within reach
/// (straight down from where it is when the goal is too far across the ground for any drop).
pub(super) fn hips_drop(
    limb: &Limb,
    source: &ModelPose,
    target: &ModelPose,
    ground: &GroundFrame,
) -> f32 {
    let at = |j: usize| Vec3::from(target.as_slice()[j].translation);
    let (goal, _) = goal(limb, source, target, Some(ground));
    let (a, b, c) = (
        at(limb.target.upper),
        at(limb.target.middle),
        at(limb.target.end),
    );
    let length = (a.distance(b) + b.distance(c)) * 0.999;
    let v = goal - a;
    if v.length() <= length {
        return 0.0;
    }
    let across = v.with_y(0.0).length_squared();
    let down = (length * length - across).max(0.0).sqrt();
    (-down - v.y).max(0.0)
}

/// The rotation of `model`'s joint `j`.
pub(super) fn rotation(model: &ModelPose, j: usize) -> Quat {
    let (_, r, _) = model.as_slice()[j].to_scale_rotation_translation();
    r.normalize()
}
