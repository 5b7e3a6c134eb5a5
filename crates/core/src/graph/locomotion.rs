//! Moving a character through the world: root motion handed to the movement controller (or a
//! commanded speed), the trail it leaves, and feet held where they were planted (stance
//! locking). Stateful, advanced frame by frame by the viewer and by the command line's
//! integration from t = 0.

use std::collections::VecDeque;
use std::sync::Arc;

use glam::Vec3;

use super::players::ClipStep;
use crate::anim::{Chain, Displacement, Placement, RootFrame, clip_displacement, from_yaw};
use crate::character::Character;
use crate::pose::{
    CharacterPose, FootIk, Leg, RootMotion, RootMotionMode, contact_windows, in_contact,
};
use crate::scene::{Ground, Mover, MoverSettings};

/// How the character moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveMode {
    /// Root motion left in the pose.
    #[default]
    Authored,
    /// Root motion removed; the character stays put.
    InPlace,
    /// Root motion removed and given to the movement controller.
    Applied,
    /// The character moves at a commanded speed along its heading, its clips in place, their
    /// playback rate matched to the speed.
    Driven,
}

impl MoveMode {
    /// What the pose's root-motion stage does in this mode.
    pub fn root_mode(self) -> RootMotionMode {
        match self {
            MoveMode::Authored => RootMotionMode::Authored,
            MoveMode::InPlace | MoveMode::Driven => RootMotionMode::InPlace,
            MoveMode::Applied => RootMotionMode::Applied,
        }
    }
}

/// The most trail points kept.
pub const TRAIL_LEN: usize = 600;

/// A character's placement moved by root motion or a commanded speed over a ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Locomotion {
    pub joint: usize,
    pub mode: MoveMode,
    pub mover: Mover,
    pub ground: Arc<Ground>,
    /// The placement's positions, newest last.
    pub trail: VecDeque<Vec3>,
}

impl Locomotion {
    pub fn new(joint: usize, ground: Arc<Ground>, settings: MoverSettings) -> Self {
        Self {
            joint,
            mode: MoveMode::Authored,
            mover: Mover::new(settings),
            ground,
            trail: VecDeque::new(),
        }
    }

    /// The movement controller's settings for a character `height` tall: a radius of a sixth of
    /// it, steps up to a tenth climbed.
    pub fn settings_for(height: f32) -> MoverSettings {
        MoverSettings {
            radius: height / 6.0,
            max_step: height / 10.0,
        }
    }

    pub fn placement(&self) -> Placement {
        self.mover.placement
    }

    /// The pose's root-motion stage for this mode.
    pub fn root_motion(&self) -> Option<RootMotion> {
        (self.mode != MoveMode::Authored).then_some(RootMotion {
            joint: self.joint,
            mode: self.mode.root_mode(),
        })
    }

    /// Back to the origin, facing +Z, with no trail.
    pub fn reset(&mut self) {
        self.mover.placement = Placement::default();
        self.trail.clear();
    }

    /// The displacement the clips' steps this frame moved the root by, blended by their weights
    /// (weights summing to one): `(from, to)`.
    pub fn displacement(
        &self,
        c: &Character,
        parts: &[(ClipStep, f32)],
    ) -> (Displacement, Displacement) {
        let rest = c
            .skeleton
            .rest()
            .get(self.joint)
            .copied()
            .unwrap_or_default();
        let frame = RootFrame::of(&c.skeleton, self.joint);
        let at = |clip: usize, t: f32| {
            c.clips.get(clip).map_or(Displacement::default(), |k| {
                clip_displacement(&k.clip, (self.joint, &rest, &frame), t)
            })
        };
        let from = parts
            .iter()
            .map(|(s, w)| (at(s.clip, s.step.from_secs), *w));
        let to = parts.iter().map(|(s, w)| (at(s.clip, s.step.to_secs), *w));
        (Displacement::blend(from), Displacement::blend(to))
    }

    /// Applied mode: moves the placement by the root travel of this frame's clip steps. Other
    /// modes: nothing moves.
    pub fn apply_root_motion(&mut self, c: &Character, parts: &[(ClipStep, f32)]) {
        if self.mode != MoveMode::Applied {
            return;
        }
        let (from, to) = self.displacement(c, parts);
        let (travel, turn) = self.mover.placement.step(from, to);
        self.mover.step(&self.ground, travel, turn);
        self.record();
    }

    /// Driven mode: moves the placement `speed` units per second along its heading (+Z turned
    /// by its yaw) for `dt_secs`.
    pub fn drive(&mut self, speed: f32, dt_secs: f32) {
        if self.mode != MoveMode::Driven {
            return;
        }
        let travel = from_yaw(self.mover.placement.yaw) * Vec3::Z * speed * dt_secs;
        self.mover.step(&self.ground, travel, 0.0);
        self.record();
    }

    /// Turns the heading by `radians` (the driven character's steering).
    pub fn turn(&mut self, radians: f32) {
        self.mover.placement.yaw += radians;
    }

    fn record(&mut self) {
        let p = self.mover.placement.position;
        if self.trail.back() != Some(&p) {
            self.trail.push_back(p);
        }
        while self.trail.len() > TRAIL_LEN {
            self.trail.pop_front();
        }
    }
}

/// One leg's contact windows in a clip: (start, end) clip seconds.
pub type Windows = Vec<(f32, f32)>;

/// Feet held where they were planted: each leg's contact windows per clip (detected once per
/// clip), and while a foot is in one, the world position its ankle was planted at.
#[derive(Clone, Debug, PartialEq)]
pub struct FootPlanter {
    pub legs: Vec<Chain>,
    pub pelvis: Option<usize>,
    /// Per clip, per leg.
    windows: Vec<Option<Vec<Windows>>>,
    locks: Vec<Option<Vec3>>,
    /// Hold planted feet (stance locking); off: feet only follow the ground's height.
    pub lock: bool,
}

impl FootPlanter {
    pub fn new(c: &Character, legs: Vec<Chain>) -> Self {
        let pelvis = crate::pose::common_ancestor(c, &legs);
        Self {
            locks: vec![None; legs.len()],
            legs,
            pelvis,
            windows: vec![None; c.clips.len()],
            lock: true,
        }
    }

    /// Sets the legs by hand (chain ends); locks are released.
    pub fn set_legs(&mut self, c: &Character, legs: Vec<Chain>) {
        *self = Self {
            lock: self.lock,
            ..Self::new(c, legs)
        };
    }

    /// Each leg's contact windows in `clip` (detected on first use).
    pub fn windows(&mut self, c: &Character, clip: usize) -> &[Windows] {
        if clip >= self.windows.len() {
            return &[];
        }
        if self.windows[clip].is_none() {
            self.windows[clip] = Some(contact_windows(c, clip, &self.legs));
        }
        self.windows[clip].as_deref().unwrap_or(&[])
    }

    /// Whether each leg is planted at `time_secs` of `clip`.
    pub fn contacts(&mut self, c: &Character, clip: usize, time_secs: f32) -> Vec<bool> {
        let legs = self.legs.len();
        let windows = self.windows(c, clip);
        (0..legs)
            .map(|l| windows.get(l).is_some_and(|w| in_contact(w, time_secs)))
            .collect()
    }

    /// The request's foot IK on `ground`, with the feet planted now held.
    pub fn foot_ik(&self, ground: Arc<Ground>, weight: f32) -> FootIk {
        FootIk {
            ground,
            legs: self
                .legs
                .iter()
                .zip(&self.locks)
                .map(|(&chain, &lock)| Leg {
                    chain,
                    lock: lock.filter(|_| self.lock),
                })
                .collect(),
            pelvis: self.pelvis,
            weight,
        }
    }

    /// After a frame is posed: a foot that has just been planted is held where it stands now;
    /// a foot that has lifted is let go.
    pub fn update(&mut self, contacts: &[bool], pose: &CharacterPose) {
        for ((leg, lock), &planted) in self.legs.iter().zip(&mut self.locks).zip(contacts) {
            if !planted {
                *lock = None;
            } else if lock.is_none() {
                *lock = pose
                    .model
                    .as_slice()
                    .get(leg.end)
                    .map(|m| Vec3::from(m.translation));
            }
        }
    }

    /// Lets every foot go.
    pub fn release(&mut self) {
        self.locks.iter_mut().for_each(|l| *l = None);
    }
}
