//! skinscope's character and pose core, over the animation core (`skinscope_anim`): no GPU,
//! window, UI or glTF. Its modules, each depending only on those before it: `files` (bounded
//! reading), `param` (a parameter out of range) and `contain` (fenced third-party calls) <-
//! `basis` (KTX2 textures' transcoding) <- `character` (a loaded character, plain data) <-
//! `scene` (the ground) <- `pose` (what to pose, its evaluation, crowds, the ML deformer's
//! model) <- `deform` (the deformers' precomputations: direct delta mush, the ML deformer's
//! training) and `physics` (the ragdoll, rapier3d) <- `posed` (the CPU skinning reference) and
//! `graph` (players, the state machine, locomotion) <- `perform` (the one stateful half of a
//! frame).
//!
//! A character comes from `skinscope_import` (a file, or the built-in mannequin) and is posed by
//! `pose::CharacterPose::evaluate`; see that crate's example. The core also reads the side files
//! a character is played with, on its own: here, the ground foot IK plants the feet on, and a
//! refusal naming the JSON pointer of the problem.
//!
//! ```
//! use skinscope_core::scene::Ground;
//!
//! let ground = Ground::parse(
//!     r#"{"floor": 0.0, "steps": [{"min": [1, -1], "max": [2, 1], "height": 0.2}]}"#,
//! )
//! .unwrap();
//! assert_eq!(ground.height(0.0, 0.0), 0.0);
//! assert_eq!(ground.height(1.5, 0.0), 0.2);
//! let refused = Ground::parse(r#"{"floor": "low"}"#).unwrap_err();
//! assert_eq!(refused.pointer, "/floor");
//! ```
#![forbid(unsafe_code)]

use skinscope_anim as anim;

pub mod basis;
pub mod character;
pub mod contain;
pub mod deform;
pub mod files;
pub mod graph;
pub mod history;
pub mod param;
pub mod perform;
pub mod physics;
pub mod pose;
pub mod posed;
pub mod scene;
