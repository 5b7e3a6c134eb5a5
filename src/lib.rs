//! skinscope, the application: the window, the panel and the command line, over
//! the workspace's libraries (the animation core `skinscope_anim`, the character and pose core
//! `skinscope_core`, `skinscope_import` and the renderer `skinscope_render`), which are
//! re-exported here under their module names. ARCHITECTURE.md says what each crate and module holds and what it depends on.
#![forbid(unsafe_code)]

pub use skinscope_anim as anim;
pub use skinscope_core::{
    basis, character, contain, deform, graph, history, param, perform, physics, pose, posed, scene,
};
pub use skinscope_import::{self as import, builtin, glb};
pub use skinscope_render::{self as render, display, panorama as environment};
// The window: winit's on the desktop (its file dialog on a thread), and the same window on a
// browser page's canvas.
pub mod app;
pub mod debug;
pub mod draw;
pub mod files;
pub mod image_file;
pub mod mocap;
pub mod record;
pub mod ui;
pub mod viewer;
