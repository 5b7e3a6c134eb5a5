//! skinscope: a glTF skinned-character viewer. `anim` is the CPU animation core, `import` reads
//! glTF into a `character::Character`, `render` is the GPU side.

pub mod anim;
pub mod app;
pub mod builtin;
pub mod character;
pub mod check;
pub mod crowd;
pub mod debug_views;
pub mod export;
pub mod glb;
pub mod import;
pub mod inspect;
pub mod posing;
pub mod render;
pub mod ui;
pub mod viewer;
