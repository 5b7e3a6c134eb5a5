//! The joints held after every step. rapier's angular limit rows drift under a chain's impacts
//! (on the mannequin dropped limp we measured swings well over 100 degrees past their cone) and
//! its ball joints stretch by a percent or so under a fall at 32 substeps. So after each step,
//! parents before children, each child body's subtree is moved rigidly back onto its joint's
//! anchor on the parent, and a joint whose child left its cone or twist range is brought back to
//! the nearest allowed rotation (the subtree turned about the joint, its spin relative to the
//! parent stopped). rapier does the dynamics, the contacts and the joints; this only removes
//! their residual error.

use glam::{Quat, Vec3};

use super::{Ragdoll, gq, gv, pose, rv};

/// `r` split as `swing * twist`: the twist about X, then the swing taking X where `r` takes it.
pub fn swing_twist(r: Quat) -> (Quat, Quat) {
    crate::anim::swing_twist(r, Vec3::X)
}

/// The angle of a rotation about X (`twist`), in -pi..pi.
pub fn twist_angle(twist: Quat) -> f32 {
    2.0 * twist.x.atan2(twist.w)
}

/// The angle of a rotation (`swing`), 0..pi.
pub fn swing_angle(swing: Quat) -> f32 {
    let s = if swing.w < 0.0 { -swing } else { swing };
    2.0 * Vec3::new(s.x, s.y, s.z).length().atan2(s.w)
}

impl Ragdoll {
    /// See the module's documentation.
    pub(super) fn project_limits(&mut self) {
        for i in 0..self.specs.len() {
            let Some((_, frames)) = self.joints[i] else {
                continue;
            };
            let parent = &self.world.bodies[self.handles[frames.parent_body]];
            let (parent_rotation, parent_spin) = (gq(*parent.rotation()), gv(parent.angvel()));
            let child = &self.world.bodies[self.handles[i]];
            if !child.is_dynamic() {
                continue;
            }
            let (child_rotation, child_at) = (gq(*child.rotation()), gv(child.translation()));
            // Back onto the anchor: the joint where the parent holds it.
            let parent_at = gv(parent.translation());
            let held = parent_at + parent_rotation * frames.in_parent.0;
            let drift = held - (child_at + child_rotation * frames.in_child.0);
            if drift.length_squared() > 0.0 {
                self.move_subtree(i, drift);
            }
            let child_at = child_at + drift;
            let f1 = parent_rotation * frames.in_parent.1;
            let f2 = child_rotation * frames.in_child.1;
            let (swing, twist) = swing_twist(f1.inverse() * f2);
            let limits = self.specs[i].limits;
            let (s, t) = (swing_angle(swing), twist_angle(twist));
            if s <= limits.swing && t.abs() <= limits.twist {
                continue;
            }
            let swing = if s > limits.swing {
                let (axis, _) = swing.to_axis_angle();
                Quat::from_axis_angle(axis, limits.swing)
            } else {
                swing
            };
            let twist = Quat::from_rotation_x(t.clamp(-limits.twist, limits.twist));
            let wanted = f1 * swing * twist * frames.in_child.1.inverse();
            let turn = (wanted * child_rotation.inverse()).normalize();
            let anchor = child_at + child_rotation * frames.in_child.0;
            self.turn_subtree(i, turn, anchor);
            let child = &mut self.world.bodies[self.handles[i]];
            child.set_angvel(rv(parent_spin), true);
        }
    }

    /// Moves body `i` and every body below it by `by`.
    fn move_subtree(&mut self, i: usize, by: Vec3) {
        let mut stack = vec![i];
        while let Some(k) = stack.pop() {
            let body = &mut self.world.bodies[self.handles[k]];
            let at = gv(body.translation()) + by;
            body.set_translation(rv(at), true);
            stack.extend(self.children[k].iter().copied());
        }
    }

    /// Turns body `i` and every body below it by `turn` about the world point `anchor`.
    fn turn_subtree(&mut self, i: usize, turn: Quat, anchor: Vec3) {
        let mut stack = vec![i];
        while let Some(k) = stack.pop() {
            let body = &mut self.world.bodies[self.handles[k]];
            let at = anchor + turn * (gv(body.translation()) - anchor);
            let rotation = (turn * gq(*body.rotation())).normalize();
            body.set_position(pose(at, rotation), true);
            stack.extend(self.children[k].iter().copied());
        }
    }
}
