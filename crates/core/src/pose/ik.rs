//! Stages 5 and 6: reach IK (chains brought to world-space targets) and foot IK (feet planted on
//! the ground, the pelvis lowered so the lower foot reaches). Both work on the placed pose in
//! world space and write local rotations (and the pelvis's translation); the model pose is
//! composed again after each solve.

use glam::Vec3;

use super::request::{FootIk, IkTarget};
use crate::anim::{self, LocalPose, ModelPose, PoseError, Skeleton, TwoBoneSettings};

/// A pole that keeps a chain bending the way it bends now: past its middle joint, away from the
/// midpoint of its ends.
fn current_pole(model: &ModelPose, chain: anim::Chain) -> Vec3 {
    let m = model.as_slice();
    let (a, b, c) = (
        Vec3::from(m[chain.upper].translation),
        Vec3::from(m[chain.middle].translation),
        Vec3::from(m[chain.end].translation),
    );
    b + (b - (a + c) * 0.5)
}

/// Reach IK: each target in order, the model composed again after each.
pub fn apply_reach(
    skeleton: &Skeleton,
    targets: &[IkTarget],
    local: &mut LocalPose,
    model: &mut ModelPose,
) -> Result<(), PoseError> {
    for t in targets {
        if t.chain.end >= skeleton.joint_count() {
            continue;
        }
        let pole = t.pole.unwrap_or_else(|| current_pole(model, t.chain));
        anim::solve_two_bone(skeleton, t.chain, t.target, pole, t.settings, model, local)?;
        anim::local_to_model(skeleton, local, model)?;
    }
    Ok(())
}

/// Where foot IK puts each leg's ankle: held where it was planted, or at the ground's height
/// under it plus its animated height above the placement's floor (`base`).
pub fn foot_targets(feet: &FootIk, model: &ModelPose, base: f32, out: &mut [Vec3]) {
    for (leg, out) in feet.legs.iter().zip(out.iter_mut()) {
        let ankle = Vec3::from(model.as_slice()[leg.chain.end].translation);
        *out = match leg.lock {
            Some(held) => held,
            None => {
                let ground = feet.ground.height(ankle.x, ankle.z);
                Vec3::new(ankle.x, ground + (ankle.y - base), ankle.z)
            }
        };
    }
}

/// The most legs foot IK handles (a quadruped has four).
pub const MAX_LEGS: usize = 8;

/// Foot IK: the pelvis lowered by the deepest drop any foot needs (to reach lower ground, or to
/// keep a held foot within reach), then each leg solved to its target, blended by `feet.weight`.
pub fn apply_feet(
    skeleton: &Skeleton,
    feet: &FootIk,
    base: f32,
    local: &mut LocalPose,
    model: &mut ModelPose,
) -> Result<(), PoseError> {
    let legs = feet.legs.len().min(MAX_LEGS);
    let mut targets = [Vec3::ZERO; MAX_LEGS];
    foot_targets(feet, model, base, &mut targets[..legs]);
    let weight = feet.weight.clamp(0.0, 1.0);
    let settings = TwoBoneSettings {
        weight,
        ..TwoBoneSettings::default()
    };
    let m = model.as_slice();
    // How far the pelvis must come down: for the lower foot to reach its ground, and for a
    // held foot to stay within the leg's (softened) reach as the hips move on.
    let drop = feet.legs[..legs]
        .iter()
        .zip(&targets)
        .map(|(leg, t)| {
            let ankle = Vec3::from(m[leg.chain.end].translation);
            let hip = Vec3::from(m[leg.chain.upper].translation);
            let knee = Vec3::from(m[leg.chain.middle].translation);
            let length = (knee - hip).length() + (ankle - knee).length();
            let reach = length * (1.0 - settings.soft) * 0.999;
            let across = Vec3::new(t.x - hip.x, 0.0, t.z - hip.z).length();
            // Only a held foot pulls the pelvis down for reach: an animated one is where the
            // clip put it.
            let for_reach = if leg.lock.is_none() {
                0.0
            } else if across < reach {
                let height = hip.y - t.y;
                let allowed = (reach * reach - across * across).sqrt();
                (allowed - height).min(0.0)
            } else {
                0.0
            };
            (t.y - ankle.y).min(for_reach)
        })
        .fold(0.0f32, f32::min);
    if let Some(pelvis) = feet
        .pelvis
        .filter(|&p| p < skeleton.joint_count() && drop < 0.0)
    {
        let world_down = Vec3::new(0.0, drop * weight, 0.0);
        let parent_from_world = skeleton
            .parent(pelvis)
            .map(|p| model.as_slice()[p].inverse());
        let local_down = parent_from_world.map_or(world_down, |m| m.transform_vector3(world_down));
        local.as_mut_slice()[pelvis].translation += local_down;
        anim::local_to_model(skeleton, local, model)?;
    }
    for (leg, target) in feet.legs[..legs].iter().zip(targets) {
        if leg.chain.end >= skeleton.joint_count() {
            continue;
        }
        // A foot already where it belongs (flat ground, nothing held) is left as animated: the
        // solve's softening would lift a straight stance leg.
        let ankle = Vec3::from(model.as_slice()[leg.chain.end].translation);
        if (target - ankle).length_squared() < 1e-12 {
            continue;
        }
        let pole = current_pole(model, leg.chain);
        anim::solve_two_bone(skeleton, leg.chain, target, pole, settings, model, local)?;
        anim::local_to_model(skeleton, local, model)?;
    }
    Ok(())
}
