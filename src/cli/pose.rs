//! `skinscope pose`: the posed mesh in world space, as OBJ or (for `.glb`) GLB.

use std::path::Path;

use skinscope::debug::export;
use skinscope::draw::headless;
use skinscope::pose::CharacterPose;
use skinscope::render::gpu::Gpu;

use super::args::{PoseArgs, SkinArgs, SkinOnArg};

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

pub fn run(args: &PoseArgs, skin: SkinArgs, out: &Path) -> Result<(), String> {
    super::ml::check_skinning(&args.ml, skin.skinning.into())?;
    skinscope::files::check_output(out).map_err(|e| e.to_string())?;
    let posing = args.load()?;
    let c = &posing.character;
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &posing.request)
        .map_err(|e| e.to_string())?;
    if let Some(why) = pose.non_finite(c) {
        return Err(format!("{} is not written: {why}", out.display()));
    }
    let skinning = skin.skinning.into();
    let ddm = skin.ddm.precompute(c, skinning)?;
    let vertices = match skin.skin_on {
        SkinOnArg::Cpu => {
            skinscope::posed::PosedVertices::on_cpu_with(c, &pose, skinning, ddm.as_deref())
        }
        SkinOnArg::Gpu => {
            let gpu = Gpu::headless().map_err(|e| e.to_string())?;
            headless::skin_on_gpu_with(&gpu, c, &pose, skinning, ddm.as_ref())
                .map_err(|e| e.to_string())?
        }
    }
    .with_drawn_normals(c);
    let (bad, all) = vertices.non_finite();
    if bad > 0 {
        return Err(format!(
            "{} is not written: {bad} of {all} posed vertices are not finite",
            out.display()
        ));
    }
    let glb = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let bytes = if glb {
        export::posed_glb(c, &vertices)
    } else {
        export::posed_obj(c, &vertices).into_bytes()
    };
    skinscope::files::write_bytes_whole(out, &bytes).map_err(|e| e.to_string())
}
