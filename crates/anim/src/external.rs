//! The external-pose stage: a pose from outside the clip player (a motion-capture take on its
//! own clock, or a live stream) overriding the local rotations of the joints it drives, and the
//! translation of the one it moves (the hips), at a weight. Pure data and functions over glam.

use super::pose::{LocalPose, PoseError, check_len};
use super::sample::slerp_shortest;

/// One frame of an external source on the character's skeleton: a full local pose, of which
/// only `rotated` joints' rotations and `moved`'s translation are used.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalFrame {
    pub pose: LocalPose,
    /// The joints whose rotation the source drives, in joint order.
    pub rotated: Vec<usize>,
    /// The joint whose translation the source drives (its hips), if any.
    pub moved: Option<usize>,
}

/// What an external source drives of one joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    Rotation,
    Translation,
}

/// `pose`'s `joint` brought toward `source`'s at `weight` (0: unchanged, 1: the source's) on
/// what `drive` names: the rotation by the shorter-arc slerp, or the translation by a lerp.
/// Scale and the other part are left as they are.
pub fn drive_joint(
    pose: &mut LocalPose,
    source: &LocalPose,
    joint: usize,
    drive: Drive,
    weight: f32,
) -> Result<(), PoseError> {
    check_len("external pose", pose.len(), source.len())?;
    let (Some(out), Some(from)) = (
        pose.as_mut_slice().get_mut(joint),
        source.as_slice().get(joint),
    ) else {
        return Ok(());
    };
    let w = if weight.is_finite() {
        weight.clamp(0.0, 1.0)
    } else {
        0.0
    };
    match drive {
        Drive::Rotation if w >= 1.0 => out.rotation = from.rotation,
        Drive::Rotation => out.rotation = slerp_shortest(out.rotation, from.rotation, w),
        Drive::Translation if w >= 1.0 => out.translation = from.translation,
        Drive::Translation => out.translation = out.translation.lerp(from.translation, w),
    }
    Ok(())
}

/// Every joint `frame` drives brought toward it at `weight`.
pub fn apply_external(
    pose: &mut LocalPose,
    frame: &ExternalFrame,
    weight: f32,
) -> Result<(), PoseError> {
    if weight <= 0.0 || !weight.is_finite() {
        return Ok(());
    }
    for &joint in &frame.rotated {
        drive_joint(pose, &frame.pose, joint, Drive::Rotation, weight)?;
    }
    if let Some(joint) = frame.moved {
        drive_joint(pose, &frame.pose, joint, Drive::Translation, weight)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Transform;
    use glam::{Quat, Vec3};

    fn pose(n: usize) -> LocalPose {
        LocalPose::from_transforms(vec![Transform::IDENTITY; n])
    }

    #[test]
    fn only_driven_parts_move_and_a_half_weight_goes_half_way() {
        let mut local = pose(3);
        local.as_mut_slice()[1].translation = Vec3::new(0.0, 1.0, 0.0);
        let mut source = pose(3);
        for t in source.as_mut_slice() {
            t.rotation = Quat::from_rotation_z(1.0);
            t.translation = Vec3::new(4.0, 0.0, 0.0);
        }
        let frame = ExternalFrame {
            pose: source,
            rotated: vec![1],
            moved: Some(2),
        };
        apply_external(&mut local, &frame, 0.5).unwrap();
        let l = local.as_slice();
        // Joint 0: not driven. Joint 1: half the rotation, its translation kept.
        assert_eq!(l[0], Transform::IDENTITY);
        assert!(l[1].rotation.angle_between(Quat::from_rotation_z(0.5)) < 1e-5);
        assert_eq!(l[1].translation, Vec3::new(0.0, 1.0, 0.0));
        // Joint 2: half the translation, its rotation kept.
        assert!((l[2].translation - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-6);
        assert_eq!(l[2].rotation, Quat::IDENTITY);
        // Weight 0 changes nothing.
        let before = local.clone();
        apply_external(&mut local, &frame, 0.0).unwrap();
        assert_eq!(local, before);
    }
}
