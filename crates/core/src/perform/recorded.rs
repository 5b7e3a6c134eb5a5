//! The performer's side of a history (`crate::history`): the state a frame's tracks show, and a
//! copy of the performer to resume from.

use crate::character::Character;
use crate::history::{FrameState, MatchedFrame};

use super::{Inputs, Performer};

impl Performer {
    /// What played in the frame just stepped and posed, for the history's tracks: `dt_secs`
    /// the step, `request` what was posed (its reach targets); the time is the history's.
    pub fn frame_state(
        &self,
        c: &Character,
        inputs: &Inputs,
        request: &crate::pose::PoseRequest,
        dt_secs: f32,
    ) -> FrameState {
        let playing = inputs.playing();
        let clip = self
            .timeline_clip(c, playing)
            .filter(|&k| k < c.clips.len());
        let name = |k: usize| c.clips.get(k).map(|d| d.clip.name().to_string());
        let machine = self.machine.as_ref().filter(|_| inputs.graph_asked());
        let matching = inputs.motion_matching.map(|_| {
            let s = &self.matching().stats;
            MatchedFrame {
                frame: s.frame,
                cost: s.cost,
                searches: s.searches,
                switches: s.switches,
            }
        });
        let physics_weight = request.physics.as_ref().map_or(0.0, |p| {
            p.weights.weights().iter().copied().fold(0.0, f32::max)
        });
        let placement = self.locomotion.placement();
        FrameState {
            time_secs: 0.0,
            dt_secs,
            clip: clip.and_then(name),
            clip_time: self.time_secs(c, playing),
            blend: inputs
                .played_blend()
                .and_then(|b| Some((name(b.b)?, b.weight))),
            transition: self
                .transition_progress()
                .map(|(inertial, p)| (p, inertial)),
            state: machine.map(|m| m.state_name(m.current_state()).to_string()),
            parameters: machine.map_or_else(Vec::new, |m| {
                (m.graph.parameters.iter().enumerate())
                    .map(|(k, p)| (p.name.clone(), m.value(k)))
                    .collect()
            }),
            layers: (0..inputs.layers.len())
                .map(|k| self.layer_weight(k))
                .collect(),
            events: (self.fired().iter())
                .map(|e| format!("{}:{}", name(e.clip).unwrap_or_default(), e.name))
                .collect(),
            matching,
            external_weight: self
                .external
                .weight(inputs.external, inputs.blend_back_secs),
            physics_weight,
            ik_targets: request.ik.iter().map(|t| t.target.to_array()).collect(),
            position: placement.position.to_array(),
            yaw: placement.yaw,
        }
    }

    /// A copy of the performer to resume from: every clock, the transition, the layers, the
    /// state machine, the locomotion and its trail, the feet, motion matching, the external
    /// pose's clocks, the ragdoll in a copy of its world and the muscles' simulation.
    pub fn snapshot(&self) -> Performer {
        Performer {
            playback: self.playback.clone(),
            playing_clip: self.playing_clip,
            synced: self.synced.clone(),
            transition: self.transition.clone(),
            layers: self.layers.clone(),
            machine: self.machine.clone(),
            locomotion: self.locomotion.clone(),
            planter: self.planter.clone(),
            default_root_joint: self.default_root_joint,
            ground_speeds: self.ground_speeds.clone(),
            steps: self.steps.clone(),
            fired: self.fired.clone(),
            contacts: self.contacts.clone(),
            external: self.external.clone(),
            physics: self.physics.snapshot(),
            muscles: self.muscles.snapshot(),
            height: self.height,
            matching: self.matching.clone(),
            matched_from: self.matched_from,
        }
    }

    /// Roughly the bytes a snapshot holds (for the history's budget).
    pub fn snapshot_bytes(&self) -> usize {
        std::mem::size_of::<Performer>()
            + self.locomotion.trail.len() * std::mem::size_of::<glam::Vec3>()
            + self.layers.len() * 256
            + self.ground_speeds.len() * 8
            + self
                .machine
                .as_ref()
                .map_or(0, |m| 256 + m.graph.parameters.len() * 8)
            // A ragdoll's world (its bodies, colliders, joints and contacts) and the muscles.
            + self.physics.ragdoll().map_or(0, |r| r.bodies().count() * 2048)
            + self.muscles.sim().map_or(0, |s| s.x.len() * 64)
    }
}
