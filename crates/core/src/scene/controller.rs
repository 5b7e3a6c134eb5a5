//! The movement controller: moves a character's placement by the travel root motion hands it
//! (or a commanded speed), keeping it on the walkable area, out of walls, off steps too high to
//! climb, and at the ground's height.

use glam::{Vec2, Vec3};

use super::Ground;
use crate::anim::Placement;

/// What the controller allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverSettings {
    /// How close the character's centre may come to a wall.
    pub radius: f32,
    /// The highest rise it climbs in one move (a step up to this height is walked onto).
    pub max_step: f32,
}

/// A placement moved over a ground.
#[derive(Clone, Debug, PartialEq)]
pub struct Mover {
    pub placement: Placement,
    pub settings: MoverSettings,
}

impl Mover {
    pub fn new(settings: MoverSettings) -> Self {
        Self {
            placement: Placement::default(),
            settings,
        }
    }

    /// Moves by `travel` (world, horizontal) and turns by `turn` radians: the move is pushed out
    /// of walls (sliding along them), clamped to the walkable area, refused where the ground
    /// rises more than `max_step`, and the height set to the ground's.
    pub fn step(&mut self, ground: &Ground, travel: Vec3, turn: f32) {
        let p = &mut self.placement;
        p.yaw += turn;
        let from = Vec2::new(p.position.x, p.position.z);
        let mut to = from + Vec2::new(travel.x, travel.z);
        let r = self.settings.radius;
        for wall in &ground.walls {
            let along = wall.to - wall.from;
            let len = along.length();
            if len < 1e-6 {
                continue;
            }
            let dir = along / len;
            // The wall's normal on the side the character comes from.
            let mut normal = Vec2::new(-dir.y, dir.x);
            if (from - wall.from).dot(normal) < 0.0 {
                normal = -normal;
            }
            let u = (to - wall.from).dot(dir);
            let distance = (to - wall.from).dot(normal);
            if (-r..=len + r).contains(&u) && distance < r {
                // Held `radius` off the wall (also when the move would cross it), sliding along.
                to += normal * (r - distance);
            }
        }
        if let Some((min, max)) = ground.area {
            to = to.clamp(min + Vec2::splat(r), max - Vec2::splat(r));
        }
        let rise = ground.height(to.x, to.y) - ground.height(from.x, from.y);
        if rise > self.settings.max_step {
            to = from;
        }
        p.position = Vec3::new(to.x, ground.height(to.x, to.y), to.y);
    }
}
