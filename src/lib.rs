//! skinscope: a glTF skinned-character viewer. The layers, each depending only on those before
//! it: `anim` (the CPU animation stages), `display`, `files` and `glb` (plain data and I/O) <-
//! `character` and `import` (a loaded file) <- `mocap` (a live motion-capture stream, native)
//! and `builtin` (the built-in character) <- `scene`
//! (the ground) <- `pose` (what to pose and its evaluation) <- `physics` (the ragdoll,
//! rapier3d) <- `graph` (players, the state
//! machine, locomotion) <- `perform` (the one stateful half of a frame) <- `debug` (lint,
//! exports, colourings, picking) and `render` (wgpu) <- `draw` (extract, the view builder,
//! headless frames) and `record` (a sequence written as GIF, APNG, PNG files or MP4) <- `viewer`
//! <- `ui` <- `app` (the window). The command line (`src/cli/`)
//! sits on top.
#![forbid(unsafe_code)]

pub use skinscope_anim as anim;
pub use skinscope_core::{
    basis, character, contain, deform, graph, perform, physics, pose, posed, scene,
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
