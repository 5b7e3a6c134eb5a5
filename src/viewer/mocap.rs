//! The viewer's external pose: the live stream it listens to (`mocap::MocapListener`), polled
//! once a frame before the performer steps, and what the panel shows of a clip source.

use std::path::Path;

use super::Viewer;
use crate::anim::Clip;
use crate::mocap::{MocapError, MocapListener};
use crate::perform::ExternalInput;

/// The live stream, when the viewer listens to one, and why the last attempt failed.
#[derive(Default)]
pub struct LiveMocap {
    pub listener: Option<MocapListener>,
    pub error: Option<String>,
}

/// A clip's key rate (frames a second: its densest track's keys over its duration) and the
/// joints it drives: what the panel shows of a take played as the external pose.
pub fn clip_rate_and_joints(clip: &Clip) -> (f32, usize) {
    let d = clip.duration_secs();
    let keys = clip.tracks().iter().map(|t| t.channel.times().len()).max();
    let rate = match keys {
        Some(k) if k > 1 && d > 0.0 => (k - 1) as f32 / d,
        _ => 0.0,
    };
    let mut joints: Vec<usize> = clip.tracks().iter().map(|t| t.joint).collect();
    joints.sort_unstable();
    joints.dedup();
    (rate, joints.len())
}

impl Viewer {
    /// Listens on `address` (loopback) for motion lines of the hierarchy in `skeleton`, and
    /// makes the stream the external pose. A stream listened to before is closed first (so the
    /// same port can be listened on again).
    pub fn listen(&mut self, address: &str, skeleton: &Path) -> Result<(), MocapError> {
        self.mocap.listener = None;
        match MocapListener::listen(address, skeleton, &self.character, None) {
            Ok(listener) => {
                self.controls.mocap.address = listener.address().to_string();
                self.controls.mocap.skeleton = skeleton.display().to_string();
                self.controls.mocap.external = ExternalInput::Live;
                self.mocap.listener = Some(listener);
                self.mocap.error = None;
                Ok(())
            }
            Err(e) => {
                self.mocap.error = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// Closes the stream; a live external pose turns off.
    pub fn stop_listening(&mut self) {
        self.mocap.listener = None;
        if self.controls.mocap.external == ExternalInput::Live {
            self.controls.mocap.external = ExternalInput::Off;
        }
    }

    /// The newest datagram, if one came, to the performer.
    pub(super) fn poll_mocap(&mut self) {
        if let Some(listener) = self.mocap.listener.as_mut()
            && let Some(frame) = listener.poll(&self.character.skeleton)
        {
            self.performer.receive_external(frame);
        }
    }

    /// After another character is shown: the stream listened to again, retargeted onto it.
    pub(super) fn relisten(&mut self) {
        if let Some(listener) = self.mocap.listener.take() {
            let address = listener.address().to_string();
            let skeleton = listener.skeleton_file().to_path_buf();
            drop(listener);
            let _ = self.listen(&address, &skeleton);
        }
    }
}
