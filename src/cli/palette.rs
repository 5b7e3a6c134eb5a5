//! `skinscope palette`: the skin palettes (and every joint's and mesh node's world transform) of
//! a posed frame, as text or JSON.

use skinscope::debug::export;
use skinscope::pose::CharacterPose;

use super::args::PoseArgs;
use super::out;

pub fn run(args: &PoseArgs, json: bool) -> Result<(), String> {
    let posing = args.load()?;
    let c = &posing.character;
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &posing.request)
        .map_err(|e| e.to_string())?;
    if let Some(why) = pose.non_finite(c) {
        return Err(format!("the palettes are not written: {why}"));
    }
    let mut exported = export::palettes(c, &pose, &posing.request);
    exported.motion_matching = posing.matching.clone();
    if let Some(file) = &posing.file {
        // The path as the user gave it, not just its file name.
        exported.file = file.display().to_string();
    }
    if json {
        let text = serde_json::to_string_pretty(&exported).map_err(|e| e.to_string())?;
        out::println(&text);
    } else {
        out::print(&exported.to_text());
    }
    Ok(())
}
