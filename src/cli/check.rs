//! `skinscope check`: the skinning lint, with the bind-vs-identity renders when a GPU (or
//! lavapipe) is there. Exit status 0 clean, 1 errors, 2 unloadable.

use std::process::ExitCode;

use skinscope::debug::check;
use skinscope::draw::headless;
use skinscope::render::gpu::Gpu;

use super::args::{PoseArgs, SkinArgs, SkinOnArg};
use super::out;
use super::report_format::{self, ReportFormat};

/// The posed file, or exit status 2 with the reason on stderr (and as a JSON object on stdout
/// under `--json`).
fn load(pose: &PoseArgs, json: bool) -> Result<super::args::Posing, ExitCode> {
    pose.load().map_err(|e| fail(pose, json, &e))
}

/// Exit status 2 with `error` on stderr, and as a JSON object on stdout under `--json`.
fn fail(pose: &PoseArgs, json: bool, error: &str) -> ExitCode {
    eprintln!("skinscope: {error}");
    if json {
        out::json_error(pose.file.as_deref(), error);
    }
    ExitCode::from(2)
}

pub fn run(pose: &PoseArgs, skin: SkinArgs, format: ReportFormat) -> ExitCode {
    let json = format == ReportFormat::Json;
    if let Err(e) = super::ml::check_skinning(&pose.ml, skin.skinning.into()) {
        return fail(pose, json, &e);
    }
    // The --ddm-* options are checked by their ranges whether or not a GPU comparison uses them.
    if let Err(e) = skin.ddm.params().check() {
        return fail(pose, json, &super::ddm::ddm_error(&e));
    }
    let posing = match load(pose, json) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let character = &posing.character;
    let mut report = check::check(character, &posing.request);
    report.file =
        (posing.file.as_ref()).map_or_else(|| character.name.clone(), |f| f.display().to_string());
    let gpu = (!character.skins.is_empty() || skin.skin_on == SkinOnArg::Gpu)
        .then(Gpu::headless)
        .and_then(|g| g.map_err(|e| log::warn!("no GPU comparisons: {e}")).ok());
    if let Some(gpu) = &gpu
        && !character.skins.is_empty()
    {
        report.bind_identity_pixel_difference =
            headless::bind_identity_difference(gpu, character, 256).ok()
    }
    if skin.skin_on == SkinOnArg::Gpu {
        let Some(gpu) = &gpu else {
            return fail(
                pose,
                json,
                "--skin-on gpu needs a GPU (or lavapipe), and none could be opened",
            );
        };
        if let Err(e) = compare_gpu_skinning(gpu, &posing, skin, &mut report) {
            return fail(pose, json, &e);
        }
    }
    match format {
        ReportFormat::Json => {
            out::println(&serde_json::to_string_pretty(&report).unwrap_or_default())
        }
        ReportFormat::Text => out::print(&report.to_text()),
        ReportFormat::Junit => out::print(&report_format::check_junit(&report)),
        ReportFormat::Sarif => out::println(&report_format::check_sarif(&report)),
    }
    if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The posed frame's vertices skinned by the GPU's skin pass, read back, against the CPU
/// reference, into the report.
fn compare_gpu_skinning(
    gpu: &Gpu,
    posing: &super::args::Posing,
    skin: SkinArgs,
    report: &mut check::CheckReport,
) -> Result<(), String> {
    let c = &posing.character;
    let mut pose = skinscope::pose::CharacterPose::new(c);
    pose.evaluate(c, &posing.request)
        .map_err(|e| e.to_string())?;
    let skinning = skin.skinning.into();
    let ddm = skin.ddm.precompute(c, skinning)?;
    let on_gpu = headless::skin_on_gpu_with(gpu, c, &pose, skinning, ddm.as_ref())
        .map_err(|e| e.to_string())?;
    let on_cpu = skinscope::posed::PosedVertices::on_cpu_with(c, &pose, skinning, ddm.as_deref());
    report.add_gpu_skinning(skinning, &on_gpu, &on_cpu);
    Ok(())
}

/// `check --foot-slide`: each leg's slide over one loop of the posed clip, root motion applied
/// (the clip's travel moves the character, as a game plays it).
pub fn foot_slide(pose: &PoseArgs, json: bool) -> ExitCode {
    let posing = match load(pose, json) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let c = &posing.character;
    let Some(clip) = posing.request.clip.map(|m| m.clip) else {
        return fail(pose, json, &format!("{} has no clip to measure", c.name));
    };
    let legs = skinscope::pose::find_legs(c);
    if legs.is_empty() {
        let why = format!(
            "no legs found in {} (no joint named like a foot or ankle)",
            c.name
        );
        return fail(pose, json, &why);
    }
    let root = skinscope::anim::default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip))
        .map(|joint| skinscope::pose::RootMotion {
            joint,
            mode: skinscope::pose::RootMotionMode::Applied,
        });
    let slides = skinscope::pose::foot_slide(c, clip, &legs, root);
    let name = c.clips[clip].clip.name();
    if json {
        let report = serde_json::json!({"clip": name, "units_per_second": true, "feet": slides});
        out::println(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        let mut text = format!("foot slide over clip {name:?} (root motion applied), units/s:\n");
        for s in &slides {
            text += &format!(
                "  {:<20} worst {:9.3}  mean {:9.3}  planted {:3.0}% of the clip, travelling {:.3} across a contact\n",
                s.joint,
                s.worst,
                s.mean,
                s.planted * 100.0,
                s.travel
            );
        }
        out::print(&text);
    }
    ExitCode::SUCCESS
}
