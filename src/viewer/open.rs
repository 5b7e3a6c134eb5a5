//! Opening characters in the viewer: a file (or another of its scenes), the built-in
//! character, and clips from another file added to the one shown.

use std::path::Path;

use super::{Controls, RECENT_LEN, Viewer, WindowRequest};
use crate::character::Character;
use crate::import;
use crate::pose::{CharacterPose, Derived};

/// Why the viewer did not open a character (the one shown stays).
#[derive(Clone, Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Import(#[from] import::ImportError),
    #[error("the built-in character has one scene")]
    OneScene,
}

impl Viewer {
    /// The character's own pose drivers (the built-in character's, or a file's node extras').
    pub(super) fn load_own_drivers(&mut self) {
        match crate::builtin::own_drivers(&self.character) {
            Ok(Some(d)) => self.controls.drivers.set = Some(std::sync::Arc::new(d)),
            Ok(None) => {
                self.load_error = Some(format!("{} ships no pose drivers", self.character.name))
            }
            Err(e) => self.load_error = Some(format!("{}: {e}", self.character.name)),
        }
    }

    /// The folder tree a model's URIs may name: the one the viewer started with
    /// (`--asset-root`, or the model's folder), or anywhere when the panel allows it.
    pub fn reach(&self) -> import::Reach {
        if self.allow_outside {
            import::Reach::Anywhere
        } else {
            self.asset_reach.clone()
        }
    }

    /// Opens a file. On failure the current character stays and the error is kept for the panel.
    pub fn open(&mut self, path: &Path) -> Result<(), OpenError> {
        self.open_with(
            path,
            import::LoadOptions {
                reach: self.reach(),
                ..Default::default()
            },
        )
    }

    /// Shows scene `scene` of the current file.
    pub fn open_scene(&mut self, scene: usize) -> Result<(), OpenError> {
        let Some(path) = self.source.clone() else {
            return Err(OpenError::OneScene);
        };
        let options = import::LoadOptions {
            scene: Some(scene),
            reach: self.reach(),
        };
        self.open_with(&path, options)
    }

    fn open_with(&mut self, path: &Path, options: import::LoadOptions) -> Result<(), OpenError> {
        match import::load_with(path, options) {
            Ok(character) => {
                self.install(character, Some(path));
                // Absolute, so the list opens the same files from wherever it is started.
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                self.recent.retain(|p| p != &absolute);
                self.recent.insert(0, absolute);
                self.recent.truncate(RECENT_LEN);
                Ok(())
            }
            Err(e) => {
                // The panel's way to widen the reach, where a file lay outside it.
                let remedy = "tick \"allow files outside the model's folder\" below, or start \
                              with --asset-root DIR naming a folder that holds both";
                self.load_error = Some(e.to_string().replace(import::WIDER_REACH, remedy));
                Err(OpenError::Import(e))
            }
        }
    }

    /// Back to the built-in character (the panel's file section offers it).
    pub fn open_builtin(&mut self) -> Result<(), OpenError> {
        let character = crate::builtin::character()?;
        self.install(character, None);
        Ok(())
    }

    /// Shows `character` (from `source`, or built in) with fresh controls and players.
    pub(super) fn install(&mut self, character: Character, source: Option<&Path>) {
        self.derived = Derived::of(&character);
        let mut controls = Controls::with_facts(&character, &self.derived);
        controls.path = source.map_or(String::new(), |p| p.display().to_string());
        controls.view.show_panel = self.controls.view.show_panel;
        self.pose = CharacterPose::new(&character);
        self.compare_pose = CharacterPose::new(&character);
        self.picked_vertex = None;
        self.crowd = None;
        self.ddm.drop_current();
        self.character = character;
        self.controls = controls;
        self.source = source.map(Path::to_path_buf);
        self.reset_players();
        self.relisten();
        self.event_log.clear();
        self.load_error = None;
        self.repair = Default::default();
        self.retarget = Default::default();
        self.generation += 1;
        self.window_requests.push(WindowRequest::ResetCamera);
    }

    /// Adds the clips of `path` (a `.bvh` take, or a glTF's clips), retargeted onto the
    /// character by joint names, and plays the first of them; the players start afresh, as
    /// after a load, keeping the controls.
    pub fn add_clips(&mut self, path: &Path) -> Result<usize, import::ClipsFromError> {
        let (clips, _) = import::clips_from(path, &self.character, None, &self.reach())?;
        let added = self.take_clips(clips);
        self.load_error = None;
        Ok(added)
    }

    /// Adds `clips` to the character and plays the first of them; the players start afresh,
    /// keeping the controls. Returns how many were added.
    pub(super) fn take_clips(&mut self, clips: Vec<crate::character::ClipData>) -> usize {
        let (first, added) = (self.character.clips.len(), clips.len());
        self.character.clips.extend(clips);
        // A crowd is remade for the new clips.
        self.crowd = None;
        if added > 0 {
            self.controls.playback.clip = first;
        }
        self.reset_players();
        added
    }

    /// A pose-driver file read for this character, naming the file and the JSON pointer of a
    /// problem.
    pub(super) fn read_drivers(
        &self,
        path: &std::path::Path,
    ) -> Result<crate::pose::DriverSet, String> {
        let text = crate::files::read_text_capped(path, 16 << 20)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        crate::pose::DriverSet::parse(&text, &self.character)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}
