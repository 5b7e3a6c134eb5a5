//! Motion matching's goal trajectory: critically damped springs carrying a
//! character's velocity toward a desired velocity and its facing toward a desired facing, in
//! closed form, exact for any time step (Daniel Holden's "spring-roll-call" character spring,
//! as orangeduck/Motion-Matching's controller uses it). Pure functions over glam.

use glam::{Quat, Vec3};

use super::inertialize::rotation_vector;

/// The damping of a spring that halves its error every `half_life_secs` (`4 ln 2 / h`).
pub fn damping_of_half_life(half_life_secs: f32) -> f32 {
    (4.0 * std::f32::consts::LN_2) / half_life_secs.max(1e-5)
}

/// A point moving at a velocity that springs toward a goal velocity: position, velocity and
/// acceleration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VelocitySpring {
    pub position: Vec3,
    pub velocity: Vec3,
    pub acceleration: Vec3,
}

impl VelocitySpring {
    /// The state `dt_secs` later, the velocity carried toward `goal` with `half_life_secs`.
    pub fn after(self, goal: Vec3, half_life_secs: f32, dt_secs: f32) -> Self {
        let y = damping_of_half_life(half_life_secs) / 2.0;
        let j0 = self.velocity - goal;
        let j1 = self.acceleration + j0 * y;
        let e = (-y * dt_secs).exp();
        Self {
            position: e * ((-j1) / (y * y) + (-j0 - j1 * dt_secs) / y)
                + j1 / (y * y)
                + j0 / y
                + goal * dt_secs
                + self.position,
            velocity: e * (j0 + j1 * dt_secs) + goal,
            acceleration: e * (self.acceleration - j1 * y * dt_secs),
        }
    }
}

/// A facing that springs toward a goal facing: its rotation and angular velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FacingSpring {
    pub rotation: Quat,
    pub angular_velocity: Vec3,
}

impl Default for FacingSpring {
    fn default() -> Self {
        Self {
            rotation: Quat::IDENTITY,
            angular_velocity: Vec3::ZERO,
        }
    }
}

impl FacingSpring {
    /// The state `dt_secs` later, carried toward `goal` with `half_life_secs`.
    pub fn after(self, goal: Quat, half_life_secs: f32, dt_secs: f32) -> Self {
        let y = damping_of_half_life(half_life_secs) / 2.0;
        let j0 = rotation_vector(self.rotation * goal.inverse());
        let j1 = self.angular_velocity + j0 * y;
        let e = (-y * dt_secs).exp();
        Self {
            rotation: (Quat::from_scaled_axis(e * (j0 + j1 * dt_secs)) * goal).normalize(),
            angular_velocity: e * (self.angular_velocity - j1 * y * dt_secs),
        }
    }
}

/// The goal trajectory: where the springs carry the character `ahead_secs` from now (each
/// entry), toward `velocity` and `facing`: positions and facings.
pub fn predict(
    (position, facing): (VelocitySpring, FacingSpring),
    (velocity, goal_facing): (Vec3, Quat),
    half_life_secs: f32,
    ahead_secs: &[f32],
    out: &mut [(Vec3, Quat)],
) {
    for (o, &t) in out.iter_mut().zip(ahead_secs) {
        let p = position.after(velocity, half_life_secs, t);
        let f = facing.after(goal_facing, half_life_secs, t);
        *o = (p.position, f.rotation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_velocity_closes_three_quarters_of_its_error_in_a_half_life_from_rest() {
        // From rest toward 1 m/s with a 0.2 s half-life: v(h) = 1 - e^(-2 ln 2) (1 + 2 ln 2)
        // = 1 - (1 + 1.3863) / 4 = 0.40343.
        let s = VelocitySpring::default().after(Vec3::X, 0.2, 0.2);
        assert!((s.velocity.x - 0.40343).abs() < 1e-4, "{}", s.velocity.x);
        // The position is the velocity's integral: 2,000 small steps agree with one big one.
        let mut small = VelocitySpring::default();
        for _ in 0..2000 {
            small = small.after(Vec3::X, 0.2, 0.001);
        }
        let big = VelocitySpring::default().after(Vec3::X, 0.2, 2.0);
        assert!((small.position - big.position).length() < 1e-4);
        assert!((small.velocity - big.velocity).length() < 1e-5);
        // Long after: at the goal speed, and 2 / y behind a point that always moved at it
        // (x(t) = t - 2 / y, y = 2 ln 2 / h).
        let y = 2.0 * std::f32::consts::LN_2 / 0.2;
        assert!((big.velocity.x - 1.0).abs() < 1e-4);
        assert!(
            (big.position.x - (2.0 - 2.0 / y)).abs() < 1e-3,
            "{}",
            big.position.x
        );
    }

    #[test]
    fn the_facing_turns_toward_its_goal_and_settles_there() {
        let goal = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let start = FacingSpring::default();
        let half = start.after(goal, 0.3, 0.3);
        let left = half.rotation.angle_between(goal);
        // The same fraction left as the velocity spring's: (1 + 2 ln 2) / 4 of 90 degrees.
        let want = (1.0 + 2.0 * std::f32::consts::LN_2) / 4.0 * std::f32::consts::FRAC_PI_2;
        assert!((left - want).abs() < 1e-3, "{left} vs {want}");
        let settled = start.after(goal, 0.3, 5.0);
        assert!(settled.rotation.angle_between(goal) < 1e-3);
        // The trajectory ahead: the springs at 1/3, 2/3 and 1 s.
        let mut out = [(Vec3::ZERO, Quat::IDENTITY); 3];
        let now = (VelocitySpring::default(), start);
        predict(
            now,
            (Vec3::Z, goal),
            0.3,
            &[1.0 / 3.0, 2.0 / 3.0, 1.0],
            &mut out,
        );
        assert!(out[0].0.z < out[1].0.z && out[1].0.z < out[2].0.z);
        assert_eq!(
            out[2].0,
            VelocitySpring::default().after(Vec3::Z, 0.3, 1.0).position
        );
    }
}
