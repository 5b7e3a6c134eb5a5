//! Clips taken from other files (`--clips-from`), retargeted onto the loaded character through
//! an optional `--retarget-map`.

use std::path::PathBuf;

use skinscope::character::Character;
use skinscope::import;

/// A `--retarget-map` file, read (none without one).
pub fn read_retarget_map(
    path: Option<&std::path::Path>,
) -> Result<Option<import::RetargetPlan>, String> {
    path.map(|p| import::read_map(p).map_err(|e| format!("--retarget-map {e}")))
        .transpose()
}

/// `--clips-from`: each file's clips retargeted onto `character` and added after its own.
pub fn add_clips_from(
    character: &mut Character,
    files: &[PathBuf],
    map: Option<&import::RetargetPlan>,
) -> Result<(), String> {
    for file in files {
        let (clips, matched) =
            import::clips_from(file, character, map, &super::reach()).map_err(|e| match e {
                import::ClipsFromError::NoMatch(m) if !m.mapped => {
                    format!("{m} (--retarget-map MAP.json)")
                }
                e => super::reach_remedy(&e.to_string()),
            })?;
        // A partial match is said (the joints left out keep their own motion), not silent.
        if !matched.unmatched.is_empty() {
            eprintln!("skinscope: {}: {}", file.display(), matched.summary());
        }
        character.clips.extend(clips);
    }
    Ok(())
}
