//! Retargeting on the command line: the `--retarget-*` settings every posing command takes with
//! `--clips-from`, `--mocap` and `--mocap-listen`, and `skinscope retarget --from SRC ... --to
//! CHARACTER --out OUT.glb`, which writes the character's file with the retargeted clips added
//! as glTF animations, everything else in the file kept.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use skinscope::anim::{RetargetSettings, RootTravel};
use skinscope::import::{self, RetargetPlan, document::Document};

use super::out;

/// The retarget's settings as posing options (over a `--retarget-map`'s).
#[derive(Args, Clone, Debug, Default)]
pub struct RetargetArgs {
    /// Retarget arms and legs as IK chains (the feet keep their contacts on legs of other
    /// proportions) for --clips-from, --mocap and --mocap-listen.
    #[arg(long)]
    pub retarget_ik_limbs: bool,
    /// Retarget rotations only: every translation, the hips' included, stays the character's
    /// rest.
    #[arg(long)]
    pub retarget_rotation_only: bool,
    /// The hips' travel across the ground: keep, remove (the clip plays in place) or a factor.
    #[arg(long, value_parser = parse_root_motion)]
    pub retarget_root_motion: Option<RootTravel>,
    /// The hips' travel multiplied by this (default: the ratio of the two skeletons' hip
    /// heights).
    #[arg(long, value_parser = parse_scale)]
    pub retarget_motion_scale: Option<f32>,
}

impl RetargetArgs {
    /// Whether any was given.
    pub fn given(&self) -> bool {
        self.retarget_ik_limbs
            || self.retarget_rotation_only
            || self.retarget_root_motion.is_some()
            || self.retarget_motion_scale.is_some()
    }

    /// Sets what was given over `settings`.
    pub fn apply(&self, settings: &mut RetargetSettings) {
        apply(
            settings,
            self.retarget_ik_limbs,
            self.retarget_rotation_only,
            self.retarget_root_motion,
            self.retarget_motion_scale,
        );
    }
}

fn apply(
    settings: &mut RetargetSettings,
    ik_limbs: bool,
    rotation_only: bool,
    root_motion: Option<RootTravel>,
    motion_scale: Option<f32>,
) {
    settings.ik_limbs |= ik_limbs;
    settings.rotation_only |= rotation_only;
    if let Some(r) = root_motion {
        settings.root_motion = r;
    }
    if motion_scale.is_some() {
        settings.motion_scale = motion_scale;
    }
}

fn parse_root_motion(s: &str) -> Result<RootTravel, String> {
    match s {
        "keep" => Ok(RootTravel::Keep),
        "remove" => Ok(RootTravel::Remove),
        k => match k.parse::<f32>() {
            Ok(k) if k.is_finite() => Ok(RootTravel::Scale(k)),
            _ => Err(format!("{s:?}: keep, remove or a factor (0.5)")),
        },
    }
}

fn parse_scale(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(k) if k.is_finite() && k > 0.0 => Ok(k),
        _ => Err(format!("{s:?}: a scale above 0")),
    }
}

/// `skinscope retarget`.
#[derive(Args)]
pub struct RetargetCommand {
    /// A file whose clips are retargeted: a .bvh take, or a glTF/GLB's clips (repeatable: a
    /// batch into one file).
    #[arg(long, required = true)]
    pub from: Vec<PathBuf>,
    /// The character the clips are put on: a .gltf or .glb file.
    #[arg(long)]
    pub to: PathBuf,
    /// Where to write the character with the clips added: a .glb (its buffers and images
    /// carried inside).
    #[arg(long, value_parser = super::values::parse_glb_path)]
    pub out: PathBuf,
    /// A retarget map (the `--retarget-map` format; the window's Save map writes one): the
    /// joints paired and the settings. Without one, joints are auto-mapped.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Arms and legs as IK chains: the feet keep their contacts on legs of other proportions.
    #[arg(long)]
    pub ik_limbs: bool,
    /// Rotations only: every translation, the hips' included, stays the character's rest.
    #[arg(long)]
    pub rotation_only: bool,
    /// The hips' travel across the ground: keep, remove (in place) or a factor.
    #[arg(long, value_parser = parse_root_motion)]
    pub root_motion: Option<RootTravel>,
    /// The hips' travel multiplied by this (default: the ratio of the hip heights).
    #[arg(long, value_parser = parse_scale)]
    pub motion_scale: Option<f32>,
    /// Drop the keys that interpolation reproduces within the compression error bound (1e-4
    /// of the character's height at each joint's skin reach, as `inspect --compression`
    /// measures), instead of keying at the source's rate.
    #[arg(long)]
    pub reduce: bool,
    /// The bound of --reduce, in the file's units.
    #[arg(long, requires = "reduce", value_parser = parse_scale)]
    pub tolerance: Option<f32>,
    /// One JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &RetargetCommand) -> ExitCode {
    match retarget(args) {
        Ok(report) => {
            if args.json {
                out::println(&serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                out::println(&text(&report));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("skinscope: {e}");
            if args.json {
                out::json_error(Some(&args.to), &e);
            }
            ExitCode::from(2)
        }
    }
}

fn retarget(args: &RetargetCommand) -> Result<serde_json::Value, String> {
    skinscope::files::check_output(&args.out).map_err(|e| e.to_string())?;
    let character = super::load_model(&args.to).map_err(|e| e.to_string())?;
    let mut plan = match &args.map {
        Some(path) => import::read_map(path).map_err(|e| format!("--map {e}"))?,
        None => RetargetPlan::default(),
    };
    apply(
        &mut plan.settings,
        args.ik_limbs,
        args.rotation_only,
        args.root_motion,
        args.motion_scale,
    );
    let mut document = Document::open(&args.to, &super::reach())
        .map_err(|e| super::with_reach_remedy(e).to_string())?;
    let keys = if args.reduce {
        import::Keys::Reduced(args.tolerance)
    } else {
        import::Keys::SourceRate
    };
    let added = import::add_retargeted(
        &mut document,
        &character,
        &args.from,
        Some(&plan),
        keys,
        &super::reach(),
    )
    .map_err(|e| super::reach_remedy(&e.to_string()))?;
    skinscope::files::write_bytes_whole(&args.out, &document.to_glb())
        .map_err(|e| e.to_string())?;
    // The written file loads, with every clip added.
    let written =
        import::load(&args.out).map_err(|e| format!("the written file does not load: {e}"))?;
    let expected = character.clips.len() + added.iter().map(|a| a.clips.len()).sum::<usize>();
    if written.clips.len() != expected {
        return Err(format!(
            "{}: {} clips after writing, {expected} expected",
            args.out.display(),
            written.clips.len()
        ));
    }
    Ok(serde_json::json!({
        "to": args.to.display().to_string(),
        "out": args.out.display().to_string(),
        "ik_limbs": plan.settings.ik_limbs,
        "sources": added.iter().map(|a| serde_json::json!({
            "file": a.file.display().to_string(),
            "clips": a.clips.iter().map(|c| serde_json::json!({"name": c.name, "keys": c.keys, "error": c.error})).collect::<Vec<_>>(),
            "joints_matched": a.matched,
            "not_matched": a.unmatched,
        })).collect::<Vec<_>>(),
    }))
}

fn text(report: &serde_json::Value) -> String {
    let mut t = format!("wrote {}\n", report["out"].as_str().unwrap_or_default());
    for s in report["sources"].as_array().into_iter().flatten() {
        t += &format!(
            "  from {}: {} joints matched\n",
            s["file"].as_str().unwrap_or_default(),
            s["joints_matched"]
        );
        if let Some(left) = s["not_matched"].as_array().filter(|l| !l.is_empty()) {
            let names: Vec<&str> = left.iter().filter_map(|v| v.as_str()).collect();
            t += &format!(
                "    not matched (they keep their own motion): {}\n",
                names.join(", ")
            );
        }
        for c in s["clips"].as_array().into_iter().flatten() {
            t += &format!("    added clip {} ({} keys", c["name"], c["keys"]);
            if let Some(e) = c["error"].as_f64() {
                t += &format!(", reduced: largest error {e:.2e}");
            }
            t += ")\n";
        }
    }
    t.trim_end().to_string()
}
