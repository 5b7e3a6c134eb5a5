//! Root motion: the horizontal travel and the turn (yaw about +Y) that a clip's root-motion
//! joint carries, extracted from the raw pose and handed to whoever moves the character, so the
//! character travels without moving twice.
//!
//! A clip's displacement at an unwrapped time `T` (k whole loops and `tau` into the next) is
//! expressed along the scene's axes as the clip draws its first loop (a placement of yaw 0
//! draws that loop where it was authored, whichever way the root faces at rest):
//! `P(T) = sum_{i<k} R(i Y_loop) D_loop + R(k Y_loop) D(tau)`, `Y(T) = k Y_loop + Y(tau)`, where
//! `D(tau)` and `Y(tau)` are the travel and turn since time 0 within one loop. So a loop wrap
//! adds the clip's whole-loop travel, and time running backwards runs it back.
//!
//! "Horizontal" and "up" are the scene's (+Y), never the root's parent space: a Z-up armature
//! (Blender's export, CesiumMan's `Z_UP` / `Armature` nodes) turns its root's local axes, so
//! travel and turn are measured on the root's model-space transform, through its parent's rest
//! model transform ([`RootFrame`]).

use glam::{Affine3A, Quat, Vec3};

use super::sample::sample_track;
use super::{Channel, Clip, Skeleton, Transform};

/// The scene frame a root-motion joint moves in: its parent's model transform at rest
/// (`model_from_parent`; the identity for a skeleton root).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootFrame {
    model_from_parent: Affine3A,
    parent_from_model: Affine3A,
    /// The rotation of `model_from_parent` (its scale taken out).
    rotation: Quat,
}

impl Default for RootFrame {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl RootFrame {
    pub const IDENTITY: Self = Self {
        model_from_parent: Affine3A::IDENTITY,
        parent_from_model: Affine3A::IDENTITY,
        rotation: Quat::IDENTITY,
    };

    /// The frame of a parent whose model transform is `model_from_parent`; the identity when it
    /// cannot be inverted.
    pub fn new(model_from_parent: Affine3A) -> Self {
        let parent_from_model = model_from_parent.inverse();
        if !parent_from_model.is_finite() || !model_from_parent.is_finite() {
            return Self::IDENTITY;
        }
        let (_, rotation, _) = model_from_parent.to_scale_rotation_translation();
        Self {
            model_from_parent,
            parent_from_model,
            rotation: rotation.normalize(),
        }
    }

    /// The frame `joint` moves in: its ancestors' rest transforms composed.
    pub fn of(skeleton: &Skeleton, joint: usize) -> Self {
        let rest = skeleton.rest();
        let mut model_from_parent = Affine3A::IDENTITY;
        let mut at = skeleton.parent(joint);
        while let Some(p) = at {
            let Some(t) = rest.get(p) else { break };
            model_from_parent = t.to_affine() * model_from_parent;
            at = skeleton.parent(p);
        }
        Self::new(model_from_parent)
    }

    /// A local transform's position and rotation in model (scene) space.
    fn to_model(self, local: &Transform) -> (Vec3, Quat) {
        (
            self.model_from_parent.transform_point3(local.translation),
            self.rotation * local.rotation,
        )
    }
}

/// The rotation's turn about +Y (its twist about the vertical), radians.
pub fn yaw_of(q: Quat) -> f32 {
    2.0 * q.y.atan2(q.w)
}

/// A rotation about +Y.
pub fn from_yaw(yaw: f32) -> Quat {
    Quat::from_rotation_y(yaw)
}

/// The travel (horizontal, y = 0) and turn of a root since some reference, along the scene's
/// axes as the clip was authored (turned by the whole loops' turns past the first).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Displacement {
    pub offset: Vec3,
    pub yaw: f32,
}

impl Displacement {
    /// A weighted blend of displacements (linear in offset and yaw); weights summing to one.
    pub fn blend(parts: impl IntoIterator<Item = (Displacement, f32)>) -> Self {
        parts.into_iter().fold(Self::default(), |acc, (d, w)| Self {
            offset: acc.offset + d.offset * w,
            yaw: acc.yaw + d.yaw * w,
        })
    }
}

/// The root joint's transform in a clip at a time: its tracks where it has them, the rest
/// transform elsewhere.
pub fn root_transform(clip: &Clip, joint: usize, rest: &Transform, time_secs: f32) -> Transform {
    let mut t = *rest;
    for track in clip.tracks().iter().filter(|t| t.joint == joint) {
        let mut hint = 0;
        match &track.channel {
            Channel::Translation(k) => t.translation = sample_track(k, time_secs, &mut hint),
            Channel::Rotation(k) => t.rotation = sample_track(k, time_secs, &mut hint).normalize(),
            Channel::Scale(k) => t.scale = sample_track(k, time_secs, &mut hint),
        }
    }
    t
}

/// The default root-motion joint: the topmost joint (fewest ancestors; the first of equals)
/// that any of `clips` translates: the hips, or the hips' parent when that is what carries the
/// travel. `None` when no clip translates a joint.
pub fn default_root_joint<'c>(
    skeleton: &super::Skeleton,
    clips: impl IntoIterator<Item = &'c Clip>,
) -> Option<usize> {
    let mut translated = vec![false; skeleton.joint_count()];
    for clip in clips {
        for t in clip.tracks() {
            if matches!(t.channel, Channel::Translation(_)) && t.joint < translated.len() {
                translated[t.joint] = true;
            }
        }
    }
    let depth = |mut j: usize| {
        let mut d = 0;
        while let Some(p) = skeleton.parent(j) {
            d += 1;
            j = p;
        }
        d
    };
    (0..translated.len())
        .filter(|&j| translated[j])
        .min_by_key(|&j| (depth(j), j))
}

/// The travel and turn of `now` since `start` (local transforms in `frame`), in the scene.
/// The travel stays along the scene's axes: a root whose rest heading is not +Z (a Z-up
/// armature's, say) travels where it was authored to.
fn since(frame: &RootFrame, start: &Transform, now: &Transform) -> Displacement {
    let (start_at, start_rotation) = frame.to_model(start);
    let (now_at, now_rotation) = frame.to_model(now);
    let mut travel = now_at - start_at;
    travel.y = 0.0;
    Displacement {
        offset: travel,
        yaw: yaw_of(now_rotation) - yaw_of(start_rotation),
    }
}

/// The clip's root displacement at unwrapped clip time `time_secs` (looping), since time 0, in
/// the scene: `frame` is the root's parent's ([`RootFrame::of`]).
pub fn clip_displacement(
    clip: &Clip,
    (joint, rest, frame): (usize, &Transform, &RootFrame),
    time_secs: f32,
) -> Displacement {
    let duration = clip.duration_secs();
    let start = root_transform(clip, joint, rest, 0.0);
    if duration.is_nan() || duration <= 0.0 || !time_secs.is_finite() {
        return Displacement::default();
    }
    let loops = (time_secs / duration).floor();
    let tau = (time_secs - loops * duration).clamp(0.0, duration);
    let within = since(frame, &start, &root_transform(clip, joint, rest, tau));
    if loops == 0.0 {
        return within;
    }
    let whole = since(frame, &start, &root_transform(clip, joint, rest, duration));
    let turned = loops * whole.yaw;
    Displacement {
        offset: laps_offset(whole, f64::from(loops)) + from_yaw(turned) * within.offset,
        yaw: turned + within.yaw,
    }
}

/// The travel of `laps` whole laps (negative: backwards from time 0), each moving `lap.offset`
/// turned by the yaw the laps before it made: `sum R(i y) d` over `i` in `0..laps` (for
/// negative laps, `-sum R(i y) d` over `laps..0`). Both are the geometric series of a rotation,
/// `R((laps - 1) y / 2) d sin(laps y / 2) / sin(y / 2)` (the travel of a lap turning the same
/// way each time follows an arc), so the work does not grow with the laps: a clip of 2 ns at
/// ten minutes is 3e11 laps. A lap that does not turn sums to `laps d`.
fn laps_offset(lap: Displacement, laps: f64) -> Vec3 {
    let yaw = f64::from(lap.yaw);
    // The series depends on the yaw modulo a whole turn; reduced, small turns stay exact.
    let turn = yaw - std::f64::consts::TAU * (yaw / std::f64::consts::TAU).round();
    let half = (turn / 2.0).sin();
    let scale = if half == 0.0 {
        laps
    } else {
        (laps * turn / 2.0).sin() / half
    };
    let mid = (laps - 1.0) * turn / 2.0;
    let turned = from_yaw((mid % std::f64::consts::TAU) as f32) * lap.offset;
    turned * scale as f32
}

/// Where a character stands: a position and a heading (yaw about +Y).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Placement {
    pub position: Vec3,
    pub yaw: f32,
}

impl Placement {
    /// The horizontal move and turn of a root displacement going from `from` to `to`, as seen
    /// from this placement (whose yaw is the turn the root had made at `from`, as authored):
    /// `(R(yaw - Y_from) (P_to - P_from), Y_to - Y_from)`.
    pub fn step(&self, from: Displacement, to: Displacement) -> (Vec3, f32) {
        let moved = from_yaw(self.yaw - from.yaw) * (to.offset - from.offset);
        (moved, to.yaw - from.yaw)
    }

    /// Places a local transform of a skeleton root under this placement:
    /// `world_from_entity * root` (translation rotated and moved, rotation turned).
    pub fn place(&self, root: &Transform) -> Transform {
        let turn = from_yaw(self.yaw);
        Transform {
            translation: self.position + turn * root.translation,
            rotation: (turn * root.rotation).normalize(),
            scale: root.scale,
        }
    }
}

/// Removes the horizontal travel and the turn from a root-motion joint's local transform (in
/// `frame`, its parent's), as against `reference` (the rest pose: what Unreal's root lock
/// keeps): in the scene, its horizontal position becomes the reference's and its yaw about +Y
/// the reference's; height, pitch and roll stay.
pub fn remove_root_motion(joint: &mut Transform, reference: &Transform, frame: &RootFrame) {
    let (at, rotation) = frame.to_model(joint);
    let (rest_at, rest_rotation) = frame.to_model(reference);
    let held = Vec3::new(rest_at.x, at.y, rest_at.z);
    let turn = yaw_of(rotation) - yaw_of(rest_rotation);
    let held_rotation = from_yaw(-turn) * rotation;
    joint.translation = frame.parent_from_model.transform_point3(held);
    joint.rotation = (frame.rotation.inverse() * held_rotation).normalize();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The laps one at a time, in f64: the sum the closed form replaces.
    fn laps_one_by_one(lap: Displacement, laps: i64) -> glam::DVec3 {
        let d = lap.offset.as_dvec3();
        let turned = |i: i64| glam::DQuat::from_rotation_y(i as f64 * f64::from(lap.yaw)) * d;
        if laps >= 0 {
            (0..laps).map(turned).sum()
        } else {
            -(laps..0).map(turned).sum::<glam::DVec3>()
        }
    }

    #[test]
    fn whole_laps_in_closed_form_equal_the_laps_summed_one_by_one() {
        let offsets = [Vec3::new(0.0, 0.0, 1.3), Vec3::new(-0.4, 0.0, 0.25)];
        let yaws = [
            0.0,
            1e-7,
            0.3,
            -1.2,
            std::f32::consts::PI,
            2.0 * std::f32::consts::PI,
            7.0,
        ];
        for offset in offsets {
            for yaw in yaws {
                for laps in [-37, -1, 0, 1, 2, 5, 64, 1001] {
                    let lap = Displacement { offset, yaw };
                    let got = laps_offset(lap, laps as f64).as_dvec3();
                    let want = laps_one_by_one(lap, laps);
                    let scale = offset.length() as f64 * (laps.unsigned_abs() as f64).max(1.0);
                    assert!(
                        (got - want).length() <= 2e-5 * scale,
                        "offset {offset} yaw {yaw} laps {laps}: {got} against {want}"
                    );
                }
            }
        }
        // A lap that turns a quarter: four laps come back to the start.
        let lap = Displacement {
            offset: Vec3::new(0.0, 0.0, 1.0),
            yaw: std::f32::consts::FRAC_PI_2,
        };
        assert!(laps_offset(lap, 4.0).length() < 1e-6);
        // 3e11 laps (a 2 ns clip at ten minutes) cost the same as one, and stay finite.
        assert!(laps_offset(lap, 3e11).is_finite());
    }
}
