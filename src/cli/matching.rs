//! The motion-matching options: `--motion-matching` steers the character along `--path`'s
//! goal velocities through a database of its clips (built from `--match-clips` with
//! `--match-weight`, or read from `--motion-db`), stepped at 60 Hz through `--simulate`; and
//! `skinscope match-db`, which builds and saves one.

use std::path::{Path, PathBuf};

use glam::Vec3;
use serde_json::Value;
use skinscope::character::Character;
use skinscope::perform::{Inputs, MatchInput, Performer};
use skinscope::pose::{FeatureJoints, MatchWeights, MotionDatabase};

use super::values::parse_finite;

/// The fastest goal velocity a path may ask for, in the character's heights a second (a sprint
/// is about 5): the cap scales with the character, so a Fox 78 units tall may walk at its own
/// 110 units a second.
const MAX_SPEED_HEIGHTS: f32 = 10.0;
/// The most keys a path holds.
const MAX_KEYS: usize = 100_000;

/// How a database is built: which clips, with which weights.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DbArgs {
    /// The clips motion matching searches: names or indices, comma-separated (default: the
    /// built-in character's locomotion clips, or every clip of a file).
    #[arg(long)]
    pub match_clips: Option<String>,
    /// A feature group's weight: GROUP=W, GROUP one of foot-position, foot-velocity,
    /// hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1,
    /// 1, 1, 1.5).
    #[arg(long)]
    pub match_weight: Vec<String>,
    /// The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot
    /// IK finds and their common ancestor).
    #[arg(long)]
    pub match_joints: Option<String>,
}

#[derive(clap::Args, Clone, Debug, Default)]
pub struct MatchArgs {
    /// Motion matching chooses what plays: every 0.1 s the database frame nearest the current
    /// pose and the goal trajectory, switched to by inertialization, root motion applied.
    /// Needs --simulate (it steps at 60 Hz); the goal comes from --path (default: stand).
    #[arg(long)]
    pub motion_matching: bool,
    /// The goal: a JSON file {"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, ...]}, the desired
    /// world velocity held from each key's time to the next.
    #[arg(long, requires = "motion_matching")]
    pub path: Option<PathBuf>,
    /// A database saved by `skinscope match-db` instead of building one.
    #[arg(long, requires = "motion_matching")]
    pub motion_db: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Write every search of the run to this JSON file: its ten best candidates with their
    /// clip, frame, time, cost and each feature group's share of it, the frame playing and
    /// its cost, which was chosen, and why the playing one was kept or left.
    #[arg(long, requires = "motion_matching")]
    pub match_report: Option<PathBuf>,
}

/// A goal path: desired world velocities, each held from its time to the next key's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoalPath {
    pub keys: Vec<(f32, Vec3)>,
}

impl GoalPath {
    /// The desired velocity at run time `t` (zero before the first key).
    pub fn velocity_at(&self, t: f32) -> Vec3 {
        let k = self.keys.partition_point(|(at, _)| *at <= t + 1e-6);
        k.checked_sub(1).map_or(Vec3::ZERO, |k| self.keys[k].1)
    }

    /// Reads a path file for a character `height` tall, naming the file and the JSON pointer
    /// of what is wrong.
    pub fn read(path: &Path, height: f32) -> Result<Self, String> {
        let text = skinscope::files::read_text_capped(path, 16 << 20)
            .map_err(|e| format!("--path {}: {e}", path.display()))?;
        Self::parse(&text, height).map_err(|e| format!("--path {}: {e}", path.display()))
    }

    /// A path's keys for a character `height` tall (its speeds within `MAX_SPEED_HEIGHTS`).
    pub fn parse(text: &str, height: f32) -> Result<Self, String> {
        let max_speed = MAX_SPEED_HEIGHTS * height;
        let json: Value = serde_json::from_str(text)
            .map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))?;
        let keys = json
            .get("keys")
            .and_then(Value::as_array)
            .ok_or("/keys: expected an array of {\"t\": SECS, \"velocity\": [X, Y, Z]}")?;
        if keys.len() > MAX_KEYS {
            return Err(format!("/keys: {} keys, more than {MAX_KEYS}", keys.len()));
        }
        let mut out = Vec::with_capacity(keys.len());
        for (i, key) in keys.iter().enumerate() {
            let t = key
                .get("t")
                .and_then(Value::as_f64)
                .filter(|t| t.is_finite() && *t >= 0.0)
                .ok_or(format!(
                    "/keys/{i}/t: expected a time in seconds, 0 or more"
                ))? as f32;
            let v = key
                .get("velocity")
                .and_then(Value::as_array)
                .filter(|v| v.len() == 3)
                .ok_or(format!("/keys/{i}/velocity: expected [X, Y, Z]"))?;
            let mut xyz = [0.0f32; 3];
            for (a, x) in v.iter().enumerate() {
                xyz[a] = x
                    .as_f64()
                    .map(|x| x as f32)
                    .filter(|x| x.is_finite() && x.abs() <= max_speed)
                    .ok_or(format!(
                        "/keys/{i}/velocity/{a}: expected a finite speed within {max_speed} \
                         ({MAX_SPEED_HEIGHTS} of the character's heights a second)"
                    ))?;
            }
            if let Some(&(before, _)) = out.last()
                && t < before
            {
                return Err(format!(
                    "/keys/{i}/t: {t} comes before the key before it ({before}): keys go in time order"
                ));
            }
            out.push((t, Vec3::from(xyz)));
        }
        Ok(Self { keys: out })
    }
}

impl DbArgs {
    /// Whether any of these options is given.
    fn given(&self) -> bool {
        self.match_clips.is_some() || !self.match_weight.is_empty() || self.match_joints.is_some()
    }

    /// The clips named (default: the character's motion clips).
    pub fn clips(&self, c: &Character) -> Result<Vec<usize>, String> {
        match &self.match_clips {
            None => Ok(skinscope::builtin::motion_clips(c)),
            Some(list) => list
                .split(',')
                .map(|key| super::values::find_clip(c, key.trim()))
                .collect(),
        }
    }

    pub fn weights(&self) -> Result<MatchWeights, String> {
        let mut w = MatchWeights::default();
        for spec in &self.match_weight {
            let (group, value) = spec
                .split_once('=')
                .ok_or_else(|| format!("--match-weight {spec:?} is not GROUP=W"))?;
            let value = parse_finite(value)?;
            if value < 0.0 {
                return Err(format!(
                    "--match-weight {spec:?}: the weight must not be negative"
                ));
            }
            let slot = match group {
                "foot-position" => &mut w.foot_position,
                "foot-velocity" => &mut w.foot_velocity,
                "hips-velocity" => &mut w.hips_velocity,
                "trajectory-position" => &mut w.trajectory_position,
                "trajectory-direction" => &mut w.trajectory_direction,
                _ => {
                    return Err(format!(
                        "--match-weight {spec:?}: no group {group:?} (foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction)"
                    ));
                }
            };
            *slot = value;
        }
        Ok(w)
    }

    /// `--match-joints`, found in `c`.
    pub fn joints(&self, c: &Character) -> Result<Option<FeatureJoints>, String> {
        let Some(spec) = &self.match_joints else {
            return Ok(None);
        };
        let names: Vec<&str> = spec.split(',').map(str::trim).collect();
        let [l, r, h] = names.as_slice() else {
            return Err(format!(
                "--match-joints {spec:?} is not LEFT_FOOT,RIGHT_FOOT,HIPS"
            ));
        };
        let find = |name: &str| {
            c.skeleton
                .find(name)
                .ok_or_else(|| format!("--match-joints: no joint {name:?} in {}", c.name))
        };
        let (l, r, h) = (find(l)?, find(r)?, find(h)?);
        if l == r || l == h || r == h {
            return Err(format!("--match-joints {spec:?} names a joint twice"));
        }
        Ok(Some(FeatureJoints::named(c, l, r, h)))
    }

    /// The database of `c` these options describe, built.
    pub fn build(&self, c: &Character) -> Result<MotionDatabase, String> {
        let clips = self.clips(c)?;
        let weights = self.weights()?;
        let joints = self.joints(c)?;
        let mut progress = super::out::Progress::new("measuring features", 1);
        let mut tick = |done: usize, total: usize| {
            progress.set_total(total);
            progress.tick(done);
        };
        skinscope::pose::build_database_with(c, (&clips, &weights, joints), &mut tick)
            .map_err(|e| e.to_string())
    }
}

impl MatchArgs {
    /// Refuses motion matching with the options it replaces or outside a simulated run.
    pub fn check(&self, simulated: bool, others: &[(&str, bool)]) -> Result<(), String> {
        if !self.motion_matching {
            if self.db.given() {
                return Err("--match-clips, --match-weight and --match-joints build motion matching's database: give --motion-matching".into());
            }
            return Ok(());
        }
        if !simulated {
            return Err(
                "--motion-matching searches every 0.1 s of a run at 60 Hz: give --simulate SECS"
                    .into(),
            );
        }
        if let Some((name, _)) = others.iter().find(|(_, given)| *given) {
            return Err(format!(
                "--motion-matching chooses what plays, with root motion applied: it cannot take {name}"
            ));
        }
        if self.motion_db.is_some()
            && (self.db.match_clips.is_some() || !self.db.match_weight.is_empty())
        {
            return Err(
                "--motion-db is built already: --match-clips and --match-weight build one".into(),
            );
        }
        Ok(())
    }

    /// The database: `--motion-db` read (refused for another skeleton), or built.
    pub fn database(&self, c: &Character) -> Result<MotionDatabase, String> {
        match &self.motion_db {
            Some(path) => read_database(path, c),
            None => self.db.build(c),
        }
    }

    /// With `--motion-matching`: the performer given its database and the inputs their first
    /// goal; returns the goal path the run follows.
    pub fn start(
        &self,
        c: &Character,
        performer: &mut Performer,
        inputs: &mut Inputs,
    ) -> Result<Option<GoalPath>, String> {
        if !self.motion_matching {
            return Ok(None);
        }
        if let Some(path) = &self.match_report {
            skinscope::files::check_output(path).map_err(|e| format!("--match-report: {e}"))?;
        }
        let db = self.database(c)?;
        performer.set_motion_database(c, std::sync::Arc::new(db));
        performer.report_searches(self.match_report.is_some());
        let goal = self.goal(skinscope::pose::character_height(c))?;
        inputs.motion_matching = Some(MatchInput {
            velocity: goal.velocity_at(0.0),
        });
        inputs.use_graph = false;
        Ok(Some(goal))
    }

    /// The goal path for a character `height` tall (none: stand still).
    pub fn goal(&self, height: f32) -> Result<GoalPath, String> {
        self.path
            .as_deref()
            .map_or(Ok(GoalPath::default()), |p| GoalPath::read(p, height))
    }
}

/// A saved database read for `c`, naming the file on any problem.
pub fn read_database(path: &Path, c: &Character) -> Result<MotionDatabase, String> {
    // The largest database's bytes, with room for the clip table.
    let limit = (1 << 24) + skinscope::pose::MAX_FRAMES * (skinscope::pose::FEATURES * 4 + 16);
    let bytes = skinscope::files::read_capped(path, limit as u64)
        .map_err(|e| format!("--motion-db {}: {e}", path.display()))?;
    MotionDatabase::from_bytes(&bytes, c)
        .map_err(|e| format!("--motion-db {}: {e}", path.display()))
}

/// `skinscope match-db`: builds the database of a character (with clips from other files) and
/// saves it whole.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchDbArgs {
    /// A .gltf, .glb or .bvh file (default: the built-in character).
    pub file: Option<PathBuf>,
    /// Add clips from another file, retargeted (as the posing commands' --clips-from).
    #[arg(long)]
    pub clips_from: Vec<PathBuf>,
    /// Joint names for --clips-from the conventions do not match (a JSON object).
    #[arg(long)]
    pub retarget_map: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Where to write the database.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn match_db(args: &MatchDbArgs) -> Result<(), String> {
    skinscope::files::check_output(&args.out).map_err(|e| e.to_string())?;
    let mut c = match &args.file {
        Some(file) => super::load_model(file),
        None => skinscope::builtin::character(),
    }
    .map_err(|e| e.to_string())?;
    let map = super::clips::read_retarget_map(args.retarget_map.as_deref())?;
    super::clips::add_clips_from(&mut c, &args.clips_from, map.as_ref())?;
    let db = args.db.build(&c)?;
    skinscope::files::write_bytes_whole(&args.out, &db.to_bytes(&c)).map_err(|e| e.to_string())?;
    let candidates: usize = db.index.ranges().iter().map(|r| r.len()).sum();
    super::out::println(&format!(
        "{}: {} frames ({} candidates) of {} clips, {} features a frame, written to {}",
        c.name,
        db.frames.len(),
        candidates,
        {
            let mut clips: Vec<usize> = db.frames.iter().map(|f| f.clip).collect();
            clips.dedup();
            clips.len()
        },
        skinscope::pose::FEATURES,
        args.out.display()
    ));
    Ok(())
}
