//! A recorded performance, for rewinding (Unreal's Rewind Debugger): each frame's state (what
//! played, for the tracks: clips and times, blend, transition and layer weights, the state
//! machine's state and parameters, fired events, motion matching's choice, the external pose's
//! and the ragdoll's weights, reach targets, the placement) and the pose it made (the local pose
//! and morph weights, which compose to the same palettes to the bit). A window's frames also
//! carry what resuming from them needs. The frames are kept within a budget of seconds and
//! bytes, and saved to and read from a JSON file (`file`) for a bug report.

mod file;
mod frame;
mod ring;
mod tracks;

pub use file::{
    HISTORY_FORMAT, HISTORY_VERSION, HistoryFileError, MAX_HISTORY_FILE_BYTES, history_from_json,
    history_json,
};
pub use frame::{FrameState, MatchedFrame, RecordedPose};
pub use ring::{DEFAULT_HISTORY_SECS, History, HistoryFrame, MAX_HISTORY_BYTES};
pub use tracks::{Track, TrackKind, tracks};
