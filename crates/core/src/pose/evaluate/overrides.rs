//! Stages 3b and 4 of `CharacterPose::evaluate`: what is laid over the sampled pose, the
//! external pose on the joints it drives, then each layer in order.

use super::{CharacterPose, Outside, sample_clip_data};
use crate::anim::{self, PoseError};
use crate::character::Character;
use crate::pose::request::{
    ClipTime, ExternalPose, ExternalSource, LayerBlend, PoseRequest, clip_time,
};

impl CharacterPose {
    /// Stage 3b: the external pose's joints over `local`: a clip's keyed joints (sampled at its
    /// own time), or a live frame's.
    pub(super) fn apply_external(
        &mut self,
        c: &Character,
        external: &ExternalPose,
        request: &PoseRequest,
    ) -> Result<(), PoseError> {
        if external.weight <= 0.0 || !external.weight.is_finite() {
            return Ok(());
        }
        match &external.source {
            ExternalSource::Live(frame) => {
                self.local_state = Outside::Other;
                anim::apply_external(&mut self.local, frame, external.weight)
            }
            ExternalSource::Clip(at) => {
                let Some(clip) = c.clips.get(at.clip) else {
                    return Ok(());
                };
                let [slot, ..] = &mut self.work;
                let time = clip_time(c, *at, request.wrap);
                let data = (request.compressed, &mut self.cursors[at.clip]);
                sample_clip_data(c, at.clip, time, data, &mut slot.pose, &mut slot.state)?;
                self.local_state = Outside::Other;
                for track in clip.clip.tracks() {
                    let drive = match track.channel {
                        anim::Channel::Rotation(_) => anim::Drive::Rotation,
                        anim::Channel::Translation(_) => anim::Drive::Translation,
                        anim::Channel::Scale(_) => continue,
                    };
                    let (pose, w) = (&slot.pose, external.weight);
                    anim::drive_joint(&mut self.local, pose, track.joint, drive, w)?;
                }
                Ok(())
            }
        }
    }

    /// Stage 4: each layer of the request over `local`, in order.
    pub(super) fn apply_layers(
        &mut self,
        c: &Character,
        request: &PoseRequest,
    ) -> Result<(), PoseError> {
        for layer in &request.layers {
            if layer.clip.clip >= c.clips.len() {
                continue;
            }
            let [clip, other, ..] = &mut self.work;
            let time = clip_time(c, layer.clip, request.wrap);
            let cursor = &mut self.cursors[layer.clip.clip];
            let data = (request.compressed, cursor);
            sample_clip_data(
                c,
                layer.clip.clip,
                time,
                data,
                &mut clip.pose,
                &mut clip.state,
            )?;
            let mask = layer.mask.as_deref();
            self.local_state = Outside::Other;
            match layer.blend {
                LayerBlend::Override => {
                    if let Some((prev, w)) = layer.fading_out.filter(|f| f.0.clip < c.clips.len()) {
                        let time = clip_time(c, prev, request.wrap);
                        let data = (request.compressed, &mut self.cursors[prev.clip]);
                        sample_clip_data(
                            c,
                            prev.clip,
                            time,
                            data,
                            &mut other.pose,
                            &mut other.state,
                        )?;
                        anim::blend_pair(&mut clip.pose, &other.pose, w)?;
                        clip.state = Outside::Other;
                    }
                    anim::apply_override(&mut self.local, &clip.pose, mask, layer.weight)?;
                }
                LayerBlend::Additive { reference } => {
                    let reference = reference.unwrap_or(ClipTime {
                        clip: layer.clip.clip,
                        time_secs: 0.0,
                    });
                    let reference = ClipTime {
                        clip: reference.clip.min(c.clips.len() - 1),
                        ..reference
                    };
                    let time = clip_time(c, reference, request.wrap);
                    let data = (request.compressed, &mut self.cursors[reference.clip]);
                    let (pose, state) = (&mut other.pose, &mut other.state);
                    sample_clip_data(c, reference.clip, time, data, pose, state)?;
                    anim::apply_additive(
                        &mut self.local,
                        &clip.pose,
                        &other.pose,
                        mask,
                        layer.weight,
                    )?;
                }
            }
        }
        Ok(())
    }
}
