//! What to pose, as plain data: the window, every subcommand, the crowd and the tests build a
//! `PoseRequest`, and `CharacterPose::evaluate` turns it into the frame's pose. A frame seen in the
//! viewer can therefore be reproduced from the command line exactly.

use std::sync::Arc;

use glam::Vec3;

use crate::anim::{Chain, ExternalFrame, JointMask, LocalPose, Placement, TwoBoneSettings};
use crate::character::Character;
use crate::scene::Ground;

/// Which palette the skinned meshes are drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaletteMode {
    /// The sampled (and blended) pose.
    #[default]
    Animated,
    /// The rest pose (node transforms without animation): matches identity when the file's
    /// inverse binds match its vertex data.
    Bind,
    /// Every palette entry the identity: vertices as stored, at their mesh node (rest pose).
    Identity,
}

impl PaletteMode {
    /// Its name in messages and labels: `animated`, `bind`, `identity`.
    pub fn name(self) -> &'static str {
        match self {
            PaletteMode::Animated => "animated",
            PaletteMode::Bind => "bind",
            PaletteMode::Identity => "identity",
        }
    }
}

/// How a clip time outside `[0, duration]` is brought into the clip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeWrap {
    /// Floor-modulo by the clip's duration (a looping clip; the command line's rule).
    #[default]
    Loop,
    /// Clamped to `[0, duration]` (a clip played once: its last frame holds).
    Clamp,
}

/// A clip at a time, in that clip's seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipTime {
    /// Index into `Character::clips`.
    pub clip: usize,
    pub time_secs: f32,
}

/// A second clip blended in step (phase-aligned) with the main one: sampled at the same ratio of
/// its duration as the main clip, weighing `weight` (0..1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendSpec {
    pub b: usize,
    pub weight: f32,
}

/// A transition in progress from an outgoing clip (with its in-step blend) to the request's main
/// clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// The outgoing clip: at its own time now (crossfade), or at the switch (inertialize).
    pub from: ClipTime,
    /// A clip blended in step with the outgoing one.
    pub from_blend: Option<BlendSpec>,
    pub kind: TransitionKind,
}

/// How a transition exchanges the poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TransitionKind {
    /// Both sides sampled; the outgoing pose weighs `1 - weight`. `weight` runs from 0 at the
    /// switch to 1 at the end of the fade, in real time.
    Crossfade { weight: f32 },
    /// Only the incoming side is sampled; the offset recorded at the switch (the outgoing pose
    /// at `from` minus the incoming one at `to`, and their velocities) decays with a half-life
    /// in real seconds (`anim::Inertialization`).
    Inertialize(Inertial),
}

/// The switch an inertialized transition recorded, and the real time since.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inertial {
    /// The incoming side at the switch: its main clip's time then, and its in-step blend.
    pub to: ClipTime,
    pub to_blend: Option<BlendSpec>,
    /// Clip seconds per real second on each side at the switch (playback speed), for their
    /// velocities.
    pub from_rate: f32,
    pub to_rate: f32,
    pub half_life_secs: f32,
    /// Real (wall-clock) seconds since the switch.
    pub elapsed_secs: f32,
    /// A switch made while an earlier one still decays: that one's offsets, this long after
    /// it, stay on the outgoing side (what was shown), so the new offsets take them over.
    pub carried_secs: Option<f32>,
}

/// The real time over which an inertialized switch's velocities are measured (one 60 Hz step).
pub const VELOCITY_STEP_SECS: f32 = 1.0 / 60.0;

impl Transition {
    /// A crossfade from `from` at `weight` of the incoming pose.
    pub fn crossfade(from: ClipTime, weight: f32) -> Self {
        Self {
            from,
            from_blend: None,
            kind: TransitionKind::Crossfade { weight },
        }
    }
}

/// A clip laid over the pose after the transition (stage 4).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseLayer {
    /// The layer's clip at the layer's own time.
    pub clip: ClipTime,
    /// The layer's influence, 0..1 (eased toward its target by whoever plays it).
    pub weight: f32,
    /// Which joints it drives and how much (`None`: every joint).
    pub mask: Option<Arc<JointMask>>,
    pub blend: LayerBlend,
    /// An override layer's clip before its last switch and that clip's remaining weight: the
    /// layer's pose is a crossfade of the two (unused by an additive layer).
    pub fading_out: Option<(ClipTime, f32)>,
}

/// What a layer does with its clip: the one name for override and additive layers, from the
/// state machine's file, the panel and the command line to the pose request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LayerBlend {
    /// Replaces the masked joints' local transforms.
    Override,
    /// Adds the clip's difference from `reference`: another clip at a time, or (`None`) the
    /// layer clip's own first frame.
    Additive { reference: Option<ClipTime> },
}

/// Where the external pose comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternalSource {
    /// A clip (on the character's skeleton, a motion-capture take retargeted) at its own time:
    /// the joints its tracks key are driven.
    Clip(ClipTime),
    /// A frame received from a live stream, already on the character's skeleton.
    Live(Arc<ExternalFrame>),
}

/// An external pose (motion capture) overriding the rotations of the joints it drives, and its
/// hips' translation, after the transition and before the layers (stage 3b).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalPose {
    pub source: ExternalSource,
    /// 0 (the animation) to 1 (the source): a source that stopped blends back through it.
    pub weight: f32,
}

/// The physics pose (a ragdoll's bodies read back as local transforms) blended over the
/// animated pose by each joint's weight (0: the animation, 1: the physics), last (stage 6b).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsPose {
    pub pose: Arc<LocalPose>,
    pub weights: Arc<JointMask>,
}

/// What happens to the root-motion joint's horizontal travel and turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootMotionMode {
    /// Left in the pose: the character moves as the clip moves it.
    #[default]
    Authored,
    /// Removed from the pose; the placement does not move (the character walks in place).
    InPlace,
    /// Removed from the pose and handed to the movement controller, which moves the placement.
    Applied,
}

/// The root-motion stage: which joint, and what happens to its travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMotion {
    pub joint: usize,
    pub mode: RootMotionMode,
}

/// A chain's end brought to a world-space target, bending toward a pole (default: the way the
/// chain bends now).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkTarget {
    pub chain: Chain,
    pub target: Vec3,
    pub pole: Option<Vec3>,
    pub settings: TwoBoneSettings,
}

/// Feet planted on a ground: each leg's ankle moved to the ground's height under it (or held
/// where it was planted), the pelvis lowered so the lower foot reaches.
#[derive(Clone, Debug, PartialEq)]
pub struct FootIk {
    pub ground: Arc<Ground>,
    pub legs: Vec<Leg>,
    /// The joint lowered for the lower foot (the legs' common ancestor).
    pub pelvis: Option<usize>,
    pub weight: f32,
}

/// One leg of a `FootIk`: its chain (hip, knee, ankle) and, while its foot is planted, the
/// world position its ankle is held at (stance locking).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    pub chain: Chain,
    pub lock: Option<Vec3>,
}

/// One frame's pose, described. `Default` is the rest pose under the animated palette.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoseRequest {
    /// The main clip and its time; `None` is the rest pose.
    pub clip: Option<ClipTime>,
    /// A second clip blended in step with the main one.
    pub blend: Option<BlendSpec>,
    /// How clip times are wrapped into their clips (every clip of the request alike).
    pub wrap: TimeWrap,
    /// A transition from another clip, applied to the raw (sampled and blended) pose.
    pub transition: Option<Transition>,
    /// An external pose over the result of the transition (stage 3b).
    pub external: Option<ExternalPose>,
    /// Layers over the result, in order (stage 4).
    pub layers: Vec<PoseLayer>,
    /// Where the character stands (`world_from_entity`): the skeleton's roots are placed under
    /// it before IK, so IK targets and the ground are in world space.
    pub placement: Placement,
    /// The root-motion joint and what happens to its travel (stage 2).
    pub root_motion: Option<RootMotion>,
    /// Reach IK: chains brought to world-space targets, in order (stage 5).
    pub ik: Vec<IkTarget>,
    /// Foot IK: feet planted on the ground (stage 6).
    pub feet: Option<FootIk>,
    /// The physics pose over everything before it (stage 6b).
    pub physics: Option<PhysicsPose>,
    pub palette: PaletteMode,
    /// Morph weights set by hand, on top of the clip's.
    pub morph_overrides: Vec<super::MorphOverride>,
    /// Sample the clips' compressed keys (`ClipData::compressed`, made by
    /// `pose::compress_clips`) where a clip has them.
    pub compressed: bool,
    /// The pose drivers, after IK and the physics pose (stage 6c): correctives and helpers.
    pub drivers: Option<std::sync::Arc<super::DriverSet>>,
    /// Weight-blended skinning's method weight per skeleton joint (0: linear blend, 1: dual
    /// quaternions; `DqsJoints::methods`), copied per palette entry into
    /// `CharacterPose::palette_method`.
    pub joint_methods: Option<std::sync::Arc<[f32]>>,
    /// The muscles' displacement this frame (the performer's XPBD step), which the skin follows
    /// after skinning; copied into `CharacterPose::muscles`.
    pub muscles: Option<std::sync::Arc<super::MuscleFrame>>,
    /// The ML deformer whose corrective the skin takes (`--ml-deformer`).
    pub ml: Option<std::sync::Arc<super::MlModel>>,
}

impl PoseRequest {
    /// The rest pose drawn with `palette`.
    pub fn rest(palette: PaletteMode) -> Self {
        Self {
            palette,
            ..Self::default()
        }
    }

    /// The same frame `offset_secs` of clip time away (an onion skin's, a motion path's
    /// sample): the main clip, the layers' clips and an external clip moved by it and wrapped
    /// as `wrap` says; what belongs to now alone is left out (a transition in progress, planted
    /// feet, the ragdoll's and the muscles' frames).
    pub fn offset_by(&self, offset_secs: f32, wrap: TimeWrap) -> Self {
        let moved = |t: ClipTime| ClipTime {
            time_secs: t.time_secs + offset_secs,
            ..t
        };
        let mut out = self.clone();
        out.wrap = wrap;
        out.clip = self.clip.map(moved);
        for layer in &mut out.layers {
            layer.clip = moved(layer.clip);
            layer.fading_out = None;
        }
        if let Some(ExternalPose {
            source: ExternalSource::Clip(t),
            ..
        }) = &mut out.external
        {
            *t = moved(*t);
        }
        out.transition = None;
        out.feet = None;
        out.physics = None;
        out.muscles = None;
        out
    }

    /// Clip `clip` at `time_secs`, looping, animated palette.
    pub fn clip(clip: usize, time_secs: f32) -> Self {
        Self::at(Some(clip), time_secs)
    }

    /// Clip `clip` (the rest pose for `None`) at `time_secs`, looping, animated palette.
    pub fn at(clip: Option<usize>, time_secs: f32) -> Self {
        Self {
            clip: clip.map(|clip| ClipTime { clip, time_secs }),
            ..Self::default()
        }
    }

    /// The same request with a clip blended in step.
    pub fn with_blend(self, b: usize, weight: f32) -> Self {
        Self {
            blend: Some(BlendSpec { b, weight }),
            ..self
        }
    }

    /// The same request with clip times wrapped by `wrap`.
    pub fn with_wrap(self, wrap: TimeWrap) -> Self {
        Self { wrap, ..self }
    }

    /// The same request with morph weights set by hand on top of the clip's.
    pub fn with_morphs(self, morph_overrides: Vec<super::MorphOverride>) -> Self {
        Self {
            morph_overrides,
            ..self
        }
    }

    /// The same request sampling compressed clips (`true`) or raw ones.
    pub fn with_compressed(self, compressed: bool) -> Self {
        Self { compressed, ..self }
    }

    /// The same request drawn with another palette.
    pub fn with_palette(self, palette: PaletteMode) -> Self {
        Self { palette, ..self }
    }
}

/// A clip's time brought into the clip by `wrap`, using glTF's duration: the clip's largest key
/// time over all its channels, morph weights included (`ClipData::duration_secs`). Every command
/// and the window wrap through this one function.
pub fn clip_time(c: &Character, at: ClipTime, wrap: TimeWrap) -> f32 {
    let duration = c.clips.get(at.clip).map_or(0.0, |k| k.duration_secs());
    match wrap {
        TimeWrap::Loop => crate::anim::wrap_time(at.time_secs, duration),
        TimeWrap::Clamp if at.time_secs.is_finite() => at.time_secs.clamp(0.0, duration),
        TimeWrap::Clamp => 0.0,
    }
}

/// The time of clip `b` blended in step with clip `a` at `time_a`: the same ratio of its
/// duration (0 when `a` lasts no time).
pub fn in_step_time(c: &Character, a: usize, time_a: f32, b: usize) -> f32 {
    let duration_a = c.clips.get(a).map_or(0.0, |k| k.duration_secs());
    let ratio = if duration_a > 0.0 {
        time_a / duration_a
    } else {
        0.0
    };
    ratio * c.clips.get(b).map_or(0.0, |k| k.duration_secs())
}
