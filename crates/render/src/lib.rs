//! GPU side of skinscope (wgpu, and the WGSL in the repository's `shaders/`): device creation,
//! shaders, pipelines, the character's meshes on the GPU, the renderer, line overlays, cameras,
//! offscreen targets, the GPU skinning check, the environment's panoramas (`panorama`: decoded
//! and filtered on the CPU) and the plain display choices (`display`). The renderer takes plain
//! data (palettes, per-draw instance data) and draws into a `TextureView` it is given, so the
//! window and headless rendering share every line.
#![forbid(unsafe_code)]

pub mod bones;
pub mod camera;
pub mod deformers;
pub mod display;
pub mod environment;
pub mod gpu;
mod layouts;
pub mod lines;
mod meshes;
mod mips;
pub use meshes::morph_deltas;
pub mod offscreen;
pub mod panorama;
mod pipelines;
pub mod renderer;
pub mod shaders;
pub mod skin_check;
pub mod textures;
pub mod words;

pub use pipelines::{DEPTH_FORMAT, PipelineCache};

use skinscope_anim as anim;
use skinscope_core::{basis, character, files};
