//! Closed-loop quantization (compress.rs's second step, made in hierarchy order): each joint's
//! keys are quantized towards what puts it where the raw clip does, given its ancestors as they
//! decode, rather than towards its raw local values. A parent's rounding then turns its
//! children's keys the other way, so a joint's model-space rotation error is its own rounding
//! alone and does not add up down the chain, and a translation key takes back its parent's
//! error in the joint's position. A rotation's error then reaches only as far as the children
//! that take it back (`closed_levers`): the hips' rounding moves the spine's origin, not the
//! hand at the end of the arm.
//!
//! A joint's own virtual vertices still count at its own distance, so where they sit far out
//! (a skin's reach) the gain is smaller than where they sit close (ACL's 3 cm); compress.rs
//! tries closed and open loop and keeps the smaller clip.

use glam::{Affine3A, Quat, Vec3};

use super::sample::sample_track;
use super::{Channel, Clip, Property, Skeleton, Transform};

/// The index of a property among a joint's three tracks.
pub(super) fn property_index(p: Property) -> usize {
    match p {
        Property::Translation => 0,
        Property::Scale => 1,
        Property::Rotation => 2,
    }
}

/// The raw clip's tracks and those decoded so far (ancestors before children), per joint and
/// property, for the targets of the next joint's keys.
pub(super) struct Compensator<'a> {
    skeleton: &'a Skeleton,
    raw: Vec<[Option<&'a Channel>; 3]>,
    decoded: Vec<[Option<Channel>; 3]>,
}

impl<'a> Compensator<'a> {
    pub(super) fn new(skeleton: &'a Skeleton, clip: &'a Clip) -> Self {
        let n = skeleton.joint_count();
        let mut raw = vec![[None; 3]; n];
        for jt in clip.tracks() {
            if let Some(slot) = raw.get_mut(jt.joint) {
                slot[property_index(jt.channel.property())] = Some(&jt.channel);
            }
        }
        Self {
            skeleton,
            raw,
            decoded: (0..n).map(|_| [None, None, None]).collect(),
        }
    }

    /// Joint `j`'s track as it decodes (a track not stored decodes as the rest pose).
    pub(super) fn record(&mut self, j: usize, channel: Channel) {
        let property = property_index(channel.property());
        if let Some(slot) = self.decoded.get_mut(j) {
            slot[property] = Some(channel);
        }
    }

    /// Joint `j`'s local transform at `t`: the rest pose under its raw or decoded tracks.
    fn local(&self, j: usize, t: f32, decoded: bool) -> Transform {
        let channels = if decoded {
            self.decoded[j].each_ref().map(Option::as_ref)
        } else {
            self.raw[j]
        };
        let mut local = self.skeleton.rest()[j];
        for channel in channels.into_iter().flatten() {
            let mut hint = 0;
            match channel {
                Channel::Translation(track) => {
                    local.translation = sample_track(track, t, &mut hint)
                }
                Channel::Scale(track) => local.scale = sample_track(track, t, &mut hint),
                Channel::Rotation(track) => local.rotation = sample_track(track, t, &mut hint),
            }
        }
        local
    }

    /// Joint `j`'s local transform at `t` and its ancestors', from the joint up, from the raw
    /// clip or as decoded so far.
    fn chain(&self, j: usize, t: f32, decoded: bool) -> impl Iterator<Item = Transform> + '_ {
        std::iter::successors(Some(j), |&k| self.skeleton.parents()[k].map(usize::from))
            .map(move |k| self.local(k, t, decoded))
    }

    /// Joint `j`'s model transform at `t`.
    fn model(&self, j: usize, t: f32, decoded: bool) -> Affine3A {
        self.chain(j, t, decoded)
            .fold(Affine3A::IDENTITY, |m, local| {
                Affine3A::from_scale_rotation_translation(
                    local.scale,
                    local.rotation,
                    local.translation,
                ) * m
            })
    }

    /// Joint `j`'s model rotation at `t` (its ancestors' rotations composed).
    fn model_rotation(&self, j: usize, t: f32, decoded: bool) -> Quat {
        (self.chain(j, t, decoded)).fold(Quat::IDENTITY, |q, local| local.rotation * q)
    }

    /// The local rotation that gives joint `j` its raw model rotation at `t` under its
    /// ancestors as they decode (`raw` is its raw local rotation there).
    pub(super) fn rotation_target(&self, j: usize, t: f32, raw: Quat) -> Quat {
        match self.skeleton.parents()[j].map(usize::from) {
            Some(p) => {
                let decoded = self.model_rotation(p, t, true);
                let wanted = self.model_rotation(p, t, false);
                (decoded.inverse() * wanted * raw).normalize()
            }
            None => raw,
        }
    }

    /// The local translation that puts joint `j` at its raw model position at `t` under its
    /// ancestors as they decode (`raw` is its raw local translation there).
    pub(super) fn translation_target(&self, j: usize, t: f32, raw: Vec3) -> Vec3 {
        match self.skeleton.parents()[j].map(usize::from) {
            Some(p) => {
                let decoded = self.model(p, t, true);
                let wanted = self.model(p, t, false).transform_point3(raw);
                let target = decoded.inverse().transform_point3(wanted);
                if target.is_finite() { target } else { raw }
            }
            None => raw,
        }
    }
}

/// Per joint: how far its rotation error reaches once the children whose rotation tracks move
/// (`compensates`) take it back: its own virtual vertices (`distances`), each such child's
/// origin (which still moves), and past the children that do not, their origins and virtual
/// vertices, on down to the next that does. `positions` are the joints' rest positions in
/// model space.
pub(super) fn closed_levers(
    parents: &[Option<usize>],
    positions: &[Vec3],
    distances: &[f32],
    compensates: &[bool],
) -> Vec<f32> {
    let n = parents.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(j);
        }
    }
    let distance = |j: usize| distances.get(j).copied().unwrap_or(0.0);
    (0..n)
        .map(|a| {
            let mut lever = distance(a);
            let mut stack = children[a].clone();
            while let Some(c) = stack.pop() {
                let d = positions[c].distance(positions[a]);
                if compensates[c] {
                    lever = lever.max(d);
                } else {
                    lever = lever.max(d + distance(c));
                    stack.extend_from_slice(&children[c]);
                }
            }
            lever
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::{Compensator, closed_levers};
    use crate::{Channel, Clip, Interpolation, JointTrack, Skeleton, Track, Transform};

    #[test]
    fn a_rotation_reaches_as_far_as_the_first_child_that_takes_it_back() {
        // A chain up +Y, joints 1 apart; virtual vertices 0.1, 0.1 and 0.5 from them.
        let parents = [None, Some(0), Some(1)];
        let positions = [Vec3::ZERO, Vec3::Y, 2.0 * Vec3::Y];
        let distances = [0.1, 0.1, 0.5];
        // Joint 1 takes back joint 0's error: joint 0's reaches joint 1's origin (1), joint 1's
        // reaches joint 2's vertices (1 + 0.5), joint 2's its own (0.5).
        let closed = closed_levers(&parents, &positions, &distances, &[true, true, false]);
        assert_eq!(closed, [1.0, 1.5, 0.5]);
        // Nobody takes it back: joint 0's reaches joint 2's vertices, 2 + 0.5.
        let open = closed_levers(&parents, &positions, &distances, &[false; 3]);
        assert_eq!(open, [2.5, 1.5, 0.5]);
    }

    #[test]
    fn a_child_s_targets_undo_its_parent_s_rounding() {
        let skeleton = Skeleton::new(
            vec!["a".into(), "b".into()],
            vec![None, Some(0)],
            vec![Transform::IDENTITY, Transform::from_translation(Vec3::Y)],
        )
        .unwrap();
        let (parent, child) = (Quat::from_rotation_z(0.3), Quat::from_rotation_x(0.2));
        let track = |q: Quat| Track::new(vec![0.0, 1.0], vec![q, q], Interpolation::Linear);
        let clip = Clip::new(
            "c",
            2,
            vec![
                JointTrack {
                    joint: 0,
                    channel: Channel::Rotation(track(parent).unwrap()),
                },
                JointTrack {
                    joint: 1,
                    channel: Channel::Rotation(track(child).unwrap()),
                },
            ],
            vec![],
        )
        .unwrap();
        let mut c = Compensator::new(&skeleton, &clip);
        // The parent decodes 0.01 rad off.
        let decoded = Quat::from_rotation_z(0.31);
        c.record(0, Channel::Rotation(track(decoded).unwrap()));
        let target = c.rotation_target(1, 0.5, child);
        assert!((decoded * target).angle_between(parent * child) < 1e-6);
        assert!(target.angle_between(child) > 0.009);
        // The child's origin: the translation that puts it where the raw parent does.
        let t = c.translation_target(1, 0.5, Vec3::Y);
        assert!((decoded * t).distance(parent * Vec3::Y) < 1e-6, "{t}");
    }
}
