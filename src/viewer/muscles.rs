//! The viewer's XPBD muscles: loaded from a file or the character's own, stepped
//! once a frame after the physics pose (`Performer::apply_muscles`, in `pose_physics`), drawn
//! as their rings when asked, and dropped or restarted from the panel.

use std::path::PathBuf;
use std::sync::Arc;

use super::Viewer;

/// What the panel's muscles section asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum MuscleCommand {
    /// The muscles of a JSON file (`pose::MuscleRig`).
    Load(PathBuf),
    /// The character's own (the built-in character's).
    Own,
    Drop,
    /// Start again at rest on this frame's pose.
    Restart,
}

/// The colour the muscles' rings are drawn in (linear RGBA).
const MUSCLE_LINE: [f32; 4] = [0.95, 0.3, 0.25, 1.0];

impl Viewer {
    pub(super) fn muscle_command(&mut self, command: MuscleCommand) {
        let c = &self.character;
        match command {
            MuscleCommand::Load(path) => {
                let read = crate::files::read_text_capped(&path, 4 << 20)
                    .map_err(|e| format!("{}: {e}", path.display()))
                    .and_then(|text| {
                        crate::pose::MuscleRig::parse(&text, c)
                            .map_err(|e| format!("{}: {e}", path.display()))
                    });
                match read {
                    Ok(rig) => self.controls.muscles.rig = Some(Arc::new(rig)),
                    Err(e) => self.load_error = Some(e),
                }
            }
            MuscleCommand::Own => match crate::builtin::own_muscles(c) {
                Ok(Some(rig)) => self.controls.muscles.rig = Some(Arc::new(rig)),
                Ok(None) => self.load_error = Some(format!("{} ships no muscles", c.name)),
                Err(e) => self.load_error = Some(format!("{}: {e}", c.name)),
            },
            MuscleCommand::Drop => self.controls.muscles.rig = None,
            MuscleCommand::Restart => self.performer.restart_muscles(),
        }
    }

    /// The muscles' rings and fibres as overlay lines, when shown.
    pub(super) fn muscle_lines(&self, out: &mut Vec<(glam::Vec3, glam::Vec3, [f32; 4])>) {
        let Some(frame) = self
            .pose
            .muscles
            .as_ref()
            .filter(|_| self.controls.muscles.show)
        else {
            return;
        };
        let x = &frame.positions;
        for body in &frame.rig.system.bodies {
            for e in body
                .edges
                .iter()
                .filter(|e| e.is_fibre() || e.along.abs() < 1e-9)
            {
                if let (Some(a), Some(b)) = (x.get(e.a as usize), x.get(e.b as usize)) {
                    out.push((*a, *b, MUSCLE_LINE));
                }
            }
        }
    }
}
