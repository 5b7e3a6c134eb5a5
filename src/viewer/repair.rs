//! The panel's check and fix: `check` run on the character shown, and beside each finding a
//! repair can answer, Fix: the file repaired in memory (`debug::fix`, that repair alone) and
//! loaded again in its place, so that the repaired skinning plays live before it is saved. Fixes
//! add up; Revert shows the file as it was; Save writes the repaired file as GLB.

use std::path::{Path, PathBuf};

use super::Viewer;
use crate::character::Character;
use crate::debug::check::{self, CheckReport};
use crate::debug::fix::{self, FixOptions, Repair, RepairKind};
use crate::import::document::Document;
use crate::pose::PoseRequest;

/// What the panel's check and fix hold.
#[derive(Default)]
pub struct RepairState {
    /// The last check of the character shown.
    pub report: Option<CheckReport>,
    /// The repaired file previewed, when a Fix was pressed.
    pub preview: Option<Preview>,
    /// What the last Fix, Save or Revert said.
    pub said: Option<String>,
}

/// A repaired file shown in place of the one opened.
pub struct Preview {
    pub document: Document,
    pub repairs: Vec<Repair>,
    /// The character as the file had it, and where it came from.
    original: Character,
    source: PathBuf,
}

/// What the panel asks of check and fix.
#[derive(Clone, Debug, PartialEq)]
pub enum RepairCommand {
    Check,
    Fix(RepairKind),
    Revert,
    Save(PathBuf),
}

impl Viewer {
    pub(super) fn repair_command(&mut self, command: RepairCommand) {
        let said = match command {
            RepairCommand::Check => {
                self.check_shown();
                None
            }
            RepairCommand::Fix(kind) => Some(self.fix_shown(kind).unwrap_or_else(|e| e)),
            RepairCommand::Revert => self.revert_repairs(),
            RepairCommand::Save(path) => Some(self.save_repaired(&path).unwrap_or_else(|e| e)),
        };
        if said.is_some() {
            self.repair.said = said;
        }
    }

    /// `check` on the character shown, as the command runs it (the bind pose).
    fn check_shown(&mut self) {
        self.repair.report = Some(check::check(&self.character, &PoseRequest::default()));
    }

    /// Repairs `kind` in the file shown (or the preview) and shows the result in its place. On
    /// a failure what is shown, and the preview, stay as they were.
    fn fix_shown(&mut self, kind: RepairKind) -> Result<String, String> {
        let report = check::check(&self.character, &PoseRequest::default());
        let (mut document, source, done) = match &self.repair.preview {
            Some(p) => (p.document.clone(), p.source.clone(), p.repairs.clone()),
            None => {
                let source = (self.source.clone())
                    .ok_or("the built-in character is generated clean: nothing to repair")?;
                let document = Document::open(&source, &self.reach()).map_err(|e| e.to_string())?;
                (document, source, Vec::new())
            }
        };
        let options = FixOptions {
            only: Some(kind),
            ..FixOptions::default()
        };
        let repairs = fix::repair(&mut document, &self.character, &report, options)?;
        if repairs.is_empty() {
            return Err("nothing of that kind to repair".into());
        }
        let repaired = crate::import::load_bytes(&document.to_glb(), &source)
            .map_err(|e| format!("the repaired file does not load: {e}"))?;
        let said = (repairs.iter())
            .map(|r| format!("{}: {}", r.pointer, r.message))
            .collect::<Vec<_>>()
            .join("\n");
        // The file as it was, kept from the first fix on, for Revert.
        let original = match self.repair.preview.take() {
            Some(p) => p.original,
            None => self.character.clone(),
        };
        self.show_keeping_playback(repaired, &source);
        let mut all = done;
        all.extend(repairs);
        self.repair.preview = Some(Preview {
            document,
            repairs: all,
            original,
            source,
        });
        self.check_shown();
        Ok(said)
    }

    /// Back to the file as it was.
    fn revert_repairs(&mut self) -> Option<String> {
        let p = self.repair.preview.take()?;
        self.show_keeping_playback(p.original, &p.source);
        self.check_shown();
        Some("reverted: the file as it was".into())
    }

    /// The repaired file written as GLB.
    fn save_repaired(&mut self, path: &Path) -> Result<String, String> {
        let preview = (self.repair.preview.as_ref()).ok_or("nothing repaired to save")?;
        crate::files::write_bytes_whole(path, &preview.document.to_glb())
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "wrote {} ({} repairs)",
            path.display(),
            preview.repairs.len()
        ))
    }

    /// Shows `character` (the file at `source`, repaired or not) with the clip, time and play
    /// state kept, and the repair state kept.
    fn show_keeping_playback(&mut self, character: Character, source: &Path) {
        let playback = self.controls.playback.clone();
        let time = self.time_secs();
        let repair = std::mem::take(&mut self.repair);
        self.install(character, Some(source));
        self.repair = repair;
        if playback.clip < self.character.clips.len() {
            self.controls.playback = playback;
            self.reset_players();
            self.seek(time);
        }
    }

    /// Where a repaired file is saved by default: beside the file, `-fixed` added to its stem.
    pub fn repaired_path(&self) -> Option<PathBuf> {
        let source = self.repair.preview.as_ref().map(|p| &p.source)?;
        crate::import::glb::beside(source, "fixed")
    }
}
