//! The skeleton as it leaves each stage of a frame, for watching one stage's work (Unreal's
//! Pose Watch): `CharacterPose::evaluate_watched` copies the local pose into a `StagePoses`
//! after each stage, placed in the world as the final pose is, so each can be drawn over the
//! final pose or printed (`palette --stage NAME`). Evaluation without it copies nothing.

use crate::anim::{self, LocalPose, ModelPose, Placement, PoseError};
use crate::character::Character;

/// A stage of the frame whose outgoing pose can be watched, in the frame's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The main clip sampled and the in-step clip blended (the rest pose without a clip).
    Raw,
    /// The root-motion joint's travel removed (unchanged when root motion is as authored).
    RootMotion,
    /// The crossfade from the outgoing clip, or the inertialized offset.
    Transition,
    /// The external pose (motion capture) on the joints it drives.
    External,
    /// The pose layers (masked overrides and additive clips).
    Layers,
    /// The two-bone reach targets.
    ReachIk,
    /// The feet planted on the ground (and the reach again after the pelvis moved).
    FootIk,
    /// The ragdoll's pose by each joint's weight: the frame's pose before the pose drivers.
    Physics,
}

impl Stage {
    /// Every stage, in the frame's order.
    pub const ALL: [Stage; 8] = [
        Stage::Raw,
        Stage::RootMotion,
        Stage::Transition,
        Stage::External,
        Stage::Layers,
        Stage::ReachIk,
        Stage::FootIk,
        Stage::Physics,
    ];

    /// The stage's name on the command line and in the panel.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Raw => "raw",
            Stage::RootMotion => "root-motion",
            Stage::Transition => "transition",
            Stage::External => "external",
            Stage::Layers => "layers",
            Stage::ReachIk => "reach-ik",
            Stage::FootIk => "foot-ik",
            Stage::Physics => "physics",
        }
    }

    /// The stage named `name` (as `name` gives it).
    pub fn parse(name: &str) -> Option<Stage> {
        Self::ALL.into_iter().find(|s| s.name() == name.trim())
    }

    /// Every stage's name, comma-separated (for error messages).
    pub fn names() -> String {
        Self::ALL.map(Stage::name).join(", ")
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The local pose after each stage of one frame, its roots placed under the frame's placement
/// (the earlier stages run before the placement is applied: their copies get it here).
#[derive(Clone, Debug, Default)]
pub struct StagePoses {
    locals: Vec<LocalPose>,
    /// Which stages were recorded by the last evaluation.
    recorded: [bool; Stage::ALL.len()],
}

impl StagePoses {
    /// An empty record; the first evaluation sizes it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the last frame's record (its buffers kept).
    pub(super) fn clear(&mut self) {
        self.recorded = [false; Stage::ALL.len()];
    }

    /// Keeps a copy of `local` as the pose after `stage`; `placement` when the stage ran before
    /// the roots were placed.
    pub(super) fn record(
        &mut self,
        c: &Character,
        stage: Stage,
        local: &LocalPose,
        placement: Option<&Placement>,
    ) {
        if self.locals.len() < Stage::ALL.len() {
            self.locals.resize_with(Stage::ALL.len(), || local.clone());
        }
        let copy = &mut self.locals[stage.index()];
        copy.clone_from(local);
        if let Some(placement) = placement.filter(|p| **p != Placement::default()) {
            let locals = copy.as_mut_slice();
            for (joint, parent) in c.skeleton.parents().iter().enumerate() {
                if parent.is_none() {
                    locals[joint] = placement.place(&locals[joint]);
                }
            }
        }
        self.recorded[stage.index()] = true;
    }

    /// The local pose after `stage` (`None` before a frame was evaluated with this record).
    pub fn local(&self, stage: Stage) -> Option<&LocalPose> {
        self.recorded[stage.index()].then(|| &self.locals[stage.index()])
    }

    /// Every joint's `world_from_joint` after `stage`, into `out`.
    pub fn model_into(
        &self,
        c: &Character,
        stage: Stage,
        out: &mut ModelPose,
    ) -> Result<bool, PoseError> {
        match self.local(stage) {
            Some(local) => anim::local_to_model(&c.skeleton, local, out).map(|_| true),
            None => Ok(false),
        }
    }
}
