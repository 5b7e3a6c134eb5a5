//! Deformers' precomputations, CPU only, run once per character and parameters (not per
//! frame): direct delta mush's Ω (`ddm`), and the ML deformer's model (`ml`) and its training (`ml_train`). Their runtime halves are `anim`'s (the CPU reference)
//! and `shaders/`'s.

pub mod ddm;
pub mod ddm_file;
pub mod ml;
pub mod ml_train;

pub use ddm::{DdmData, DdmError, DdmParams, DdmPrimitive, DdmStats, precompute};
pub use ddm_file::{DdmFileError, ddm_key};
pub use ml::{MlFileError, MlModel, MlReference, MlStats};
pub use ml_train::{TrainParams, train};
