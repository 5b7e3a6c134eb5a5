//! What a retarget is asked to do beyond the joint map: a rotation offset per body chain (the
//! retarget pose, adjusted by hand), rotations only, the root's travel kept, scaled or removed,
//! the motion's scale, and limbs retargeted as IK chains.

use glam::{Quat, Vec3};

use super::Skeleton;
use super::map::body_parts;

/// The chains a body is retargeted by, each with its own rotation offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyChain {
    Spine,
    Head,
    LeftArm,
    RightArm,
    LeftLeg,
    RightLeg,
}

impl BodyChain {
    pub const ALL: [BodyChain; 6] = [
        BodyChain::Spine,
        BodyChain::Head,
        BodyChain::LeftArm,
        BodyChain::RightArm,
        BodyChain::LeftLeg,
        BodyChain::RightLeg,
    ];

    /// Its key in a map file.
    pub fn key(self) -> &'static str {
        match self {
            BodyChain::Spine => "spine",
            BodyChain::Head => "head",
            BodyChain::LeftArm => "left_arm",
            BodyChain::RightArm => "right_arm",
            BodyChain::LeftLeg => "left_leg",
            BodyChain::RightLeg => "right_leg",
        }
    }

    /// The chain a map file's key names.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.key() == key)
    }

    /// Its place in `ALL`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The chain a body part (`canonical_name`'s spelling) belongs to.
    fn of_part(part: &str) -> Option<Self> {
        let (side, part) = match part.split_once(' ') {
            Some((s @ ("left" | "right"), p)) => (Some(s), p),
            _ => (None, part),
        };
        let arm = ["shoulder", "upperarm", "forearm", "hand"].contains(&part);
        let leg = ["thigh", "shin", "foot", "toe"].contains(&part);
        Some(match (side, arm, leg) {
            (Some("left"), true, _) => BodyChain::LeftArm,
            (Some("right"), true, _) => BodyChain::RightArm,
            (Some("left"), _, true) => BodyChain::LeftLeg,
            (Some("right"), _, true) => BodyChain::RightLeg,
            (None, ..) if part == "hips" || part.starts_with("spine") => BodyChain::Spine,
            (None, ..) if part.starts_with("neck") || part == "head" => BodyChain::Head,
            _ => return None,
        })
    }
}

/// Each joint's chain: its body part's, else its parent's (a finger is its arm's).
pub fn body_chains(skeleton: &Skeleton) -> Vec<Option<BodyChain>> {
    chains_of(skeleton, &body_parts(skeleton))
}

/// `body_chains` from the skeleton's body parts (`body_parts`) already read.
pub(super) fn chains_of(skeleton: &Skeleton, parts: &[Option<String>]) -> Vec<Option<BodyChain>> {
    let mut chains: Vec<Option<BodyChain>> = Vec::with_capacity(parts.len());
    for (j, part) in parts.iter().enumerate() {
        let own = part.as_deref().and_then(BodyChain::of_part);
        let inherited = skeleton.parent(j).and_then(|p| chains[p]);
        chains.push(own.or(inherited));
    }
    chains
}

/// What happens to the hips' travel across the ground (the root motion a take carries).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RootTravel {
    /// Kept, at the motion's scale.
    Keep,
    /// Removed: the clip plays in place (the hips keep their height and bob).
    Remove,
    /// Kept and multiplied by this.
    Scale(f32),
}

impl RootTravel {
    /// What the horizontal travel is multiplied by.
    pub fn factor(self) -> f32 {
        match self {
            RootTravel::Keep => 1.0,
            RootTravel::Remove => 0.0,
            RootTravel::Scale(k) => k,
        }
    }
}

/// What a retarget does beyond the joint map.
#[derive(Clone, Debug, PartialEq)]
pub struct RetargetSettings {
    /// Per chain (`BodyChain::ALL`'s order), a rotation of the retarget pose in degrees about
    /// the scene's X, Y and Z axes, applied in that order: the whole chain turns with it.
    pub offsets: [Vec3; 6],
    /// Rotations only: every translation, the hips' included, is the target's rest.
    pub rotation_only: bool,
    /// The hips' travel across the ground.
    pub root_motion: RootTravel,
    /// The hips' travel is multiplied by this (none: by the ratio of the two skeletons' hip
    /// heights).
    pub motion_scale: Option<f32>,
    /// Arms and legs retargeted as IK chains (`super::limbs`).
    pub ik_limbs: bool,
}

impl Default for RetargetSettings {
    fn default() -> Self {
        Self {
            offsets: [Vec3::ZERO; 6],
            rotation_only: false,
            root_motion: RootTravel::Keep,
            motion_scale: None,
            ik_limbs: false,
        }
    }
}

impl RetargetSettings {
    /// The offset of `chain` as a rotation.
    pub fn offset(&self, chain: BodyChain) -> Quat {
        let d = self.offsets[chain.index()];
        Quat::from_rotation_z(d.z.to_radians())
            * Quat::from_rotation_y(d.y.to_radians())
            * Quat::from_rotation_x(d.x.to_radians())
    }
}
