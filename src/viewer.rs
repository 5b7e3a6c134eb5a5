//! The viewer's state, apart from any window or GPU: the loaded character, what the panel edits
//! (`Controls`), playback, blending, crossfades, the event log and load errors. The winit loop
//! (`app`) drives it one `frame` at a time; tests drive it directly or through the panel.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use crate::anim::{Playback, PlaybackMode, Step, SyncedBlend, for_each_crossed_event};
use crate::character::Character;
use crate::debug::colors::{self, ColorView};
use crate::debug::picking::{self, Pick, PickedVertex, ScreenView};
use crate::import;
use crate::pose::{
    CharacterPose, ClipTime, Crowd, MorphOverride, PaletteMode, PoseRequest, TimeWrap, Transition,
};

/// The largest crowd the panel offers, whatever the GPU.
pub const MAX_PANEL_CROWD: usize = 10_000;

/// One frame-step: 1/30 s.
pub const FRAME_STEP_SECS: f32 = 1.0 / 30.0;
const EVENT_LOG_LEN: usize = 12;
const RECENT_LEN: usize = 8;

/// What the panel edits: plain data, read by the viewer every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    pub clip: usize,
    pub playing: bool,
    pub looping: bool,
    /// Playback rate, -2..2.
    pub speed: f32,
    /// Blend two clips in step instead of playing one.
    pub blend: bool,
    pub blend_a: usize,
    pub blend_b: usize,
    /// Weight of clip B, 0..1.
    pub blend_weight: f32,
    pub crossfade_to: usize,
    pub crossfade_secs: f32,
    pub show_mesh: bool,
    pub show_bones: bool,
    pub show_joint_names: bool,
    pub wireframe: bool,
    pub grid: bool,
    pub palette: PaletteMode,
    /// Selected skeleton joint.
    pub selected_joint: Option<usize>,
    /// What the mesh is coloured by.
    pub color_view: ColorView,
    /// Show the `compare` palette beside the main one (left: `palette`, right: `compare`).
    pub split: bool,
    /// The palette compared with `palette` by the split view and the displacement colours.
    pub compare: PaletteMode,
    /// Play the clips compressed (`inspect --compression`'s default bound), made on first use.
    pub compressed: bool,
    /// The split view and the displacement colours compare the same frame from the other clips
    /// (raw when playing compressed ones, compressed otherwise) instead of another palette: where
    /// the compression error lands.
    pub compare_clips: bool,
    /// Copies drawn on a grid (0: just the character), each at its own phase and weight of the
    /// blend's clips A and B.
    pub crowd: usize,
    /// The path typed in the panel's file field.
    pub path: String,
    /// Look through the file's camera (`Character::cameras`) instead of the orbit camera.
    pub file_camera: Option<usize>,
    /// Tone mapping: 0 Khronos PBR Neutral, 1 ACES, 2 none (the window maps it to the
    /// renderer's choice).
    pub tone_map: u8,
    /// Exposure in stops.
    pub exposure_ev: f32,
    /// Hold the morph sliders against the clip's weights.
    pub morph_override: bool,
    /// The morph sliders: per `Character::meshes` entry, one weight per target.
    pub morph_sliders: Vec<Vec<f32>>,
}

impl Controls {
    /// Defaults for a character: playing its first clip, blending `idle` and `walk` when it has
    /// them.
    pub fn for_character(c: &Character) -> Self {
        let find = |name: &str| c.clips.iter().position(|clip| clip.clip.name() == name);
        let walk = find("walk");
        Self {
            clip: walk.unwrap_or(0),
            playing: true,
            looping: true,
            speed: 1.0,
            blend: false,
            blend_a: find("idle").unwrap_or(0),
            blend_b: walk.unwrap_or(if c.clips.len() > 1 { 1 } else { 0 }),
            blend_weight: 0.5,
            crossfade_to: find("wave").unwrap_or(0),
            crossfade_secs: 0.5,
            show_mesh: true,
            show_bones: false,
            show_joint_names: false,
            wireframe: false,
            grid: true,
            palette: PaletteMode::Animated,
            selected_joint: None,
            color_view: ColorView::Material,
            split: false,
            compare: PaletteMode::Bind,
            compressed: false,
            compare_clips: false,
            crowd: 0,
            path: String::new(),
            file_camera: None,
            tone_map: 0,
            exposure_ev: 0.0,
            morph_override: false,
            morph_sliders: c.meshes.iter().map(|m| m.morph_weights.clone()).collect(),
        }
    }
}

/// One-off actions from the panel or the keyboard, applied in one place (`Viewer::apply`).
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum UiCommand {
    Open(PathBuf),
    /// Show another scene of the current file (`/scenes/N`).
    OpenScene(usize),
    /// Ask the window for a file dialog.
    BrowseForFile,
    /// Play, or pause; at the end of a clip played once, Play starts it again.
    PlayPause,
    /// Move the playhead to this clip time (no events fire).
    Seek(f32),
    /// Step by whole frames (1/30 s); negative steps back.
    Step(i32),
    /// Fade from the current clip to `Controls::crossfade_to` over `Controls::crossfade_secs`.
    Crossfade,
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
}

/// A fired clip event, for the panel's log.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    pub clip: String,
    pub name: String,
    pub time_secs: f32,
}

/// Frame statistics, for the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub fps: f32,
    pub frame_ms: f32,
    pub pose_ms: f32,
    pub palette_bytes: u64,
}

/// A crossfade in progress: the old clip keeps playing while its weight falls to zero.
#[derive(Clone, Debug, PartialEq)]
struct Crossfade {
    from: usize,
    from_playback: Playback,
    elapsed_secs: f32,
    duration_secs: f32,
}

pub struct Viewer {
    pub character: Character,
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
    pub controls: Controls,
    /// Where the character came from (`None`: built in).
    pub source: Option<PathBuf>,
    playback: Playback,
    playing_clip: usize,
    synced: SyncedBlend,
    crossfade: Option<Crossfade>,
    pub event_log: VecDeque<LoggedEvent>,
    /// The last failed load, shown until the next load succeeds.
    pub load_error: Option<String>,
    pub recent: Vec<PathBuf>,
    pub stats: Stats,
    /// Commands only the window can carry out: camera moves and the file dialog.
    pub window_requests: Vec<WindowRequest>,
    /// Counts characters loaded, so a renderer knows when to rebuild.
    generation: u64,
}

impl Viewer {
    pub fn new(character: Character, source: Option<PathBuf>) -> Self {
        let controls = Controls::for_character(&character);
        let mut viewer = Self {
            pose: CharacterPose::new(&character),
            compare_pose: CharacterPose::new(&character),
            picked_vertex: None,
            crowd: None,
            crowd_limit: MAX_PANEL_CROWD,
            crowd_clock: 0.0,
            controls,
            source,
            playback: Playback::new(0.0),
            playing_clip: usize::MAX,
            synced: SyncedBlend::new(0.0, 0.0, 0.0),
            crossfade: None,
            event_log: VecDeque::new(),
            load_error: None,
            recent: Vec::new(),
            stats: Stats::default(),
            window_requests: Vec::new(),
            generation: 0,
            character,
        };
        viewer.sync_playback();
        viewer
    }

    fn duration(&self, clip: usize) -> f32 {
        self.character
            .clips
            .get(clip)
            .map_or(0.0, |c| c.duration_secs())
    }

    /// Opens a file. On failure the current character stays and the error is kept for the panel.
    pub fn open(&mut self, path: &Path) -> Result<(), String> {
        self.open_with(path, import::LoadOptions::default())
    }

    /// Shows scene `scene` of the current file.
    pub fn open_scene(&mut self, scene: usize) -> Result<(), String> {
        let Some(path) = self.source.clone() else {
            return Err("the built-in character has one scene".into());
        };
        self.open_with(&path, import::LoadOptions { scene: Some(scene) })
    }

    fn open_with(&mut self, path: &Path, options: import::LoadOptions) -> Result<(), String> {
        match import::load_with(path, options) {
            Ok(character) => {
                let mut controls = Controls::for_character(&character);
                controls.path = path.display().to_string();
                self.pose = CharacterPose::new(&character);
                self.compare_pose = CharacterPose::new(&character);
                self.picked_vertex = None;
                self.crowd = None;
                self.character = character;
                self.controls = controls;
                self.source = Some(path.to_path_buf());
                self.crossfade = None;
                self.playing_clip = usize::MAX;
                self.event_log.clear();
                self.load_error = None;
                self.recent.retain(|p| p != path);
                self.recent.insert(0, path.to_path_buf());
                self.recent.truncate(RECENT_LEN);
                self.sync_playback();
                self.generation += 1;
                self.window_requests.push(WindowRequest::ResetCamera);
                Ok(())
            }
            Err(e) => {
                let message = e.to_string();
                self.load_error = Some(message.clone());
                Err(message)
            }
        }
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
            UiCommand::OpenScene(scene) => {
                if let Err(e) = self.open_scene(scene) {
                    self.load_error = Some(e);
                }
            }
            UiCommand::PlayPause => self.play_pause(),
            UiCommand::Seek(t) => self.seek(t),
            UiCommand::Step(frames) => {
                self.seek(self.time_secs() + frames as f32 * FRAME_STEP_SECS)
            }
            UiCommand::Crossfade => {
                let to = self.controls.crossfade_to;
                if to < self.character.clips.len() && !self.controls.blend {
                    self.crossfade = Some(Crossfade {
                        from: self.playing_clip,
                        from_playback: self.playback.clone(),
                        elapsed_secs: 0.0,
                        duration_secs: self.controls.crossfade_secs.max(0.0),
                    });
                    self.controls.clip = to;
                    self.sync_playback();
                    self.playback.seek(0.0);
                }
            }
            UiCommand::FrameCamera => self.window_requests.push(WindowRequest::FrameCamera),
            UiCommand::ResetCamera => self.window_requests.push(WindowRequest::ResetCamera),
            UiCommand::BrowseForFile => self.window_requests.push(WindowRequest::BrowseForFile),
        }
    }

    /// Applies the controls' clip, speed, looping and blend settings to the playheads.
    fn sync_playback(&mut self) {
        let c = &self.controls;
        let mode = if c.looping {
            PlaybackMode::Loop
        } else {
            PlaybackMode::Once
        };
        if self.playing_clip != c.clip {
            // Another clip keeps the playhead's phase: the same ratio of its own duration.
            let ratio = self.playback.ratio();
            self.playback = Playback::new(self.duration(c.clip));
            self.playback.mode = mode;
            self.playback.seek_ratio(ratio);
            self.playing_clip = c.clip;
        }
        self.playback.speed = c.speed;
        self.playback.mode = mode;
        self.playback.paused = !c.playing;
        let (da, db) = (self.duration(c.blend_a), self.duration(c.blend_b));
        let phase = self.synced.phase.clone();
        self.synced = SyncedBlend::new(da, db, c.blend_weight);
        self.synced.phase = phase;
        self.synced.phase.speed = c.speed;
        self.synced.phase.mode = mode;
        self.synced.phase.paused = !c.playing;
    }

    /// The playhead in seconds of the clip shown on the timeline (clip A when blending).
    pub fn time_secs(&self) -> f32 {
        if self.controls.blend {
            self.synced.times_secs().0
        } else {
            self.playback.time_secs()
        }
    }

    /// The clip shown on the timeline and its duration.
    pub fn timeline_clip(&self) -> (usize, f32) {
        let clip = if self.controls.blend {
            self.controls.blend_a
        } else {
            self.controls.clip
        };
        (clip, self.duration(clip))
    }

    fn seek(&mut self, t: f32) {
        self.sync_playback();
        if self.controls.blend {
            let d = self.duration(self.controls.blend_a);
            if d > 0.0 {
                self.synced.phase.seek(t / d);
            }
        } else {
            self.playback.seek(t);
        }
    }

    /// Whether a clip played once has run to its end (its start, playing backwards): the play
    /// button then offers Play, which starts it again.
    pub fn at_end(&self) -> bool {
        if self.controls.looping {
            return false;
        }
        let (_, duration) = self.timeline_clip();
        let t = self.time_secs();
        duration > 0.0
            && if self.controls.speed < 0.0 {
                t <= 0.0
            } else {
                t >= duration
            }
    }

    fn play_pause(&mut self) {
        if self.controls.playing && !self.at_end() {
            self.controls.playing = false;
            return;
        }
        if self.at_end() {
            let (_, duration) = self.timeline_clip();
            self.seek(if self.controls.speed < 0.0 {
                duration
            } else {
                0.0
            });
        }
        self.controls.playing = true;
    }

    /// Whether a crossfade is running.
    pub fn crossfading(&self) -> bool {
        self.crossfade.is_some()
    }

    /// Advances playback by `dt_secs` of wall time, logging the events crossed.
    pub fn advance(&mut self, dt_secs: f32) {
        self.sync_playback();
        if self.controls.playing {
            self.crowd_clock += dt_secs * self.controls.speed;
        }
        let mut fired = Vec::new();
        let mode = self.playback.mode;
        let log = |clip: usize, step: Step, character: &Character, fired: &mut Vec<LoggedEvent>| {
            if let Some(c) = character.clips.get(clip) {
                for_each_crossed_event(c.clip.events(), c.clip.duration_secs(), mode, step, |e| {
                    fired.push(LoggedEvent {
                        clip: c.clip.name().to_owned(),
                        name: e.name.clone(),
                        time_secs: e.time_secs,
                    })
                });
            }
        };
        if self.controls.blend {
            let step = self.synced.advance(dt_secs);
            log(self.controls.blend_a, step.a, &self.character, &mut fired);
            if self.controls.blend_b != self.controls.blend_a {
                log(self.controls.blend_b, step.b, &self.character, &mut fired);
            }
        } else {
            let step = self.playback.advance(dt_secs);
            log(self.playing_clip, step, &self.character, &mut fired);
            if let Some(fade) = self.crossfade.as_mut() {
                fade.from_playback.speed = self.playback.speed;
                fade.from_playback.paused = self.playback.paused;
                fade.from_playback.advance(dt_secs);
                if !self.playback.paused {
                    fade.elapsed_secs += dt_secs * self.playback.speed.abs();
                }
                if fade.elapsed_secs >= fade.duration_secs {
                    self.crossfade = None;
                }
            }
        }
        for e in fired {
            self.event_log.push_front(e);
        }
        self.event_log.truncate(EVENT_LOG_LEN);
    }

    /// One frame of the viewer, in order: the panel's and keyboard's commands are applied, the
    /// clocks advance by `dt_secs` of wall time, and the character is posed once. What is drawn
    /// next shows the state after every command of this frame (a Step or a seek included).
    pub fn frame(&mut self, commands: Vec<UiCommand>, dt_secs: f32) {
        for command in commands {
            self.apply(command);
        }
        self.advance(dt_secs);
        let start = std::time::Instant::now();
        self.pose_frame();
        self.stats.pose_ms = start.elapsed().as_secs_f32() * 1000.0;
    }

    /// What the current state poses: the playing clip (or the in-step blend), a crossfade in
    /// progress, and the palette. The viewer's playheads wrap or clamp their own times, so the
    /// request clamps.
    pub fn pose_request(&self) -> PoseRequest {
        let c = &self.controls;
        let clip_count = self.character.clips.len();
        let mut request = PoseRequest {
            wrap: TimeWrap::Clamp,
            palette: c.palette,
            compressed: c.compressed,
            ..PoseRequest::default()
        };
        request.morph_overrides = self.morph_overrides();
        if c.blend {
            let (time_a, _) = self.synced.times_secs();
            request.clip = (c.blend_a < clip_count).then_some(ClipTime {
                clip: c.blend_a,
                time_secs: time_a,
            });
            return request.with_blend(c.blend_b, c.blend_weight);
        }
        request.clip = (self.playing_clip < clip_count).then_some(ClipTime {
            clip: self.playing_clip,
            time_secs: self.playback.time_secs(),
        });
        request.transition = self.crossfade.as_ref().map(|fade| {
            let from = ClipTime {
                clip: fade.from,
                time_secs: fade.from_playback.time_secs(),
            };
            Transition::crossfade(
                from,
                if fade.duration_secs > 0.0 {
                    fade.elapsed_secs / fade.duration_secs
                } else {
                    1.0
                },
            )
        });
        request
    }

    /// The sliders as overrides, when the switch holds them against the clip.
    fn morph_overrides(&self) -> Vec<MorphOverride> {
        let c = &self.controls;
        if !c.morph_override {
            return Vec::new();
        }
        self.character
            .meshes
            .iter()
            .zip(&c.morph_sliders)
            .flat_map(|(mesh, sliders)| {
                sliders
                    .iter()
                    .enumerate()
                    .map(|(target, &weight)| MorphOverride {
                        mesh: mesh.index,
                        target,
                        weight,
                    })
            })
            .collect()
    }

    /// The live morph weights of each mesh (of the first node drawing it), for the panel.
    pub fn live_morph_weights(&self, mesh: usize) -> &[f32] {
        self.character
            .instances
            .iter()
            .position(|i| i.mesh == mesh)
            .map_or(&[], |i| self.pose.morph.of(i))
    }

    /// Poses the current state (`pose_request`) and writes the palettes; then the crowd and the
    /// compared palette when they are shown.
    pub fn pose_frame(&mut self) {
        if (self.controls.compressed || self.controls.compare_clips)
            && self.character.clips.iter().any(|k| k.compressed.is_none())
        {
            // Once per character: compressed within the default bound (1e-4 of its height).
            let settings = crate::pose::compression_settings(&self.character, None);
            crate::pose::compress_clips(&mut self.character, &settings);
        }
        let request = self.pose_request();
        if let Err(e) = self.pose.evaluate(&self.character, &request) {
            log::error!("posing failed: {e}");
        }
        self.pose_crowd();
        if self.comparing() {
            let c = &self.character;
            let compared = if self.controls.compare_clips {
                // The same frame from the other clips, under the same palette.
                let other = request.with_compressed(!self.controls.compressed);
                self.compare_pose.evaluate(c, &other)
            } else {
                self.compare_pose
                    .compose_local(c, self.pose.local(), self.controls.compare)
            };
            if let Err(e) = compared {
                log::error!("posing failed: {e}");
            }
        }
    }

    /// Makes, remakes or drops the crowd as `Controls::crowd` asks, and poses it.
    fn pose_crowd(&mut self) {
        let c = &self.character;
        self.controls.crowd = self.controls.crowd.min(self.crowd_limit);
        let members = self.controls.crowd;
        if members == 0 {
            if self.crowd.take().is_some() {
                // Back to one character: frame it again.
                self.window_requests.push(WindowRequest::FrameCamera);
            }
            return;
        }
        if self
            .crowd
            .as_ref()
            .is_none_or(|crowd| crowd.len() != members)
        {
            let one = self
                .pose
                .world_bounds(c)
                .unwrap_or((glam::Vec3::splat(-1.0), glam::Vec3::splat(1.0)));
            let spacing = (one.1 - one.0).max_element().max(1e-3) * 1.2;
            let clips = (self.controls.blend_a, self.controls.blend_b);
            self.crowd = Some(Crowd::new(c, members, clips, spacing));
            self.window_requests.push(WindowRequest::FrameCamera);
        }
        if let Some(crowd) = self.crowd.as_mut() {
            crowd.compressed = self.controls.compressed;
            crowd.update(c, self.crowd_clock);
        }
    }

    /// Whether the compared palette is in use (split view or displacement colours; not for a
    /// crowd).
    pub fn comparing(&self) -> bool {
        self.controls.crowd == 0
            && (self.controls.split || self.controls.color_view == ColorView::Displacement)
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
        if self.controls.color_view == ColorView::Material {
            return Vec::new();
        }
        let other = self.comparing().then_some(&self.compare_pose);
        colors::vertex_colors(
            &self.character,
            self.controls.color_view,
            &self.pose,
            other,
            self.controls.selected_joint,
        )
    }

    /// A click at `at` (points) in the 3D view `view`: selects the nearest joint within 10
    /// points (its weighted vertices light up), or else picks the nearest vertex within 8 points
    /// and lists its influences. Returns whether anything was hit.
    pub fn pick(&mut self, at: glam::Vec2, view: &ScreenView) -> bool {
        match picking::pick(&self.character, &self.pose, at, view) {
            Pick::Joint(j) => {
                self.controls.selected_joint = Some(j);
                if self.controls.color_view == ColorView::Material {
                    self.controls.color_view = ColorView::SelectedJointWeight;
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
