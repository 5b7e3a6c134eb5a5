//! What drives a character from parameters rather than one clip at a time: the clocks of a
//! state's motion, a transition and a pose layer (`players`), a data-driven state machine read
//! from JSON (`def`) and its runtime (`machine`), and moving through the world (`locomotion`:
//! root motion, driven movement, stance locking). CPU only; it produces `pose::PoseRequest`s.

mod def;
mod locomotion;
mod machine;
mod players;

pub use def::{
    Condition, Graph, GraphError, LayerDef, MotionDef, ParamDef, ParamKind, StateDef, Test,
    TransitionDef, WeightSource, graph_path_beside,
};
pub use locomotion::{FootPlanter, Locomotion, MoveMode, TRAIL_LEN};
pub use machine::{FiredEvent, Machine, SIMULATION_HZ, simulate};
pub use players::{
    ClipStep, INERTIAL_END, LayerPlayer, Motion, SpacePlayer, TransitionPlayer, TransitionSpec,
};
