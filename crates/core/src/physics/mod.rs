//! The physics pose: a ragdoll of the character simulated by rapier3d (a kept rigid-body
//! engine; no solver is written here). A capsule per joint that weighs some vertex most
//! (`body::body_specs`), spherical joints with swing and twist limits by body part, mass from
//! the capsules' volume at the density of water, gravity, and the ground as colliders. Each step
//! reads the frame's animated (world) pose: bodies of joints weighing 0 follow it kinematically;
//! the others are simulated, limp or driven toward it (a powered ragdoll: each body's velocity
//! eased toward closing its distance to the animated body at `stiffness` per second). The bodies
//! do not collide with each other, only with the ground. After each step the joints' residual
//! drift is removed (`limits`). `Ragdoll::pose_into` reads the bodies back as local rotations
//! (and the root body's translation), which the pose's last stage blends over the animation by
//! the joints' weights.

use glam::{Affine3A, Quat, Vec3};
use rapier3d::prelude::{
    ColliderBuilder, GenericJointBuilder, Group, ImpulseJointHandle, InteractionGroups,
    InteractionTestMode, JointAxesMask, JointAxis, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
    RigidBodyType,
};

use crate::anim::{JointMask, LocalPose, ModelPose, rotation_vector};
use crate::character::Character;
use crate::scene::Ground;

pub mod body;
mod limits;

pub use body::{BodySpec, Limits, body_specs, limits_for};

/// Kilograms a cubic unit (water), the scene's units read as metres.
pub const DENSITY: f32 = 1000.0;
/// A powered ragdoll's default stiffness, and the most (a step's whole error closed per step).
pub const DEFAULT_STIFFNESS: f32 = 20.0;
pub const MAX_STIFFNESS: f32 = 60.0;
/// Simulated steps a second: the physics runs at a fixed 60 Hz.
pub const PHYSICS_HZ: f32 = 60.0;

/// How the simulated bodies move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PhysicsMode {
    /// Driven toward the animated pose at the stiffness.
    #[default]
    Powered,
    /// No drive: only gravity, the joints and the ground.
    Limp,
}

/// Why a ragdoll could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PhysicsError {
    #[error("{0}: no joint weighs a vertex, so there is no body to simulate")]
    NoBodies(String),
}

fn rv(v: Vec3) -> rapier3d::math::Vector {
    rapier3d::math::Vector::new(v.x, v.y, v.z)
}

fn gv(v: rapier3d::math::Vector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

fn rq(q: Quat) -> rapier3d::math::Rotation {
    rapier3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w)
}

fn gq(q: rapier3d::math::Rotation) -> Quat {
    Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

fn pose(t: Vec3, q: Quat) -> rapier3d::math::Pose {
    rapier3d::math::Pose::from_parts(rv(t), rq(q))
}

/// A joint frame of the ragdoll: where each body holds it (in the body's frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointFrames {
    pub parent_body: usize,
    pub in_parent: (Vec3, Quat),
    pub in_child: (Vec3, Quat),
}

/// One body now: its joint, world rotation and position (the joint's), and its capsule radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    pub joint: usize,
    pub rotation: Quat,
    pub position: Vec3,
    pub radius: f32,
    /// Its mass (from its capsule's volume at `DENSITY`).
    pub mass: f32,
}

/// A character's ragdoll in its rapier world: see the module's documentation.
pub struct Ragdoll {
    world: PhysicsWorld,
    specs: Vec<BodySpec>,
    handles: Vec<RigidBodyHandle>,
    joints: Vec<Option<(ImpulseJointHandle, JointFrames)>>,
    /// The body of each skeleton joint, and each joint's parent.
    body_of: Vec<Option<usize>>,
    parents: Vec<Option<usize>>,
    placed: bool,
    height: f32,
    /// Each body's child bodies, for moving a subtree.
    children: Vec<Vec<usize>>,
}

impl Clone for Ragdoll {
    /// The same ragdoll in a copy of its world (rapier's state: bodies, colliders, joints,
    /// islands, the broad and narrow phases with their contacts, the CCD solver; the pipelines'
    /// scratch made anew, as a snapshot restored), stepping on as this one would.
    fn clone(&self) -> Self {
        let w = &self.world;
        let world = PhysicsWorld {
            gravity: w.gravity,
            integration_parameters: w.integration_parameters,
            islands: w.islands.clone(),
            broad_phase: w.broad_phase.clone(),
            narrow_phase: w.narrow_phase.clone(),
            bodies: w.bodies.clone(),
            colliders: w.colliders.clone(),
            impulse_joints: w.impulse_joints.clone(),
            multibody_joints: w.multibody_joints.clone(),
            soft_bodies: w.soft_bodies.clone(),
            ccd_solver: w.ccd_solver.clone(),
            ..PhysicsWorld::default()
        };
        Self {
            world,
            specs: self.specs.clone(),
            handles: self.handles.clone(),
            joints: self.joints.clone(),
            body_of: self.body_of.clone(),
            parents: self.parents.clone(),
            placed: self.placed,
            height: self.height,
            children: self.children.clone(),
        }
    }
}

/// The ragdoll's collision groups: the bodies meet the ground only.
const BODIES: Group = Group::GROUP_1;
const GROUND: Group = Group::GROUP_2;

impl Ragdoll {
    /// The ragdoll of `c` (a character `height` tall) at rest, on `ground`.
    pub fn new(c: &Character, ground: &Ground, height: f32) -> Result<Self, PhysicsError> {
        let specs = body_specs(c, height);
        if specs.is_empty() {
            return Err(PhysicsError::NoBodies(c.name.clone()));
        }
        let mut world = PhysicsWorld::default();
        world.integration_parameters.dt = 1.0 / PHYSICS_HZ;
        // 8 substeps (rapier's advice for chains); what the joints still drift by is removed after
        // each step (`limits`).
        world.integration_parameters.num_solver_iterations = 8;
        // rapier's tolerances (allowed penetration, the speed contacts push out at) are tuned
        // for metre-sized bodies: a character far taller than a person (a file authored in
        // centimetres, read as glTF's metres) gets them scaled to its size.
        world.integration_parameters.length_unit = (height / 2.0).max(1.0);
        let bodies_group = InteractionGroups::new(BODIES, GROUND, InteractionTestMode::And);
        let mut handles = Vec::with_capacity(specs.len());
        for spec in &specs {
            let builder = RigidBodyBuilder::dynamic()
                .pose(pose(spec.rest_position, spec.rest_rotation))
                .linear_damping(0.05)
                .angular_damping(1.0)
                .can_sleep(false);
            let collider =
                ColliderBuilder::capsule_from_endpoints(rv(spec.a), rv(spec.b), spec.radius)
                    .density(DENSITY)
                    .friction(0.8)
                    .collision_groups(bodies_group);
            handles.push(world.insert(builder, collider).0);
        }
        let mut joints = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let Some(p) = spec.parent else {
                joints.push(None);
                continue;
            };
            let parent = &specs[p];
            // The joint frame at rest in the world: at the joint, its X axis along the bone.
            let frame_rotation = Quat::from_rotation_arc(Vec3::X, spec.bone);
            let in_body = |body: &BodySpec| {
                let inverse = body.rest_rotation.inverse();
                (
                    inverse * (spec.rest_position - body.rest_position),
                    (inverse * frame_rotation).normalize(),
                )
            };
            let frames = JointFrames {
                parent_body: p,
                in_parent: in_body(parent),
                in_child: in_body(spec),
            };
            let Limits { swing, twist } = spec.limits;
            // A ball joint: the positions locked, the bone's swing (its X axis away from the
            // parent's frame) inside a cone, its twist about itself limited.
            let joint = GenericJointBuilder::new(JointAxesMask::LIN_AXES)
                .coupled_axes(JointAxesMask::ANG_Y | JointAxesMask::ANG_Z)
                .local_frame1(pose(frames.in_parent.0, frames.in_parent.1))
                .local_frame2(pose(frames.in_child.0, frames.in_child.1))
                .limits(JointAxis::AngX, [-twist, twist])
                .limits(JointAxis::AngY, [0.0, swing])
                .contacts_enabled(false);
            let handle = world
                .impulse_joints
                .insert(handles[p], handles[i], joint, true);
            joints.push(Some((handle, frames)));
        }
        let mut body_of = vec![None; c.skeleton.joint_count()];
        for (i, spec) in specs.iter().enumerate() {
            body_of[spec.joint] = Some(i);
        }
        let ground_group = InteractionGroups::new(GROUND, BODIES, InteractionTestMode::And);
        for collider in ground_colliders(ground, height) {
            world
                .colliders
                .insert(collider.collision_groups(ground_group));
        }
        let specs_len = specs.len();
        let parents_of_bodies: Vec<Option<usize>> = specs.iter().map(|s| s.parent).collect();
        Ok(Self {
            world,
            specs,
            handles,
            joints,
            body_of,
            parents: (0..c.skeleton.joint_count())
                .map(|j| c.skeleton.parent(j))
                .collect(),
            placed: false,
            height,
            children: (0..specs_len)
                .map(|i| {
                    (0..specs_len)
                        .filter(|&k| parents_of_bodies[k] == Some(i))
                        .collect()
                })
                .collect(),
        })
    }

    /// The bodies as built.
    pub fn specs(&self) -> &[BodySpec] {
        &self.specs
    }

    /// The frames of each body's joint to its parent body (`None` for a root body).
    pub fn joint_frames(&self) -> impl Iterator<Item = Option<&JointFrames>> {
        self.joints.iter().map(|j| j.as_ref().map(|(_, f)| f))
    }

    /// The body of skeleton joint `joint`.
    pub fn body_of(&self, joint: usize) -> Option<usize> {
        self.body_of.get(joint).copied().flatten()
    }

    /// Each body now.
    pub fn bodies(&self) -> impl Iterator<Item = BodyState> + '_ {
        self.specs.iter().zip(&self.handles).map(|(spec, &h)| {
            let b = &self.world.bodies[h];
            BodyState {
                joint: spec.joint,
                rotation: gq(*b.rotation()),
                position: gv(b.translation()),
                radius: spec.radius,
                mass: b.mass(),
            }
        })
    }

    /// Each body's animated target in `animated`: its joint's world rotation and position.
    fn target(animated: &ModelPose, joint: usize) -> (Vec3, Quat) {
        let (_, rotation, translation) = animated.as_slice()[joint].to_scale_rotation_translation();
        (translation, rotation.normalize())
    }

    /// Puts every body at the animated pose, at rest (the first frame, and after a reset).
    pub fn place(&mut self, animated: &ModelPose) {
        for (i, spec) in self.specs.iter().enumerate() {
            let target = Self::target(animated, spec.joint);
            let body = &mut self.world.bodies[self.handles[i]];
            body.set_position(pose(target.0, target.1), true);
            body.set_linvel(rv(Vec3::ZERO), true);
            body.set_angvel(rv(Vec3::ZERO), true);
        }
        self.placed = true;
    }

    /// One fixed step of `dt_secs` toward the animated pose `animated`: bodies of joints
    /// weighing 0 follow it kinematically, the others are simulated, driven toward it at
    /// `stiffness` per second (powered) or not at all (limp).
    pub fn step(
        &mut self,
        animated: &ModelPose,
        weights: &JointMask,
        (mode, stiffness): (PhysicsMode, f32),
        dt_secs: f32,
    ) {
        if !self.placed {
            self.place(animated);
        }
        if dt_secs.is_nan() || dt_secs <= 0.0 {
            return;
        }
        let k = stiffness.clamp(0.0, 1.0 / dt_secs);
        // A target moving faster than this (a teleport, a clip's wrap) is not chased.
        let fastest = 20.0 * self.height;
        for (i, spec) in self.specs.iter().enumerate() {
            let target = Self::target(animated, spec.joint);
            let body = &mut self.world.bodies[self.handles[i]];
            let weight = weights.weights().get(spec.joint).copied().unwrap_or(1.0);
            if weight <= 0.0 {
                if body.body_type() != RigidBodyType::KinematicPositionBased {
                    body.set_body_type(RigidBodyType::KinematicPositionBased, true);
                }
                body.set_next_kinematic_position(pose(target.0, target.1));
                continue;
            }
            if body.body_type() != RigidBodyType::Dynamic {
                body.set_body_type(RigidBodyType::Dynamic, true);
            }
            if mode == PhysicsMode::Limp {
                continue;
            }
            let origin = gv(body.translation());
            let rotation = gq(*body.rotation());
            // The velocity that would close the distance to this frame's target at `k` per
            // second; the body's velocity moves toward it by `k dt` of the way each step (all
            // of it at the highest stiffness), so a push decays back rather than vanishing.
            let gain = k * dt_secs;
            let w_wanted = rotation_vector(target.1 * rotation.inverse()) * k;
            let v_wanted = ((target.0 - origin) * k).clamp_length_max(fastest);
            // The body's velocity is its centre of mass's; the origin (the joint) moves with it
            // and the spin.
            let com = gv(body.center_of_mass());
            let spin = gv(body.angvel());
            let w = spin + (w_wanted - spin) * gain;
            let v_now = gv(body.linvel()) - spin.cross(com - origin);
            let v_origin = v_now + (v_wanted - v_now) * gain;
            body.set_angvel(rv(w), true);
            body.set_linvel(rv(v_origin + w.cross(com - origin)), true);
        }
        self.world.integration_parameters.dt = dt_secs;
        self.world.step();
        self.project_limits();
    }

    /// An impulse (mass times velocity, scene units) on the body of `joint` (or its nearest
    /// ancestor with one), at `at` in the world or its centre of mass.
    pub fn impulse(&mut self, joint: usize, impulse: Vec3, at: Option<Vec3>) -> bool {
        let Some(i) = self.body_of_or_ancestor(joint) else {
            return false;
        };
        let body = &mut self.world.bodies[self.handles[i]];
        match at {
            Some(p) => body.apply_impulse_at_point(rv(impulse), rv(p), true),
            None => body.apply_impulse(rv(impulse), true),
        }
        true
    }

    fn body_of_or_ancestor(&self, joint: usize) -> Option<usize> {
        let mut j = Some(joint);
        while let Some(k) = j {
            if let Some(i) = self.body_of(k) {
                return Some(i);
            }
            j = self.parents.get(k).copied().flatten();
        }
        None
    }

    /// The bodies read back as a local pose into `out`: each body's joint takes the body's
    /// world rotation (relative to its parent as posed here) and keeps the animation's local
    /// translation and scale, so bones keep their lengths; a root body's joint takes its
    /// position too. Joints without a body keep the animated local transform.
    pub fn pose_into(
        &self,
        c: &Character,
        animated_local: &LocalPose,
        world: &mut Vec<Affine3A>,
        out: &mut LocalPose,
    ) {
        let s = &c.skeleton;
        world.clear();
        let locals = animated_local.as_slice();
        let outs = out.as_mut_slice();
        for j in 0..s.joint_count() {
            let parent_world = s.parent(j).map(|p| world[p]);
            let mut local = locals[j];
            if let Some(i) = self.body_of(j) {
                let b = &self.world.bodies[self.handles[i]];
                let rotation = gq(*b.rotation());
                let parent_rotation = match parent_world {
                    Some(p) => p.to_scale_rotation_translation().1,
                    None => Quat::IDENTITY,
                };
                local.rotation = (parent_rotation.inverse() * rotation).normalize();
                if self.specs[i].parent.is_none() {
                    let at = gv(b.translation());
                    local.translation = match parent_world {
                        Some(p) => p.inverse().transform_point3(at),
                        None => at,
                    };
                }
            }
            outs[j] = local;
            let m = Affine3A::from_scale_rotation_translation(
                local.scale,
                local.rotation,
                local.translation,
            );
            world.push(parent_world.map_or(m, |p| p * m));
        }
    }
}

/// The ground as fixed colliders: the floor (a slab far wider than the character), each step
/// (a box), each slope (a wedge) and each wall (a thin box taller than anything).
fn ground_colliders(ground: &Ground, height: f32) -> Vec<ColliderBuilder> {
    let h = height.max(1e-3);
    let floor = rapier3d::prelude::SharedShape::halfspace(rv(Vec3::Y));
    let mut out =
        vec![ColliderBuilder::new(floor).translation(rv(Vec3::new(0.0, ground.floor, 0.0)))];
    for step in &ground.steps {
        let half = (step.max - step.min) * 0.5;
        let mid = (step.max + step.min) * 0.5;
        let half_y = 0.5 * step.height.max(1e-4);
        out.push(
            ColliderBuilder::cuboid(half.x, half_y, half.y).translation(rv(Vec3::new(
                mid.x,
                ground.floor + half_y,
                mid.y,
            ))),
        );
    }
    for slope in &ground.slopes {
        let (min, max) = (slope.min, slope.max);
        let y = |x: f32, z: f32| {
            let u = if slope.along_x {
                (x - min.x) / (max.x - min.x).max(1e-6)
            } else {
                (z - min.y) / (max.y - min.y).max(1e-6)
            };
            ground.floor + slope.from + (slope.to - slope.from) * u
        };
        let mut points = Vec::new();
        for (x, z) in [
            (min.x, min.y),
            (max.x, min.y),
            (min.x, max.y),
            (max.x, max.y),
        ] {
            points.push(rv(Vec3::new(x, ground.floor, z)));
            points.push(rv(Vec3::new(x, y(x, z).max(ground.floor + 1e-4), z)));
        }
        if let Some(wedge) = ColliderBuilder::convex_hull(&points) {
            out.push(wedge);
        }
    }
    for wall in &ground.walls {
        let (from, to) = (wall.from, wall.to);
        let along = to - from;
        let length = along.length();
        if length <= 1e-6 {
            continue;
        }
        let mid = (from + to) * 0.5;
        let yaw = (-along.y).atan2(along.x);
        out.push(
            ColliderBuilder::cuboid(0.5 * length, 10.0 * h, 0.01 * h)
                .translation(rv(Vec3::new(mid.x, ground.floor + 10.0 * h, mid.y)))
                .rotation(rv(Vec3::Y * yaw)),
        );
    }
    out
}
