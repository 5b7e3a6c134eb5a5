//! The arguments shared by the posing subcommands (`render`, `pose`, `palette`, `check`) and the
//! value parsers. One clap struct, so every command poses a file the same way.

use std::path::PathBuf;

use clap::ValueEnum;
use skinscope::character::Character;
use skinscope::import;
use std::sync::Arc;

use skinscope::anim::{Chain, default_root_joint};
use skinscope::graph::{Graph, Machine, MoveMode, ParamKind, SIMULATION_HZ, TransitionSpec};
use skinscope::perform::{BlendInput, Inputs, LayerInput, Performer, Reach};
use skinscope::pose::{LayerBlend, PaletteMode, PoseRequest};
use skinscope::scene::Ground;

pub use super::values::{
    MAX_INTEGRATED_SECS, WEIGHT_RANGE, find_camera, find_clip, find_scene, parse_drive_speed,
    parse_finite, parse_fov, parse_frames, parse_image_path, parse_morph, parse_point,
    parse_positive, parse_range, parse_rgb, parse_simulate, parse_size, parse_speed, parse_unit,
    parse_vec3,
};

/// What to pose: a file (default: the built-in character) at a clip time.
#[derive(clap::Args, Clone, Debug)]
pub struct PoseArgs {
    /// A .gltf or .glb file (default: the built-in character).
    pub file: Option<PathBuf>,
    /// Clip name or index (default: the first clip, or the rest pose when there is none).
    #[arg(long, allow_hyphen_values = true)]
    pub clip: Option<String>,
    /// Clip time in seconds; wraps around the clip, whose duration is its latest key over all
    /// its channels (morph weights included).
    #[arg(long, value_parser = parse_finite, allow_negative_numbers = true)]
    pub time: Option<f32>,
    /// Playback rate for the whole run, as the window's speed slider (-10..10; with --time it
    /// must be positive, and --time stays clip time): the clip, a blend, a transition's sides,
    /// the layers and the state machine all play at it.
    #[arg(long, default_value_t = 1.0, value_parser = parse_speed, allow_negative_numbers = true)]
    pub speed: f32,
    /// Play the clips once, holding their ends, instead of looping (the window's Loop switch
    /// off).
    #[arg(long)]
    pub once: bool,
    /// A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1).
    #[arg(long)]
    pub blend: Option<String>,
    /// Which palette skins the mesh.
    #[arg(long, value_enum, default_value = "animated")]
    pub palette: PaletteArg,
    /// A morph target's weight on top of the clip's: MESH:TARGET=WEIGHT, mesh and target by
    /// name or index (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub morph: Vec<String>,
    /// The scene to show, by name or index (default: the file's default scene).
    #[arg(long)]
    pub scene: Option<String>,
    /// Play the clips compressed (within 1e-4 of the character's height, as inspect's
    /// compression report gives them), as the viewer's "Play compressed clips" does.
    #[arg(long)]
    pub compressed: bool,
    /// An override layer: CLIP:ROOT[,ROOT...]:WEIGHT, the clip (at the same time, looping)
    /// replacing the subtrees of the root joints; ROOT=W gives a subtree its own weight
    /// (repeatable).
    #[arg(long)]
    pub layer: Vec<String>,
    /// An additive layer: CLIP:WEIGHT, the clip's difference from its first frame (at the same
    /// time, looping) added on top (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub additive: Vec<String>,
    /// A transition: TO_CLIP@START_SECS:DURATION_SECS[:inertialize]. The first clip plays from
    /// 0; at START the second starts from 0 and takes over, by a crossfade of DURATION seconds
    /// or by inertialization with a half-life of DURATION.
    #[arg(long, allow_hyphen_values = true)]
    pub transition: Option<String>,
    /// A state machine file (default with the simulate option: the one beside the model, or
    /// the built-in character's).
    #[arg(long)]
    pub graph: Option<PathBuf>,
    /// A state machine parameter at t = 0: NAME=VALUE (true/false for bools, 1 for a
    /// trigger; repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub param: Vec<String>,
    /// Play from t = 0 at a fixed 60 Hz for SECS of real time and pose the last frame, as the
    /// window would play it: the clip, blend or transition the options choose, or (with
    /// --graph or --param, or with no clip option where there is one: the built-in
    /// character's, or FILE.skinscope.json beside the model) the state machine; else the first
    /// clip.
    #[arg(long, value_parser = parse_simulate, allow_hyphen_values = true)]
    pub simulate: Option<f32>,
    /// Root motion: authored (left in the pose), in-place (removed), applied (removed and
    /// moving the character) or driven (removed; the character moves at --drive-speed and the
    /// clips play at the rate that matches it). Applied and driven integrate from t = 0 at
    /// 60 Hz to the clip time.
    #[arg(long, value_enum)]
    pub root_motion: Option<RootMotionArg>,
    /// Driven mode's speed in units per second along the character's heading (default: the
    /// clip's ground speed, so it plays at its own rate, as the window starts).
    #[arg(long, value_parser = parse_drive_speed, allow_negative_numbers = true)]
    pub drive_speed: Option<f32>,
    /// The root-motion joint (default: the topmost joint a clip translates).
    #[arg(long)]
    pub root_motion_joint: Option<String>,
    /// Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint
    /// brought to the world-space target, bending toward the pole (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub ik: Vec<String>,
    /// Add clips from another file, retargeted onto this character: a `.bvh` (one clip named
    /// after the file) or a glTF/GLB (its clips by name); joints matched by name across the
    /// common conventions (repeatable).
    #[arg(long)]
    pub clips_from: Vec<PathBuf>,
    /// A JSON object of source -> target joint names for --clips-from, --mocap and
    /// --mocap-listen, for joints the naming conventions do not match.
    #[arg(long)]
    pub retarget_map: Option<PathBuf>,
    #[command(flatten)]
    pub retarget: super::retarget::RetargetArgs,
    #[command(flatten)]
    pub mocap: super::mocap::MocapArgs,
    #[command(flatten)]
    pub physics: super::physics::PhysicsArgs,
    #[command(flatten)]
    pub matching: super::matching::MatchArgs,
    #[command(flatten)]
    pub muscles: super::muscles::MuscleArgs,
    #[command(flatten)]
    pub ml: super::ml::MlArgs,
    /// Pose drivers from a JSON file (or `default`: the built-in character's correctives):
    /// driver joints' rotations interpolated between authored poses into corrective morph
    /// weights and helper joints' offsets, after IK.
    #[arg(long)]
    pub drivers: Option<PathBuf>,
    /// Under `--skinning per-joint`: the joints whose subtrees skin by dual quaternions
    /// (ROOT[,ROOT...]), the rest by linear blend; `auto` picks the parents of the joints the
    /// clips twist about their bone by more than 60 degrees.
    #[arg(long, default_value = "auto")]
    pub dqs_joints: String,
    /// Pose a frame of a history the window saved (its "Save history..."), exactly as it was
    /// drawn: --frame N (0 the first kept) of FILE, which must have been recorded on this model.
    #[arg(long, requires = "frame", conflicts_with_all = ["time", "simulate"])]
    pub replay: Option<PathBuf>,
    /// The frame of --replay's history to pose.
    #[arg(long, requires = "replay")]
    pub frame: Option<usize>,
    /// Foot IK on the ground this file describes (floor, steps, slopes, walls): the legs found
    /// by name planted on it, planted feet held (integrated from t = 0 at 60 Hz).
    #[arg(long)]
    pub ground: Option<PathBuf>,
}

/// How `pose` and `check` skin the vertices they export or check.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct SkinArgs {
    /// Where the vertices are skinned: on the CPU (the reference) or on the GPU (the skin pass
    /// every draw reads, read back: the vertices drawn).
    #[arg(long, value_enum, default_value = "cpu")]
    pub skin_on: SkinOnArg,
    /// Linear blend, dual-quaternion or per-joint (weight-blended, `--dqs-joints`) skinning.
    #[arg(long, value_enum, default_value = "lbs")]
    pub skinning: SkinningArg,
    #[command(flatten)]
    pub ddm: super::ddm::DdmArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SkinOnArg {
    Cpu,
    Gpu,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SkinningArg {
    Lbs,
    Dqs,
    /// Weight-blended: dual quaternions on the `--dqs-joints`, linear blend elsewhere.
    PerJoint,
    /// Direct delta mush (the `--ddm-*` parameters): in the skin pass.
    Ddm,
}

impl From<SkinningArg> for skinscope::anim::SkinningMethod {
    fn from(s: SkinningArg) -> Self {
        match s {
            SkinningArg::Lbs => Self::Linear,
            SkinningArg::Dqs => Self::DualQuaternion,
            SkinningArg::PerJoint => Self::Blended,
            SkinningArg::Ddm => Self::DeltaMush,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum RootMotionArg {
    Authored,
    InPlace,
    Applied,
    Driven,
}

impl From<RootMotionArg> for MoveMode {
    fn from(m: RootMotionArg) -> Self {
        match m {
            RootMotionArg::Authored => MoveMode::Authored,
            RootMotionArg::InPlace => MoveMode::InPlace,
            RootMotionArg::Applied => MoveMode::Applied,
            RootMotionArg::Driven => MoveMode::Driven,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PaletteArg {
    Animated,
    Bind,
    Identity,
}

impl From<PaletteArg> for PaletteMode {
    fn from(p: PaletteArg) -> Self {
        match p {
            PaletteArg::Animated => PaletteMode::Animated,
            PaletteArg::Bind => PaletteMode::Bind,
            PaletteArg::Identity => PaletteMode::Identity,
        }
    }
}

/// A loaded file and the pose request its arguments describe.
pub struct Posing {
    pub character: Character,
    pub request: PoseRequest,
    /// Motion matching's report of the run (`--motion-matching`).
    pub matching: Option<skinscope::debug::export::MatchReport>,
    /// The path as given (`None`: the built-in character).
    pub file: Option<PathBuf>,
    /// What a render draws over the frame: a travelling character's trail (root motion applied
    /// or driven, motion matching) and motion matching's trajectories, as the window does.
    pub overlay: Vec<skinscope::draw::OverlayLine>,
    /// The frame of a saved history to show instead of the request's pose (`--replay`).
    pub recorded: Option<std::sync::Arc<skinscope::history::RecordedPose>>,
}

use super::clips::{add_clips_from, read_retarget_map};
pub use super::performance::{Cue, Performance, Run};

impl PoseArgs {
    /// Loads the file (the scene asked for) and builds the request.
    pub fn load(&self) -> Result<Posing, String> {
        let character = self.load_character()?;
        let mut performance = self.performance(&character)?;
        let request = performance.play(&character, |_, _| Ok(()))?;
        let matching = performance.match_report(&character);
        let overlay = performance.overlay(&character);
        if let Some(path) = &self.matching.match_report {
            let searches =
                skinscope::debug::export::search_reports(&character, &performance.searches);
            let text = serde_json::to_string_pretty(&searches).map_err(|e| e.to_string())?;
            skinscope::files::write_bytes_whole(path, text.as_bytes())
                .map_err(|e| format!("--match-report: {e}"))?;
        }
        let recorded = self.replayed(&character)?;
        let mut request = request;
        if let Some(r) = &recorded {
            // Where the character stood then: what the camera frames.
            request.placement = r.placement;
            request.palette = r.palette;
        }
        Ok(Posing {
            character,
            request,
            matching,
            file: self.file.clone(),
            overlay,
            recorded,
        })
    }

    /// The request these options pose at clip time `t` instead of `--time` (a motion path's
    /// sample, an onion skin), as `--time t` would pose it.
    pub fn request_at(&self, c: &Character, t: f32) -> Result<PoseRequest, String> {
        let mut at = self.clone();
        at.time = Some(t);
        at.performance(c)?.play(c, |_, _| Ok(()))
    }

    /// Frame `--frame` of the `--replay` history, read for `c`.
    fn replayed(
        &self,
        c: &Character,
    ) -> Result<Option<std::sync::Arc<skinscope::history::RecordedPose>>, String> {
        let (Some(path), Some(k)) = (&self.replay, self.frame) else {
            return Ok(None);
        };
        let cap = skinscope::history::MAX_HISTORY_FILE_BYTES;
        let text = skinscope_core::files::read_text_capped(path, cap).map_err(|e| e.to_string())?;
        let history: skinscope::history::History<()> =
            skinscope::history::history_from_json(c, &text)
                .map_err(|e| format!("--replay {}: {e}", path.display()))?;
        let frame = history.get(k).ok_or_else(|| {
            format!(
                "--frame {k}: {} keeps frames 0 to {}",
                path.display(),
                history.len() - 1
            )
        })?;
        Ok(Some(std::sync::Arc::new(frame.pose.clone())))
    }

    /// Loads the file (the scene asked for), with the clips the options add, compressed when
    /// asked.
    pub fn load_character(&self) -> Result<Character, String> {
        let mut character = match &self.file {
            Some(file) => super::load_model(file),
            None => skinscope::builtin::character(),
        }
        .map_err(|e| e.to_string())?;
        if let Some(key) = &self.scene {
            let scene = find_scene(&character, key)?;
            if scene != character.scene {
                let Some(file) = &self.file else {
                    return Err("the built-in character has one scene".into());
                };
                let options = import::LoadOptions {
                    scene: Some(scene),
                    reach: super::reach(),
                };
                character = import::load_with(file, options)
                    .map_err(|e| super::with_reach_remedy(e).to_string())?;
            }
        }
        let map = self.retarget_map()?;
        add_clips_from(&mut character, &self.clips_from, map.as_ref())?;
        self.mocap.add_take(&mut character, map.as_ref())?;
        if self.compressed {
            let settings = skinscope::pose::compression_settings(&character, None);
            skinscope::pose::compress_clips(&mut character, &settings);
        }
        Ok(character)
    }

    /// `--drivers`, read for `c`, naming the file and the JSON pointer of a problem.
    fn drivers(&self, c: &Character) -> Result<Option<Arc<skinscope::pose::DriverSet>>, String> {
        let Some(path) = &self.drivers else {
            return Ok(None);
        };
        if path.as_os_str() == "default" {
            return skinscope::builtin::own_drivers(c)
                .map_err(|e| format!("--drivers default: {}: {e}", c.name))?
                .map(|d| Some(Arc::new(d)))
                .ok_or_else(|| {
                    format!(
                        "--drivers default: {} ships no pose drivers (none in its node extras): give a drivers file",
                        c.name
                    )
                });
        }
        let text = skinscope::files::read_text_capped(path, 16 << 20)
            .map_err(|e| format!("--drivers {}: {e}", path.display()))?;
        skinscope::pose::DriverSet::parse(&text, c)
            .map(|d| Some(Arc::new(d)))
            .map_err(|e| format!("--drivers {}: {e}", path.display()))
    }

    /// `--retarget-map`, read, with the `--retarget-*` settings over it (none: auto-mapping
    /// and the defaults).
    fn retarget_map(&self) -> Result<Option<skinscope::import::RetargetPlan>, String> {
        let plan = read_retarget_map(self.retarget_map.as_deref())?;
        let r = &self.retarget;
        if !r.given() {
            return Ok(plan);
        }
        let mut plan = plan.unwrap_or_default();
        r.apply(&mut plan.settings);
        Ok(Some(plan))
    }

    /// Whether the options play the state machine: `--graph` or `--param`, or `--simulate`
    /// with no clip option where there is a state machine to play (the built-in character's,
    /// or one beside the model); else the first clip plays, as the window plays it.
    fn plays_graph(&self) -> bool {
        let clip_options = self.clip.is_some() || self.blend.is_some() || self.transition.is_some();
        let matching = self.matching.motion_matching;
        let beside = match &self.file {
            None => true,
            Some(model) => skinscope::graph::graph_path_beside(model).exists(),
        };
        let simulated = self.simulate.is_some() && !clip_options && !matching;
        self.graph.is_some() || (simulated && (beside || !self.param.is_empty()))
    }

    /// Refuses options that would otherwise go unused or contradict each other.
    fn check_combinations(&self) -> Result<(), String> {
        let clip_options = self.clip.is_some() || self.blend.is_some() || self.transition.is_some();
        if self.graph.is_some() && clip_options {
            return Err("--graph runs the state machine, which chooses its own clips: give --graph or --clip/--blend/--transition".into());
        }
        if !self.param.is_empty() && !self.plays_graph() {
            return Err(if self.simulate.is_some() {
                "--param sets a state machine parameter, and --clip/--blend/--transition play clips instead: give --graph".into()
            } else {
                "--param sets a state machine parameter: give --graph or --simulate".into()
            });
        }
        if let Some(time) = self.time {
            if self.simulate.is_some() {
                return Err(format!(
                    "--time {time} poses a clip time and --simulate plays for a length of real time: give one"
                ));
            }
            if self.plays_graph() {
                return Err(format!(
                    "--time {time} is a clip time; the state machine keeps its own clocks: give --simulate SECS"
                ));
            }
        }
        if let Some(map) = &self.retarget_map
            && self.clips_from.is_empty()
            && !self.mocap.retargets()
        {
            return Err(format!(
                "--retarget-map {} maps joints for --clips-from, --mocap FILE.bvh or --mocap-listen: give one",
                map.display()
            ));
        }
        self.mocap.check()?;
        self.physics.check(self.simulate.is_some())?;
        self.matching.check(
            self.simulate.is_some(),
            &[
                ("--graph", self.graph.is_some()),
                ("--blend", self.blend.is_some()),
                ("--transition", self.transition.is_some()),
                ("--root-motion", self.root_motion.is_some()),
                ("--param", !self.param.is_empty()),
            ],
        )?;
        if self.transition.is_some() && self.blend.is_some() {
            return Err("--transition starts from one clip (as the window's Transition button does): it cannot start from --blend".into());
        }
        if self.simulate.is_none() && self.speed <= 0.0 {
            return Err(format!(
                "--speed {} never reaches --time: a zero or negative speed plays under --simulate SECS",
                self.speed
            ));
        }
        let mode = self.root_motion.map(MoveMode::from);
        if self.drive_speed.is_some() && mode != Some(MoveMode::Driven) {
            return Err("--drive-speed applies to --root-motion driven".into());
        }
        if self.root_motion_joint.is_some() && matches!(mode, None | Some(MoveMode::Authored)) {
            return Err(
                "--root-motion-joint applies to --root-motion in-place, applied or driven".into(),
            );
        }
        Ok(())
    }

    /// The performance these arguments describe for `character`.
    pub fn performance(&self, character: &Character) -> Result<Performance, String> {
        self.check_combinations()?;
        let c = character;
        let (mode, root_joint) = self.root_motion_of(c)?;
        let machine = self.machine(c)?;
        let use_graph = machine.is_some();
        let ground = match &self.ground {
            Some(path) => Arc::new(Ground::load(path).map_err(|e| e.to_string())?),
            None => Arc::new(Ground::flat(0.0)),
        };
        let height = skinscope::pose::character_height(c);
        let mut performer = Performer::new(c, ground, height, machine);
        let ClipsPlayed {
            clip,
            blend,
            transition,
        } = self.clips_played(c)?;
        let mut inputs = Inputs {
            // No clip: the rest pose.
            clip,
            blend,
            use_graph,
            move_mode: mode,
            root_joint,
            ..self.inputs(c)?
        };
        let goal = self.matching.start(c, &mut performer, &mut inputs)?;
        if mode == MoveMode::Driven {
            // No clip asked for: driven mode starts on the first clip that moves, as the
            // window's driven speed does (a file whose first clip stands, the Fox's Survey).
            let chosen = self.clip.is_some() || self.blend.is_some() || inputs.use_graph;
            if !chosen && let Some((k, _)) = first_moving_clip(c, &mut performer, &inputs, 0) {
                inputs.clip = Some(k);
            }
            inputs.drive_speed = self.drive_speed_for(c, &mut performer, &inputs, height);
        }
        let run = self.run(c, &mut performer, &mut inputs)?;
        let map = self.retarget_map()?;
        let listener = self.mocap.listener(c, map.as_ref())?;
        let mut impulses = self.physics.impulses(c)?;
        impulses.sort_by(|a, b| a.at_secs.total_cmp(&b.at_secs));
        Ok(Performance {
            performer,
            inputs,
            run,
            transition,
            listener: listener.map(|l| (l, self.mocap.mocap_wait)),
            impulses,
            goal,
            searches: Vec::new(),
        })
    }

    /// What root motion does (`--root-motion`) and its joint (`--root-motion-joint`, or none:
    /// found from the clips, which must translate one when root motion is not as authored).
    fn root_motion_of(&self, c: &Character) -> Result<(MoveMode, Option<usize>), String> {
        let mode = self.root_motion.map_or(MoveMode::Authored, MoveMode::from);
        let root_joint =
            match &self.root_motion_joint {
                Some(name) => Some(c.skeleton.find(name).ok_or_else(|| {
                    format!("--root-motion-joint: no joint {name:?} in {}", c.name)
                })?),
                None => None,
            };
        if mode != MoveMode::Authored
            && root_joint.is_none()
            && default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip)).is_none()
        {
            return Err(format!(
                "no clip of {} translates a joint: give --root-motion-joint",
                c.name
            ));
        }
        Ok((mode, root_joint))
    }

    /// The clip played (`--clip`, else the first; none when the file has none), the in-step
    /// blend with it (`--blend`) and the transition from it (`--transition`).
    fn clips_played(&self, c: &Character) -> Result<ClipsPlayed, String> {
        let clip = match &self.clip {
            Some(key) => Some(find_clip(c, key)?),
            None => (!c.clips.is_empty()).then_some(0),
        };
        let blend = match &self.blend {
            None => None,
            Some(spec) => {
                let (key, weight) = spec
                    .rsplit_once(':')
                    .ok_or_else(|| format!("--blend {spec:?} is not CLIP:WEIGHT"))?;
                let weight = parse_finite(weight)?;
                if !(0.0..=1.0).contains(&weight) {
                    return Err(format!("--blend weight {weight} is outside 0..1"));
                }
                let Some(a) = clip else {
                    return Err("--blend needs a first clip, and the file has none".into());
                };
                Some(BlendInput {
                    a,
                    b: find_clip(c, key)?,
                    weight,
                })
            }
        };
        let transition = match &self.transition {
            None => None,
            Some(spec) => {
                if clip.is_none() {
                    return Err("--transition needs a first clip, and the file has none".into());
                }
                Some(parse_transition(c, spec)?)
            }
        };
        Ok(ClipsPlayed {
            clip,
            blend,
            transition,
        })
    }

    /// The performer's inputs the other options give: playback, layers, IK, the palette,
    /// morphs, the external pose, physics, drivers, muscles, the ML deformer and the per-joint
    /// skinning methods (what plays and root motion are the caller's).
    fn inputs(&self, c: &Character) -> Result<Inputs, String> {
        let leg_ends: Vec<usize> = skinscope::pose::find_legs(c)
            .iter()
            .map(|l| l.end)
            .collect();
        Ok(Inputs {
            clip: None,
            playing: true,
            looping: !self.once,
            speed: self.speed,
            blend: None,
            use_graph: false,
            layers: self.layers(c)?,
            move_mode: MoveMode::Authored,
            root_joint: None,
            drive_speed: 0.0,
            foot_ik: self.ground.is_some(),
            leg_ends,
            reach: self.reaches(c)?,
            palette: self.palette.into(),
            compressed: self.compressed,
            morphs: self
                .morph
                .iter()
                .map(|spec| parse_morph(c, spec))
                .collect::<Result<_, _>>()?,
            external: self.mocap.input(c)?,
            blend_back_secs: self.mocap.mocap_blend_back,
            physics: self.physics.input(c)?,
            motion_matching: None,
            drivers: self.drivers(c)?,
            muscles: self.muscles.input(c, self.simulate.is_some())?,
            ml_deformer: self.ml.load(c, self.muscles.muscles.is_some())?,
            joint_methods: Some(Arc::from(
                skinscope::pose::DqsJoints::parse(&self.dqs_joints)
                    .methods(c)
                    .map_err(|e| format!("--dqs-joints: {e}"))?,
            )),
        })
    }

    /// Driven mode's speed: `--drive-speed`, or the window's default.
    fn drive_speed_for(
        &self,
        c: &Character,
        performer: &mut Performer,
        inputs: &Inputs,
        height: f32,
    ) -> f32 {
        match self.drive_speed {
            Some(v) => v,
            // The window's default: the clip's own ground speed (or the first clip's that
            // moves among the next few), else 0.8 of the character's height a second.
            None => {
                // From the clip playing (no clip, under a blend or the state machine: the last).
                let last = c.clips.len().saturating_sub(1);
                let first = inputs.clip.map_or(last, |k| k.min(last));
                first_moving_clip(c, performer, inputs, first).map_or(0.8 * height, |(_, v)| v)
            }
        }
    }

    /// How far the performance plays: `--simulate` steps at 60 Hz; root motion applied or
    /// driven and a ground integrate from t = 0 at 60 Hz to `--time`; anything else is posed at
    /// `--time` exactly.
    fn run(
        &self,
        c: &Character,
        performer: &mut Performer,
        inputs: &mut Inputs,
    ) -> Result<Run, String> {
        let hz = SIMULATION_HZ;
        if let Some(secs) = self.simulate {
            return Ok(Run::Step {
                frames: (secs * hz).round() as usize,
                dt_secs: 1.0 / hz,
            });
        }
        if inputs.use_graph {
            return Ok(Run::Step {
                frames: 0,
                dt_secs: 1.0 / hz,
            });
        }
        let time = self.time.unwrap_or(0.0);
        let travels = matches!(inputs.move_mode, MoveMode::Applied | MoveMode::Driven);
        if !travels && self.ground.is_none() {
            return Ok(Run::Cue { time });
        }
        // Clip seconds per real second: the playback speed, or driven mode's matched rate.
        let rate = match performer.driven_rate(c, inputs) {
            Some(rate) => rate,
            None if inputs.move_mode == MoveMode::Driven => {
                return Err(format!(
                    "--root-motion driven: the clips of {} have no planted feet to match a speed to; play them applied or in place",
                    c.name
                ));
            }
            None => self.speed,
        };
        let real = time.abs() / rate;
        if real.is_nan() || real > MAX_INTEGRATED_SECS {
            return Err(format!(
                "--time {time} with --root-motion or --ground integrates from 0 s at 60 Hz: at most {MAX_INTEGRATED_SECS} s"
            ));
        }
        if time < 0.0 {
            if inputs.move_mode == MoveMode::Driven {
                return Err(format!(
                    "--time {time}: driven mode plays forward at its matched rate; give a positive time"
                ));
            }
            // Back from 0 to a negative time.
            inputs.speed = -inputs.speed;
        }
        let frames = (real * hz).round() as usize;
        Ok(Run::Step {
            frames,
            dt_secs: if frames > 0 {
                real / frames as f32
            } else {
                0.0
            },
        })
    }

    /// The state machine these arguments ask for (`None` unless they play one), its parameters
    /// set at t = 0.
    pub fn machine(&self, character: &Character) -> Result<Option<Machine>, String> {
        if !self.plays_graph() {
            return Ok(None);
        }
        let graph = load_graph(character, self.file.as_deref(), self.graph.as_deref())?;
        let params = self
            .param
            .iter()
            .map(|spec| {
                let (name, value) = spec
                    .split_once('=')
                    .ok_or_else(|| format!("--param {spec:?} is not NAME=VALUE"))?;
                let p = graph.parameter(name).ok_or_else(|| {
                    let names: Vec<&str> =
                        graph.parameters.iter().map(|p| p.name.as_str()).collect();
                    format!(
                        "--param {spec:?}: no parameter {name:?}; the graph's are {}",
                        names.join(", ")
                    )
                })?;
                let value = match value.trim() {
                    "true" => 1.0,
                    "false" => 0.0,
                    v => parse_finite(v)?,
                };
                let (low, high) = match graph.parameters[p].kind {
                    ParamKind::Float { min, max } => (min, max),
                    ParamKind::Bool | ParamKind::Trigger => (0.0, 1.0),
                };
                if !(low..=high).contains(&value) {
                    return Err(format!(
                        "--param {spec:?}: {value} is outside {name}'s range {low}..={high}"
                    ));
                }
                Ok((p, value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if self.simulate.is_none() {
            eprintln!(
                "skinscope: note: --graph without --simulate poses the state machine's first frame (t = 0, its parameters as given); --simulate SECS runs it"
            );
        }
        let mut machine = Machine::new(character, graph);
        for (p, v) in params {
            machine.set(p, v);
        }
        Ok(Some(machine))
    }

    /// The `--layer` and `--additive` layers, at their weights from the start, their clips on
    /// the run's clock.
    fn layers(&self, character: &Character) -> Result<Vec<LayerInput>, String> {
        let mut layers = Vec::new();
        for spec in &self.layer {
            let bad = || format!("--layer {spec:?} is not CLIP:ROOT[,ROOT...]:WEIGHT");
            let (rest, weight) = spec.rsplit_once(':').ok_or_else(bad)?;
            let (clip, roots) = rest.rsplit_once(':').ok_or_else(bad)?;
            let weight = parse_unit(weight, "--layer weight")?;
            let roots = roots
                .split(',')
                .map(|root| {
                    let (name, w) = match root.split_once('=') {
                        Some((name, w)) => (name, parse_unit(w, "--layer root weight")?),
                        None => (root, 1.0),
                    };
                    let joint = character.skeleton.find(name).ok_or_else(|| {
                        format!("--layer {spec:?}: no joint {name:?} in {}", character.name)
                    })?;
                    Ok((joint, w))
                })
                .collect::<Result<Vec<_>, String>>()?;
            layers.push(LayerInput {
                blend: LayerBlend::Override,
                clip: find_clip(character, clip)?,
                weight,
                half_life_secs: 0.0,
                roots,
            });
        }
        for spec in &self.additive {
            let (clip, weight) = spec
                .rsplit_once(':')
                .ok_or_else(|| format!("--additive {spec:?} is not CLIP:WEIGHT"))?;
            layers.push(LayerInput {
                blend: LayerBlend::Additive { reference: None },
                clip: find_clip(character, clip)?,
                weight: parse_range(weight, "--additive weight", WEIGHT_RANGE)?,
                half_life_secs: 0.0,
                roots: Vec::new(),
            });
        }
        Ok(layers)
    }

    /// The `--ik` targets, in the world.
    fn reaches(&self, character: &Character) -> Result<Vec<Reach>, String> {
        self.ik
            .iter()
            .map(|spec| {
                let bad = || format!("--ik {spec:?} is not END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z]");
                let (name, rest) = spec.split_once('=').ok_or_else(bad)?;
                let (target, pole) = match rest.split_once(':') {
                    Some((t, p)) => (
                        parse_point(t, "--ik target")?,
                        Some(parse_point(p, "--ik pole")?),
                    ),
                    None => (parse_point(rest, "--ik target")?, None),
                };
                let end = character.skeleton.find(name).ok_or_else(|| {
                    format!("--ik {spec:?}: no joint {name:?} in {}", character.name)
                })?;
                if Chain::ending_at(&character.skeleton, end).is_none() {
                    return Err(format!(
                        "--ik {spec:?}: {name:?} has no parent and grandparent to bend"
                    ));
                }
                Ok(Reach {
                    end,
                    target,
                    pole,
                    follows: false,
                })
            })
            .collect()
    }
}

/// The first clip from `first` on (among the next 8, wrapping) whose planted feet travel, with
/// its ground speed.
fn first_moving_clip(
    c: &Character,
    performer: &mut Performer,
    inputs: &Inputs,
    first: usize,
) -> Option<(usize, f32)> {
    let clips = c.clips.len();
    (0..clips.min(8))
        .map(|k| (first + k) % clips)
        .map(|k| (k, performer.ground_speed(c, &inputs.leg_ends, k)))
        .find(|&(_, v)| v > 1e-4)
}

/// A state machine: `path`, or else the one beside `model`, or else the built-in character's.
pub fn load_graph(
    character: &Character,
    model: Option<&std::path::Path>,
    path: Option<&std::path::Path>,
) -> Result<Graph, String> {
    if let Some(path) = path {
        return Graph::load(path, character).map_err(|e| e.to_string());
    }
    match model {
        Some(model) => {
            let beside = skinscope::graph::graph_path_beside(model);
            if !beside.exists() {
                return Err(format!(
                    "no state machine for {}: give --graph FILE (or put one at {})",
                    model.display(),
                    beside.display()
                ));
            }
            Graph::load(&beside, character).map_err(|e| e.to_string())
        }
        None => Graph::parse(skinscope::builtin::GRAPH_JSON, character)
            .map_err(|p| format!("the built-in state machine: {p}")),
    }
}

/// `TO_CLIP@START_SECS:DURATION_SECS[:inertialize]`: the first clip plays from 0 and, when it
/// reaches START, the window's Transition starts to TO_CLIP (from its start) over DURATION
/// seconds of real time (a crossfade's length, an inertialization's half-life).
/// What the options say plays: the clip (none: the rest pose), the in-step blend with it and
/// the transition from it.
struct ClipsPlayed {
    clip: Option<usize>,
    blend: Option<BlendInput>,
    transition: Option<Cue>,
}

fn parse_transition(character: &Character, spec: &str) -> Result<Cue, String> {
    let bad =
        || format!("--transition {spec:?} is not TO_CLIP@START_SECS:DURATION_SECS[:inertialize]");
    let (to, rest) = spec.rsplit_once('@').ok_or_else(bad)?;
    let mut parts = rest.split(':');
    let start_secs = parse_finite(parts.next().ok_or_else(bad)?)?;
    let duration = parse_finite(parts.next().ok_or_else(bad)?)?;
    let inertialize = match parts.next() {
        None => false,
        Some("inertialize") => true,
        Some("crossfade") => false,
        Some(_) => return Err(bad()),
    };
    if parts.next().is_some() {
        return Err(bad());
    }
    if duration < 0.0 {
        return Err(format!(
            "--transition {spec:?}: the duration {duration} must not be negative"
        ));
    }
    let spec = if inertialize {
        TransitionSpec::Inertialize {
            half_life_secs: duration,
        }
    } else {
        TransitionSpec::Crossfade {
            duration_secs: duration,
        }
    };
    Ok(Cue {
        to: find_clip(character, to)?,
        start_secs,
        spec,
    })
}
