//! The muscles option of the posing subcommands: `--muscles FILE.json` or
//! `default`, the XPBD muscles the skin follows after skinning; stepped at 60 Hz under
//! `--simulate`, settled at the frame's pose otherwise.

use std::path::PathBuf;
use std::sync::Arc;

use skinscope::character::Character;
use skinscope::perform::MuscleInput;

#[derive(clap::Args, Clone, Debug, Default)]
pub struct MuscleArgs {
    /// XPBD muscles from a JSON file (or `default`: the built-in character's biceps, triceps,
    /// forearm, quadriceps and calves), the skin following them after skinning. Stepped at
    /// 60 Hz under --simulate (jiggle); otherwise settled at the frame's pose.
    #[arg(long)]
    pub muscles: Option<PathBuf>,
}

impl MuscleArgs {
    /// The muscles asked for on `c`; `simulated`: stepped in time.
    pub fn input(&self, c: &Character, simulated: bool) -> Result<Option<MuscleInput>, String> {
        let Some(path) = &self.muscles else {
            return Ok(None);
        };
        let rig = if path.as_os_str() == "default" {
            skinscope::builtin::own_muscles(c)
                .map_err(|e| format!("--muscles default: {}: {e}", c.name))?
                .ok_or_else(|| {
                    format!(
                        "--muscles default: {} ships no muscles (the built-in character does): give a muscles file",
                        c.name
                    )
                })?
        } else {
            let text = skinscope::files::read_text_capped(path, 4 << 20)
                .map_err(|e| format!("--muscles {}: {e}", path.display()))?;
            skinscope::pose::MuscleRig::parse(&text, c)
                .map_err(|e| format!("--muscles {}: {e}", path.display()))?
        };
        Ok(Some(MuscleInput {
            rig: Arc::new(rig),
            dynamic: simulated,
        }))
    }
}
