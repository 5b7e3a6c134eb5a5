//! The window's HDR environment: loaded from a file the panel (or `--environment`) names, or the
//! generated sky again; the window prefilters it when `changes` moves (`app::gfx`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{UiCommand, Viewer};
use crate::environment::EnvironmentImage;

/// What the panel asks of the environment.
#[derive(Clone, Debug, PartialEq)]
pub enum EnvironmentCommand {
    /// Light with this .hdr or .exr file.
    Load(PathBuf),
    /// Back to the generated sky.
    Generated,
}

impl From<EnvironmentCommand> for UiCommand {
    fn from(c: EnvironmentCommand) -> Self {
        UiCommand::Environment(c)
    }
}

/// The environment the window lights with.
#[derive(Default)]
pub struct EnvironmentState {
    /// The file's image (`None`: the generated sky), and the file.
    pub current: Option<Arc<EnvironmentImage>>,
    pub source: Option<PathBuf>,
    /// Why the last file did not load (the environment before it stays).
    pub error: Option<String>,
    /// Bumped each time `current` changes.
    pub changes: u64,
}

impl Viewer {
    /// Lights the scene with `path`'s environment; on failure the one before stays, and the
    /// error is kept for the panel.
    pub fn load_environment(&mut self, path: &Path) -> Result<(), String> {
        let state = &mut self.environment;
        match EnvironmentImage::load(path) {
            Ok(image) => {
                state.current = Some(Arc::new(image));
                state.source = Some(path.to_path_buf());
                state.error = None;
                state.changes += 1;
                Ok(())
            }
            Err(e) => {
                let e = e.to_string();
                state.error = Some(e.clone());
                Err(e)
            }
        }
    }

    pub(super) fn environment_command(&mut self, command: EnvironmentCommand) {
        match command {
            EnvironmentCommand::Load(path) => {
                if let Err(e) = self.load_environment(&path) {
                    log::error!("{e}");
                }
            }
            EnvironmentCommand::Generated => {
                let state = &mut self.environment;
                if state.current.take().is_some() {
                    state.changes += 1;
                }
                state.source = None;
                state.error = None;
            }
        }
    }
}
