//! skinscope, the application: the renderer, the window, the panel and the command line, over
//! the workspace's libraries (the animation core `skinscope_anim`, the character and pose core
//! `skinscope_core`, and `skinscope_import`), which are re-exported here under their module
//! names. ARCHITECTURE.md says what each crate and module holds and what it depends on.
#![forbid(unsafe_code)]

pub use skinscope_anim as anim;
pub use skinscope_core::{
    basis, character, contain, deform, graph, param, perform, physics, pose, posed, scene,
};
pub use skinscope_import::{self as import, builtin, glb};
pub mod app;
pub mod debug;
pub mod display;
pub mod draw;
pub mod environment;
pub mod files;
pub mod mocap;
pub mod record;
pub mod render;
pub mod ui;
pub mod viewer;
