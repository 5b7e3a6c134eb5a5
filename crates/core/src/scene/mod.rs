//! The world a character stands in: the ground (a floor, steps, slopes, walls, a walkable area)
//! read from JSON, its height query, and the movement controller that keeps a travelling
//! character on it. CPU only; the viewer draws it as lines and the command line reads it with
//! `--ground FLOOR.json`.
//!
//! ```json
//! {
//!   "floor": 0.0,
//!   "area": {"min": [-3, -3], "max": [3, 3]},
//!   "steps": [{"min": [0.6, -0.6], "max": [1.2, 0.6], "height": 0.15}],
//!   "slopes": [{"min": [-1.6, -0.6], "max": [-0.6, 0.6], "axis": "x", "from": 0.25, "to": 0.0}],
//!   "walls": [{"from": [-3, 2], "to": [3, 2]}]
//! }
//! ```
//!
//! Coordinates are world x and z; heights are world y. A slope rises linearly along its `axis`
//! from `from` (at `min`) to `to` (at `max`). The height at a point is the highest step or slope
//! there, or else the floor: a step of negative height is a pit.

mod controller;
mod ground;

pub use controller::{Mover, MoverSettings};
pub use ground::{Ground, GroundError, MAX_EXTENT, Slope, Step, Wall};
