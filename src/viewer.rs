//! The viewer's state, apart from any window or GPU: the loaded character, what the panel edits
//! (`Controls`), playback, blending, transitions, pose layers, the state machine, the event log
//! and load errors. The winit loop
//! (`app`) drives it one `frame` at a time; tests drive it directly or through the panel.

use std::collections::VecDeque;
use std::path::PathBuf;

use std::sync::Arc;

use crate::character::Character;
use crate::debug::colors::{self, ColorView};
use crate::debug::picking::{self, Pick, PickedVertex, ScreenView};
use crate::draw::view::CompareWith;
use crate::graph::{Graph, Machine};
use crate::perform::{Inputs, Performer};
pub use crate::pose::upper_body_roots;
use crate::pose::{CharacterPose, Crowd, Derived, PoseRequest};
use crate::scene::Ground;

mod controls;
mod crowd;
mod ddm;
pub mod environment;
mod history;
mod job;
mod matching;
pub mod ml;
mod mocap;
pub mod muscles;
mod open;
mod over_time;
mod physics;
pub mod record;
pub mod repair;
pub mod retarget;
mod shown;

pub use controls::{
    Compared, Controls, OnionSkins, OpenSection, OverTimeControls, PanelSection, PathControls,
};
pub use ddm::{DdmState, DdmStatus};
pub use history::{HistoryCommand, HistoryState, Resume};
pub use matching::MatchStatus;
pub use mocap::{LiveMocap, clip_rate_and_joints};
pub use open::OpenError;
pub use over_time::OverTimeState;
pub use shown::{CpuTimes, LoggedEvent, Shown, Stats};

/// The largest crowd the panel offers before the window has asked its device
/// (`draw::crowd_limit`, which `render --crowd` obeys too).
pub const MAX_PANEL_CROWD: usize = 10_000;

/// One frame-step: 1/30 s.
pub const FRAME_STEP_SECS: f32 = 1.0 / 30.0;
const EVENT_LOG_LEN: usize = 12;
/// Seconds of joint angle the plot keeps.
pub const PLOT_SECS: f64 = 5.0;
const RECENT_LEN: usize = 8;

/// One-off actions from the panel or the keyboard, applied in one place (`Viewer::apply`).
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum UiCommand {
    Open(PathBuf),
    /// Let models read files outside their folder (the panel's switch), or not.
    AllowOutside(bool),
    /// Show the built-in character again.
    OpenBuiltin,
    /// Add a file's clips (a BVH take, or a glTF's clips), retargeted onto the character.
    AddClips(PathBuf),
    /// Use the pose drivers of a JSON file (`pose::DriverSet`), or none.
    LoadDrivers(PathBuf),
    /// The character's own pose drivers (the built-in character's, or a file's node extras').
    LoadOwnDrivers,
    DropDrivers,
    /// Load, drop or restart the XPBD muscles.
    Muscles(muscles::MuscleCommand),
    /// Load or drop the ML deformer, or compare it with its reference.
    Ml(ml::MlCommand),
    /// Start or stop a recording of the view ("Record...").
    Record(record::RecordCommand),
    /// Light with an HDR environment file, or the generated sky.
    Environment(environment::EnvironmentCommand),
    /// Show another scene of the current file (`/scenes/N`).
    OpenScene(usize),
    /// Check the skinning, fix a finding (previewed), revert, or save the repaired file.
    Repair(repair::RepairCommand),
    /// Open a source beside the character, change its map, apply it, save the map or the
    /// character with the clips.
    Retarget(retarget::RetargetCommand),
    /// Ask the window for a file dialog.
    BrowseForFile,
    /// Ask the window for a file dialog choosing a file to add clips from.
    BrowseForClips,
    /// The file dialog for a retarget source, opened beside the character when picked.
    BrowseForRetargetSource,
    /// Play, or pause; at the end of a clip played once, Play starts it again.
    PlayPause,
    /// Move the playhead to this clip time (no events fire).
    Seek(f32),
    /// Step by whole frames (1/30 s); negative steps back.
    Step(i32),
    /// Go from the current clip to `Controls::crossfade_to`: a crossfade over
    /// `Controls::crossfade_secs` of real time, or (with `Controls::inertialize`) an
    /// inertialization with that half-life.
    Transition,
    /// Set a state machine parameter (index, value; 1 presses a trigger).
    SetParameter(usize, f32),
    /// Back to the origin, facing +Z, with no trail.
    ResetPosition,
    /// Reach IK's target follows the character (or stays in the world), kept where it is.
    ReachFollows(bool),
    /// Turn the character's heading by this many degrees (driven mode's steering).
    Turn(f32),
    /// Listen for a live motion-capture stream (a loopback address, the BVH hierarchy its
    /// motion lines follow) and make it the external pose.
    Listen {
        address: String,
        skeleton: PathBuf,
    },
    /// Close the live stream.
    StopListening,
    /// Rewind, step, resume, save or clear the history.
    History(history::HistoryCommand),
    /// Drop the ragdoll: it is built again at the animated pose.
    ResetPhysics,
    FrameCamera,
    ResetCamera,
}

/// What only the window can carry out, asked of it by the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowRequest {
    /// Aim the camera at what is drawn again, keeping its direction (F).
    FrameCamera,
    /// Frame what is drawn from the default direction (R, and after a load).
    ResetCamera,
    /// Open a file dialog.
    BrowseForFile,
    /// Open a file dialog for a file to add clips from.
    BrowseForClips,
    /// Open a file dialog for a retarget source (the Retarget section's Browse...).
    BrowseForRetargetSource,
    /// Open a save dialog for a recording, which starts when a path is chosen.
    BrowseForRecording,
}

pub struct Viewer {
    pub character: Character,
    /// Facts about the character computed once at load (height, rest bounds, legs, ...).
    pub derived: Derived,
    pub pose: CharacterPose,
    /// The same local pose under the `compare` palette (split view, displacement colours).
    pub compare_pose: CharacterPose,
    /// The vertex last clicked, with its influences.
    pub picked_vertex: Option<PickedVertex>,
    /// The crowd, when `Controls::crowd` asks for one.
    pub crowd: Option<Crowd>,
    /// The largest crowd the window's GPU can draw for this character (set by the window;
    /// `Controls::crowd` is clamped to it).
    pub crowd_limit: usize,
    crowd_clock: f32,
    /// Where the window's camera is (set by the window each frame): what the crowd's level of
    /// detail measures distances from.
    pub camera_eye: Option<glam::Vec3>,
    pub controls: Controls,
    /// Where the character came from (`None`: built in).
    pub source: Option<PathBuf>,
    /// What plays and where the character stands: the clocks, transition, layers, state
    /// machine, locomotion and feet (the same type every posing subcommand steps).
    pub performer: Performer,
    /// The request the last frame was posed from (`pose_frame`).
    pub posed: PoseRequest,
    /// Why the state machine beside the model did not load.
    pub graph_error: Option<String>,
    /// The plotted joint's rotation angle (degrees) over the last `PLOT_SECS` of real time:
    /// (seconds, degrees).
    pub angle_plot: VecDeque<[f64; 2]>,
    plot_clock: f64,
    /// The fastest planted foot's horizontal speed (units/s) over the last `PLOT_SECS`.
    pub slide_plot: VecDeque<[f64; 2]>,
    /// Each leg's ankle (world) and whether it was planted, last frame, for the slide plot.
    last_ankles: Vec<(glam::Vec3, bool)>,
    pub event_log: VecDeque<LoggedEvent>,
    /// The last failed load, shown until the next load succeeds.
    pub load_error: Option<String>,
    /// The panel's check and fix: the last check, the repaired file previewed.
    pub repair: repair::RepairState,
    /// The panel's retargeting: the source beside the character, its map and settings.
    pub retarget: retarget::RetargetState,
    pub recent: Vec<PathBuf>,
    /// How far a model's URIs may reach unless `allow_outside` (`--asset-root`, or the model's
    /// own folder).
    pub asset_reach: crate::import::Reach,
    /// The panel's "allow files outside the model's folder" (off by default).
    pub allow_outside: bool,
    pub stats: Stats,
    /// Commands only the window can carry out: camera moves and the file dialog.
    pub window_requests: Vec<WindowRequest>,
    /// Counts characters loaded, so a renderer knows when to rebuild.
    generation: u64,
    /// The live motion-capture stream listened to, if any.
    pub mocap: mocap::LiveMocap,
    /// The last frame's real time step (the physics steps by it).
    frame_dt_secs: f32,
    /// Motion matching's database being built, and why the last build failed.
    match_build: Option<matching::MatchBuild>,
    match_error: Option<String>,
    pub ddm: ddm::DdmState,
    pub environment: environment::EnvironmentState,
    /// The recording under way ("Record..."), and how the last one ended.
    recording: Option<record::Recording>,
    record_status: Option<String>,
    /// The frames played, for rewinding, the tracks and a replay file.
    pub history: HistoryState,
    /// The stage ghosts, motion paths and onion skins shown.
    pub over_time: OverTimeState,
}

impl Viewer {
    pub fn new(character: Character, source: Option<PathBuf>) -> Self {
        let derived = Derived::of(&character);
        let controls = Controls::with_facts(&character, &derived);
        let performer = Performer::new(&character, Arc::new(Ground::flat(0.0)), 1.0, None);
        let mut viewer = Self {
            derived,
            pose: CharacterPose::new(&character),
            compare_pose: CharacterPose::new(&character),
            picked_vertex: None,
            crowd: None,
            crowd_limit: MAX_PANEL_CROWD,
            crowd_clock: 0.0,
            camera_eye: None,
            controls,
            source,
            performer,
            posed: PoseRequest::default(),
            graph_error: None,
            angle_plot: VecDeque::new(),
            plot_clock: 0.0,
            slide_plot: VecDeque::new(),
            last_ankles: Vec::new(),
            event_log: VecDeque::new(),
            load_error: None,
            repair: Default::default(),
            retarget: Default::default(),
            recent: Vec::new(),
            asset_reach: crate::import::Reach::ModelFolder,
            allow_outside: false,
            stats: Stats::default(),
            window_requests: Vec::new(),
            generation: 0,
            mocap: mocap::LiveMocap::default(),
            frame_dt_secs: 0.0,
            match_build: None,
            match_error: None,
            ddm: Default::default(),
            environment: Default::default(),
            recording: None,
            record_status: None,
            history: HistoryState::default(),
            over_time: OverTimeState::default(),
            character,
        };
        viewer.reset_players();
        viewer
    }

    /// The performer and the state machine for a newly loaded character.
    fn reset_players(&mut self) {
        self.recording = None;
        // Another character: the frames kept pose the last one.
        self.history.history.clear();
        let c = &self.character;
        let graph = match &self.source {
            None => Graph::parse(crate::builtin::GRAPH_JSON, c)
                .map(Some)
                .map_err(|p| format!("the built-in state machine: {p}")),
            Some(path) => {
                let beside = crate::graph::graph_path_beside(path);
                if beside.exists() {
                    Graph::load(&beside, c).map(Some).map_err(|e| e.to_string())
                } else {
                    Ok(None)
                }
            }
        };
        let machine;
        (machine, self.graph_error) = match graph {
            Ok(graph) => (graph.map(|g| Machine::new(c, g)), None),
            Err(e) => (None, Some(e)),
        };
        let height = self.derived.height;
        self.performer = Performer::new(c, Arc::new(Ground::scene(height)), height, machine);
        self.angle_plot.clear();
        self.slide_plot.clear();
        self.last_ankles.clear();
        // Driven mode starts at the speed the clip moves at, so it plays at its own rate (or,
        // for a clip that stands still, at the first clip's that moves, among the next few: each
        // is measured over a loop at load).
        let clips = c.clips.len();
        let first = self.controls.playback.clip;
        let legs = self.controls.motion.leg_ends.clone();
        if let Some(ground) = (0..clips.min(8))
            .map(|k| self.performer.ground_speed(c, &legs, (first + k) % clips))
            .find(|&v| v > 1e-4)
        {
            self.controls.motion.drive_speed = ground;
        }
        let inputs = self.controls.inputs(&self.character);
        self.performer.seek(&self.character, &inputs, 0.0);
    }

    /// The character's state machine, when it has one.
    pub fn machine(&self) -> Option<&Machine> {
        self.performer.machine.as_ref()
    }

    fn duration(&self, clip: usize) -> f32 {
        self.character
            .clips
            .get(clip)
            .map_or(0.0, |c| c.duration_secs())
    }

    /// Changes whenever another character is loaded.
    pub fn character_generation(&self) -> u64 {
        self.generation
    }

    pub fn apply(&mut self, command: UiCommand) {
        match command {
            UiCommand::Open(path) => {
                let _ = self.open(&path);
            }
            UiCommand::AllowOutside(allow) => self.allow_outside = allow,
            UiCommand::OpenBuiltin => {
                if let Err(e) = self.open_builtin() {
                    self.load_error = Some(e.to_string());
                }
            }
            UiCommand::AddClips(path) => {
                if let Err(e) = self.add_clips(&path) {
                    self.load_error = Some(e.to_string());
                }
            }
            UiCommand::LoadDrivers(path) => match self.read_drivers(&path) {
                Ok(d) => self.controls.drivers.set = Some(Arc::new(d)),
                Err(e) => self.load_error = Some(e),
            },
            UiCommand::LoadOwnDrivers => self.load_own_drivers(),
            UiCommand::DropDrivers => self.controls.drivers.set = None,
            UiCommand::Muscles(m) => self.muscle_command(m),
            UiCommand::Ml(m) => self.ml_command(m),
            UiCommand::Record(r) => self.record_command(r),
            UiCommand::Repair(r) => self.repair_command(r),
            UiCommand::Retarget(r) => self.retarget_command(r),
            UiCommand::Environment(e) => self.environment_command(e),
            UiCommand::OpenScene(scene) => {
                if let Err(e) = self.open_scene(scene) {
                    self.load_error = Some(e.to_string());
                }
            }
            UiCommand::PlayPause => self.play_pause(),
            UiCommand::Seek(t) => self.seek(t),
            UiCommand::Step(frames) => {
                self.seek(self.time_secs() + frames as f32 * FRAME_STEP_SECS)
            }
            UiCommand::Transition => self.start_transition(),
            UiCommand::SetParameter(p, value) => {
                if let Some(machine) = self.performer.machine.as_mut() {
                    machine.set(p, value);
                }
            }
            UiCommand::ResetPosition => self.performer.reset_position(),
            UiCommand::Turn(degrees) => self.performer.turn(degrees.to_radians()),
            UiCommand::ReachFollows(follows) => self.set_reach_follows(follows),
            UiCommand::Listen { address, skeleton } => {
                let _ = self.listen(&address, &skeleton);
            }
            UiCommand::StopListening => self.stop_listening(),
            UiCommand::History(h) => self.history_command(h),
            UiCommand::ResetPhysics => self.performer.reset_physics(),
            UiCommand::FrameCamera => self.window_requests.push(WindowRequest::FrameCamera),
            UiCommand::ResetCamera => self.window_requests.push(WindowRequest::ResetCamera),
            UiCommand::BrowseForFile => self.window_requests.push(WindowRequest::BrowseForFile),
            UiCommand::BrowseForClips => self.window_requests.push(WindowRequest::BrowseForClips),
            UiCommand::BrowseForRetargetSource => {
                (self.window_requests).push(WindowRequest::BrowseForRetargetSource)
            }
        }
    }

    /// Starts a transition from the playing clip to `Controls::crossfade_to`, from its start.
    fn start_transition(&mut self) {
        let to = self.controls.playback.crossfade_to;
        if to >= self.character.clips.len() || self.controls.playback.blend || self.graph_driven() {
            return;
        }
        self.controls.playback.clip = to;
        let inputs = self.controls.inputs(&self.character);
        let spec = self.controls.transition_spec();
        self.performer
            .start_transition(&self.character, &inputs, spec);
    }

    /// The override layer's influence now (eased toward its target).
    pub fn layer_weight(&self) -> f32 {
        self.performer.layer_weight(0)
    }

    /// The additive layer's weight now.
    pub fn additive_weight(&self) -> f32 {
        self.performer.layer_weight(1)
    }

    /// Whether the state machine drives the character now.
    pub fn graph_driven(&self) -> bool {
        self.controls.layers.use_graph && self.performer.machine.is_some()
    }

    /// The playhead in seconds of the clip shown on the timeline (clip A when blending, the
    /// state's main clip under the state machine).
    pub fn time_secs(&self) -> f32 {
        let playing = self.controls.playing();
        self.performer.time_secs(&self.character, playing)
    }

    /// The time shown on the timeline: `time_secs` within the timeline's clip (the state
    /// machine poses its clips clamped to their ends, as its requests say).
    pub fn clip_time_shown(&self) -> f32 {
        let t = self.time_secs();
        let (_, duration) = self.timeline_clip();
        if self.graph_driven() {
            t.clamp(0.0, duration.max(0.0))
        } else {
            t
        }
    }

    /// The clip shown on the timeline and its duration.
    pub fn timeline_clip(&self) -> (usize, f32) {
        let playing = self.controls.playing();
        // The window always has a clip chosen: the timeline shows it when nothing else plays.
        let clip = (self.performer.timeline_clip(&self.character, playing))
            .unwrap_or(self.controls.playback.clip);
        (clip, self.duration(clip))
    }

    fn seek(&mut self, t: f32) {
        let inputs = self.controls.inputs(&self.character);
        self.performer.seek(&self.character, &inputs, t);
    }

    /// Whether a clip played once has run to its end (its start, playing backwards): the play
    /// button then offers Play, which starts it again.
    pub fn at_end(&self) -> bool {
        if self.controls.playback.looping {
            return false;
        }
        let (_, duration) = self.timeline_clip();
        let t = self.time_secs();
        duration > 0.0
            && if self.controls.playback.speed < 0.0 {
                t <= 0.0
            } else {
                t >= duration
            }
    }

    fn play_pause(&mut self) {
        if self.rewound() {
            // Playing from a kept frame resumes from it (a replay plays through its frames).
            if self.history.playing {
                self.history.playing = false;
            } else {
                self.history_command(HistoryCommand::Resume);
            }
            return;
        }
        if self.controls.playback.playing && !self.at_end() {
            self.controls.playback.playing = false;
            return;
        }
        if self.at_end() {
            let (_, duration) = self.timeline_clip();
            self.seek(if self.controls.playback.speed < 0.0 {
                duration
            } else {
                0.0
            });
        }
        self.controls.playback.playing = true;
    }

    /// Whether a transition (crossfade or inertialization) is running.
    pub fn crossfading(&self) -> bool {
        self.performer.crossfading()
    }

    /// The transition in progress: whether it inertializes, and how far along it is (0..1).
    pub fn transition_progress(&self) -> Option<(bool, f32)> {
        self.performer.transition_progress()
    }

    /// Advances playback by `dt_secs` of wall time, logging the events crossed by every clip
    /// that plays (the state or clip, a transition's outgoing side, the layers).
    pub fn advance(&mut self, dt_secs: f32) {
        let c = &self.controls;
        if c.playback.playing {
            self.crowd_clock += dt_secs * c.playback.speed;
        }
        self.poll_mocap();
        self.advance_matching();
        self.advance_ddm();
        self.frame_dt_secs = dt_secs;
        let report = self.controls.over_time.match_candidates;
        if self.performer.matching().report != report {
            self.performer.report_searches(report);
        }
        let inputs = self.controls.inputs(&self.character);
        self.performer.step(&self.character, &inputs, dt_secs);
        for e in self.performer.fired() {
            let clip = self.character.clips[e.clip].clip.name().to_owned();
            self.event_log.push_front(LoggedEvent {
                clip,
                name: e.name.clone(),
                time_secs: e.time_secs,
            });
        }
        self.event_log.truncate(EVENT_LOG_LEN);
        self.plot_clock += f64::from(dt_secs.max(0.0));
    }

    /// A clip's ground speed: how fast its planted feet travel across their contacts played in
    /// place, on average
    /// (what a driven character must travel at for them not to slide). Measured once per clip.
    pub fn ground_speed(&mut self, clip: usize) -> f32 {
        let legs = &self.controls.motion.leg_ends;
        self.performer.ground_speed(&self.character, legs, clip)
    }

    /// The playback rate driven mode plays the clips at: the commanded speed over the clips'
    /// ground speed (blended by weight; under the state machine, its current motion's clips), so
    /// the feet match the travel.
    pub fn driven_rate(&mut self) -> Option<f32> {
        let inputs = self.controls.inputs(&self.character);
        self.performer.driven_rate(&self.character, &inputs)
    }

    /// The character's placement and its trail, moved by root motion or a commanded speed.
    pub fn locomotion(&self) -> &crate::graph::Locomotion {
        &self.performer.locomotion
    }

    /// Moves reach IK's target by `delta` (world).
    pub fn move_reach_target(&mut self, delta: glam::Vec3) {
        let delta = if self.controls.motion.reach_follows {
            crate::anim::from_yaw(-self.performer.locomotion.placement().yaw) * delta
        } else {
            delta
        };
        self.controls.motion.reach_target += delta;
    }

    /// Reach IK's target in the world: `reach_target` placed with the character when it
    /// follows it.
    pub fn reach_world_target(&self) -> glam::Vec3 {
        let c = &self.controls;
        self.performer
            .reach_world_target(c.motion.reach_target, c.motion.reach_follows)
    }

    /// Switches whether the reach target follows the character, keeping it where it is now.
    pub fn set_reach_follows(&mut self, follows: bool) {
        if follows == self.controls.motion.reach_follows {
            return;
        }
        let world = self.reach_world_target();
        let placement = self.performer.locomotion.placement();
        self.controls.motion.reach_follows = follows;
        self.controls.motion.reach_target = if follows {
            crate::anim::from_yaw(-placement.yaw) * (world - placement.position)
        } else {
            world
        };
    }

    /// The overlay lines of the scene: the ground's outline and the root's trail (when shown),
    /// and reach IK's target as a cross. (start, end, linear RGBA).
    pub fn overlay_lines(&self) -> Vec<(glam::Vec3, glam::Vec3, [f32; 4])> {
        let mut out = Vec::new();
        let height = self.derived.height;
        let locomotion = &self.performer.locomotion;
        if self.controls.motion.show_scene {
            out.extend(crate::draw::ground_lines(&locomotion.ground, height));
            out.extend(crate::draw::trail_lines(&locomotion.trail, height));
        }
        self.matching_lines(&mut out);
        self.muscle_lines(&mut out);
        out.extend(crate::draw::ghosts::as_overlay(&self.over_time.ghost_lines));
        let width = crate::draw::view::bone_width(self.derived.rest_bounds);
        crate::draw::ghosts::motion_path_lines(&self.over_time.paths, width, &mut out);
        if self.controls.motion.reach_ik {
            let (t, r) = (self.reach_world_target(), height * 0.04);
            for axis in [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z] {
                out.push((t - axis * r, t + axis * r, [1.0, 0.3, 0.9, 1.0]));
            }
        }
        out
    }

    /// The joint whose rotation the panel plots: the selected one, or else the first upper-body
    /// root (a clavicle), or the first joint.
    pub fn plot_joint(&self) -> Option<usize> {
        let count = self.character.skeleton.joint_count();
        self.controls
            .selected_joint
            .or_else(|| self.controls.layers.layer_roots.first().copied())
            .or((count > 0).then_some(0))
            .filter(|&j| j < count)
    }

    /// Records the plotted joint's rotation angle (degrees, its local rotation's) this frame.
    fn record_plot(&mut self) {
        let Some(joint) = self.plot_joint() else {
            return;
        };
        let q = self.pose.local().as_slice()[joint].rotation;
        let degrees = (2.0 * q.w.abs().min(1.0).acos()).to_degrees();
        self.angle_plot
            .push_back([self.plot_clock, f64::from(degrees)]);
        while self
            .angle_plot
            .front()
            .is_some_and(|p| p[0] < self.plot_clock - PLOT_SECS)
        {
            self.angle_plot.pop_front();
        }
    }

    /// One frame of the viewer, in order: the panel's and keyboard's commands are applied, the
    /// clocks advance by `dt_secs` of wall time, and the character is posed once. What is drawn
    /// next shows the state after every command of this frame (a Step or a seek included).
    ///
    /// While a kept frame is shown (rewound), nothing advances: the frame is shown as it was,
    /// or, playing through a replayed history, the next kept frame by `dt_secs`.
    pub fn frame(&mut self, commands: Vec<UiCommand>, dt_secs: f32) {
        let changed = !commands.is_empty();
        for command in commands {
            self.apply(command);
        }
        if self.rewound() {
            if self.history.playing {
                self.play_through_history(dt_secs);
            }
            self.show_rewound();
            return;
        }
        let dt_secs = self.recording_dt().unwrap_or(dt_secs);
        self.advance(dt_secs);
        let start = web_time::Instant::now();
        self.pose_frame();
        self.stats.pose_ms = start.elapsed().as_secs_f32() * 1000.0;
        self.record_plot();
        self.keep_frame(dt_secs, changed);
    }

    /// What the current state poses (`Performer::request` of the controls' inputs).
    pub fn pose_request(&self) -> PoseRequest {
        let inputs = self.controls.inputs(&self.character);
        self.performer.request(&self.character, &inputs)
    }

    /// Poses the current state (`pose_request`) and writes the palettes; then the crowd and the
    /// compared palette when they are shown.
    pub fn pose_frame(&mut self) {
        if (self.controls.debug.compressed
            || self.controls.compared_for_colours() == Compared::OtherClips)
            && self.character.clips.iter().any(|k| k.compressed.is_none())
        {
            // Once per character: compressed within the default bound (1e-4 of its height).
            let settings = crate::pose::compression_settings(&self.character, None);
            crate::pose::compress_clips(&mut self.character, &settings);
        }
        let inputs = self.controls.inputs(&self.character);
        self.performer.prepare(&self.character, &inputs);
        let mut request = self.performer.request(&self.character, &inputs);
        if let Err(e) = self.pose.evaluate(&self.character, &request) {
            log::error!("posing failed: {e}");
        }
        self.update_feet(&inputs, &request);
        self.pose_physics(&mut request);
        self.pose_crowd();
        if self.comparing() {
            let c = &self.controls;
            // The one choice the panel made: the other clips, the other skinning method (drawing
            // the same palette), or another palette.
            let with = match (c.compared(), c.compared_for_colours()) {
                (_, Compared::OtherClips) => CompareWith::OtherClips,
                (Compared::OtherSkinning | Compared::MlReference, _) => {
                    CompareWith::Palette(c.view.palette)
                }
                (_, Compared::Palette(palette)) => CompareWith::Palette(palette),
                (_, _) => CompareWith::Palette(c.debug.compare),
            };
            let compared = crate::draw::view::pose_compared(
                &self.character,
                &request,
                &self.pose,
                with,
                &mut self.compare_pose,
            );
            if let Err(e) = compared {
                log::error!("posing failed: {e}");
            }
        }
        self.posed = request;
        self.pose_over_time();
    }

    /// After posing: feet just planted are held, lifted ones let go; the slide plot gets the
    /// fastest planted foot's horizontal speed this frame.
    fn update_feet(&mut self, inputs: &Inputs, request: &PoseRequest) {
        if request.clip.is_none() {
            return;
        }
        self.performer
            .settle_feet(&self.character, inputs, request, &self.pose);
        let ankles: Vec<(glam::Vec3, bool)> = self
            .performer
            .planter
            .legs
            .iter()
            .zip(self.performer.contacts())
            .map(|(l, &planted)| {
                let at = glam::Vec3::from(self.pose.model.as_slice()[l.end].translation);
                (at, planted)
            })
            .collect();
        let dt = self.plot_clock - self.slide_plot.back().map_or(self.plot_clock, |p| p[0]);
        // A foot planted this frame and the last: how fast it moved across the ground.
        let fastest = if ankles.len() == self.last_ankles.len() && dt > 0.0 {
            ankles
                .iter()
                .zip(&self.last_ankles)
                .filter(|((_, now), (_, before))| *now && *before)
                .map(|((a, _), (b, _))| f64::from((*a - *b).with_y(0.0).length()) / dt)
                .fold(0.0, f64::max)
        } else {
            0.0
        };
        self.slide_plot.push_back([self.plot_clock, fastest]);
        while self
            .slide_plot
            .front()
            .is_some_and(|p| p[0] < self.plot_clock - PLOT_SECS)
        {
            self.slide_plot.pop_front();
        }
        self.last_ankles = ankles;
    }

    /// Whether the compared palette is in use (split view or displacement colours; not for a
    /// crowd).
    pub fn comparing(&self) -> bool {
        self.controls.view.crowd == 0
            && (self.controls.compared() != Compared::Off
                || self.controls.debug.color_view == ColorView::Displacement)
    }

    /// Bounds of what is drawn: the character over its current clip's whole motion (what F
    /// frames), or the whole crowd.
    pub fn world_bounds(&self) -> Option<(glam::Vec3, glam::Vec3)> {
        let one = crate::pose::motion_bounds(&self.character, &self.pose_request())?;
        Some(match &self.crowd {
            Some(crowd) => crowd.bounds(one),
            None => one,
        })
    }

    /// The debug colours of the current view, per instance and primitive (empty for materials).
    pub fn vertex_colors(&self) -> Vec<Vec<Vec<glam::Vec4>>> {
        if self.controls.debug.color_view == ColorView::Material {
            return Vec::new();
        }
        let other = self.comparing().then_some(&self.compare_pose);
        colors::vertex_colors_in(
            &self.character,
            self.controls.debug.color_view,
            &self.pose,
            other,
            self.controls.selected_joint,
            self.controls.debug.color_range,
        )
    }

    /// What lies under `at` (points) in the 3D view `view`: a joint or a vertex of the vertices
    /// `drawn` (the GPU skin pass's, read back) when given, else the CPU reference's.
    pub(crate) fn pick_under(
        &self,
        at: glam::Vec2,
        view: &ScreenView,
        drawn: Option<&crate::posed::PosedVertices>,
    ) -> Pick {
        let on_cpu;
        let vertices = match drawn {
            Some(v) => v,
            None => {
                on_cpu = crate::posed::PosedVertices::on_cpu(
                    &self.character,
                    &self.pose,
                    self.controls.skinning.method,
                );
                &on_cpu
            }
        };
        picking::pick(&self.character, &self.pose, vertices, at, view)
    }

    /// A click at `at` (points) in the 3D view `view`: selects the nearest joint within 10
    /// points (its weighted vertices light up), or else picks the nearest vertex within 8 points
    /// and lists its influences. The vertices are `drawn` (the GPU skin pass's, read back) when
    /// given, else the CPU reference's under the current skinning. Returns whether anything was
    /// hit.
    pub fn pick(
        &mut self,
        at: glam::Vec2,
        view: &ScreenView,
        drawn: Option<&crate::posed::PosedVertices>,
    ) -> bool {
        match self.pick_under(at, view, drawn) {
            Pick::Joint(j) => {
                self.controls.selected_joint = Some(j);
                if self.controls.debug.color_view == ColorView::Material {
                    self.controls.debug.color_view = ColorView::SelectedJointWeight;
                }
                true
            }
            Pick::Vertex(v) => {
                self.picked_vertex = Some(v);
                true
            }
            Pick::Nothing => {
                self.picked_vertex = None;
                false
            }
        }
    }
}
