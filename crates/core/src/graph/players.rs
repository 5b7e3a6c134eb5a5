//! The clocks of what a character plays: a state's motion (one clip, or a blend space in
//! step), a transition in progress and a pose layer. Each advances by real seconds and says
//! what to pose as `pose` request parts; the state machine and the viewer's own controls both
//! play through them.

use std::sync::Arc;

use crate::anim::{BlendPoint, BlendSpace1d, JointMask, Playback, PlaybackMode, Step, ease};
use crate::character::Character;
use crate::pose::{
    BlendSpec, ClipTime, Inertial, LayerBlend, PoseLayer, Transition, TransitionKind,
};

fn duration(c: &Character, clip: usize) -> f32 {
    c.clips.get(clip).map_or(0.0, |k| k.duration_secs())
}

/// A clip's step this frame, in its own seconds, for its events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipStep {
    pub clip: usize,
    pub step: Step,
    pub mode: PlaybackMode,
}

/// What a state plays: one clip, or a one-parameter blend space whose two neighbouring clips
/// play in step.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    Clip { clip: usize, playback: Playback },
    Space(SpacePlayer),
}

/// A blend space in step: one normalised phase drives every clip, and the shared cycle lasts
/// `lerp(duration_a, duration_b, weight)` seconds, so the blended feet move at the blend of the
/// clips' rates and do not slide.
#[derive(Clone, Debug, PartialEq)]
pub struct SpacePlayer {
    pub space: BlendSpace1d,
    /// The phase, as a playhead over a cycle of length 1.
    pub phase: Playback,
    pub point: BlendPoint,
}

impl Motion {
    /// A clip from its start.
    pub fn clip(c: &Character, clip: usize, speed: f32, mode: PlaybackMode) -> Self {
        let mut playback = Playback::new(duration(c, clip));
        playback.speed = speed;
        playback.mode = mode;
        Motion::Clip { clip, playback }
    }

    /// A blend space from phase 0 at `parameter`.
    pub fn space(space: BlendSpace1d, parameter: f32, speed: f32) -> Self {
        let mut phase = Playback::new(1.0);
        phase.speed = speed;
        let point = space.at(parameter);
        Motion::Space(SpacePlayer {
            space,
            phase,
            point,
        })
    }

    /// The clip (and in-step blend) to sample now.
    pub fn source(&self, c: &Character) -> (ClipTime, Option<BlendSpec>) {
        match self {
            Motion::Clip { clip, playback } => (
                ClipTime {
                    clip: *clip,
                    time_secs: playback.time_secs(),
                },
                None,
            ),
            Motion::Space(s) => {
                let ratio = s.phase.time_secs();
                let a = ClipTime {
                    clip: s.point.a,
                    time_secs: ratio * duration(c, s.point.a),
                };
                let blend = (s.point.b != s.point.a && s.point.weight > 0.0).then_some(BlendSpec {
                    b: s.point.b,
                    weight: s.point.weight,
                });
                (a, blend)
            }
        }
    }

    /// The main clip's seconds per real second (its playback rate).
    pub fn rate(&self, c: &Character) -> f32 {
        match self {
            Motion::Clip { playback, .. } if !playback.paused => playback.speed,
            Motion::Space(s) if !s.phase.paused => {
                let cycle = s.cycle_secs(c);
                if cycle > 0.0 {
                    s.phase.speed * duration(c, s.point.a) / cycle
                } else {
                    0.0
                }
            }
            _ => 0.0,
        }
    }

    /// Normalised time in the current cycle (0..1).
    pub fn ratio(&self) -> f32 {
        match self {
            Motion::Clip { playback, .. } => playback.ratio(),
            Motion::Space(s) => s.phase.time_secs(),
        }
    }

    pub fn set_paused(&mut self, paused: bool) {
        match self {
            Motion::Clip { playback, .. } => playback.paused = paused,
            Motion::Space(s) => s.phase.paused = paused,
        }
    }

    pub fn set_speed(&mut self, speed: f32) {
        match self {
            Motion::Clip { playback, .. } => playback.speed = speed,
            Motion::Space(s) => s.phase.speed = speed,
        }
    }

    /// Advances by `dt_secs` of real time (a blend space at `parameter`) and pushes each
    /// playing clip's step, for its events.
    pub fn advance(
        &mut self,
        c: &Character,
        dt_secs: f32,
        parameter: f32,
        steps: &mut Vec<ClipStep>,
    ) {
        match self {
            Motion::Clip { clip, playback } => {
                let step = playback.advance(dt_secs);
                steps.push(ClipStep {
                    clip: *clip,
                    step,
                    mode: playback.mode,
                });
            }
            Motion::Space(s) => {
                s.point = s.space.at(parameter);
                let cycle = s.cycle_secs(c);
                let step = s
                    .phase
                    .advance(if cycle > 0.0 { dt_secs / cycle } else { 0.0 });
                let mut push = |clip: usize| {
                    let d = duration(c, clip);
                    steps.push(ClipStep {
                        clip,
                        step: Step {
                            from_secs: step.from_secs * d,
                            to_secs: step.to_secs * d,
                        },
                        mode: PlaybackMode::Loop,
                    });
                };
                push(s.point.a);
                if s.point.b != s.point.a && s.point.weight > 0.0 {
                    push(s.point.b);
                }
            }
        }
    }
}

impl SpacePlayer {
    /// Seconds one shared cycle lasts at the current point.
    pub fn cycle_secs(&self, c: &Character) -> f32 {
        let (da, db) = (duration(c, self.point.a), duration(c, self.point.b));
        da + (db - da) * self.point.weight.clamp(0.0, 1.0)
    }
}

/// How a transition exchanges its sides, as asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TransitionSpec {
    Crossfade { duration_secs: f32 },
    Inertialize { half_life_secs: f32 },
}

/// An inertialized switch is over when less than this fraction of its offset is left.
pub const INERTIAL_END: f32 = 1e-4;

/// A transition in progress: the outgoing motion (still playing for a crossfade) and the real
/// time since the switch.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionPlayer {
    pub from: Motion,
    pub spec: TransitionSpec,
    pub elapsed_secs: f32,
    /// For an inertialized switch: the outgoing side at the switch and the incoming side then.
    recorded: Option<(Transition, Inertial)>,
}

impl TransitionPlayer {
    /// Starts a transition from `from` to `to` (both as they stand at the switch).
    pub fn start(c: &Character, from: Motion, to: &Motion, spec: TransitionSpec) -> Self {
        let recorded = match spec {
            TransitionSpec::Crossfade { .. } => None,
            TransitionSpec::Inertialize { half_life_secs } => {
                let (from_clip, from_blend) = from.source(c);
                let (to_clip, to_blend) = to.source(c);
                let inertial = Inertial {
                    to: to_clip,
                    to_blend,
                    from_rate: from.rate(c),
                    to_rate: to.rate(c),
                    half_life_secs,
                    elapsed_secs: 0.0,
                    carried_secs: None,
                };
                let transition = Transition {
                    from: from_clip,
                    from_blend,
                    kind: TransitionKind::Inertialize(inertial),
                };
                Some((transition, inertial))
            }
        };
        Self {
            from,
            spec,
            elapsed_secs: 0.0,
            recorded,
        }
    }

    /// An inertialized switch made while `earlier` (an inertialized one) still decays: its
    /// offsets as they stand now are taken over (see `Inertial::carried_secs`).
    pub fn carry(&mut self, earlier: Option<&TransitionPlayer>) {
        let carried = earlier
            .filter(|e| e.recorded.is_some() && !e.done())
            .map(|e| e.elapsed_secs);
        if let Some((transition, inertial)) = &mut self.recorded {
            inertial.carried_secs = carried;
            if let TransitionKind::Inertialize(i) = &mut transition.kind {
                i.carried_secs = carried;
            }
        }
    }

    /// Advances by `dt_secs` of real time; the outgoing motion plays on during a crossfade, its
    /// clock scaled by `rate` (the playback speed the incoming side plays at).
    pub fn advance(
        &mut self,
        c: &Character,
        dt_secs: f32,
        rate: f32,
        parameter: f32,
        steps: &mut Vec<ClipStep>,
    ) {
        self.elapsed_secs += dt_secs.max(0.0);
        if matches!(self.spec, TransitionSpec::Crossfade { .. }) {
            self.from.advance(c, dt_secs * rate, parameter, steps);
        }
    }

    /// How far along it is, 0..1 (an inertialized one: how much of its offset is gone).
    pub fn progress(&self) -> f32 {
        match self.spec {
            TransitionSpec::Crossfade { duration_secs } if duration_secs > 0.0 => {
                (self.elapsed_secs / duration_secs).min(1.0)
            }
            TransitionSpec::Crossfade { .. } => 1.0,
            TransitionSpec::Inertialize { half_life_secs } => {
                1.0 - crate::anim::decay(self.elapsed_secs, half_life_secs)
            }
        }
    }

    pub fn done(&self) -> bool {
        match self.spec {
            TransitionSpec::Crossfade { .. } => self.progress() >= 1.0,
            TransitionSpec::Inertialize { half_life_secs } => {
                crate::anim::decay(self.elapsed_secs, half_life_secs) < INERTIAL_END
            }
        }
    }

    /// The request's transition now.
    pub fn transition(&self, c: &Character) -> Transition {
        match &self.recorded {
            Some((transition, inertial)) => Transition {
                kind: TransitionKind::Inertialize(Inertial {
                    elapsed_secs: self.elapsed_secs,
                    ..*inertial
                }),
                ..*transition
            },
            None => {
                let (from, from_blend) = self.from.source(c);
                Transition {
                    from,
                    from_blend,
                    kind: TransitionKind::Crossfade {
                        weight: self.progress(),
                    },
                }
            }
        }
    }
}

/// A pose layer on its own clock: its influence eases toward `target` with a half-life, and a
/// switch of clip crossfades over the same half-life.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerPlayer {
    pub clip: usize,
    pub playback: Playback,
    pub mask: Option<Arc<JointMask>>,
    pub blend: LayerBlend,
    /// The influence now and the one it eases toward (0..1).
    pub weight: f32,
    pub target: f32,
    pub half_life_secs: f32,
    /// The clip played before the last switch, its playhead and its remaining weight.
    fading: Option<(usize, Playback, f32)>,
}

impl LayerPlayer {
    pub fn new(
        c: &Character,
        clip: usize,
        mask: Option<Arc<JointMask>>,
        blend: LayerBlend,
        half_life_secs: f32,
    ) -> Self {
        Self {
            clip,
            playback: Playback::new(duration(c, clip)),
            mask,
            blend,
            weight: 0.0,
            target: 0.0,
            half_life_secs,
            fading: None,
        }
    }

    /// Plays `clip` from its start; the clip it played fades out over the half-life.
    pub fn switch_clip(&mut self, c: &Character, clip: usize) {
        if clip == self.clip {
            return;
        }
        let mut playback = Playback::new(duration(c, clip));
        playback.speed = self.playback.speed;
        playback.paused = self.playback.paused;
        playback.mode = self.playback.mode;
        let old = std::mem::replace(&mut self.playback, playback);
        // A clip still fading from an earlier switch is dropped: the clip that was playing
        // carries the pose of the moment out.
        self.fading = Some((self.clip, old, 1.0));
        self.clip = clip;
    }

    /// The clip being faded out and its remaining weight, if any.
    pub fn fading(&self) -> Option<(usize, f32)> {
        self.fading.as_ref().map(|f| (f.0, f.2))
    }

    /// Advances its clocks by `dt_secs` of real time (the clip at `speed`).
    pub fn advance(&mut self, dt_secs: f32, speed: f32, paused: bool, steps: &mut Vec<ClipStep>) {
        self.weight = ease(self.weight, self.target, dt_secs, self.half_life_secs);
        self.playback.speed = speed;
        self.playback.paused = paused;
        if self.weight > 0.0 || self.target > 0.0 {
            let step = self.playback.advance(dt_secs);
            let mode = self.playback.mode;
            steps.push(ClipStep {
                clip: self.clip,
                step,
                mode,
            });
        }
        if let Some((_, playback, w)) = self.fading.as_mut() {
            playback.speed = speed;
            playback.paused = paused;
            playback.advance(dt_secs);
            *w = ease(*w, 0.0, dt_secs, self.half_life_secs);
            if *w == 0.0 {
                self.fading = None;
            }
        }
    }

    /// The request's layer now (`None` while it weighs nothing).
    pub fn pose_layer(&self) -> Option<PoseLayer> {
        if self.weight <= 0.0 {
            return None;
        }
        let clip = ClipTime {
            clip: self.clip,
            time_secs: self.playback.time_secs(),
        };
        let fading_out = match self.blend {
            LayerBlend::Override => self.fading.as_ref().map(|(clip, playback, w)| {
                let at = ClipTime {
                    clip: *clip,
                    time_secs: playback.time_secs(),
                };
                (at, *w)
            }),
            LayerBlend::Additive { .. } => None,
        };
        Some(PoseLayer {
            clip,
            weight: self.weight,
            mask: self.mask.clone(),
            blend: self.blend,
            fading_out,
        })
    }
}
