//! Inertialization (Bollo's transitions without blending): at the switch, the offset from the
//! incoming clip's first pose to the outgoing pose, and the offset of their velocities, are
//! recorded per joint; from then on only the incoming clip is sampled and the offset is added on
//! top of it, decaying to nothing with a half-life in real (wall-clock) seconds, whatever the
//! playback speed.
//!
//! The offset at `t` seconds after the switch is `2^(-t/h) * (x0 + v0 t)`: it halves every
//! half-life when the velocities matched (after one half-life half of it is left, after four a
//! sixteenth), and the velocity offset carries the outgoing motion on for a moment instead of
//! stopping it dead. Rotations are offset as rotation vectors (axis times angle, the shorter
//! arc), applied in the parent's space: `r = exp(offset) * r_incoming`.

use glam::{Quat, Vec3};

use super::layer::decay;
use super::pose::{LocalPose, PoseError, check_len};

/// One joint's recorded offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct JointOffset {
    translation: Vec3,
    translation_velocity: Vec3,
    /// Axis times angle (radians) of `outgoing * incoming⁻¹`.
    rotation: Vec3,
    angular_velocity: Vec3,
    scale: Vec3,
    scale_velocity: Vec3,
}

/// The recorded offsets of one inertialized transition; sized once per skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Inertialization {
    offsets: Vec<JointOffset>,
    half_life_secs: f32,
}

/// The rotation vector (axis times angle) of `q` on the shorter arc.
pub fn rotation_vector(q: Quat) -> Vec3 {
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-9 {
        return v * 2.0;
    }
    v * (2.0 * s.atan2(q.w) / s)
}

/// The rotation whose rotation vector is `v`.
pub fn from_rotation_vector(v: Vec3) -> Quat {
    let angle = v.length();
    if angle < 1e-9 {
        return Quat::from_xyzw(v.x * 0.5, v.y * 0.5, v.z * 0.5, 1.0).normalize();
    }
    Quat::from_axis_angle(v / angle, angle)
}

/// Poses an inertialized switch is recorded from: the outgoing pose at the switch and one step
/// before it, and the incoming pose at its start and one step after, the steps `dt_secs` of real
/// time apart.
#[derive(Clone, Copy, Debug)]
pub struct SwitchPoses<'a> {
    pub outgoing: &'a LocalPose,
    pub outgoing_before: &'a LocalPose,
    pub incoming: &'a LocalPose,
    pub incoming_after: &'a LocalPose,
    pub dt_secs: f32,
}

impl Inertialization {
    pub fn new(joint_count: usize) -> Self {
        Self {
            offsets: vec![JointOffset::default(); joint_count],
            half_life_secs: 0.0,
        }
    }

    /// Records the offsets of a switch (positions and velocities) decaying with `half_life_secs`.
    pub fn record(&mut self, poses: SwitchPoses<'_>, half_life_secs: f32) -> Result<(), PoseError> {
        let n = self.offsets.len();
        for (what, pose) in [
            ("outgoing pose", poses.outgoing),
            ("outgoing pose before", poses.outgoing_before),
            ("incoming pose", poses.incoming),
            ("incoming pose after", poses.incoming_after),
        ] {
            check_len(what, n, pose.len())?;
        }
        self.half_life_secs = half_life_secs.max(0.0);
        let inv_dt = if poses.dt_secs > 0.0 {
            1.0 / poses.dt_secs
        } else {
            0.0
        };
        for (joint, offset) in self.offsets.iter_mut().enumerate() {
            let out = &poses.outgoing.as_slice()[joint];
            let before = &poses.outgoing_before.as_slice()[joint];
            let inc = &poses.incoming.as_slice()[joint];
            let after = &poses.incoming_after.as_slice()[joint];
            let out_w = rotation_vector(out.rotation * before.rotation.conjugate()) * inv_dt;
            let in_w = rotation_vector(after.rotation * inc.rotation.conjugate()) * inv_dt;
            *offset = JointOffset {
                translation: out.translation - inc.translation,
                translation_velocity: ((out.translation - before.translation)
                    - (after.translation - inc.translation))
                    * inv_dt,
                rotation: rotation_vector(out.rotation * inc.rotation.conjugate()),
                angular_velocity: out_w - in_w,
                scale: out.scale - inc.scale,
                scale_velocity: ((out.scale - before.scale) - (after.scale - inc.scale)) * inv_dt,
            };
        }
        Ok(())
    }

    /// The fraction of the recorded position offset left `elapsed_secs` after the switch
    /// (velocity offsets aside): `2^(-elapsed / half_life)`.
    pub fn remaining(&self, elapsed_secs: f32) -> f32 {
        decay(elapsed_secs, self.half_life_secs)
    }

    /// Adds the offsets as they stand `elapsed_secs` of real time after the switch to `pose`
    /// (the incoming pose of that moment).
    pub fn apply(&self, pose: &mut LocalPose, elapsed_secs: f32) -> Result<(), PoseError> {
        check_len("inertialized pose", self.offsets.len(), pose.len())?;
        let k = self.remaining(elapsed_secs);
        if k == 0.0 {
            return Ok(());
        }
        let t = elapsed_secs.max(0.0);
        for (out, o) in pose.as_mut_slice().iter_mut().zip(&self.offsets) {
            out.translation += (o.translation + o.translation_velocity * t) * k;
            out.scale += (o.scale + o.scale_velocity * t) * k;
            let r = (o.rotation + o.angular_velocity * t) * k;
            out.rotation = (from_rotation_vector(r) * out.rotation).normalize();
        }
        Ok(())
    }
}
