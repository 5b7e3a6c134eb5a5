//! The muscles' player: the character's XPBD muscles (`anim::MuscleSim`) stepped at
//! a fixed 60 Hz after the physics pose, each step toward the rigid positions the frame's
//! joints give; or, posing a single frame (`dynamic` off: the command line without
//! `--simulate`), settled at that frame's pose. A seek or a cue starts them again at rest.

use std::sync::Arc;

use glam::{Affine3A, Vec3};

use super::{Inputs, Performer};
use crate::anim::MuscleSim;
use crate::pose::{CharacterPose, MuscleFrame, MuscleRig, PoseRequest};

/// The muscles' fixed step rate.
pub const MUSCLE_HZ: f32 = 60.0;
/// Steps a settled frame takes at its still pose (3 s: damping leaves under 1e-5).
pub const SETTLE_STEPS: usize = 180;

/// The muscles as asked for: the bound muscles, and whether they move in time.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleInput {
    pub rig: Arc<MuscleRig>,
    /// True: stepped by the frames' time (jiggle). False: settled at each frame's pose.
    pub dynamic: bool,
}

/// The simulation, its clock and the frame handed out.
#[derive(Default)]
pub struct MusclePlayer {
    rig: Option<Arc<MuscleRig>>,
    sim: Option<MuscleSim>,
    moved: Vec<Affine3A>,
    rigid: Vec<Vec3>,
    frame: crate::anim::Handoff<MuscleFrame>,
    owed_secs: f32,
    /// Fixed steps since the muscles last started at rest.
    pub steps: u64,
}

impl MusclePlayer {
    /// A copy to resume from: the simulation and its clock; the frames handed out are this
    /// player's (the copy fills its own).
    pub fn snapshot(&self) -> Self {
        Self {
            rig: self.rig.clone(),
            sim: self.sim.clone(),
            moved: self.moved.clone(),
            rigid: self.rigid.clone(),
            frame: Default::default(),
            owed_secs: self.owed_secs,
            steps: self.steps,
        }
    }

    /// The simulation, once started.
    pub fn sim(&self) -> Option<&MuscleSim> {
        self.sim.as_ref()
    }

    /// Starts again at rest at the next frame.
    pub fn restart(&mut self) {
        self.sim = None;
        self.owed_secs = 0.0;
        self.steps = 0;
    }
}

impl Performer {
    /// The muscles' player.
    pub fn muscles(&self) -> &MusclePlayer {
        &self.muscles
    }

    /// The muscles start again at rest on the next frame's pose.
    pub fn restart_muscles(&mut self) {
        self.muscles.restart();
    }

    /// The muscles stage of a frame posed from `request` into `pose`: the muscles stepped by
    /// `dt_secs` of real time at a fixed 60 Hz toward the pose's joints (or settled there), and
    /// their displacement handed to `request` and `pose` for the skin. Off: nothing.
    pub fn apply_muscles(
        &mut self,
        inputs: &Inputs,
        request: &mut PoseRequest,
        pose: &mut CharacterPose,
        dt_secs: f32,
    ) {
        let Some(input) = &inputs.muscles else {
            self.muscles.rig = None;
            self.muscles.restart();
            request.muscles = None;
            pose.muscles = None;
            return;
        };
        let player = &mut self.muscles;
        if !player
            .rig
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, &input.rig))
        {
            player.rig = Some(input.rig.clone());
            player.restart();
        }
        let rig = &input.rig;
        rig.moved_into(pose.model.as_slice(), &mut player.moved);
        player.rigid.resize(rig.system.particle_count(), Vec3::ZERO);
        rig.system.rigid_into(&player.moved, &mut player.rigid);
        let step = 1.0 / MUSCLE_HZ;
        let sim = match &mut player.sim {
            Some(sim) if input.dynamic => sim,
            slot => {
                // A first frame, or a settled one: at rest on this pose, then still.
                let sim = slot.get_or_insert_with(|| MuscleSim::new(&rig.system, &player.rigid));
                sim.reset(&player.rigid);
                if !input.dynamic {
                    for _ in 0..SETTLE_STEPS {
                        sim.step(&rig.system, &player.rigid, step, &rig.params);
                    }
                }
                player.owed_secs = 0.0;
                sim
            }
        };
        if input.dynamic {
            let due =
                super::physics::fixed_steps(&mut player.owed_secs, inputs.playing, dt_secs, step);
            for _ in 0..due {
                sim.step(&rig.system, &player.rigid, step, &rig.params);
                player.steps += 1;
            }
        }
        let n = rig.system.particle_count();
        let frame = player.frame.next_mut(|| MuscleFrame {
            rig: rig.clone(),
            displacement: vec![Vec3::ZERO; n],
            positions: vec![Vec3::ZERO; n],
        });
        if !Arc::ptr_eq(&frame.rig, rig) {
            frame.rig = rig.clone();
        }
        frame.displacement.resize(n, Vec3::ZERO);
        frame.positions.clear();
        sim.displacement_into(&mut frame.displacement);
        // The skin follows a muscle by at most its radius: a muscle over the outside of a
        // joint (the triceps at the elbow) cuts the corner, with no bone to wrap over.
        for body in &rig.system.bodies {
            let range = body.first..body.first + crate::anim::PARTICLES_PER_MUSCLE;
            for d in &mut frame.displacement[range] {
                *d = d.clamp_length_max(body.shape.radius);
            }
        }
        frame.positions.extend(sim.positions());
        let handed = player.frame.hand_out();
        request.muscles.clone_from(&handed);
        pose.muscles = handed;
    }
}
