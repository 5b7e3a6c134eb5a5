//! The physics pose's player: the character's ragdoll (`physics::Ragdoll`), built on first use
//! from the animated pose and stepped at a fixed 60 Hz toward each frame's animated pose, its
//! per-subtree weights, and the impulses asked for. The animated pose is posed first (the feet
//! and the players keep its history); the physics pose is laid over it last.

use std::sync::Arc;

use glam::{Affine3A, Vec3};

use super::{Inputs, Performer};
use crate::anim::{Handoff, JointMask, LocalPose, PoseError};
use crate::character::Character;
use crate::physics::{DEFAULT_STIFFNESS, PHYSICS_HZ, PhysicsMode, Ragdoll};
use crate::pose::{CharacterPose, PhysicsPose, PoseRequest};

/// Why the physics stage failed: the ragdoll could not be built (the frame stays animated, and
/// the player keeps the reason for the panel), or the pose could not be evaluated.
#[derive(Debug, thiserror::Error)]
pub enum PhysicsStageError {
    #[error(transparent)]
    Ragdoll(#[from] crate::physics::PhysicsError),
    #[error(transparent)]
    Pose(#[from] PoseError),
}

/// The most fixed steps one frame takes (a frame slower than 15 Hz slows the physics down
/// rather than stepping without end).
pub const MAX_STEPS_PER_FRAME: usize = 4;

/// How many fixed steps of `step` seconds are due after `dt_secs` more of real time (none while
/// paused), at most `MAX_STEPS_PER_FRAME`; `owed` keeps what is left (under one step). The
/// physics pose's clock and the muscles'.
pub(super) fn fixed_steps(owed: &mut f32, playing: bool, dt_secs: f32, step: f32) -> usize {
    if playing {
        *owed += dt_secs.max(0.0);
    }
    let mut taken = 0;
    // A hair under a step counts as one: 60 Hz frames step exactly once each.
    while *owed >= step * (1.0 - 1e-3) && taken < MAX_STEPS_PER_FRAME {
        *owed -= step;
        taken += 1;
    }
    *owed = owed.clamp(0.0, step);
    taken
}

/// The physics as asked for: off, or limp or powered, its stiffness and the weights of the
/// subtrees it takes (no roots: every joint at 1).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsInput {
    pub mode: Option<PhysicsMode>,
    /// A powered ragdoll's drive toward the animation, per second.
    pub stiffness: f32,
    /// (joint, weight): a joint takes the weight of its nearest listed ancestor-or-self;
    /// joints under no listed root weigh 0. Empty: every joint 1.
    pub weights: Vec<(usize, f32)>,
}

impl Default for PhysicsInput {
    fn default() -> Self {
        Self {
            mode: None,
            stiffness: DEFAULT_STIFFNESS,
            weights: Vec::new(),
        }
    }
}

/// The ragdoll and what the pose needs of it: see the module's documentation.
#[derive(Default)]
pub struct PhysicsPlayer {
    ragdoll: Option<Ragdoll>,
    roots: Option<Vec<(usize, f32)>>,
    weights: Option<Arc<JointMask>>,
    frame: Handoff<LocalPose>,
    world: Vec<Affine3A>,
    /// Real seconds not yet stepped (under one fixed step).
    owed_secs: f32,
    /// Why the ragdoll could not be built.
    pub error: Option<String>,
    /// Fixed steps taken since the ragdoll was built.
    pub steps: u64,
}

impl PhysicsPlayer {
    /// A copy to resume from: the ragdoll in a copy of its world, the weights and the clock;
    /// the frames handed out are this player's (the copy fills its own).
    pub fn snapshot(&self) -> Self {
        Self {
            ragdoll: self.ragdoll.clone(),
            roots: self.roots.clone(),
            weights: self.weights.clone(),
            frame: Default::default(),
            world: self.world.clone(),
            owed_secs: self.owed_secs,
            error: self.error.clone(),
            steps: self.steps,
        }
    }

    /// The ragdoll, once built.
    pub fn ragdoll(&self) -> Option<&Ragdoll> {
        self.ragdoll.as_ref()
    }

    /// The weights the inputs ask for, remade when they change.
    fn weights(&mut self, c: &Character, input: &PhysicsInput) -> Arc<JointMask> {
        if let (Some(weights), Some(roots)) = (&self.weights, &self.roots)
            && *roots == input.weights
        {
            return weights.clone();
        }
        let mask = if input.weights.is_empty() {
            JointMask::uniform(&c.skeleton, 1.0)
        } else {
            JointMask::from_roots(&c.skeleton, &input.weights)
        };
        let weights = Arc::new(mask);
        self.weights = Some(weights.clone());
        self.roots = Some(input.weights.clone());
        weights
    }
}

impl Performer {
    /// The physics player: the ragdoll, its steps, why it failed.
    pub fn physics(&self) -> &PhysicsPlayer {
        &self.physics
    }

    /// Drops the ragdoll: the next physics frame builds it again at the animated pose.
    pub fn reset_physics(&mut self) {
        self.physics.ragdoll = None;
        self.physics.error = None;
        self.physics.frame = Handoff::default();
        self.physics.owed_secs = 0.0;
        self.physics.steps = 0;
    }

    /// An impulse on the body of `joint` (or its nearest ancestor with one) at the world point
    /// `at` (its centre of mass when `None`); false without a ragdoll or a body.
    pub fn impulse(&mut self, joint: usize, impulse: Vec3, at: Option<Vec3>) -> bool {
        self.physics
            .ragdoll
            .as_mut()
            .is_some_and(|r| r.impulse(joint, impulse, at))
    }

    /// The physics stage of a frame already posed from `request` into `pose` (the animated
    /// pose): with the physics on, the ragdoll steps by `dt_secs` of real time at a fixed 60 Hz
    /// toward it, `request` takes the physics pose and `pose` is posed again from it. With the
    /// physics off the ragdoll is dropped and nothing changes. A character with no body to
    /// simulate (no joint weighs a vertex: a BVH skeleton) is refused, its frame left animated.
    pub fn apply_physics(
        &mut self,
        c: &Character,
        inputs: &Inputs,
        request: &mut PoseRequest,
        pose: &mut CharacterPose,
        dt_secs: f32,
    ) -> Result<(), PhysicsStageError> {
        let Some(mode) = inputs.physics.mode else {
            self.reset_physics();
            return Ok(());
        };
        let player = &mut self.physics;
        if player.ragdoll.is_none() && player.error.is_some() {
            // Refused once; tried again after a reset (or the physics turned off and on).
            return Ok(());
        }
        if player.ragdoll.is_none() {
            let ground = &self.locomotion.ground;
            match Ragdoll::new(c, ground, self.height) {
                Ok(r) => player.ragdoll = Some(r),
                Err(e) => {
                    player.error = Some(e.to_string());
                    return Err(e.into());
                }
            }
            player.error = None;
        }
        let weights = player.weights(c, &inputs.physics);
        let Some(ragdoll) = player.ragdoll.as_mut() else {
            return Ok(());
        };
        let step = 1.0 / PHYSICS_HZ;
        let taken = fixed_steps(&mut player.owed_secs, inputs.playing, dt_secs, step);
        for _ in 0..taken {
            ragdoll.step(
                &pose.model,
                &weights,
                (mode, inputs.physics.stiffness),
                step,
            );
            player.steps += 1;
        }
        if taken == 0 {
            // The first frame (or a paused one): the bodies where the animation is.
            ragdoll.step(&pose.model, &weights, (mode, inputs.physics.stiffness), 0.0);
        }
        let frame = player.frame.next_mut(|| LocalPose::rest(&c.skeleton));
        ragdoll.pose_into(c, pose.local(), &mut player.world, frame);
        request.physics = player
            .frame
            .hand_out()
            .map(|pose| PhysicsPose { pose, weights });
        Ok(pose.evaluate(c, request)?)
    }
}
