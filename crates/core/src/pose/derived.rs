//! Facts about a loaded character that never change while it is shown, computed once at load:
//! its height, its rest pose's bounds, its legs, the joints an upper-body layer starts from,
//! the default root-motion joint, the hand reach IK starts with and where its target starts.
//! The viewer, the panel and the overlays read them every frame instead of skinning the rest
//! pose again.

use glam::Vec3;

use super::{CharacterPose, character_height, find_legs};
use crate::anim::Chain;
use crate::character::Character;

/// See the module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// The rest pose's height (`character_height`).
    pub height: f32,
    /// The rest pose's world bounds; a unit cube around the origin when it has no vertices.
    pub rest_bounds: (Vec3, Vec3),
    /// The legs found by name and shape (`find_legs`).
    pub legs: Vec<Chain>,
    /// Both clavicles (or shoulders, or upper arms): where an upper-body layer starts.
    pub upper_body_roots: Vec<usize>,
    /// The topmost joint a clip translates.
    pub default_root_joint: Option<usize>,
    /// The chain end reach IK starts with: the right hand (by name), or the first hand.
    pub reach_end: Option<usize>,
    /// Where reach IK's target starts: ahead of and above the chain end at rest.
    pub reach_target: Vec3,
}

impl Derived {
    /// The facts of `c` (one rest pose skinned on the CPU).
    pub fn of(c: &Character) -> Self {
        let rest = CharacterPose::at_rest(c);
        let height = character_height(c);
        let reach_end = reach_end(c);
        let reach_target = reach_end
            .and_then(|j| rest.model.as_slice().get(j))
            .map_or(Vec3::ZERO, |m| {
                Vec3::from(m.translation) + Vec3::new(0.0, height * 0.3, height * 0.2)
            });
        Self {
            height,
            rest_bounds: bounds_or_unit(c, &rest),
            legs: find_legs(c),
            upper_body_roots: upper_body_roots(c),
            default_root_joint: crate::anim::default_root_joint(
                &c.skeleton,
                c.clips.iter().map(|k| &k.clip),
            ),
            reach_end,
            reach_target,
        }
    }
}

/// Bounds of the character's rest pose; a unit cube around the origin when it has no vertices
/// or cannot be posed.
pub fn rest_bounds(c: &Character) -> (Vec3, Vec3) {
    bounds_or_unit(c, &CharacterPose::at_rest(c))
}

fn bounds_or_unit(c: &Character, rest: &CharacterPose) -> (Vec3, Vec3) {
    rest.world_bounds(c)
        .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)))
}

/// The joints an upper-body layer starts from: both clavicles (or shoulders, or upper arms) by
/// name, as the built-in character, Blender's and Mixamo's rigs name them.
pub fn upper_body_roots(c: &Character) -> Vec<usize> {
    for part in ["clavicle", "shoulder", "upperarm", "upper_arm"] {
        // The topmost matches only (a rig may name both a shoulder and its twist joint).
        let names = c.skeleton.names();
        let top = c
            .skeleton
            .topmost(|j| names[j].to_ascii_lowercase().contains(part));
        if !top.is_empty() {
            return top;
        }
    }
    Vec::new()
}

/// The chain end reach IK starts with: the right hand (by name), or the first hand.
fn reach_end(c: &Character) -> Option<usize> {
    let names = c.skeleton.names();
    let hand = |side: &str| {
        names.iter().position(|n| {
            let n = n.to_ascii_lowercase();
            n.contains("hand") && (side.is_empty() || n.contains(side))
        })
    };
    hand("_r")
        .or_else(|| hand("right"))
        .or_else(|| hand(""))
        .filter(|&j| Chain::ending_at(&c.skeleton, j).is_some())
}
