//! `skinscope palette`: the skin palettes (and every joint's and mesh node's world transform) of
//! a posed frame, as text or JSON; the pose as it leaves one stage of the frame (`--stage`); or
//! joints' motion paths over a range of clip time (`--motion-path`).

use skinscope::character::Character;
use skinscope::debug::export::{self, MotionPathExport};
use skinscope::pose::{CharacterPose, MotionPath, PoseRequest, Stage, StagePoses};

use super::args::{PoseArgs, parse_finite};
use super::out;

#[derive(clap::Args, Clone, Debug)]
pub struct PaletteArgs {
    #[command(flatten)]
    pub pose: PoseArgs,
    #[arg(long)]
    pub json: bool,
    /// The pose as it leaves this stage of the frame, its palettes composed from it: raw,
    /// root-motion, transition, external, layers, reach-ik, foot-ik or physics (the last is the
    /// frame's pose before the pose drivers).
    #[arg(long, value_parser = parse_stage, conflicts_with_all = ["motion_path", "replay"])]
    pub stage: Option<Stage>,
    /// Print these joints' paths instead (JOINT[,JOINT...], by name or index): each joint's
    /// world_from_joint at every --step from --from to --to in clip time, each time posed as
    /// --time would pose it, and at each key of the joint or an ancestor in the range.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["time", "simulate", "replay"])]
    pub motion_path: Vec<String>,
    /// The path's first clip time in seconds (default 0).
    #[arg(long, requires = "motion_path", value_parser = parse_finite, allow_negative_numbers = true)]
    pub from: Option<f32>,
    /// The path's last clip time in seconds (default: the clip's duration).
    #[arg(long, requires = "motion_path", value_parser = parse_finite, allow_negative_numbers = true)]
    pub to: Option<f32>,
    /// Seconds between the path's samples (default 1/30).
    #[arg(long, requires = "motion_path", value_parser = parse_finite, allow_negative_numbers = true)]
    pub step: Option<f32>,
}

/// `--stage`'s names.
pub fn parse_stage(s: &str) -> Result<Stage, String> {
    Stage::parse(s).ok_or_else(|| format!("no stage {s:?}: the stages are {}", Stage::names()))
}

pub fn run(args: &PaletteArgs) -> Result<(), String> {
    if !args.motion_path.is_empty() {
        return motion_path(args);
    }
    let posing = args.pose.load()?;
    let c = &posing.character;
    let mut pose = CharacterPose::new(c);
    let posed = match args.stage {
        None => pose
            .evaluate(c, &posing.request)
            .and_then(|()| match &posing.recorded {
                Some(recorded) => pose.restore(c, recorded, &posing.request),
                None => Ok(()),
            }),
        Some(stage) => {
            let mut stages = StagePoses::new();
            pose.evaluate_watched(c, &posing.request, &mut stages)
                .and_then(|()| match stages.local(stage) {
                    Some(local) => pose.compose_local(c, &local.clone(), posing.request.palette),
                    None => Ok(()),
                })
        }
    };
    posed.map_err(|e| e.to_string())?;
    if let Some(why) = pose.non_finite(c) {
        return Err(format!("the palettes are not written: {why}"));
    }
    let mut exported = export::palettes(c, &pose, &posing.request);
    exported.motion_matching = posing.matching.clone();
    exported.stage = args.stage.map(|s| s.name().to_string());
    if let Some(file) = &posing.file {
        // The path as the user gave it, not just its file name.
        exported.file = file.display().to_string();
    }
    out::json_or_text(args.json, &exported, export::PaletteExport::to_text)
}

/// A failure posing one of a path's frames.
struct Failed(String);

impl From<skinscope::anim::PoseError> for Failed {
    fn from(e: skinscope::anim::PoseError) -> Self {
        Failed(e.to_string())
    }
}

/// Joints' paths, the clip whose keys they mark and the range they span.
pub struct Paths {
    pub paths: Vec<MotionPath>,
    pub clip: Option<usize>,
    /// From, to and step, in seconds of clip time.
    pub range: (f32, f32, f32),
}

/// The joints' paths `args` ask for, posed on `c` (as `args` load it).
pub fn paths_of(
    c: &Character,
    args: &PoseArgs,
    joints: &[String],
    (from, to, step): (Option<f32>, Option<f32>, Option<f32>),
) -> Result<Paths, String> {
    let joints = joints
        .iter()
        .map(|key| super::values::find_joint(c, key, "--motion-path"))
        .collect::<Result<Vec<_>, _>>()?;
    let clip = args
        .performance(c)?
        .inputs
        .clip
        .filter(|&k| k < c.clips.len());
    let from = from.unwrap_or(0.0);
    let to = to.unwrap_or_else(|| clip.map_or(0.0, |k| c.clips[k].duration_secs()));
    let step = step.unwrap_or(1.0 / 30.0);
    let times =
        skinscope::pose::path_times(from, to, step).map_err(|e| format!("--motion-path: {e}"))?;
    let keys: Vec<Vec<f32>> = (joints.iter())
        .map(|&j| clip.map_or_else(Vec::new, |k| skinscope::pose::key_times(c, k, j, from, to)))
        .collect();
    let request_at =
        |t: f32| -> Result<PoseRequest, Failed> { args.request_at(c, t).map_err(Failed) };
    let paths = skinscope::pose::motion_paths(c, &joints, &times, &keys, request_at)
        .map_err(|Failed(e)| e)?;
    if let Some(bad) = paths
        .iter()
        .flat_map(|p| p.samples.iter().chain(&p.keys))
        .find(|s| !s.world_from_joint.is_finite())
    {
        return Err(format!(
            "--motion-path: the pose at {} s is not finite",
            bad.time_secs
        ));
    }
    Ok(Paths {
        paths,
        clip,
        range: (from, to, step),
    })
}

fn motion_path(args: &PaletteArgs) -> Result<(), String> {
    let range = (args.from, args.to, args.step);
    let c = args.pose.load_character()?;
    let found = paths_of(&c, &args.pose, &args.motion_path, range)?;
    let mut exported = MotionPathExport::new(&c, found.clip, found.range, &found.paths);
    if let Some(file) = &args.pose.file {
        exported.file = file.display().to_string();
    }
    out::json_or_text(args.json, &exported, MotionPathExport::to_text)
}
