//! The stateful half of a frame, written once: what a character plays and where it stands. A
//! `Performer` owns the clocks (the clip's playhead, the in-step blend's phase, the state
//! machine), the transition player, the pose layers' players and masks, the locomotion (root
//! motion modes, driven mode's matched rate) and the foot planter. Each frame it reads plain
//! `Inputs` and a time step, reports the clip steps and events it crossed, gives the frame's
//! `PoseRequest`, and takes the posed result back for the feet. The window (`viewer`), every
//! posing subcommand and the tests step this one type. CPU only: it sits above `graph` and
//! `pose`, below `viewer` and the command line.

use std::sync::Arc;

use glam::Vec3;

mod driven;
mod external;
mod match_report;
mod matching;
pub mod ml;
mod muscles;
mod physics;
mod recorded;
pub use external::{DEFAULT_BLEND_BACK_SECS, ExternalInput, ExternalPlayer, HOLD_SECS};
pub use match_report::{Candidate, SearchOutcome, SearchReport, TOP_CANDIDATES};
pub use matching::{
    MatchInput, MatchPlayer, MatchStats, SEARCH_EVERY_SECS, SWITCH_HALF_LIFE_SECS, Switch,
};
pub use muscles::{MUSCLE_HZ, MuscleInput, MusclePlayer, SETTLE_STEPS};
pub use physics::{MAX_STEPS_PER_FRAME, PhysicsInput, PhysicsPlayer, PhysicsStageError};

use crate::anim::{
    Chain, JointMask, Playback, PlaybackMode, SyncedBlend, TwoBoneSettings, for_each_crossed_event,
};
use crate::character::Character;
use crate::graph::{
    ClipStep, FiredEvent, FootPlanter, LayerPlayer, Locomotion, Machine, Motion, MoveMode,
    TransitionPlayer, TransitionSpec,
};
use crate::pose::{
    CharacterPose, ClipTime, IkTarget, LayerBlend, MorphOverride, PaletteMode, PoseRequest,
    RootMotion, TimeWrap,
};
use crate::scene::Ground;

/// Two clips played in step: clip `b` weighs `weight` (0..1) against `a`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendInput {
    pub a: usize,
    pub b: usize,
    pub weight: f32,
}

/// What plays, of the inputs: the clip, or the blend, or the state machine. Enough for the
/// timeline's queries (`Performer::time_secs`, `timeline_clip`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playing {
    /// The clip (none: the rest pose).
    pub clip: Option<usize>,
    pub blend: Option<BlendInput>,
    pub use_graph: bool,
    /// Motion matching chooses the clip (`Performer::playing_clip`).
    pub matching: bool,
}

/// One pose layer as asked for: its clip, eased toward `weight` (0: off) with `half_life_secs`.
/// A change of clip crossfades (override) or starts over (additive: a new reference).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerInput {
    pub blend: LayerBlend,
    pub clip: usize,
    pub weight: f32,
    pub half_life_secs: f32,
    /// An override layer's subtrees and their weights (unused by an additive layer).
    pub roots: Vec<(usize, f32)>,
}

/// A reach target for the two-bone chain ending at `end`: in the character's frame (its
/// placement's position and heading) when `follows`, else in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    pub end: usize,
    pub target: Vec3,
    pub pole: Option<Vec3>,
    pub follows: bool,
}

/// What a performer reads each frame: the viewer's `Controls` or the command line's options,
/// as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// The clip played when neither the blend nor the state machine plays (none, or one the
    /// character does not have: the rest pose).
    pub clip: Option<usize>,
    pub playing: bool,
    pub looping: bool,
    /// Playback rate (negative plays backwards).
    pub speed: f32,
    /// Play two clips in step instead of `clip`.
    pub blend: Option<BlendInput>,
    /// Let the state machine (`Performer::machine`) choose what plays.
    pub use_graph: bool,
    /// The pose layers, in order.
    pub layers: Vec<LayerInput>,
    pub move_mode: MoveMode,
    /// The root-motion joint (`None`: the performer's default).
    pub root_joint: Option<usize>,
    /// Driven mode's speed, units per second along the heading.
    pub drive_speed: f32,
    /// Plant the feet of the legs ending at `leg_ends` on the ground.
    pub foot_ik: bool,
    pub leg_ends: Vec<usize>,
    pub reach: Vec<Reach>,
    pub palette: PaletteMode,
    pub compressed: bool,
    pub morphs: Vec<MorphOverride>,
    /// The external pose's source (motion capture), over the transition, under the layers.
    pub external: ExternalInput,
    /// How long a stopped live source takes to blend back to the animation.
    pub blend_back_secs: f32,
    /// The physics pose (a ragdoll), after foot IK.
    pub physics: PhysicsInput,
    /// Motion matching's goal (`None`: off). While on it chooses what plays, with root motion
    /// applied, over the clip, the blend and the state machine.
    pub motion_matching: Option<MatchInput>,
    /// The pose drivers (correctives and helper joints), after IK and the physics pose.
    pub drivers: Option<Arc<crate::pose::DriverSet>>,
    /// Weight-blended skinning's per-joint method weights (`PoseRequest::joint_methods`).
    pub joint_methods: Option<Arc<[f32]>>,
    /// The XPBD muscles the skin follows (`None`: off), after the physics pose.
    pub muscles: Option<MuscleInput>,
    /// The ML deformer whose corrective the skin takes (`None`: off).
    pub ml_deformer: Option<Arc<crate::pose::MlModel>>,
}

impl Inputs {
    /// What plays.
    pub fn playing(&self) -> Playing {
        Playing {
            clip: self.clip,
            blend: self.blend,
            use_graph: self.use_graph,
            matching: self.motion_matching.is_some(),
        }
    }

    /// The in-step blend, unless motion matching chooses what plays.
    pub fn played_blend(&self) -> Option<BlendInput> {
        self.blend.filter(|_| self.motion_matching.is_none())
    }

    /// Whether the state machine is asked to choose what plays (and motion matching is not).
    pub fn graph_asked(&self) -> bool {
        self.use_graph && self.motion_matching.is_none()
    }

    /// How the character moves: root motion applied under motion matching, else as asked.
    pub fn moving(&self) -> MoveMode {
        if self.motion_matching.is_some() {
            MoveMode::Applied
        } else {
            self.move_mode
        }
    }
}

impl Default for Inputs {
    fn default() -> Self {
        Self {
            clip: Some(0),
            playing: true,
            looping: true,
            speed: 1.0,
            blend: None,
            use_graph: false,
            layers: Vec::new(),
            move_mode: MoveMode::Authored,
            root_joint: None,
            drive_speed: 0.0,
            foot_ik: false,
            leg_ends: Vec::new(),
            reach: Vec::new(),
            palette: PaletteMode::Animated,
            compressed: false,
            morphs: Vec::new(),
            external: ExternalInput::Off,
            blend_back_secs: DEFAULT_BLEND_BACK_SECS,
            physics: PhysicsInput::default(),
            motion_matching: None,
            drivers: None,
            joint_methods: None,
            muscles: None,
            ml_deformer: None,
        }
    }
}

/// A layer's player and the roots its mask was built from.
#[derive(Clone, Debug)]
struct LayerSlot {
    player: LayerPlayer,
    roots: Vec<(usize, f32)>,
}

/// Plays a character: see the module's documentation.
pub struct Performer {
    playback: Playback,
    /// The clip `playback` plays (none before the first step); possibly past the character's
    /// clips when the inputs name one that is not there.
    playing_clip: Option<usize>,
    synced: SyncedBlend,
    transition: Option<TransitionPlayer>,
    layers: Vec<LayerSlot>,
    /// The character's state machine, when it has one.
    pub machine: Option<Machine>,
    /// The character's placement, moved by root motion or a commanded speed over its ground.
    pub locomotion: Locomotion,
    /// The legs foot IK plants and the feet held.
    pub planter: FootPlanter,
    /// The root-motion joint when the inputs name none.
    default_root_joint: usize,
    /// Each clip's ground speed, measured on first use.
    ground_speeds: Vec<Option<f32>>,
    /// This frame's clip steps and the events they (and the state machine) crossed.
    steps: Vec<ClipStep>,
    fired: Vec<FiredEvent>,
    /// Each leg's contact at the last posed frame.
    contacts: Vec<bool>,
    /// The external pose's clocks and last live frame.
    external: ExternalPlayer,
    /// The ragdoll and its clock.
    physics: PhysicsPlayer,
    /// The muscles' simulation and its clock.
    muscles: MusclePlayer,
    /// The character's height (sizes the ragdoll).
    height: f32,
    /// Motion matching's goal springs, database and search clock.
    matching: MatchPlayer,
    /// The placement after motion matching's last step (its adjustment reads the travel since).
    matched_from: Option<crate::anim::Placement>,
}

impl Performer {
    /// A performer for `c` standing on `ground`, its playheads at 0, with `machine` as its state
    /// machine; `height` sizes the movement controller.
    pub fn new(c: &Character, ground: Arc<Ground>, height: f32, machine: Option<Machine>) -> Self {
        let default_root_joint =
            crate::anim::default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip))
                .unwrap_or(0);
        Self {
            playback: Playback::new(0.0),
            playing_clip: None,
            synced: SyncedBlend::new(0.0, 0.0, 0.0),
            transition: None,
            layers: Vec::new(),
            machine,
            locomotion: Locomotion::new(
                default_root_joint,
                ground,
                Locomotion::settings_for(height),
            ),
            planter: FootPlanter::new(c, Vec::new()),
            default_root_joint,
            ground_speeds: vec![None; c.clips.len()],
            steps: Vec::new(),
            fired: Vec::new(),
            contacts: Vec::new(),
            external: ExternalPlayer::default(),
            physics: PhysicsPlayer::default(),
            muscles: MusclePlayer::default(),
            height,
            matching: MatchPlayer::default(),
            matched_from: None,
        }
    }

    /// A live external frame arrived (a motion-capture datagram, retargeted).
    pub fn receive_external(&mut self, frame: Arc<crate::anim::ExternalFrame>) {
        self.external.receive(frame);
    }

    /// The external pose's player: its source's time, a live frame's age, its weight.
    pub fn external(&self) -> &ExternalPlayer {
        &self.external
    }

    fn duration(c: &Character, clip: usize) -> f32 {
        c.clips.get(clip).map_or(0.0, |k| k.duration_secs())
    }

    /// Whether the state machine chooses what plays.
    pub fn graph_driven(&self, inputs: &Inputs) -> bool {
        inputs.graph_asked() && self.machine.is_some()
    }

    fn graph<'m>(&'m self, inputs: &Inputs) -> Option<&'m Machine> {
        self.graph_of(inputs.graph_asked())
    }

    fn graph_of(&self, use_graph: bool) -> Option<&Machine> {
        self.machine.as_ref().filter(|_| use_graph)
    }

    /// Brings the playheads to the inputs' clip, speed, looping and blend (a new clip keeps the
    /// phase: the same ratio of its own duration), and returns driven mode's rate when it set
    /// one.
    fn sync(&mut self, c: &Character, inputs: &Inputs) -> Option<f32> {
        let rate = self.driven_rate(c, inputs);
        let speed = rate.unwrap_or(inputs.speed);
        let mode = if inputs.looping {
            PlaybackMode::Loop
        } else {
            PlaybackMode::Once
        };
        let matching = self.matching_on(inputs);
        if matching {
            // The search chose the clip; a clip in the database plays as it loops there.
            if self.playing_clip(c).is_none()
                && let Some(start) = inputs.clip.and_then(|k| self.matching.start(k))
            {
                self.switch_to(c, start);
            }
        } else if self.playing_clip != inputs.clip {
            let ratio = self.playback.ratio();
            self.playback = Playback::new(inputs.clip.map_or(0.0, |k| Self::duration(c, k)));
            self.playback.mode = mode;
            self.playback.seek_ratio(ratio);
            self.playing_clip = inputs.clip;
        }
        self.playback.speed = speed;
        if !matching {
            self.playback.mode = mode;
        }
        self.playback.paused = !inputs.playing;
        let (a, b, w) = inputs
            .blend
            .map_or((0, 0, 0.0), |bl| (bl.a, bl.b, bl.weight));
        let phase = self.synced.phase.clone();
        self.synced = SyncedBlend::new(Self::duration(c, a), Self::duration(c, b), w);
        self.synced.phase = phase;
        self.synced.phase.speed = speed;
        self.synced.phase.mode = mode;
        self.synced.phase.paused = !inputs.playing;
        self.sync_layers(c, inputs);
        rate
    }

    /// One player per input layer: a new clip crossfades (override) or starts over (additive),
    /// a new set of roots makes a new mask.
    fn sync_layers(&mut self, c: &Character, inputs: &Inputs) {
        let clips = c.clips.len();
        self.layers.truncate(inputs.layers.len());
        for (k, input) in inputs.layers.iter().enumerate() {
            let blend = input.blend;
            let fresh = |c: &Character| LayerSlot {
                player: LayerPlayer::new(c, input.clip, None, blend, input.half_life_secs),
                roots: Vec::new(),
            };
            if k == self.layers.len() {
                self.layers.push(fresh(c));
            }
            let slot = &mut self.layers[k];
            if slot.player.blend != blend {
                *slot = fresh(c);
            }
            if input.clip < clips && input.clip != slot.player.clip {
                match blend {
                    LayerBlend::Override => slot.player.switch_clip(c, input.clip),
                    // An additive layer's difference is taken from its own first frame: a new
                    // clip is a new reference, so it starts over rather than crossfading.
                    LayerBlend::Additive { .. } => *slot = fresh(c),
                }
            }
            if blend == LayerBlend::Override
                && (slot.player.mask.is_none() || slot.roots != input.roots)
            {
                let mask = JointMask::from_roots(&c.skeleton, &input.roots);
                slot.player.mask = Some(Arc::new(mask));
                slot.roots.clone_from(&input.roots);
            }
            slot.player.half_life_secs = input.half_life_secs.max(0.0);
            slot.player.target = input.weight;
        }
    }

    /// Advances every clock by `dt_secs` of real time: the source (state machine, blend or
    /// clip), a transition in progress, the locomotion and the layers. The clip steps taken and
    /// the events crossed are then `steps()` and `fired()`.
    pub fn step(&mut self, c: &Character, inputs: &Inputs, dt_secs: f32) {
        let rate = self.sync(c, inputs);
        let (speed, paused) = (inputs.speed, !inputs.playing);
        self.steps.clear();
        self.fired.clear();
        let mode = self.playback.mode;
        if let Some(machine) = self.machine.as_mut().filter(|_| inputs.graph_asked()) {
            machine.speed = rate.unwrap_or(speed);
            machine.paused = paused;
            machine.advance(c, dt_secs);
            self.fired.extend(machine.fired.iter().cloned());
        } else if let Some(blend) = inputs.played_blend() {
            let step = self.synced.advance(dt_secs);
            self.steps.push(ClipStep {
                clip: blend.a,
                step: step.a,
                mode,
            });
            if blend.b != blend.a {
                self.steps.push(ClipStep {
                    clip: blend.b,
                    step: step.b,
                    mode,
                });
            }
        } else {
            let step = self.playback.advance(dt_secs);
            if let Some(clip) = self.playing_clip {
                self.steps.push(ClipStep { clip, step, mode });
            }
        }
        if let Some(t) = self.transition.as_mut() {
            t.from.set_speed(rate.unwrap_or(speed));
            t.from.set_paused(paused);
            // A transition runs on real time, whatever the playback speed; the outgoing clip
            // plays at the playback speed it was given above.
            let real = if paused { 0.0 } else { dt_secs };
            t.advance(c, real, 1.0, 0.0, &mut self.steps);
            if t.done() {
                self.transition = None;
            }
        }
        let parts = self.main_parts(inputs);
        self.advance_locomotion(c, inputs, dt_secs, &parts);
        if self.matching_on(inputs) {
            self.step_matching(c, inputs, dt_secs);
        }
        self.external
            .step(c, inputs.external, inputs.playing, dt_secs);
        // Layers ease in real time; their clips play at the playback speed.
        let dt = if paused { 0.0 } else { dt_secs };
        for slot in &mut self.layers {
            slot.player.advance(dt, speed, paused, &mut self.steps);
        }
        for s in &self.steps {
            if let Some(k) = c.clips.get(s.clip) {
                let (events, d) = (k.clip.events(), k.clip.duration_secs());
                for_each_crossed_event(events, d, s.mode, s.step, |e| {
                    self.fired.push(FiredEvent {
                        clip: s.clip,
                        name: e.name.clone(),
                        time_secs: e.time_secs,
                    })
                });
            }
        }
    }

    /// Each leg's contact at the last frame `settle_feet` saw.
    pub fn contacts(&self) -> &[bool] {
        &self.contacts
    }

    /// The clip steps of the last `step`, for their events.
    pub fn steps(&self) -> &[ClipStep] {
        &self.steps
    }

    /// The events the last `step` crossed: the state machine's, then each playing clip's.
    pub fn fired(&self) -> &[FiredEvent] {
        &self.fired
    }

    /// The clip steps root motion is extracted from: the state machine's motion, or the blend's
    /// two clips by weight, or the playing clip (the first of the steps).
    fn main_parts(&self, inputs: &Inputs) -> Vec<(ClipStep, f32)> {
        if let Some(m) = self.graph(inputs) {
            return m.motion_parts();
        }
        match (inputs.played_blend(), self.steps.as_slice()) {
            (Some(b), [x, y, ..]) => {
                let w = b.weight.clamp(0.0, 1.0);
                vec![(*x, 1.0 - w), (*y, w)]
            }
            (_, [x, ..]) => vec![(*x, 1.0)],
            _ => Vec::new(),
        }
    }

    /// Root motion (applied), or the commanded speed (driven), moves the placement.
    fn advance_locomotion(
        &mut self,
        c: &Character,
        inputs: &Inputs,
        dt_secs: f32,
        parts: &[(ClipStep, f32)],
    ) {
        self.locomotion.mode = inputs.moving();
        self.locomotion.joint = self.root_joint(c, inputs);
        if !inputs.playing {
            return;
        }
        match inputs.moving() {
            MoveMode::Applied => self.locomotion.apply_root_motion(c, parts),
            MoveMode::Driven => {
                let speed = inputs.drive_speed;
                self.locomotion.drive(speed, dt_secs);
                if let Some(m) = self.machine.as_mut().filter(|_| inputs.graph_asked())
                    && let Some(p) = m.graph.parameter("speed")
                {
                    // The state machine's locomotion blend space is laid out in speeds.
                    m.set(p, speed);
                }
            }
            MoveMode::Authored | MoveMode::InPlace => {}
        }
    }

    /// The root-motion joint: the inputs', or the topmost joint a clip translates.
    pub fn root_joint(&self, c: &Character, inputs: &Inputs) -> usize {
        inputs
            .root_joint
            .filter(|&j| j < c.skeleton.joint_count())
            .unwrap_or(self.default_root_joint)
    }

    /// Moves the playhead to clip time `t` without firing events (the timeline's seek): the
    /// playing clip, or the blend's clip A. The state machine keeps its own clocks.
    pub fn seek(&mut self, c: &Character, inputs: &Inputs, t: f32) {
        if self.graph_driven(inputs) {
            return;
        }
        self.sync(c, inputs);
        self.seek_clocks(c, inputs, t);
    }

    /// The playhead (or the blend's phase) to clip time `t`, the clocks already in sync.
    fn seek_clocks(&mut self, c: &Character, inputs: &Inputs, t: f32) {
        self.muscles.restart();
        match inputs.played_blend() {
            Some(b) => {
                let d = Self::duration(c, b.a);
                if d > 0.0 {
                    self.synced.phase.seek(t / d);
                }
            }
            None => self.playback.seek(t),
        }
    }

    /// Starts the performance at clip time `t` as if it had always been playing: the playhead
    /// (or the blend's phase) and every layer's clock at `t`, the layers at their weights. The
    /// command line poses a frame at `--time` this way, exactly, without stepping to it.
    pub fn cue(&mut self, c: &Character, inputs: &Inputs, t: f32) {
        self.muscles.restart();
        self.sync(c, inputs);
        if !self.graph_driven(inputs) {
            self.seek_clocks(c, inputs, t);
        }
        for slot in &mut self.layers {
            slot.player.playback.seek(t);
            slot.player.weight = slot.player.target;
        }
        self.external.cue(c, inputs.external, t);
    }

    /// Starts a transition from what plays now to `inputs.clip` (the incoming clip, from its
    /// start). Nothing happens while blending or under the state machine, as in the window.
    pub fn start_transition(&mut self, c: &Character, inputs: &Inputs, spec: TransitionSpec) {
        let Some(clip) = inputs.clip.filter(|&k| k < c.clips.len()) else {
            return;
        };
        if inputs.played_blend().is_some() || self.graph_driven(inputs) {
            return;
        }
        let from = Motion::Clip {
            clip: self.playing_clip.unwrap_or(clip),
            playback: self.playback.clone(),
        };
        self.sync(c, inputs);
        self.playback.seek(0.0);
        let incoming = Motion::Clip {
            clip,
            playback: self.playback.clone(),
        };
        self.transition = Some(TransitionPlayer::start(c, from, &incoming, spec));
    }

    /// Whether a transition (crossfade or inertialization) is running.
    pub fn crossfading(&self) -> bool {
        self.transition.is_some()
    }

    /// The transition in progress: whether it inertializes, and how far along it is (0..1).
    pub fn transition_progress(&self) -> Option<(bool, f32)> {
        let t = self.transition.as_ref()?;
        Some((
            matches!(t.spec, TransitionSpec::Inertialize { .. }),
            t.progress(),
        ))
    }

    /// Each layer's influence now (eased toward its weight), in the inputs' order.
    pub fn layer_weight(&self, layer: usize) -> f32 {
        self.layers.get(layer).map_or(0.0, |s| s.player.weight)
    }

    /// The playhead in seconds of the clip shown on the timeline (clip A when blending, the
    /// state's main clip under the state machine).
    pub fn time_secs(&self, c: &Character, playing: Playing) -> f32 {
        if playing.matching {
            return self.playback.time_secs();
        }
        if let Some(m) = self.graph_of(playing.use_graph) {
            return m.motion().source(c).0.time_secs;
        }
        if playing.blend.is_some() {
            self.synced.times_secs().0
        } else {
            self.playback.time_secs()
        }
    }

    /// The clip shown on the timeline (none: the rest pose).
    pub fn timeline_clip(&self, c: &Character, playing: Playing) -> Option<usize> {
        if playing.matching
            && let Some(clip) = self.playing_clip(c)
        {
            Some(clip)
        } else if let Some(m) = self.graph_of(playing.use_graph) {
            Some(m.motion().source(c).0.clip)
        } else if let Some(b) = playing.blend {
            Some(b.a)
        } else {
            playing.clip
        }
    }

    /// The legs of `leg_ends`, as chains: a new set replaces the planter's (and its measured
    /// ground speeds).
    fn sync_legs(&mut self, c: &Character, leg_ends: &[usize]) {
        let same = self.planter.legs.len() == leg_ends.len()
            && self
                .planter
                .legs
                .iter()
                .zip(leg_ends)
                .all(|(l, &e)| l.end == e);
        if same {
            return;
        }
        let legs: Vec<Chain> = leg_ends
            .iter()
            .filter_map(|&j| Chain::ending_at(&c.skeleton, j))
            .collect();
        if legs != self.planter.legs {
            self.planter.set_legs(c, legs);
            self.ground_speeds = vec![None; c.clips.len()];
        }
    }

    /// Before posing: the planter's legs follow the inputs, and planted feet are held only while
    /// the character travels (a clip played in place slides its planted feet back by design).
    pub fn prepare(&mut self, c: &Character, inputs: &Inputs) {
        self.sync_legs(c, &inputs.leg_ends);
        self.planter.lock = matches!(inputs.moving(), MoveMode::Applied | MoveMode::Driven);
    }

    /// A reach target in the world: `target` in the character's frame (its placement's position
    /// and heading) when it `follows` it, else already in the world.
    pub fn reach_world_target(&self, target: Vec3, follows: bool) -> Vec3 {
        let placement = self.locomotion.placement();
        if follows {
            placement.position + crate::anim::from_yaw(placement.yaw) * target
        } else {
            target
        }
    }

    /// Turns the heading by `radians` (driven mode's steering).
    pub fn turn(&mut self, radians: f32) {
        self.locomotion.turn(radians);
    }

    /// Back to the origin, facing +Z, with no trail; the feet let go.
    pub fn reset_position(&mut self) {
        self.locomotion.reset();
        self.planter.release();
        self.matching.reset();
        self.matched_from = None;
    }

    /// What the current state poses: the state machine's frame, or the playing clip (or the
    /// in-step blend) with a transition in progress; then the layers, the placement and its
    /// root-motion stage, reach and foot IK, the palette. The playheads wrap or clamp their own
    /// times, so the request clamps.
    pub fn request(&self, c: &Character, inputs: &Inputs) -> PoseRequest {
        let clip_count = c.clips.len();
        let mut request = match self.graph(inputs) {
            Some(machine) => machine.request(c, inputs.palette, inputs.compressed),
            None => {
                let mut r = PoseRequest {
                    wrap: TimeWrap::Clamp,
                    palette: inputs.palette,
                    compressed: inputs.compressed,
                    ..PoseRequest::default()
                };
                match inputs.played_blend() {
                    Some(b) => {
                        let (time_a, _) = self.synced.times_secs();
                        r.clip = (b.a < clip_count).then_some(ClipTime {
                            clip: b.a,
                            time_secs: time_a,
                        });
                        r = r.with_blend(b.b, b.weight);
                    }
                    None => {
                        r.clip =
                            (self.playing_clip.filter(|&k| k < clip_count)).map(|clip| ClipTime {
                                clip,
                                time_secs: self.playback.time_secs(),
                            });
                    }
                }
                r.transition = self.transition.as_ref().map(|t| t.transition(c));
                r
            }
        };
        request.morph_overrides.clone_from(&inputs.morphs);
        request.drivers.clone_from(&inputs.drivers);
        request.joint_methods.clone_from(&inputs.joint_methods);
        request.ml.clone_from(&inputs.ml_deformer);
        request.external = self
            .external
            .pose(c, inputs.external, inputs.blend_back_secs);
        request
            .layers
            .extend(self.layers.iter().filter_map(|s| s.player.pose_layer()));
        request.placement = self.locomotion.placement();
        request.root_motion = (inputs.moving() != MoveMode::Authored).then(|| RootMotion {
            joint: self.root_joint(c, inputs),
            mode: inputs.moving().root_mode(),
        });
        if inputs.foot_ik {
            request.feet = Some(self.planter.foot_ik(self.locomotion.ground.clone(), 1.0));
        }
        for reach in &inputs.reach {
            if let Some(chain) = Chain::ending_at(&c.skeleton, reach.end) {
                request.ik.push(IkTarget {
                    chain,
                    target: self.reach_world_target(reach.target, reach.follows),
                    pole: reach.pole,
                    settings: TwoBoneSettings::default(),
                });
            }
        }
        request
    }

    /// After posing `request` into `pose`: feet just planted are held, lifted ones let go (all
    /// let go without foot IK). Returns each leg's contact this frame.
    pub fn settle_feet(
        &mut self,
        c: &Character,
        inputs: &Inputs,
        request: &PoseRequest,
        pose: &CharacterPose,
    ) -> &[bool] {
        self.contacts.clear();
        let Some(main) = request.clip else {
            return &self.contacts;
        };
        let t = crate::pose::clip_time(c, main, TimeWrap::Loop);
        self.contacts = self.planter.contacts(c, main.clip, t);
        if inputs.foot_ik {
            self.planter.update(&self.contacts, pose);
        } else {
            self.planter.release();
        }
        &self.contacts
    }
}
