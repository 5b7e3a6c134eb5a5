//! The arguments shared by the posing subcommands (`render`, `pose`, `palette`, `check`) and the
//! value parsers. One clap struct, so every command poses a file the same way.

use std::path::PathBuf;

use clap::ValueEnum;
use glam::Vec3;
use skinscope::character::Character;
use skinscope::import;
use std::sync::Arc;

use skinscope::anim::{Chain, JointMask, TwoBoneSettings, default_root_joint};
use skinscope::graph::{
    ClipStep, FootPlanter, Graph, Locomotion, Machine, MoveMode, ParamKind, SIMULATION_HZ,
};
use skinscope::pose::{
    CharacterPose, ClipTime, IkTarget, Inertial, LayerKind, MorphOverride, PaletteMode, PoseLayer,
    PoseRequest, TimeWrap, Transition, TransitionKind, clip_time, in_step_time,
};
use skinscope::scene::Ground;

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
    #[arg(long, default_value_t = 0.0, value_parser = parse_finite, allow_negative_numbers = true)]
    pub time: f32,
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
    /// Run the state machine from t = 0 at a fixed 60 Hz for SECS and pose its last frame
    /// (the clip and time options are then unused).
    #[arg(long, value_parser = parse_simulate, allow_hyphen_values = true)]
    pub simulate: Option<f32>,
    /// Root motion: authored (left in the pose), in-place (removed) or applied (removed and
    /// moving the character, integrated from t = 0 at 60 Hz to the clip time).
    #[arg(long, value_enum)]
    pub root_motion: Option<RootMotionArg>,
    /// The root-motion joint (default: the topmost joint a clip translates).
    #[arg(long)]
    pub root_motion_joint: Option<String>,
    /// Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint
    /// brought to the world-space target, bending toward the pole (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub ik: Vec<String>,
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
    /// Linear blend skinning or dual-quaternion skinning.
    #[arg(long, value_enum, default_value = "lbs")]
    pub skinning: SkinningArg,
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
}

impl From<SkinningArg> for skinscope::anim::Skinning {
    fn from(s: SkinningArg) -> Self {
        match s {
            SkinningArg::Lbs => Self::Linear,
            SkinningArg::Dqs => Self::DualQuaternion,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum RootMotionArg {
    Authored,
    InPlace,
    Applied,
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
    /// The path as given (`None`: the built-in character).
    pub file: Option<PathBuf>,
}

impl PoseArgs {
    /// Loads the file (the scene asked for) and builds the request.
    pub fn load(&self) -> Result<Posing, String> {
        let mut character = match &self.file {
            Some(file) => import::load(file),
            None => skinscope::builtin::character(),
        }
        .map_err(|e| e.to_string())?;
        if let Some(key) = &self.scene {
            let scene = find_scene(&character, key)?;
            if scene != character.scene {
                let Some(file) = &self.file else {
                    return Err("the built-in character has one scene".into());
                };
                let options = import::LoadOptions { scene: Some(scene) };
                character = import::load_with(file, options).map_err(|e| e.to_string())?;
            }
        }
        if self.compressed {
            let settings = skinscope::pose::compression_settings(&character, None);
            skinscope::pose::compress_clips(&mut character, &settings);
        }
        let extras = PoseRequest {
            layers: self.layers(&character)?,
            ik: self.ik_targets(&character)?,
            ..PoseRequest::default()
        };
        let source = match self.machine(&character)? {
            Some((machine, steps)) => Source::Graph { machine, steps },
            None => Source::Clip(self.request(&character)?),
        };
        let mut request = self.locomote(&character, source, &extras)?;
        request.morph_overrides = self
            .morph
            .iter()
            .map(|spec| parse_morph(&character, spec))
            .collect::<Result<_, _>>()?;
        Ok(Posing {
            character,
            request,
            file: self.file.clone(),
        })
    }

    /// The request these arguments describe for `character`.
    pub fn request(&self, character: &Character) -> Result<PoseRequest, String> {
        let clip = match &self.clip {
            Some(key) => Some(find_clip(character, key)?),
            None => (!character.clips.is_empty()).then_some(0),
        };
        let mut request = PoseRequest {
            clip: clip.map(|clip| ClipTime {
                clip,
                time_secs: self.time,
            }),
            palette: self.palette.into(),
            compressed: self.compressed,
            ..PoseRequest::default()
        };
        if let Some(spec) = &self.blend {
            let (key, weight) = spec
                .rsplit_once(':')
                .ok_or_else(|| format!("--blend {spec:?} is not CLIP:WEIGHT"))?;
            let weight = parse_finite(weight)?;
            if !(0.0..=1.0).contains(&weight) {
                return Err(format!("--blend weight {weight} is outside 0..1"));
            }
            if clip.is_none() {
                return Err("--blend needs a first clip, and the file has none".into());
            }
            request = request.with_blend(find_clip(character, key)?, weight);
        }
        if let Some(spec) = &self.transition {
            let Some(from) = request.clip else {
                return Err("--transition needs a first clip, and the file has none".into());
            };
            apply_transition(character, spec, from, &mut request)?;
        }
        Ok(request)
    }

    /// The state machine these arguments ask for, its parameters set at t = 0, and how many 60 Hz
    /// steps `--simulate` runs it (`None` without `--graph` or `--simulate`).
    pub fn machine(&self, character: &Character) -> Result<Option<(Machine, usize)>, String> {
        if self.graph.is_none() && self.simulate.is_none() {
            if !self.param.is_empty() {
                return Err(
                    "--param sets a state machine parameter: give --graph or --simulate".into(),
                );
            }
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
        let secs = self.simulate.unwrap_or(0.0);
        if secs < 0.0 {
            return Err(format!("--simulate {secs} must not be negative"));
        }
        if self.simulate.is_none() {
            eprintln!(
                "skinscope: note: --graph without --simulate poses the state machine's first frame (t = 0, its parameters as given); --simulate SECS runs it"
            );
        }
        let mut machine = Machine::new(character, graph);
        for (p, v) in params {
            machine.set(p, v);
        }
        let steps = (secs * SIMULATION_HZ).round() as usize;
        Ok(Some((machine, steps)))
    }

    /// The `--layer` and `--additive` layers, at `--time`.
    fn layers(&self, character: &Character) -> Result<Vec<PoseLayer>, String> {
        let at = |clip| ClipTime {
            clip,
            time_secs: self.time,
        };
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
            layers.push(PoseLayer {
                clip: at(find_clip(character, clip)?),
                weight,
                mask: Some(Arc::new(JointMask::from_roots(&character.skeleton, &roots))),
                kind: LayerKind::Override { fading_out: None },
            });
        }
        for spec in &self.additive {
            let (clip, weight) = spec
                .rsplit_once(':')
                .ok_or_else(|| format!("--additive {spec:?} is not CLIP:WEIGHT"))?;
            let clip = find_clip(character, clip)?;
            layers.push(PoseLayer {
                clip: at(clip),
                weight: parse_range(weight, "--additive weight", WEIGHT_RANGE)?,
                mask: None,
                kind: LayerKind::Additive {
                    reference: ClipTime {
                        clip,
                        time_secs: 0.0,
                    },
                },
            });
        }
        Ok(layers)
    }
}

impl PoseArgs {
    /// The `--ik` targets.
    fn ik_targets(&self, character: &Character) -> Result<Vec<IkTarget>, String> {
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
                let chain = Chain::ending_at(&character.skeleton, end).ok_or_else(|| {
                    format!("--ik {spec:?}: {name:?} has no parent and grandparent to bend")
                })?;
                Ok(IkTarget {
                    chain,
                    target,
                    pole,
                    settings: TwoBoneSettings::default(),
                })
            })
            .collect()
    }

    /// The frame to pose: the clip request, or the state machine run for its steps, with the
    /// `--layer`, `--additive` and `--ik` extras; with `--root-motion` or `--ground`, the
    /// character integrated from t = 0 at 60 Hz (root travel applied, planted feet held) and the
    /// last frame given its placement, root-motion stage and foot IK.
    fn locomote(
        &self,
        character: &Character,
        mut source: Source,
        extras: &PoseRequest,
    ) -> Result<PoseRequest, String> {
        let mode = match self.root_motion {
            None | Some(RootMotionArg::Authored) => MoveMode::Authored,
            Some(RootMotionArg::InPlace) => MoveMode::InPlace,
            Some(RootMotionArg::Applied) => MoveMode::Applied,
        };
        let (palette, compressed) = (self.palette.into(), self.compressed);
        let with_extras = |mut r: PoseRequest| {
            r.layers.extend(extras.layers.iter().cloned());
            r.ik.extend(extras.ik.iter().copied());
            r
        };
        if mode == MoveMode::Authored && self.ground.is_none() {
            if let Source::Clip(r) = source {
                return Ok(with_extras(r));
            }
            let frames = source.frames();
            let mut progress = super::out::Progress::new("simulating", frames);
            for k in 1..=frames {
                source.advance(character, k);
                progress.tick(k);
            }
            return Ok(with_extras(
                source.request(character, frames, palette, compressed),
            ));
        }
        let joint = match &self.root_motion_joint {
            Some(name) => character.skeleton.find(name).ok_or_else(|| {
                format!(
                    "--root-motion-joint: no joint {name:?} in {}",
                    character.name
                )
            })?,
            None => match default_root_joint(
                &character.skeleton,
                character.clips.iter().map(|k| &k.clip),
            ) {
                Some(j) => j,
                None if mode == MoveMode::Authored => 0,
                None => {
                    return Err(format!(
                        "no clip of {} translates a joint: give --root-motion-joint",
                        character.name
                    ));
                }
            },
        };
        let ground = match &self.ground {
            Some(path) => Arc::new(Ground::load(path).map_err(|e| e.to_string())?),
            None => Arc::new(Ground::flat(0.0)),
        };
        let height = skinscope::pose::character_height(character);
        let mut locomotion =
            Locomotion::new(joint, ground.clone(), Locomotion::settings_for(height));
        locomotion.mode = mode;
        // Planted feet are held only while the character travels: a clip played in place
        // slides its planted feet back by design, and holding them would fight it.
        let mut planter = self.ground.as_ref().map(|_| {
            let mut p = FootPlanter::new(character, skinscope::pose::find_legs(character));
            p.lock = mode == MoveMode::Applied;
            p
        });
        let placed = |r: PoseRequest, locomotion: &Locomotion, planter: &Option<FootPlanter>| {
            let mut r = with_extras(r);
            r.placement = locomotion.placement();
            r.root_motion = locomotion.root_motion();
            r.feet = planter.as_ref().map(|p| p.foot_ik(ground.clone(), 1.0));
            r
        };
        if self.time.abs() > MAX_INTEGRATED_SECS && matches!(source, Source::Clip(_)) {
            return Err(format!(
                "--time {} with --root-motion or --ground integrates from 0 s at 60 Hz: at most {MAX_INTEGRATED_SECS} s",
                self.time
            ));
        }
        let frames = source.frames();
        let mut progress = super::out::Progress::new("integrating", frames);
        let mut pose = CharacterPose::new(character);
        for k in 0..=frames {
            progress.tick(k);
            if k > 0 {
                let parts = source.advance(character, k);
                locomotion.apply_root_motion(character, &parts);
            }
            let r = placed(
                source.request(character, k, palette, compressed),
                &locomotion,
                &planter,
            );
            if k == frames {
                return Ok(r);
            }
            if let (Some(p), Some(main)) = (planter.as_mut(), r.clip) {
                pose.evaluate(character, &r).map_err(|e| e.to_string())?;
                let t = clip_time(character, main, TimeWrap::Loop);
                let contacts = p.contacts(character, main.clip, t);
                p.update(&contacts, &pose);
            }
        }
        unreachable!("the loop returns at its last frame")
    }
}

/// What the posing commands play, frame by frame from t = 0 at 60 Hz: a clip request (its time
/// reached in `frames` steps) or a state machine run for its steps.
pub enum Source {
    Clip(PoseRequest),
    Graph { machine: Machine, steps: usize },
}

impl Source {
    /// How many 60 Hz steps lead to the frame posed.
    fn frames(&self) -> usize {
        match self {
            Source::Clip(r) => r
                .clip
                .map_or(0, |m| (m.time_secs.abs() * SIMULATION_HZ).round() as usize),
            Source::Graph { steps, .. } => *steps,
        }
    }

    /// The clip time of frame `k` of a clip request.
    fn time_at(r: &PoseRequest, frames: usize, k: usize) -> f32 {
        let t = r.clip.map_or(0.0, |m| m.time_secs);
        if frames == 0 || k >= frames {
            // The last frame is at the time asked for, exactly.
            t
        } else {
            t * k as f32 / frames as f32
        }
    }

    /// Takes step `k` (from frame k - 1 to k) and returns the steps of the clips root motion
    /// comes from, with their weights.
    fn advance(&mut self, character: &Character, k: usize) -> Vec<(ClipStep, f32)> {
        let frames = self.frames();
        match self {
            Source::Graph { machine, .. } => {
                machine.advance(character, 1.0 / SIMULATION_HZ);
                machine.motion_parts()
            }
            Source::Clip(r) => {
                let Some(main) = r.clip else {
                    return Vec::new();
                };
                let (t0, t1) = (Self::time_at(r, frames, k - 1), Self::time_at(r, frames, k));
                let step = |clip: usize, scale: f32| ClipStep {
                    clip,
                    step: skinscope::anim::Step {
                        from_secs: t0 * scale,
                        to_secs: t1 * scale,
                    },
                    mode: skinscope::anim::PlaybackMode::Loop,
                };
                match r.blend {
                    Some(b) => {
                        let ratio = in_step_time(character, main.clip, 1.0, b.b);
                        vec![
                            (step(main.clip, 1.0), 1.0 - b.weight),
                            (step(b.b, ratio), b.weight),
                        ]
                    }
                    None => vec![(step(main.clip, 1.0), 1.0)],
                }
            }
        }
    }

    /// Frame `k`'s request.
    fn request(
        &self,
        character: &Character,
        k: usize,
        palette: PaletteMode,
        compressed: bool,
    ) -> PoseRequest {
        match self {
            Source::Graph { machine, .. } => machine.request(character, palette, compressed),
            Source::Clip(r) => {
                let t = Self::time_at(r, self.frames(), k);
                let mut r = r.clone();
                if let Some(main) = r.clip.as_mut() {
                    main.time_secs = t;
                }
                r
            }
        }
    }
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

/// `TO_CLIP@START_SECS:DURATION_SECS[:inertialize]` over `request`, whose main clip `from` has
/// played from 0: at `--time` the incoming clip has played `time - START` seconds.
fn apply_transition(
    character: &Character,
    spec: &str,
    from: ClipTime,
    request: &mut PoseRequest,
) -> Result<(), String> {
    let bad =
        || format!("--transition {spec:?} is not TO_CLIP@START_SECS:DURATION_SECS[:inertialize]");
    let (to, rest) = spec.rsplit_once('@').ok_or_else(bad)?;
    let mut parts = rest.split(':');
    let start = parse_finite(parts.next().ok_or_else(bad)?)?;
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
    let to = find_clip(character, to)?;
    let elapsed = from.time_secs - start;
    if elapsed < 0.0 {
        return Ok(());
    }
    let from_blend = request.blend.take();
    request.clip = Some(ClipTime {
        clip: to,
        time_secs: elapsed,
    });
    let kind = if inertialize {
        let at_switch = ClipTime {
            time_secs: start,
            ..from
        };
        let inertial = Inertial {
            to: ClipTime {
                clip: to,
                time_secs: 0.0,
            },
            to_blend: None,
            from_rate: 1.0,
            to_rate: 1.0,
            half_life_secs: duration,
            elapsed_secs: elapsed,
        };
        request.transition = Some(Transition {
            from: at_switch,
            from_blend,
            kind: TransitionKind::Inertialize(inertial),
        });
        return Ok(());
    } else if duration > 0.0 && elapsed < duration {
        TransitionKind::Crossfade {
            weight: elapsed / duration,
        }
    } else {
        return Ok(());
    };
    request.transition = Some(Transition {
        from,
        from_blend,
        kind,
    });
    Ok(())
}

/// Additive layer and morph target weights: Blender's shape-key slider limits, -10..=10.
const WEIGHT_RANGE: (f32, f32) = (-10.0, 10.0);
/// World-space points given on the command line (`--ik` targets and poles): within a million
/// units of the origin.
pub const MAX_COORDINATE: f32 = 1e6;

fn parse_range(s: &str, what: &str, (low, high): (f32, f32)) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if (low..=high).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{what} {v} is outside {low}..={high}"))
    }
}

/// A world-space point within `MAX_COORDINATE` of the origin.
fn parse_point(s: &str, what: &str) -> Result<Vec3, String> {
    let v = parse_vec3(s)?;
    if v.abs().max_element() <= MAX_COORDINATE {
        Ok(v)
    } else {
        Err(format!(
            "{what} {s:?} is farther than {MAX_COORDINATE} from the origin on an axis"
        ))
    }
}

fn parse_unit(s: &str, what: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{what} {v} is outside 0..1"))
    }
}

/// `MESH:TARGET=WEIGHT`, mesh and target by name (`mesh.extras.targetNames`) or index.
fn parse_morph(character: &Character, spec: &str) -> Result<MorphOverride, String> {
    let bad = || format!("--morph {spec:?} is not MESH:TARGET=WEIGHT");
    let (target_at, weight) = spec.rsplit_once('=').ok_or_else(bad)?;
    let (mesh_key, target_key) = target_at.rsplit_once(':').ok_or_else(bad)?;
    let weight = parse_range(weight, "--morph weight", WEIGHT_RANGE)?;
    let mesh = character
        .meshes
        .iter()
        .find(|m| m.name == mesh_key)
        .or_else(|| {
            let index: usize = mesh_key.parse().ok()?;
            character.meshes.iter().find(|m| m.index == index)
        })
        .ok_or_else(|| {
            let names: Vec<String> = character
                .meshes
                .iter()
                .filter(|m| !m.target_names.is_empty())
                .map(|m| format!("{}: {:?}", m.index, m.name))
                .collect();
            format!(
                "--morph {spec:?}: no mesh {mesh_key:?}; the meshes with morph targets are {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )
        })?;
    let target = mesh
        .target_names
        .iter()
        .position(|n| n == target_key)
        .or_else(|| {
            target_key
                .parse()
                .ok()
                .filter(|&t| t < mesh.target_names.len())
        })
        .ok_or_else(|| {
            format!(
                "--morph {spec:?}: mesh {:?} has no target {target_key:?}; its targets are {}",
                mesh.name,
                mesh.target_names.join(", ")
            )
        })?;
    Ok(MorphOverride {
        mesh: mesh.index,
        target,
        weight,
    })
}

/// A scene by name, or by index when no scene has that name.
fn find_scene(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.scenes.iter().position(|s| s == key) {
        return Ok(i);
    }
    match key.parse::<usize>() {
        Ok(i) if i < character.scenes.len() => Ok(i),
        _ => Err(format!(
            "no scene {key:?} in {}; its scenes are {}",
            character.name,
            character.scenes.join(", ")
        )),
    }
}

/// A camera of the displayed scene by name, or by glTF camera index (`/cameras/N`) when none
/// has that name: its position in `Character::cameras`.
pub fn find_camera(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.cameras.iter().position(|c| c.name == key) {
        return Ok(i);
    }
    let by_index = key
        .parse::<usize>()
        .ok()
        .and_then(|n| character.cameras.iter().position(|c| c.index == n));
    match by_index {
        Some(i) => Ok(i),
        None => {
            let names: Vec<String> = character
                .cameras
                .iter()
                .map(|c| format!("{}: {:?}", c.index, c.name))
                .collect();
            Err(format!(
                "no camera {key:?} in {}'s scene; its cameras are {}",
                character.name,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        }
    }
}

/// A clip by name, or by index when no clip has that name.
pub fn find_clip(character: &Character, key: &str) -> Result<usize, String> {
    if let Some(i) = character.clips.iter().position(|c| c.clip.name() == key) {
        return Ok(i);
    }
    match key.trim().parse::<i64>() {
        Ok(i) if (0..character.clips.len() as i64).contains(&i) => Ok(i as usize),
        Ok(i) if character.clips.is_empty() => {
            Err(format!("clip index {i}: {} has no clips", character.name))
        }
        Ok(i) => Err(format!(
            "clip index {i} is outside 0..={} (the clips of {})",
            character.clips.len() - 1,
            character.name
        )),
        Err(_) => {
            let names: Vec<String> = character
                .clips
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {:?}", c.clip.name()))
                .collect();
            Err(format!(
                "no clip {key:?} in {}; its clips are {}",
                character.name,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        }
    }
}

pub fn parse_finite(s: &str) -> Result<f32, String> {
    let v: f32 = s
        .trim()
        .parse()
        .map_err(|e| format!("{s:?} is not a number: {e}"))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{s} is not a finite number"))
    }
}

/// An image path to write (`render --out`, `--screenshot`): `.png`, `.jpg` or `.jpeg`.
pub fn parse_image_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match skinscope::render::offscreen::image_format(&path) {
        Some(_) => Ok(path),
        None => Err(format!("{s:?}: the image must end in .png, .jpg or .jpeg")),
    }
}

/// The window's `--frames`: a whole number of at least 1.
pub fn parse_frames(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 => Ok(n as u64),
        Ok(n) => Err(format!("{n} frames: draw at least 1")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// The most seconds the command line integrates from 0 at 60 Hz (`--simulate`, and `--time`
/// under root motion or a ground): ten minutes, 36,000 steps.
pub const MAX_INTEGRATED_SECS: f32 = 600.0;

fn parse_simulate(s: &str) -> Result<f32, String> {
    let v = parse_non_negative(s)?;
    if v <= MAX_INTEGRATED_SECS {
        Ok(v)
    } else {
        Err(format!(
            "{s} s is more than the {MAX_INTEGRATED_SECS} s the state machine is run for (36,000 steps at 60 Hz)"
        ))
    }
}

pub fn parse_non_negative(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must not be negative"))
    }
}

pub fn parse_positive(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be greater than 0"))
    }
}

pub fn parse_fov(s: &str) -> Result<f32, String> {
    let v = parse_finite(s)?;
    if v > 0.0 && v < 180.0 {
        Ok(v)
    } else {
        Err(format!("{s} must be between 0 and 180 degrees"))
    }
}

pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?} is not WIDTHxHEIGHT"))?;
    let dim = |d: &str| -> Result<u32, String> {
        let v: u32 = d
            .trim()
            .parse()
            .map_err(|_| format!("{d:?} in {s:?} is not a positive whole number"))?;
        if (1..=8192).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{v} in {s:?} is outside 1..8192"))
        }
    };
    Ok((dim(w)?, dim(h)?))
}

fn parse_numbers<const N: usize>(s: &str) -> Result<[f32; N], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != N {
        return Err(format!("{s:?} needs {N} comma-separated numbers"));
    }
    let mut out = [0.0; N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = parse_finite(p)?;
    }
    Ok(out)
}

pub fn parse_vec3(s: &str) -> Result<Vec3, String> {
    parse_numbers::<3>(s).map(Vec3::from)
}

pub fn parse_rgb(s: &str) -> Result<[u8; 3], String> {
    let v = parse_numbers::<3>(s)?;
    let mut out = [0u8; 3];
    for (o, c) in out.iter_mut().zip(v) {
        if !(0.0..=255.0).contains(&c) || c.fract() != 0.0 {
            return Err(format!("{c} in {s:?} is not a whole number in 0..255"));
        }
        *o = c as u8;
    }
    Ok(out)
}
