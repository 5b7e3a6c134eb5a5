//! GPU side of skinscope (wgpu only): device creation, shaders and the GPU skinning check.
//! Renderers draw into a `TextureView` they are given, so the window and headless rendering share
//! every line.

pub mod gpu;
pub mod shaders;
pub mod skin_check;
