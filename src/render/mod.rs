//! GPU side of skinscope (wgpu only): device creation, shaders, pipelines, the character's meshes
//! on the GPU, the renderer, line overlays, cameras, offscreen targets and the GPU skinning
//! check. The renderer takes plain data (palettes, per-draw instance data) and draws into a
//! `TextureView` it is given, so the window and headless rendering share every line.

pub mod camera;
pub mod environment;
pub mod gpu;
mod layouts;
pub mod lines;
mod meshes;
mod mips;
pub use meshes::morph_deltas;
pub mod offscreen;
mod pipelines;
pub mod renderer;
pub mod shaders;
pub mod skin_check;
pub mod textures;
pub mod ui_overlay;

pub use pipelines::DEPTH_FORMAT;
