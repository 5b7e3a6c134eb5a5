//! GPU side of skinscope (wgpu only): device creation, shaders, the renderer, cameras, headless
//! targets and the GPU skinning check. The renderer draws into a `TextureView` it is given, so the
//! window and headless rendering share every line.

pub mod camera;
pub mod gpu;
pub mod headless;
pub mod renderer;
pub mod shaders;
pub mod skin_check;
