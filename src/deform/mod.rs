//! Deformers' precomputations, CPU only, run once per character and parameters (not per
//! frame): direct delta mush's Ω (`ddm`). Their runtime halves are `anim`'s (the CPU reference)
//! and `shaders/`'s.

pub mod ddm;

pub use ddm::{DdmData, DdmError, DdmParams, DdmPrimitive, DdmStats, precompute};
