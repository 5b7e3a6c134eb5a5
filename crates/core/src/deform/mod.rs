//! Deformers' precomputations, CPU only, run once per character and parameters (not per
//! frame): direct delta mush's Ω (`ddm`, saved and read back by `ddm_file`) and the ML
//! deformer's training (`ml_train`). Their runtime halves are `anim`'s and `pose`'s (the ML
//! model, `pose::MlModel`) on the CPU, and `shaders/`'s on the GPU.

pub mod ddm;
pub mod ddm_file;
pub mod ml_train;

pub use ddm::{DdmData, DdmError, DdmParams, DdmPrimitive, DdmStats, precompute};
pub use ddm_file::{DdmFileError, ddm_key};
pub use ml_train::{TrainError, TrainParams, train};
