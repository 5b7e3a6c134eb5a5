//! `skinscope check`: the skinning lint, with the bind-vs-identity renders when a GPU (or
//! lavapipe) is there. Exit status 0 clean, 1 errors, 2 unloadable.

use std::process::ExitCode;

use skinscope::debug::check;
use skinscope::draw::headless;
use skinscope::render::gpu::Gpu;

use super::args::PoseArgs;
use super::out;

pub fn run(pose: &PoseArgs, json: bool) -> ExitCode {
    let posing = match pose.load() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("skinscope: {e}");
            return ExitCode::from(2);
        }
    };
    let character = &posing.character;
    let mut report = check::check(character, &posing.request);
    report.file = posing
        .file
        .map_or_else(|| character.name.clone(), |f| f.display().to_string());
    if !character.skins.is_empty() {
        match Gpu::headless() {
            Ok(gpu) => {
                report.bind_identity_pixel_difference =
                    headless::bind_identity_difference(&gpu, character, 256).ok()
            }
            Err(e) => log::warn!("no render comparison: {e}"),
        }
    }
    if json {
        out::println(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        out::print(&report.to_text());
    }
    if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
