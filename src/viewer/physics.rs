//! The viewer's physics pose: the ragdoll stepped once a frame over the animated pose
//! (`Performer::apply_physics`), and a click with Alt held pushing the body it hits.

use glam::{Vec2, Vec3};

use super::Viewer;
use crate::debug::picking::{Pick, ScreenView};
use crate::pose::PoseRequest;
use crate::posed::PosedVertices;

impl Viewer {
    /// The physics stage of the frame just posed from `request` (the animated pose): the
    /// ragdoll stepped by the frame's time, the physics pose laid over it.
    pub(super) fn pose_physics(&mut self, request: &mut PoseRequest) {
        let inputs = self.controls.inputs(&self.character);
        // The frame's time is stepped once: a frame posed again (after a seek) steps nothing.
        let dt = std::mem::take(&mut self.frame_dt_secs);
        let c = &self.character;
        let result = self
            .performer
            .apply_physics(c, &inputs, request, &mut self.pose, dt);
        // A ragdoll that cannot be built is said in the panel (the player keeps why), once.
        if let Err(crate::perform::PhysicsStageError::Pose(e)) = result {
            log::error!("the physics pose failed: {e}");
        }
        // Then the muscles, by the same time, toward the frame's final joints.
        (self.performer).apply_muscles(&inputs, request, &mut self.pose, dt);
    }

    /// A push at `at` (points) in the 3D view `view`: the body under the cursor (the joint
    /// picked, or the heaviest joint of the vertex picked) takes an impulse of
    /// `Controls::push_impulse` along the view ray at the point hit. Returns whether a body
    /// was pushed (the physics must be on).
    pub fn push(&mut self, at: Vec2, view: &ScreenView, drawn: Option<&PosedVertices>) -> bool {
        if self.controls.physics.input.mode.is_none()
            || self.performer.physics().ragdoll().is_none()
        {
            return false;
        }
        let s = &self.character.skeleton;
        let (joint, point) = match self.pick_under(at, view, drawn) {
            Pick::Joint(j) => (j, Vec3::from(self.pose.model.as_slice()[j].translation)),
            Pick::Vertex(v) => {
                let heaviest = v.influences.iter().max_by(|a, b| a.2.total_cmp(&b.2));
                let Some(j) = heaviest.and_then(|(name, _, _)| s.find(name)) else {
                    return false;
                };
                (j, v.position)
            }
            Pick::Nothing => return false,
        };
        // The view ray through the cursor: the point's clip position at the near and far planes.
        let world_from_clip = view.clip_from_world.inverse();
        let clip = view.clip_from_world * point.extend(1.0);
        let (x, y) = (clip.x / clip.w, clip.y / clip.w);
        let near = world_from_clip.project_point3(Vec3::new(x, y, 0.0));
        let far = world_from_clip.project_point3(Vec3::new(x, y, 1.0));
        let direction = (far - near).normalize_or_zero();
        let impulse = direction * self.controls.physics.push_impulse;
        self.performer.impulse(joint, impulse, Some(point))
    }
}
