//! skinscope: a glTF skinned-character viewer. The layers, each depending only on those before
//! it: `anim` (the CPU animation stages) <- `character` and `import` (a loaded file) <- `pose`
//! (what to pose and its evaluation) <- `debug` (lint, exports, colourings, picking) and
//! `render` (wgpu) <- `draw` (extract and headless frames) <- `viewer` and `ui` <- `app` (the
//! window). The command line (`src/cli/`) sits on top.
#![forbid(unsafe_code)]

pub mod anim;
pub mod app;
pub mod builtin;
pub mod character;
pub mod debug;
pub mod display;
pub mod draw;
pub mod files;
pub mod glb;
pub mod graph;
pub mod import;
pub mod perform;
pub mod pose;
pub mod render;
pub mod scene;
pub mod ui;
pub mod viewer;
