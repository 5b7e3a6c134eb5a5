//! Two-bone analytic IK (hip-knee-ankle, shoulder-elbow-wrist): the chain's end is brought to a
//! target, the middle joint bends toward a pole, a hinge limit bounds the bend, the reach is
//! softened near full extension so the chain never snaps straight, and a weight blends back to
//! the authored pose. Works on model-space positions and writes local rotations.

use glam::{Affine3A, Quat, Vec3};

use super::Skeleton;
use super::pose::{LocalPose, ModelPose, PoseError, check_len};
use super::sample::slerp_shortest;

/// A chain of three joints: upper (hip), middle (knee, the upper joint's child), end (ankle, a
/// descendant of the middle joint: its child, or with twist joints between).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain {
    pub upper: usize,
    pub middle: usize,
    pub end: usize,
}

impl Chain {
    /// The chain ending at `end`: its parent and grandparent, passing over twist (or roll)
    /// joints by name (a forearm's twist joint sits on the forearm bone: the chain is upper arm,
    /// forearm, hand, and the twist joint follows the forearm). `None` when there are not two
    /// such ancestors.
    pub fn ending_at(skeleton: &Skeleton, end: usize) -> Option<Self> {
        let helper = |j: usize| {
            let n = skeleton.names()[j].to_ascii_lowercase();
            n.contains("twist") || n.contains("roll")
        };
        let mut middle = skeleton.parent(end)?;
        while helper(middle) {
            middle = skeleton.parent(middle)?;
        }
        let upper = skeleton.parent(middle)?;
        Some(Self { upper, middle, end })
    }
}

/// How a two-bone solve behaves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneSettings {
    /// 0..1: 1 is the solve, 0 the authored pose.
    pub weight: f32,
    /// The largest bend at the middle joint, in degrees (180: folded onto itself). The knee's
    /// hinge limit: a bend past it is held at it.
    pub max_bend_degrees: f32,
    /// The fraction of the whole length over which the reach is softened (0: none): a target
    /// beyond `(1 - soft) * length` is approached along an exponential, so the chain straightens
    /// smoothly instead of snapping.
    pub soft: f32,
}

impl Default for TwoBoneSettings {
    fn default() -> Self {
        Self {
            weight: 1.0,
            max_bend_degrees: 170.0,
            soft: 0.02,
        }
    }
}

/// The softened distance the end reaches for a target `distance` away on a chain of `length`:
/// `distance` below `(1 - soft) * length`, then `length - soft_len * exp(-(d - start) / soft_len)`
/// (continuous in value and slope, approaching `length` without reaching it).
pub fn soft_reach(distance: f32, length: f32, soft: f32) -> f32 {
    let soft_len = soft.clamp(0.0, 1.0) * length;
    let start = length - soft_len;
    if soft_len <= 0.0 || distance <= start {
        return distance.min(length);
    }
    length - soft_len * (-(distance - start) / soft_len).exp()
}

/// The world-from-joint rotation of `model`, without scale.
fn rotation_of(model: &Affine3A) -> Quat {
    let (_, rotation, _) = model.to_scale_rotation_translation();
    rotation.normalize()
}

/// Solves `chain` toward `target` (model space), bending toward `pole` (a point in model space
/// the middle joint should point toward), writing the upper and middle joints' local rotations
/// into `local`. `model` must be `local` composed (it is not updated: compose again after).
/// Returns the softened distance used.
pub fn solve_two_bone(
    skeleton: &Skeleton,
    chain: Chain,
    target: Vec3,
    pole: Vec3,
    settings: TwoBoneSettings,
    model: &ModelPose,
    local: &mut LocalPose,
) -> Result<f32, PoseError> {
    check_len("local pose", skeleton.joint_count(), local.len())?;
    check_len("model pose", skeleton.joint_count(), model.len())?;
    let m = model.as_slice();
    let (a, b, c) = (
        Vec3::from(m[chain.upper].translation),
        Vec3::from(m[chain.middle].translation),
        Vec3::from(m[chain.end].translation),
    );
    let (l1, l2) = ((b - a).length(), (c - b).length());
    let to_target = target - a;
    let distance = to_target.length();
    if l1 < 1e-6 || l2 < 1e-6 || distance < 1e-6 || !target.is_finite() {
        return Ok(distance);
    }
    let dir = to_target / distance;
    // The reach: softened near full extension, and no shorter than the hinge limit allows.
    let min_bend_interior = (180.0 - settings.max_bend_degrees.clamp(0.0, 180.0)).to_radians();
    let shortest = (l1 * l1 + l2 * l2 - 2.0 * l1 * l2 * min_bend_interior.cos())
        .max(0.0)
        .sqrt()
        .max((l1 - l2).abs());
    let reach = soft_reach(distance, l1 + l2, settings.soft).clamp(shortest, l1 + l2);
    // The bend plane: the target direction and the pole (or the current middle joint).
    let mut bend = pole - a;
    bend -= dir * bend.dot(dir);
    if bend.length_squared() < 1e-12 {
        bend = b - a;
        bend -= dir * bend.dot(dir);
    }
    if bend.length_squared() < 1e-12 {
        bend = dir.any_orthonormal_vector();
    }
    let bend = bend.normalize();
    // Law of cosines: the angle at the upper joint between the target direction and the
    // upper bone.
    let cos_a = ((l1 * l1 + reach * reach - l2 * l2) / (2.0 * l1 * reach)).clamp(-1.0, 1.0);
    let sin_a = (1.0 - cos_a * cos_a).max(0.0).sqrt();
    let new_b = a + (dir * cos_a + bend * sin_a) * l1;
    let new_c = a + dir * reach;
    // Rotate the upper bone onto a -> new_b, then the lower bone onto new_b -> new_c.
    let upper_delta = Quat::from_rotation_arc((b - a).normalize(), (new_b - a).normalize());
    let c_after_upper = a + upper_delta * (c - a);
    let lower_delta = Quat::from_rotation_arc(
        (c_after_upper - new_b).normalize(),
        (new_c - new_b).normalize(),
    );
    let parent_rotation = |joint: usize| {
        skeleton
            .parent(joint)
            .map_or(Quat::IDENTITY, |p| rotation_of(&m[p]))
    };
    let w = settings.weight.clamp(0.0, 1.0);
    let upper_model = upper_delta * rotation_of(&m[chain.upper]);
    let middle_model = lower_delta * upper_delta * rotation_of(&m[chain.middle]);
    let upper_parent = parent_rotation(chain.upper);
    let locals = local.as_mut_slice();
    let upper_local = (upper_parent.conjugate() * upper_model).normalize();
    // The middle joint's parent is the upper joint, whose model rotation is now upper_model.
    let middle_local = (upper_model.conjugate() * middle_model).normalize();
    let authored = (locals[chain.upper].rotation, locals[chain.middle].rotation);
    locals[chain.upper].rotation = slerp_shortest(authored.0, upper_local, w);
    locals[chain.middle].rotation = slerp_shortest(authored.1, middle_local, w);
    Ok(reach)
}
