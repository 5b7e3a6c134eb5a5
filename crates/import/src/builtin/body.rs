//! The built-in character's one continuous surface. A signed distance field of rounded parts
//! (ellipsoids, capsules, rounded boxes) dresses the skeleton; parts of one limb or of the trunk
//! blend smoothly, and limbs blend into the trunk only around the shoulders and hips (so a
//! hanging arm does not web onto the chest). Surface nets on a regular grid mesh the field: one
//! vertex per cell the surface crosses and a quad per crossed grid edge, so the surface is closed
//! (watertight) by construction; normals come from the field's gradient. Each vertex is weighed
//! from the parts near it (a soft nearest-part choice among a part and its neighbours, each part
//! blending its joint toward its parent and child along its bone), so weights change smoothly
//! across every joint. Deterministic: the same bytes on the same platform.

use glam::Vec3;

use super::grid::{CELL, Grid};
use super::{bind_positions, joint, pack, smoothstep};

#[derive(Clone, Copy)]
enum Shape {
    Ellipsoid {
        center: Vec3,
        radii: Vec3,
    },
    Capsule {
        a: Vec3,
        b: Vec3,
        radius: f32,
    },
    RoundBox {
        center: Vec3,
        half: Vec3,
        round: f32,
    },
}

impl Shape {
    fn distance(&self, p: Vec3) -> f32 {
        match *self {
            Shape::Ellipsoid { center, radii } => {
                // Quilez's bound: exact on the axes, close elsewhere for these proportions.
                let q = (p - center) / radii;
                let k0 = q.length();
                let k1 = ((p - center) / (radii * radii)).length();
                if k1 < 1e-9 {
                    -radii.min_element()
                } else {
                    k0 * (k0 - 1.0) / k1
                }
            }
            Shape::Capsule { a, b, radius } => (p - closest_on(p, a, b).0).length() - radius,
            Shape::RoundBox {
                center,
                half,
                round,
            } => {
                let q = (p - center).abs() - half + Vec3::splat(round);
                q.max(Vec3::ZERO).length() + q.max_element().min(0.0) - round
            }
        }
    }
}

/// The closest point to `p` on segment a..b and its parameter.
fn closest_on(p: Vec3, a: Vec3, b: Vec3) -> (Vec3, f32) {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// Polynomial smooth minimum (k = 0: min).
fn smin(a: f32, b: f32, k: f32) -> f32 {
    if k <= 0.0 {
        return a.min(b);
    }
    let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
    b + (a - b) * h - k * h * (1.0 - h)
}

/// Which region a part belongs to: parts of a region blend with each other; regions meet only
/// at their junctions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Region {
    Trunk,
    Head,
    Arm(usize),
    Leg(usize),
}

/// How a part's vertices are weighed.
#[derive(Clone, Copy)]
enum Weigh {
    /// Along a bone from `joint` toward `child`: the parent blends in over the first quarter,
    /// the child over the last.
    Bone {
        joint: usize,
        parent: Option<usize>,
        child: Option<usize>,
        a: Vec3,
        b: Vec3,
    },
    /// The trunk: bands by height between the spine joints.
    Spine,
    /// One joint.
    Rigid(usize),
}

struct Part {
    shape: Shape,
    region: Region,
    weigh: Weigh,
}

/// A vertex's (joint, weight) pairs for one part.
fn part_weights(w: &Weigh, p: Vec3, bind: &[Vec3], out: &mut Vec<(usize, f32)>) {
    match *w {
        Weigh::Rigid(j) => out.push((j, 1.0)),
        Weigh::Bone {
            joint,
            parent,
            child,
            a,
            b,
        } => {
            let (_, t) = closest_on(p, a, b);
            let zone = 0.3;
            let from_parent = parent.map_or(0.0, |_| 0.5 * (1.0 - smoothstep(t / zone)));
            let to_child = child.map_or(0.0, |_| 0.5 * smoothstep((t - 1.0 + zone) / zone));
            out.push((joint, 1.0 - from_parent - to_child));
            if let Some(j) = parent {
                out.push((j, from_parent));
            }
            if let Some(j) = child {
                out.push((j, to_child));
            }
        }
        Weigh::Spine => {
            let spine = [
                joint("pelvis"),
                joint("spine_01"),
                joint("spine_02"),
                joint("spine_03"),
            ];
            let heights: Vec<f32> = spine.iter().map(|&s| bind[s].y).collect();
            for (k, &s) in spine.iter().enumerate() {
                let below = if k == 0 {
                    1.0
                } else {
                    smoothstep((p.y - heights[k] + 0.06) / 0.12)
                };
                let above = if k + 1 == spine.len() {
                    1.0
                } else {
                    1.0 - smoothstep((p.y - heights[k + 1] + 0.06) / 0.12)
                };
                out.push((s, below * above));
            }
        }
    }
}

/// The character's parts, in bind pose (arms hanging a little away from the body).
/// A part weighed along its bone `name` (from `a` to `b`), blending into `parent` and `child`.
fn bone(name: &str, parent: Option<&str>, child: Option<&str>, a: Vec3, b: Vec3) -> Weigh {
    Weigh::Bone {
        joint: joint(name),
        parent: parent.map(joint),
        child: child.map(joint),
        a,
        b,
    }
}

/// The body's parts: the trunk and head, then each side's arm and leg.
fn parts(bind: &[Vec3]) -> Vec<Part> {
    let mut out = trunk_and_head(bind);
    for side in ["l", "r"] {
        out.extend(arm(bind, side));
        out.extend(leg(bind, side));
    }
    out
}

/// The pelvis, the spine's three parts, the neck, the head and its nose.
fn trunk_and_head(bind: &[Vec3]) -> Vec<Part> {
    let at = |name: &str| bind[joint(name)];
    vec![
        Part {
            shape: Shape::Ellipsoid {
                center: at("pelvis") + Vec3::new(0.0, -0.03, 0.0),
                radii: Vec3::new(0.15, 0.11, 0.1),
            },
            region: Region::Trunk,
            weigh: Weigh::Spine,
        },
        Part {
            shape: Shape::Ellipsoid {
                center: at("spine_01") + Vec3::new(0.0, 0.04, 0.005),
                radii: Vec3::new(0.13, 0.13, 0.092),
            },
            region: Region::Trunk,
            weigh: Weigh::Spine,
        },
        Part {
            shape: Shape::Ellipsoid {
                center: at("spine_03") - Vec3::new(0.0, 0.03, -0.012),
                radii: Vec3::new(0.135, 0.15, 0.1),
            },
            region: Region::Trunk,
            weigh: Weigh::Spine,
        },
        Part {
            shape: Shape::Capsule {
                a: at("neck") - Vec3::Y * 0.05,
                b: at("head") + Vec3::Y * 0.03,
                radius: 0.045,
            },
            region: Region::Head,
            weigh: bone(
                "neck",
                Some("spine_03"),
                Some("head"),
                at("neck") - Vec3::Y * 0.05,
                at("head") + Vec3::Y * 0.03,
            ),
        },
        Part {
            shape: Shape::Ellipsoid {
                center: at("head") + Vec3::new(0.0, 0.1, 0.01),
                radii: Vec3::new(0.083, 0.108, 0.098),
            },
            region: Region::Head,
            weigh: Weigh::Rigid(joint("head")),
        },
        Part {
            shape: Shape::Ellipsoid {
                center: at("head") + Vec3::new(0.0, 0.085, 0.104),
                radii: Vec3::new(0.014, 0.024, 0.02),
            },
            region: Region::Head,
            weigh: Weigh::Rigid(joint("head")),
        },
    ]
}

/// One side's arm (`l` or `r`): clavicle to hand, a mitten of fingers and a thumb.
fn arm(bind: &[Vec3], side: &str) -> Vec<Part> {
    let s = if side == "l" { 1.0f32 } else { -1.0 };
    let at = |name: &str| bind[joint(name)];
    let n = |base: &str| format!("{base}_{side}");
    let a = |base: &str| at(&n(base));
    let arm = Region::Arm(if side == "l" { 0 } else { 1 });
    let (clav, upper, fore, twist, hand) = (
        a("clavicle") + Vec3::new(s * 0.02, -0.02, 0.0),
        a("upperarm"),
        a("forearm"),
        a("forearm_twist"),
        a("hand"),
    );
    let wrist_dir = (hand - twist).normalize();
    vec![
        Part {
            shape: Shape::Capsule {
                a: clav,
                b: upper,
                radius: 0.052,
            },
            region: arm,
            weigh: bone(
                &n("clavicle"),
                Some("spine_03"),
                Some(&n("upperarm")),
                clav,
                upper,
            ),
        },
        Part {
            shape: Shape::Capsule {
                a: upper,
                b: fore,
                radius: 0.046,
            },
            region: arm,
            weigh: bone(
                &n("upperarm"),
                Some(&n("clavicle")),
                Some(&n("forearm")),
                upper,
                fore,
            ),
        },
        Part {
            shape: Shape::Capsule {
                a: fore,
                b: twist,
                radius: 0.04,
            },
            region: arm,
            weigh: bone(
                &n("forearm"),
                Some(&n("upperarm")),
                Some(&n("forearm_twist")),
                fore,
                twist,
            ),
        },
        Part {
            shape: Shape::Capsule {
                a: twist,
                b: hand,
                radius: 0.034,
            },
            region: arm,
            weigh: bone(
                &n("forearm_twist"),
                Some(&n("forearm")),
                Some(&n("hand")),
                twist,
                hand,
            ),
        },
        // A mitten of fingers, thumb forward.
        Part {
            shape: Shape::RoundBox {
                center: hand + wrist_dir * 0.065,
                half: Vec3::new(0.017, 0.06, 0.042),
                round: 0.014,
            },
            region: arm,
            weigh: Weigh::Rigid(joint(&n("hand"))),
        },
        Part {
            shape: Shape::Capsule {
                a: hand + Vec3::new(0.0, -0.02, 0.03),
                b: hand + Vec3::new(-s * 0.004, -0.065, 0.058),
                radius: 0.012,
            },
            region: arm,
            weigh: Weigh::Rigid(joint(&n("hand"))),
        },
    ]
}

/// One side's leg (`l` or `r`): thigh, shin, foot and toe.
fn leg(bind: &[Vec3], side: &str) -> Vec<Part> {
    let at = |name: &str| bind[joint(name)];
    let n = |base: &str| format!("{base}_{side}");
    let a = |base: &str| at(&n(base));
    let leg = Region::Leg(if side == "l" { 0 } else { 1 });
    vec![
        Part {
            shape: Shape::Capsule {
                a: a("thigh") + Vec3::Y * 0.02,
                b: a("shin"),
                radius: 0.064,
            },
            region: leg,
            weigh: bone(
                &n("thigh"),
                Some("pelvis"),
                Some(&n("shin")),
                a("thigh"),
                a("shin"),
            ),
        },
        Part {
            shape: Shape::Capsule {
                a: a("shin"),
                b: a("foot"),
                radius: 0.05,
            },
            region: leg,
            weigh: bone(
                &n("shin"),
                Some(&n("thigh")),
                Some(&n("foot")),
                a("shin"),
                a("foot"),
            ),
        },
        Part {
            shape: Shape::RoundBox {
                center: Vec3::new(a("foot").x, 0.04, a("foot").z + 0.035),
                half: Vec3::new(0.042, 0.04, 0.085),
                round: 0.03,
            },
            region: leg,
            weigh: bone(
                &n("foot"),
                Some(&n("shin")),
                Some(&n("toe")),
                a("foot"),
                a("toe"),
            ),
        },
        Part {
            shape: Shape::RoundBox {
                center: a("toe") + Vec3::new(0.0, 0.012, 0.035),
                half: Vec3::new(0.04, 0.022, 0.04),
                round: 0.02,
            },
            region: leg,
            weigh: Weigh::Rigid(joint(&n("toe"))),
        },
    ]
}

/// The face (`features`): two eye openings, each a smooth dent in the head with an eyeball in
/// it, and a mouth, a smooth groove between its corners. Smooth profiles several grid cells wide,
/// so the mesh shows them round, not as stair-stepped holes. The blink target closes the lids
/// over the eyeballs (the head's surface without the features); the smile target raises the
/// mouth's corners.
struct Face {
    /// Where each eye opens: its dent's centre, on the featureless head's surface.
    eyes: [Vec3; 2],
    /// The eyeballs' centres, behind the surface along its normal.
    eyeballs: [Vec3; 2],
    mouth: (Vec3, Vec3),
}

/// The eye dent's radius and depth, and the eyeball's radius, metres.
const EYE_OPENING: f32 = 0.026;
const EYE_DEPTH: f32 = 0.02;
const EYEBALL: f32 = 0.012;
/// The mouth groove's half width and depth.
const MOUTH_WIDTH: f32 = 0.011;
const MOUTH_DEPTH: f32 = 0.0045;

/// A smooth bump: 1 at 0, 0 from 1 on, with zero slope at both ends.
fn bump(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    let s = 1.0 - x * x;
    s * s
}

fn face(bind: &[Vec3], head: &dyn Fn(Vec3) -> f32) -> Face {
    let at = bind[joint("head")];
    // The featureless head's surface in front of a point, and its outward normal there.
    let surface = |p: Vec3| {
        let mut q = p;
        for _ in 0..8 {
            let (d, g) = value_and_gradient(head, q);
            q -= g * d;
        }
        (q, value_and_gradient(head, q).1)
    };
    let eye = |x: f32| {
        let (s, n) = surface(at + Vec3::new(x, 0.112, 0.094));
        (s, s - n * (EYEBALL + 0.008))
    };
    let ((left, left_ball), (right, right_ball)) = (eye(0.036), eye(-0.036));
    let mouth = |x: f32| surface(at + Vec3::new(x, 0.045, 0.093)).0;
    Face {
        eyes: [left, right],
        eyeballs: [left_ball, right_ball],
        mouth: (mouth(0.024), mouth(-0.024)),
    }
}

/// A field's value at `p` and its unit gradient (central differences a quarter cell apart).
fn value_and_gradient(f: &dyn Fn(Vec3) -> f32, p: Vec3) -> (f32, Vec3) {
    let e = CELL * 0.25;
    let d = |o: Vec3| f(p + o) - f(p - o);
    let g = Vec3::new(d(Vec3::X * e), d(Vec3::Y * e), d(Vec3::Z * e)) / (2.0 * e);
    (f(p), g.normalize_or_zero())
}

/// The field, and per part its distance (for the weights).
struct Field {
    parts: Vec<Part>,
    face: Face,
    shoulders: [Vec3; 2],
    hips: [Vec3; 2],
}

/// A blend radius that is `k` at `center` and fades to 0 at `reach` from it.
fn local_k(p: Vec3, center: Vec3, k: f32, reach: f32) -> f32 {
    k * smoothstep(1.0 - (p - center).length() / reach)
}

impl Field {
    fn new() -> Self {
        let bind = bind_positions();
        let parts = parts(&bind);
        let head = |p: Vec3| {
            parts
                .iter()
                .filter(|part| part.region == Region::Head)
                .map(|part| part.shape.distance(p))
                .reduce(|acc, d| smin(acc, d, 0.02))
                .unwrap_or(f32::INFINITY)
        };
        let face = face(&bind, &head);
        Self {
            parts,
            face,
            shoulders: [bind[joint("clavicle_l")], bind[joint("clavicle_r")]]
                .map(|c| c + Vec3::new(c.x.signum() * 0.08, -0.04, 0.0)),
            hips: [bind[joint("thigh_l")], bind[joint("thigh_r")]],
        }
    }

    /// The signed distance with the face's features (`features`) or without.
    fn distance(&self, p: Vec3, features: bool) -> f32 {
        let region = |r: Region, k: f32| {
            self.parts
                .iter()
                .filter(|part| part.region == r)
                .map(|part| part.shape.distance(p))
                .reduce(|acc, d| smin(acc, d, k))
                .unwrap_or(f32::INFINITY)
        };
        let trunk = region(Region::Trunk, 0.08);
        let mut head = region(Region::Head, 0.02);
        if features {
            // Dents push the surface in smoothly; the eyeballs sit in theirs.
            for (eye, ball) in self.face.eyes.iter().zip(&self.face.eyeballs) {
                head += EYE_DEPTH * bump((p - *eye).length() / EYE_OPENING);
                head = smin(head, (p - *ball).length() - EYEBALL, 0.003);
            }
            let (a, b) = self.face.mouth;
            let across = (p - closest_on(p, a, b).0).length();
            head += MOUTH_DEPTH * bump(across / MOUTH_WIDTH);
        }
        let mut d = smin(trunk, head, 0.035);
        for k in 0..2 {
            let arm = region(Region::Arm(k), 0.018);
            d = smin(d, arm, local_k(p, self.shoulders[k], 0.04, 0.1));
            let leg = region(Region::Leg(k), 0.025);
            d = smin(d, leg, local_k(p, self.hips[k], 0.035, 0.09));
        }
        d
    }

    fn gradient(&self, p: Vec3) -> Vec3 {
        value_and_gradient(&|q| self.distance(q, true), p).1
    }

    /// `p` moved onto the surface (a few Newton steps along the gradient, each less than half a
    /// cell): surface nets' cell averages then follow the field's curves instead of the grid's
    /// steps.
    fn project(&self, p: Vec3) -> Vec3 {
        let mut q = p;
        for _ in 0..3 {
            let (d, n) = value_and_gradient(&|x| self.distance(x, true), q);
            let step = n * d;
            if step.length() > 0.5 * CELL || n == Vec3::ZERO {
                break;
            }
            q -= step;
        }
        q
    }

    /// Whether two regions blend (so their parts may share a vertex's weights).
    fn touching(a: Region, b: Region) -> bool {
        a == b || matches!((a, b), (Region::Trunk, _) | (_, Region::Trunk))
    }

    /// The influences of a surface point: a soft choice of the nearest parts (among the
    /// nearest part's region and the regions it blends with), each part's bone weights.
    fn weights(&self, p: Vec3, bind: &[Vec3]) -> (Vec<(usize, f32)>, Region) {
        let d: Vec<f32> = self
            .parts
            .iter()
            .map(|part| part.shape.distance(p))
            .collect();
        let nearest = (0..d.len())
            .min_by(|&a, &b| d[a].total_cmp(&d[b]))
            .unwrap_or(0);
        let region = self.parts[nearest].region;
        let mut total: Vec<(usize, f32)> = Vec::new();
        let mut scratch = Vec::new();
        for (part, &di) in self.parts.iter().zip(&d) {
            if !Self::touching(region, part.region) {
                continue;
            }
            let s = (-(di - d[nearest]) / 0.012).exp();
            if s < 1e-3 {
                continue;
            }
            scratch.clear();
            part_weights(&part.weigh, p, bind, &mut scratch);
            for &(j, w) in &scratch {
                match total.iter_mut().find(|t| t.0 == j) {
                    Some(t) => t.1 += w * s,
                    None => total.push((j, w * s)),
                }
            }
        }
        (total, region)
    }
}

/// The meshed surface: positions, normals, influences, triangles, which triangles are skin
/// (head and hands), and the face's morph targets (position deltas).
pub(super) struct Surface {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex, whether it is skin (head, neck, hands) rather than clothes.
    pub skin: Vec<bool>,
    pub blink: Vec<Vec3>,
    /// The blink's normal deltas: the closed lid shades as the smooth head it becomes.
    pub blink_normals: Vec<Vec3>,
    pub smile: Vec<Vec3>,
    /// The pose drivers' correctives (`CORRECTIVES`' names, in order): position deltas.
    pub correctives: Vec<Vec<Vec3>>,
}

/// The corrective targets the mannequin's pose drivers weigh (`skinscope_mannequin.drivers.json`):
/// (name, the joint they centre on, radius, how far they move, along the normal or up).
pub(super) const CORRECTIVES: [(&str, &str, f32, f32, bool); 6] = [
    ("elbow_l", "forearm_l", 0.07, 0.012, true),
    ("elbow_r", "forearm_r", 0.07, 0.012, true),
    ("knee_l", "shin_l", 0.09, 0.016, true),
    ("knee_r", "shin_r", 0.09, 0.016, true),
    ("shoulder_raise_l", "upperarm_l", 0.10, 0.025, false),
    ("shoulder_raise_r", "upperarm_r", 0.10, 0.025, false),
];

/// Meshes the field with surface nets.
pub(super) fn surface() -> Surface {
    let field = Field::new();
    let bind = bind_positions();
    let grid = Grid::sample(|p| field.distance(p, true));
    let (cell_vertex, positions) = grid.cell_vertices();
    let triangles = grid.quads(&cell_vertex, &positions);
    let positions: Vec<Vec3> = positions.iter().map(|&p| field.project(p)).collect();
    let normals: Vec<Vec3> = positions.iter().map(|&p| field.gradient(p)).collect();
    let mut joints = Vec::with_capacity(positions.len());
    let mut weights = Vec::with_capacity(positions.len());
    let mut skin = Vec::with_capacity(positions.len());
    for &p in &positions {
        let (influences, region) = field.weights(p, &bind);
        let (j, w) = pack(influences);
        joints.push(j);
        weights.push(w);
        let hand = [joint("hand_l"), joint("hand_r")];
        skin.push(region == Region::Head || hand.contains(&(j[0] as usize)));
    }
    let (blink, blink_normals, smile) = face_targets(&field, &positions, &normals);
    let correctives = CORRECTIVES
        .iter()
        .map(|&(_, at, radius, amount, along_normal)| {
            let centre = bind[joint(at)];
            positions
                .iter()
                .zip(&normals)
                .map(|(&p, &n)| {
                    // Volume kept at a bent joint: the surface around it pushed out along its
                    // normal; a raised shoulder: the surface over it lifted.
                    let f = smoothstep(1.0 - (p - centre).length() / radius);
                    let direction = if along_normal { n } else { Vec3::Y };
                    direction * amount * f
                })
                .collect()
        })
        .collect();
    Surface {
        positions,
        normals,
        joints,
        weights,
        triangles,
        skin,
        blink,
        blink_normals,
        smile,
        correctives,
    }
}

/// The face's morph targets: blink closes the lids (each vertex of an eye opening moves out,
/// along the featureless head's normal, onto its surface; with its normal's change), smile lifts
/// and draws back the mouth's corners.
fn face_targets(
    field: &Field,
    positions: &[Vec3],
    normals: &[Vec3],
) -> (Vec<Vec3>, Vec<Vec3>, Vec<Vec3>) {
    let featureless = |q: Vec3| field.distance(q, false);
    let (blink, blink_normals): (Vec<Vec3>, Vec<Vec3>) = positions
        .iter()
        .zip(normals)
        .map(|(&p, &n)| {
            let near_eye = (field.face.eyes.iter()).any(|e| (p - *e).length() < 1.5 * EYE_OPENING);
            if !near_eye {
                return (Vec3::ZERO, Vec3::ZERO);
            }
            let (without, outward) = value_and_gradient(&featureless, p);
            if without >= 0.0 {
                return (Vec3::ZERO, Vec3::ZERO);
            }
            let delta = outward * -without;
            (delta, value_and_gradient(&featureless, p + delta).1 - n)
        })
        .unzip();
    let (ma, mb) = field.face.mouth;
    let smile = positions
        .iter()
        .map(|&p| {
            let f = [ma, mb]
                .iter()
                .map(|c| smoothstep(1.0 - (p - *c).length() / 0.03))
                .fold(0.0f32, f32::max);
            Vec3::new(0.0, 0.012, -0.004) * f
        })
        .collect();
    (blink, blink_normals, smile)
}
