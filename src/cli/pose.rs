//! `skinscope pose`: the posed mesh in world space, as OBJ or (for `.glb`) GLB.

use std::path::Path;

use skinscope::debug::export;
use skinscope::pose::CharacterPose;

use super::args::PoseArgs;

/// Meshes `pose` writes, by extension.
pub fn parse_mesh_path(s: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(s);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("obj" | "glb") => Ok(path),
        _ => Err(format!("{s:?}: the posed mesh is written as .obj or .glb")),
    }
}

pub fn run(args: &PoseArgs, out: &Path) -> Result<(), String> {
    let posing = args.load()?;
    let c = &posing.character;
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &posing.request)
        .map_err(|e| e.to_string())?;
    let glb = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let bytes = if glb {
        export::posed_glb(c, &pose)
    } else {
        export::posed_obj(c, &pose).into_bytes()
    };
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
}
