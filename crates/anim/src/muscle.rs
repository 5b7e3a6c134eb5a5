//! XPBD muscles (Macklin, Müller and Chentanez 2016; small steps after Macklin et al. 2019):
//! each muscle a closed spindle of particles between an origin and an insertion on two joints,
//! held by attachment, tether, edge and volume constraints, each with its own compliance (m/N
//! in scene units), so the stiffness does not depend on the step or the iteration count.
//!
//! The particles live in world space. Their *rigid* positions are the muscle's bind shape
//! carried by its ends: on the straight spindle between the ends as they are now (each end
//! riding its joint), turned with the origin joint and then bent onto that line, at their bind
//! distance from its axis. The attachment rings are held there, and a muscle's displacement is
//! its simulated particles minus those: not the bend of a joint the muscle spans (a straight
//! muscle over a bent knee is where it should be, and so is its ring by the insertion), but what
//! the muscle does itself. A muscle whose ends draw together (an elbow flexing) keeps its volume,
//! so its belly bulges out of the rigid shape.
//!
//! One frame: `MuscleSim::step` over `substeps` substeps, each predicting, solving every
//! constraint once (Gauss-Seidel, λ from zero: small steps) and updating the velocities with
//! implicit damping. Pure glam; the caller owns every buffer.
//!
//! - **A muscle** is a fusiform spindle between its origin and insertion: `RINGS` rings of
//!   `SEGMENTS` particles and two poles, a closed surface of 144 triangles. Its mass is the
//!   density (1,060 kg/m³) times its volume.
//! - **Constraints**: the attachment of the end rings to their bones (compliance 0: they ride
//!   them); a weak tether of every free particle toward its rigid position (what jiggle returns
//!   to); distance constraints along the fibres and, five times softer, round the rings and
//!   across them (shear); and the volume (0: kept exactly; by the divergence theorem over the
//!   surface, its gradient per particle). The fibres' rest length follows the muscle's
//!   end-to-end length (and shortens by up to 30% with `activation`), so a muscle whose ends
//!   draw together keeps its volume by thickening.
//! - **Rigid positions**: on the straight spindle (see above). At bind every muscle is at rest.
//! - **State in f64**: a settling muscle's last corrections lie far below an f32 position's
//!   resolution.

use glam::{Affine3A, DVec3, Quat, Vec3};

/// Rings of particles along a muscle and particles around each ring.
pub const RINGS: usize = 9;
pub const SEGMENTS: usize = 8;
/// Particles per muscle: two poles and the rings.
pub const PARTICLES_PER_MUSCLE: usize = 2 + RINGS * SEGMENTS;

/// A muscle as placed at bind, world space: its ends, the joints they ride on, the belly's
/// radius and its activation (0: relaxed; 1: its fibres' rest length shortened by
/// `MAX_CONTRACTION`).
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleShape {
    pub name: String,
    pub origin: Vec3,
    pub insertion: Vec3,
    pub joints: [u32; 2],
    pub radius: f32,
    pub activation: f32,
}

/// How far a fully active muscle shortens its fibres' rest length.
pub const MAX_CONTRACTION: f32 = 0.3;

/// The solver's settings. Compliances are inverse stiffnesses (m/N at metres): 0 is rigid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MuscleParams {
    /// Edges along the fibres (more along the muscle than across it).
    pub edge_compliance: f32,
    /// Edges around the rings and the shear diagonals: softer, so a shortening muscle
    /// thickens rather than bows.
    pub ring_compliance: f32,
    /// The volume (0: kept exactly).
    pub volume_compliance: f32,
    /// The attachment rings to their bones (0: they ride the bones exactly).
    pub attach_compliance: f32,
    /// A weak pull of every free particle toward its rigid position (what jiggle returns to).
    pub tether_compliance: f32,
    /// Velocity damping, per second (implicit: stable at any step).
    pub damping: f32,
    /// Substeps per step.
    pub substeps: u32,
    /// kg per cubic scene unit.
    pub density: f32,
}

impl Default for MuscleParams {
    fn default() -> Self {
        Self {
            edge_compliance: 0.2,
            ring_compliance: 1.0,
            volume_compliance: 0.0,
            attach_compliance: 0.0,
            tether_compliance: 5.0,
            damping: 4.0,
            substeps: 10,
            density: 1060.0,
        }
    }
}

impl MuscleParams {
    /// A particle's pull toward its rigid position: attachment or tether.
    pub fn particle_compliance(&self, attached: bool) -> f32 {
        if attached {
            self.attach_compliance
        } else {
            self.tether_compliance
        }
    }

    /// An edge's: along the fibres, or round and across the rings.
    pub fn edge_compliance_of(&self, edge: &Edge) -> f32 {
        if edge.is_fibre() {
            self.edge_compliance
        } else {
            self.ring_compliance
        }
    }
}

/// One distance constraint: its particles (global indices) and its bind length's parts along
/// the muscle and across it. The fibres follow the muscle's length: an edge's rest length is
/// `hypot(along * scale, across)`, `scale` the muscle's end-to-end length over its bind
/// length, shortened further by activation; the volume then makes a shortening muscle bulge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub a: u32,
    pub b: u32,
    pub along: f32,
    pub across: f32,
}

impl Edge {
    /// More along the muscle than across it.
    pub fn is_fibre(&self) -> bool {
        self.along.abs() > self.across
    }

    pub fn rest(&self, scale: f64) -> f64 {
        (f64::from(self.along) * scale).hypot(f64::from(self.across))
    }
}

/// One muscle's particles as `MuscleSystem` lays them out.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleBody {
    pub shape: MuscleShape,
    /// The first particle's global index; the body has `PARTICLES_PER_MUSCLE`.
    pub first: usize,
    /// Surface triangles, outward, global indices (the volume's).
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<Edge>,
    pub rest_volume: f32,
    pub rest_length: f32,
}

/// Every muscle of a character: the particles' bind positions, blend weights and masses.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleSystem {
    pub bodies: Vec<MuscleBody>,
    /// Bind (world) position per particle.
    pub rest: Vec<Vec3>,
    /// Per particle: its place on the straight spindle, for its rigid position.
    pub spindle: Vec<SpindlePlace>,
    /// Per particle: held to its bones by the attachment constraint.
    pub attached: Vec<bool>,
    pub inv_mass: Vec<f32>,
}

/// A particle's place on its muscle's spindle at bind: the fraction of the way from the origin
/// to the insertion, and its offset from the axis there (world space, at bind).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpindlePlace {
    pub along: f32,
    pub across: Vec3,
}

/// The fusiform profile: the radius at `s` along the muscle, of the belly's `radius`.
fn profile(s: f32) -> f32 {
    (std::f32::consts::PI * s).sin().max(0.0).powf(0.7)
}

impl MuscleSystem {
    /// Lays out `shapes`' particles and constraints at bind. A degenerate shape (coincident
    /// ends, a radius that is not positive and finite) is the caller's to refuse first.
    pub fn new(shapes: &[MuscleShape], density: f32) -> Self {
        let mut system = Self {
            bodies: Vec::with_capacity(shapes.len()),
            rest: Vec::new(),
            spindle: Vec::new(),
            attached: Vec::new(),
            inv_mass: Vec::new(),
        };
        for shape in shapes {
            system.push(shape, density);
        }
        system
    }

    fn push(&mut self, shape: &MuscleShape, density: f32) {
        let first = self.rest.len();
        let axis = shape.insertion - shape.origin;
        let length = axis.length();
        let dir = axis / length.max(1e-12);
        let u = dir.any_orthonormal_vector();
        let w = dir.cross(u);
        let ring = |i: usize, j: usize| (first + 1 + i * SEGMENTS + j % SEGMENTS) as u32;
        let (pole0, pole1) = (first as u32, (first + 1 + RINGS * SEGMENTS) as u32);
        let mut place = |rest: Vec3, along: f32, across: Vec3, attached: bool| {
            self.rest.push(rest);
            self.spindle.push(SpindlePlace { along, across });
            self.attached.push(attached);
        };
        place(shape.origin, 0.0, Vec3::ZERO, true);
        for i in 0..RINGS {
            let s = (i + 1) as f32 / (RINGS + 1) as f32;
            let r = shape.radius * profile(s);
            for j in 0..SEGMENTS {
                let a = std::f32::consts::TAU * j as f32 / SEGMENTS as f32;
                let across = (u * a.cos() + w * a.sin()) * r;
                place(
                    shape.origin + axis * s + across,
                    s,
                    across,
                    i == 0 || i + 1 == RINGS,
                );
            }
        }
        place(shape.insertion, 1.0, Vec3::ZERO, true);
        let mut triangles = Vec::new();
        for j in 0..SEGMENTS {
            triangles.push([pole0, ring(0, j + 1), ring(0, j)]);
            triangles.push([pole1, ring(RINGS - 1, j), ring(RINGS - 1, j + 1)]);
            for i in 0..RINGS - 1 {
                triangles.push([ring(i, j), ring(i, j + 1), ring(i + 1, j + 1)]);
                triangles.push([ring(i, j), ring(i + 1, j + 1), ring(i + 1, j)]);
            }
        }
        let mut pairs = Vec::new();
        for j in 0..SEGMENTS {
            pairs.push((pole0, ring(0, j)));
            pairs.push((pole1, ring(RINGS - 1, j)));
            for i in 0..RINGS {
                pairs.push((ring(i, j), ring(i, j + 1)));
                pairs.push((ring(i, j), ring(i, j + 2)));
                if i + 1 < RINGS {
                    pairs.push((ring(i, j), ring(i + 1, j)));
                    pairs.push((ring(i, j), ring(i + 1, j + 1)));
                    pairs.push((ring(i, j + 1), ring(i + 1, j)));
                }
            }
        }
        let rest = &self.rest;
        let edges = pairs
            .into_iter()
            .map(|(a, b)| {
                let d = rest[b as usize] - rest[a as usize];
                let along = d.dot(dir);
                Edge {
                    a,
                    b,
                    along,
                    across: (d - dir * along).length(),
                }
            })
            .collect();
        let rest_volume = volume_of(&triangles, rest, shape.origin);
        let particles = self.rest.len() - first;
        let mass = (density * rest_volume / particles as f32).max(1e-9);
        self.inv_mass
            .extend(std::iter::repeat_n(1.0 / mass, particles));
        self.bodies.push(MuscleBody {
            shape: shape.clone(),
            first,
            triangles,
            edges,
            rest_volume,
            rest_length: length,
        });
    }

    pub fn particle_count(&self) -> usize {
        self.rest.len()
    }

    /// The rigid position of every particle into `out`, given each joint's motion since bind
    /// (`moved[j] = world_from_joint(now) * joint_from_world(bind)`): on the straight spindle
    /// between the ends as their joints carry them, its offset from the axis turned by the origin
    /// joint's rotation and then by the shortest arc from the axis so turned to the axis now.
    pub fn rigid_into(&self, moved: &[Affine3A], out: &mut [Vec3]) {
        for body in &self.bodies {
            let [o, i] = body.shape.joints.map(|j| moved[j as usize]);
            let (origin, insertion) = (body.shape.origin, body.shape.insertion);
            let (start, end) = (o.transform_point3(origin), i.transform_point3(insertion));
            let turned = o.transform_vector3(insertion - origin).normalize_or_zero();
            let now = (end - start).normalize_or_zero();
            let bend = if turned == Vec3::ZERO || now == Vec3::ZERO {
                Quat::IDENTITY
            } else {
                Quat::from_rotation_arc(turned, now)
            };
            let range = body.first..body.first + PARTICLES_PER_MUSCLE;
            for k in range {
                let place = self.spindle[k];
                out[k] = start.lerp(end, place.along) + bend * o.transform_vector3(place.across);
            }
        }
    }
}

/// The volume a closed outward triangle surface encloses (divergence theorem, about `centre`).
pub fn volume_of(triangles: &[[u32; 3]], x: &[Vec3], centre: Vec3) -> f32 {
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|k| x[k as usize] - centre);
            a.dot(b.cross(c))
        })
        .sum::<f32>()
        / 6.0
}

/// The simulation's state: positions and velocities per particle, and scratch. In f64: a
/// settling muscle's last corrections are far below an f32 position's resolution.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleSim {
    pub x: Vec<DVec3>,
    pub v: Vec<DVec3>,
    previous: Vec<DVec3>,
    /// The rigid positions the last step ended at (the attachments' start next step).
    rigid_then: Vec<DVec3>,
    /// The rigid positions within a substep.
    rigid_now: Vec<DVec3>,
    gradient: Vec<DVec3>,
    /// Started at rest and its bones not moved since: the first step that moves them starts it
    /// moving with them.
    fresh: bool,
}

fn widen(v: &[Vec3]) -> Vec<DVec3> {
    v.iter().map(|p| p.as_dvec3()).collect()
}

impl MuscleSim {
    /// At rest on `rigid`: every particle where skinning puts it, still.
    pub fn new(system: &MuscleSystem, rigid: &[Vec3]) -> Self {
        let n = system.particle_count();
        Self {
            x: widen(rigid),
            v: vec![DVec3::ZERO; n],
            previous: vec![DVec3::ZERO; n],
            rigid_then: widen(rigid),
            rigid_now: widen(rigid),
            gradient: vec![DVec3::ZERO; n],
            fresh: true,
        }
    }

    /// Back at rest on `rigid` (a seek, a new clip). The first step that moves the bones starts
    /// every particle moving as its rigid position moves over that step, so a muscle started on a limb in
    /// motion (a walk's first frame) rides it rather than being jerked after it, as if it had
    /// been still and the limb had reached full speed at once.
    pub fn reset(&mut self, rigid: &[Vec3]) {
        for (k, r) in rigid.iter().enumerate() {
            let r = r.as_dvec3();
            (self.x[k], self.rigid_then[k], self.rigid_now[k]) = (r, r, r);
        }
        self.v.fill(DVec3::ZERO);
        self.fresh = true;
    }

    /// One step of `dt` seconds toward `rigid` (this step's end): the attachments move from
    /// last step's rigid positions to these across the substeps.
    pub fn step(&mut self, system: &MuscleSystem, rigid: &[Vec3], dt: f32, params: &MuscleParams) {
        let substeps = params.substeps.max(1);
        let h = f64::from(dt) / f64::from(substeps);
        if h <= 0.0 {
            for (then, r) in self.rigid_then.iter_mut().zip(rigid) {
                *then = r.as_dvec3();
            }
            return;
        }
        if self.fresh {
            // Until its bones first move: a still pose keeps it fresh.
            let dt = f64::from(dt);
            for (k, v) in self.v.iter_mut().enumerate() {
                *v = (rigid[k].as_dvec3() - self.rigid_then[k]) / dt;
                self.fresh &= *v == DVec3::ZERO;
            }
        }
        let keep = 1.0 / (1.0 + f64::from(params.damping.max(0.0)) * h);
        for s in 1..=substeps {
            let t = f64::from(s) / f64::from(substeps);
            for (k, now) in self.rigid_now.iter_mut().enumerate() {
                *now = self.rigid_then[k].lerp(rigid[k].as_dvec3(), t);
            }
            self.previous.copy_from_slice(&self.x);
            for (x, v) in self.x.iter_mut().zip(&self.v) {
                *x += *v * h;
            }
            self.solve(system, params, h);
            for k in 0..self.x.len() {
                self.v[k] = (self.x[k] - self.previous[k]) / h * keep;
            }
        }
        self.rigid_then.copy_from_slice(&self.rigid_now);
    }

    /// One Gauss-Seidel pass over every constraint (λ from zero: one iteration a substep).
    fn solve(&mut self, system: &MuscleSystem, params: &MuscleParams, h: f64) {
        let h2 = h * h;
        let w = |k: usize| f64::from(system.inv_mass[k]);
        for k in 0..self.x.len() {
            let compliance = params.particle_compliance(system.attached[k]);
            let pull = w(k) / (w(k) + f64::from(compliance.max(0.0)) / h2);
            let x = self.x[k];
            self.x[k] = x + (self.rigid_now[k] - x) * pull;
        }
        for body in &system.bodies {
            let scale = self.fibre_scale(body);
            for e in &body.edges {
                let alpha = f64::from(params.edge_compliance_of(e).max(0.0)) / h2;
                let (a, b) = (e.a as usize, e.b as usize);
                let d = self.x[a] - self.x[b];
                let len = d.length();
                let wsum = w(a) + w(b);
                if len < 1e-12 || wsum <= 0.0 {
                    continue;
                }
                let dl = -(len - e.rest(scale)) / (wsum + alpha);
                let n = d / len;
                self.x[a] += n * (dl * w(a));
                self.x[b] -= n * (dl * w(b));
            }
            let alpha = f64::from(params.volume_compliance.max(0.0)) / h2;
            self.solve_volume(body, &system.inv_mass, alpha);
        }
    }

    fn solve_volume(&mut self, body: &MuscleBody, w: &[f32], alpha: f64) {
        let range = body.first..body.first + PARTICLES_PER_MUSCLE;
        let centre = self.x[body.first];
        for g in &mut self.gradient[range.clone()] {
            *g = DVec3::ZERO;
        }
        let mut volume = 0.0;
        for t in &body.triangles {
            let [a, b, c] = t.map(|k| k as usize);
            let [pa, pb, pc] = [a, b, c].map(|k| self.x[k] - centre);
            volume += pa.dot(pb.cross(pc));
            self.gradient[a] += pb.cross(pc);
            self.gradient[b] += pc.cross(pa);
            self.gradient[c] += pa.cross(pb);
        }
        let c = volume / 6.0 - f64::from(body.rest_volume);
        let denominator: f64 = range
            .clone()
            .map(|k| f64::from(w[k]) * (self.gradient[k] / 6.0).length_squared())
            .sum::<f64>()
            + alpha;
        if denominator <= 1e-30 {
            return;
        }
        let dl = -c / denominator;
        for k in range {
            self.x[k] += self.gradient[k] / 6.0 * (dl * f64::from(w[k]));
        }
    }

    /// How far `body`'s fibres' rest length is scaled now: its attachments' end-to-end length
    /// over the bind's, shortened by its activation.
    fn fibre_scale(&self, body: &MuscleBody) -> f64 {
        let last = body.first + PARTICLES_PER_MUSCLE - 1;
        let ends = self.rigid_now[body.first].distance(self.rigid_now[last]);
        let shorten = 1.0 - f64::from(MAX_CONTRACTION * body.shape.activation.clamp(0.0, 1.0));
        ends / f64::from(body.rest_length).max(1e-12) * shorten
    }

    /// Each particle's displacement from its rigid position (the last step's), into `out`.
    pub fn displacement_into(&self, out: &mut [Vec3]) {
        for (o, (x, r)) in out.iter_mut().zip(self.x.iter().zip(&self.rigid_then)) {
            *o = (*x - *r).as_vec3();
        }
    }

    /// Particle positions, f32.
    pub fn positions(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.x.iter().map(|p| p.as_vec3())
    }

    /// A body's volume now.
    pub fn volume(&self, body: &MuscleBody) -> f64 {
        let centre = self.x[body.first];
        body.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|k| self.x[k as usize] - centre);
                a.dot(b.cross(c))
            })
            .sum::<f64>()
            / 6.0
    }

    /// A body's length now: origin pole to insertion pole.
    pub fn length(&self, body: &MuscleBody) -> f64 {
        self.x[body.first].distance(self.x[body.first + PARTICLES_PER_MUSCLE - 1])
    }

    /// Kinetic energy plus the compliant constraints' potential energy (C²/2α), at the last
    /// step's rigid positions: what falls once the bones stop.
    pub fn energy(&self, system: &MuscleSystem, params: &MuscleParams) -> f64 {
        let mut e = 0.0f64;
        for (k, v) in self.v.iter().enumerate() {
            e += 0.5 * v.length_squared() / f64::from(system.inv_mass[k]);
            let compliance = params.particle_compliance(system.attached[k]);
            if compliance > 0.0 {
                let c = self.x[k].distance(self.rigid_then[k]);
                e += c * c / (2.0 * f64::from(compliance));
            }
        }
        for body in &system.bodies {
            let scale = self.fibre_scale(body);
            for edge in &body.edges {
                let compliance = params.edge_compliance_of(edge);
                if compliance > 0.0 {
                    let len = self.x[edge.a as usize].distance(self.x[edge.b as usize]);
                    let c = len - edge.rest(scale);
                    e += c * c / (2.0 * f64::from(compliance));
                }
            }
            if params.volume_compliance > 0.0 {
                let c = self.volume(body) - f64::from(body.rest_volume);
                e += c * c / (2.0 * f64::from(params.volume_compliance));
            }
        }
        e
    }
}
