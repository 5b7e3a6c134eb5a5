//! Driven movement's rates: each clip's ground speed (how fast its planted feet travel played in
//! place), measured once, and the playback rate that matches a commanded speed to it.

use super::{Inputs, Performer};
use crate::character::Character;
use crate::graph::MoveMode;

impl Performer {
    /// A clip's ground speed: how fast its planted feet travel across their contacts played in
    /// place, on average (what a driven character must travel at for them not to slide), on the
    /// legs of `leg_ends`. Measured once per clip and set of legs.
    pub fn ground_speed(&mut self, c: &Character, leg_ends: &[usize], clip: usize) -> f32 {
        self.sync_legs(c, leg_ends);
        if let Some(Some(v)) = self.ground_speeds.get(clip) {
            return *v;
        }
        let slides = crate::pose::foot_slide(c, clip, &self.planter.legs, None);
        let planted: Vec<f32> = slides
            .iter()
            .filter(|s| s.travel > 0.0)
            .map(|s| s.travel)
            .collect();
        let v = if planted.is_empty() {
            0.0
        } else {
            planted.iter().sum::<f32>() / planted.len() as f32
        };
        if let Some(slot) = self.ground_speeds.get_mut(clip) {
            *slot = Some(v);
        }
        v
    }

    /// The playback rate driven mode plays the clips at: the commanded speed over the clips'
    /// ground speed (blended by weight; under the state machine, its current motion's clips),
    /// so the feet match the travel.
    pub fn driven_rate(&mut self, c: &Character, inputs: &Inputs) -> Option<f32> {
        if inputs.moving() != MoveMode::Driven {
            return None;
        }
        let parts: Vec<(usize, f32)> = if let Some(m) = self.graph(inputs) {
            // The state machine picked the clips (its `speed` parameter); the rate follows.
            let (a, blend) = m.motion().source(c);
            match blend {
                Some(b) => vec![(a.clip, 1.0 - b.weight), (b.b, b.weight)],
                None => vec![(a.clip, 1.0)],
            }
        } else if let Some(b) = inputs.played_blend() {
            let w = b.weight.clamp(0.0, 1.0);
            vec![(b.a, 1.0 - w), (b.b, w)]
        } else {
            inputs.clip.map(|k| (k, 1.0)).into_iter().collect()
        };
        let ground: f32 = parts
            .iter()
            .map(|&(k, w)| self.ground_speed(c, &inputs.leg_ends, k) * w)
            .sum();
        (ground > 1e-6).then(|| inputs.drive_speed / ground)
    }
}
