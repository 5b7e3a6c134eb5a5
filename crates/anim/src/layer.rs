//! Pose layers: a clip laid over part of the skeleton (an override through a joint mask) or on
//! top of everything as a difference from a reference pose (an additive layer); one-parameter
//! blend spaces; and the half-life easing that layer weights and fades move by.
//!
//! Every function here borrows its inputs and writes into a caller-owned pose, like the other
//! stages; rotations blend as quaternions with the shorter-arc sign rule.

use glam::{Quat, Vec3};

use super::pose::{LocalPose, PoseError, check_len};
use super::sample::slerp_shortest;
use super::{Skeleton, Transform};

/// A weight per joint (0..1): which joints a layer drives and how much. Built from subtree roots,
/// each with a weight that covers its subtree unless a root deeper down sets another.
#[derive(Clone, Debug, PartialEq)]
pub struct JointMask(Vec<f32>);

impl JointMask {
    /// Every joint weighing `weight`.
    pub fn uniform(skeleton: &Skeleton, weight: f32) -> Self {
        Self(vec![weight.clamp(0.0, 1.0); skeleton.joint_count()])
    }

    /// The subtrees of `roots` (joint, weight). A joint takes the weight of its nearest listed
    /// ancestor-or-self; joints under no root weigh 0. Weights are clamped to 0..1.
    pub fn from_roots(skeleton: &Skeleton, roots: &[(usize, f32)]) -> Self {
        let mut weights = vec![f32::NAN; skeleton.joint_count()];
        for &(joint, weight) in roots {
            if let Some(w) = weights.get_mut(joint) {
                *w = weight.clamp(0.0, 1.0);
            }
        }
        // Parents come before their children (`Skeleton::new` guarantees it): one pass.
        for joint in 0..weights.len() {
            if weights[joint].is_nan() {
                weights[joint] = skeleton.parent(joint).map_or(0.0, |p| weights[p]);
            }
        }
        Self(weights)
    }

    pub fn weights(&self) -> &[f32] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `a` moved toward `b` by `w` (0..1): translation and scale linearly, rotation by slerp on the
/// shorter arc. `w <= 0` returns `a` and `w >= 1` returns `b`, bit for bit.
pub fn mix(a: &Transform, b: &Transform, w: f32) -> Transform {
    if w.is_nan() || w <= 0.0 {
        return *a;
    }
    if w >= 1.0 {
        return *b;
    }
    Transform {
        translation: a.translation.lerp(b.translation, w),
        rotation: slerp_shortest(a.rotation, b.rotation, w),
        scale: a.scale.lerp(b.scale, w),
    }
}

/// Override layer: each joint of `pose` moves toward the layer's transform by `weight` times the
/// mask's weight (`None`: every joint fully). Joints the mask leaves at 0 are not touched; at an
/// effective weight of 1 the joint is the layer's exactly.
pub fn apply_override(
    pose: &mut LocalPose,
    layer: &LocalPose,
    mask: Option<&JointMask>,
    weight: f32,
) -> Result<(), PoseError> {
    check_len("override layer", pose.len(), layer.len())?;
    if let Some(mask) = mask {
        check_len("joint mask", pose.len(), mask.len())?;
    }
    let weight = if weight.is_finite() {
        weight.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if weight == 0.0 {
        return Ok(());
    }
    for (joint, (out, l)) in pose
        .as_mut_slice()
        .iter_mut()
        .zip(layer.as_slice())
        .enumerate()
    {
        let m = mask.map_or(1.0, |m| m.weights()[joint]);
        *out = mix(out, l, weight * m);
    }
    Ok(())
}

/// The additive difference of `pose` from `reference` applied to `base` at `weight`:
/// rotation `r * slerp(1, f⁻¹ a, w)` (the delta taken on the shorter arc), translation
/// `t + w (a_t - f_t)`, scale `s * lerp(1, a_s / f_s, w)`. At weight 0 `base` is unchanged.
pub fn additive_transform(
    base: &Transform,
    f: &Transform,
    a: &Transform,
    weight: f32,
) -> Transform {
    let mut delta = f.rotation.conjugate() * a.rotation;
    if delta.w < 0.0 {
        delta = -delta;
    }
    let delta = if weight == 1.0 {
        delta
    } else {
        slerp_shortest(Quat::IDENTITY, delta, weight)
    };
    let ratio = Vec3::select(
        f.scale.abs().cmpgt(Vec3::splat(f32::EPSILON)),
        a.scale / f.scale,
        Vec3::ONE,
    );
    Transform {
        translation: base.translation + (a.translation - f.translation) * weight,
        rotation: (base.rotation * delta).normalize(),
        scale: base.scale * Vec3::ONE.lerp(ratio, weight),
    }
}

/// Additive layer: `pose` gets the difference of `additive` from `reference` at `weight`, joint
/// by joint, through `mask` (`None`: every joint).
pub fn apply_additive(
    pose: &mut LocalPose,
    additive: &LocalPose,
    reference: &LocalPose,
    mask: Option<&JointMask>,
    weight: f32,
) -> Result<(), PoseError> {
    check_len("additive layer", pose.len(), additive.len())?;
    check_len("additive reference", pose.len(), reference.len())?;
    if let Some(mask) = mask {
        check_len("joint mask", pose.len(), mask.len())?;
    }
    if !weight.is_finite() || weight == 0.0 {
        return Ok(());
    }
    for (joint, out) in pose.as_mut_slice().iter_mut().enumerate() {
        let w = weight * mask.map_or(1.0, |m| m.weights()[joint]);
        if w != 0.0 {
            let (f, a) = (&reference.as_slice()[joint], &additive.as_slice()[joint]);
            *out = additive_transform(out, f, a, w);
        }
    }
    Ok(())
}

/// The fraction of a gap left after `dt_secs` when it halves every `half_life_secs`:
/// `2^(-dt / half_life)` (0 for a zero half-life: the gap closes at once).
pub fn decay(dt_secs: f32, half_life_secs: f32) -> f32 {
    if half_life_secs > 0.0 && dt_secs.is_finite() {
        (-dt_secs.max(0.0) / half_life_secs).exp2()
    } else {
        0.0
    }
}

/// `value` eased toward `target` over `dt_secs` with a half-life: half the gap closes every
/// half-life, whatever the frame rate (two steps of dt land where one of 2 dt does).
pub fn ease(value: f32, target: f32, dt_secs: f32, half_life_secs: f32) -> f32 {
    let eased = target + (value - target) * decay(dt_secs, half_life_secs);
    if (eased - target).abs() < 1e-5 {
        target
    } else {
        eased
    }
}

/// Clips placed on one parameter axis (e.g. idle at 0 m/s, walk at 1.4, run at 3.5).
#[derive(Clone, Debug, PartialEq)]
pub struct BlendSpace1d {
    /// (clip, position), sorted by position.
    points: Vec<(usize, f32)>,
}

/// Where a parameter falls in a `BlendSpace1d`: its two neighbouring clips and the weight of the
/// second (the first weighs `1 - weight`). Both are the same clip at either end of the axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendPoint {
    pub a: usize,
    pub b: usize,
    pub weight: f32,
}

impl BlendSpace1d {
    /// `None` without points; positions must be finite (points are sorted here).
    pub fn new(mut points: Vec<(usize, f32)>) -> Option<Self> {
        if points.is_empty() || points.iter().any(|p| !p.1.is_finite()) {
            return None;
        }
        points.sort_by(|x, y| x.1.total_cmp(&y.1));
        Some(Self { points })
    }

    /// Linear interpolation between the neighbours of `parameter`, clamped to the ends.
    pub fn at(&self, parameter: f32) -> BlendPoint {
        let first = self.points[0];
        let last = self.points[self.points.len() - 1];
        let end = |p: (usize, f32)| BlendPoint {
            a: p.0,
            b: p.0,
            weight: 0.0,
        };
        if parameter.is_nan() || parameter <= first.1 {
            return end(first);
        }
        if parameter >= last.1 {
            return end(last);
        }
        let k = self.points.partition_point(|p| p.1 <= parameter);
        let (lo, hi) = (self.points[k - 1], self.points[k]);
        let span = hi.1 - lo.1;
        BlendPoint {
            a: lo.0,
            b: hi.0,
            weight: if span > 0.0 {
                (parameter - lo.1) / span
            } else {
                1.0
            },
        }
    }
}
