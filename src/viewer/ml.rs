//! The viewer's ML deformer: a model saved by `train-deformer`, loaded from the
//! panel, its corrective switched on and off, and the split view beside its reference.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Compared, Viewer};
use crate::anim::SkinningMethod;

/// What the panel's ML deformer section asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum MlCommand {
    /// A model file (`pose::MlModel`): loaded, switched on, under linear blend.
    Load(PathBuf),
    Drop,
    /// The split view: linear blend with the corrective on the left, the reference on the right.
    CompareWithReference,
}

impl Viewer {
    pub(super) fn ml_command(&mut self, command: MlCommand) {
        let c = &mut self.controls;
        match command {
            MlCommand::Load(path) => {
                match crate::pose::read_model(&path, &self.character) {
                    Ok(model) => {
                        c.ml.model = Some(Arc::new(model));
                        c.ml.on = true;
                        // It corrects linear blend, what it was trained against.
                        c.skinning.method = SkinningMethod::Linear;
                    }
                    Err(e) => self.load_error = Some(e.to_string()),
                }
            }
            MlCommand::Drop => {
                c.ml.model = None;
                if c.compared() == Compared::MlReference {
                    c.set_compared(Compared::Off);
                }
            }
            MlCommand::CompareWithReference => {
                if c.ml.model.is_some() {
                    c.ml.on = true;
                    c.skinning.method = SkinningMethod::Linear;
                    c.set_compared(Compared::MlReference);
                }
            }
        }
    }
}
