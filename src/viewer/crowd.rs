//! The window's crowd: made, remade or dropped as the panel asks, and posed each frame, far
//! members less often when level of detail is on.

use super::{Viewer, WindowRequest};
use crate::pose::{Crowd, CrowdLod};

impl Viewer {
    /// Makes, remakes or drops the crowd as `Controls::crowd` asks, and poses it.
    pub(super) fn pose_crowd(&mut self) {
        let c = &self.character;
        self.controls.view.crowd = self.controls.view.crowd.min(self.crowd_limit);
        let members = self.controls.view.crowd;
        if members == 0 {
            if self.crowd.take().is_some() {
                // Back to one character: frame it again.
                self.window_requests.push(WindowRequest::FrameCamera);
            }
            return;
        }
        if self
            .crowd
            .as_ref()
            .is_none_or(|crowd| crowd.len() != members)
        {
            let clips = (
                self.controls.playback.blend_a,
                self.controls.playback.blend_b,
            );
            let spacing = crate::draw::crowd_spacing(c, clips);
            self.crowd = Some(Crowd::new(c, members, clips, spacing));
            self.window_requests.push(WindowRequest::FrameCamera);
        }
        if let Some(crowd) = self.crowd.as_mut() {
            crowd.compressed = self.controls.debug.compressed;
            match self.camera_eye.filter(|_| self.controls.view.crowd_lod) {
                Some(eye) => {
                    let lod = CrowdLod::for_height(self.derived.height);
                    crowd.update_lod(c, self.crowd_clock, eye, lod);
                }
                None => crowd.update(c, self.crowd_clock),
            }
        }
    }
}
