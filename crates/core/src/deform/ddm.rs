//! Direct delta mush's precomputation (Le and Lewis 2019, variant 0, with implicit smoothing;
//! the parameters and steps of libigl's `direct_delta_mush_precomputation`), per skinned mesh,
//! its skinned primitives taken as one surface (they share the skin):
//!
//! 1. Vertices at the same position are welded (UV and normal seams, and the borders between
//!    the mesh's primitives: a sleeve and a hand of two materials), so the mesh is smoothed
//!    across its seams and the welded vertices share one Ω.
//! 2. L is the cotangent Laplacian (positive diagonal), D its diagonal, L̄ = L D⁻¹.
//! 3. W' = ((I + κL̄)ᵀ)⁻ᵖ W: the skin weights smoothed by p implicit steps.
//! 4. Ψ_ij = Σ_k [((I + λL̄)ᵀ)⁻ᵖ]_ik w_kj u_k u_kᵀ (u_k the homogeneous rest position): the same
//!    smoothing of each joint's weighted outer products.
//! 5. P_i from the smoothed centroid p_i = Ψ_i's last column over its corner, summed over the
//!    joints: [[p pᵀ, p], [pᵀ, 1]]; then Ω_ij = (1 − α) Ψ_ij + α W'_ij P_i.
//!
//! The sparse solves are faer's LU (`skinscope-sparse`): (I + κL̄)ᵀ is not symmetric. Joints
//! are solved a few at a time, so memory stays linear in the vertices. Ω is stored sparsely:
//! per vertex the `cap` joints of largest `|Ω_ij[3][3]|` (their smoothed weight), the others
//! dropped and the kept renormalised so their corners sum to one (the runtime divides Q by its
//! corner, so this changes nothing but the dropped terms).
//!
//! Each vertex's Ω is centred on its smoothed centroid (in f64), so the runtime's Q₃ − q pᵀ has no
//! cancellation of large terms in f32: a rigid motion far from the origin stays rigid to a few
//! ulps. Memory is bounded: a primitive of more than 4 M (welded vertex, kept joint) terms is
//! refused by its pointer before any solve, and the joints solved together shrink on a large
//! primitive so that one group's right-hand sides stay within 64 MB. faer is generic, so its
//! solvers are compiled where they are instantiated: `skinscope-sparse` instantiates them once,
//! and `Cargo.toml` builds that crate and faer optimised in the debug profile too (the tests
//! precompute the mannequin in seconds, not minutes).

use std::collections::HashMap;

use skinscope_sparse::Factored;

use crate::anim::OmegaEntry;
use crate::character::{Character, Primitive};

/// Joints kept in Ω per vertex by default: every joint whose smoothed weight reaches a vertex,
/// on every character seen (at most 22, the Fox's); a cap of 16 leaves the Fox 4.4e-3 of its
/// diagonal off the dense evaluation.
pub const DEFAULT_CAP: usize = 64;
/// The most joints kept per vertex.
pub const MAX_CAP: usize = 64;
/// The most smoothing steps (each is a sparse solve per joint group).
pub const MAX_ITERATIONS: u32 = 1000;
/// The most (welded vertex, kept joint) terms one primitive's precomputation holds (about
/// 100 bytes each while it runs): 250,000 vertices keeping 16 joints each.
pub const MAX_TERMS: usize = 4_000_000;
/// Joints whose columns are solved together, at most; fewer on a large primitive, so one
/// group's right-hand sides stay within `GROUP_BYTES`.
const JOINT_GROUP: usize = 8;
const GROUP_BYTES: usize = 64 << 20;

/// The precomputation's parameters (the paper's p, λ, κ, α) and the sparse cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DdmParams {
    pub iterations: u32,
    pub lambda: f32,
    pub kappa: f32,
    pub alpha: f32,
    /// Joints kept per vertex.
    pub cap: usize,
}

impl Default for DdmParams {
    /// libigl's direct delta mush example: p = 20, λ = 3, κ = 1, α = 0.8.
    fn default() -> Self {
        Self {
            iterations: 20,
            lambda: 3.0,
            kappa: 1.0,
            alpha: 0.8,
            cap: DEFAULT_CAP,
        }
    }
}

impl DdmParams {
    /// The paper's limits (p >= 1, λ > 0, 0 < κ < λ, 0 <= α < 1) and ours (p and the cap
    /// bounded), each broken one named by its option.
    pub fn check(&self) -> Result<(), DdmError> {
        let bad = |name, value: String, rule: &str| {
            Err(DdmError::Param(crate::param::ParamError::new(
                name, value, rule,
            )))
        };
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return bad(
                "iterations",
                self.iterations.to_string(),
                "must be at least 1 (and at most 1000)",
            );
        }
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return bad("lambda", self.lambda.to_string(), "must be positive");
        }
        if !(self.kappa.is_finite() && self.kappa > 0.0 && self.kappa < self.lambda) {
            return bad(
                "kappa",
                self.kappa.to_string(),
                "must be positive and less than lambda",
            );
        }
        if !(self.alpha.is_finite() && (0.0..1.0).contains(&self.alpha)) {
            return bad("alpha", self.alpha.to_string(), "must be in [0, 1)");
        }
        if !(1..=MAX_CAP).contains(&self.cap) {
            return bad("cap", self.cap.to_string(), "must be between 1 and 64");
        }
        Ok(())
    }

    /// The parameters' bits: what a cache of precomputations is keyed by.
    pub fn key(&self) -> [u32; 5] {
        [
            self.iterations,
            self.lambda.to_bits(),
            self.kappa.to_bits(),
            self.alpha.to_bits(),
            self.cap as u32,
        ]
    }
}

/// Why direct delta mush could not be precomputed.
#[derive(Debug, thiserror::Error)]
pub enum DdmError {
    #[error("{0}")]
    Param(#[from] crate::param::ParamError),
    #[error(
        "/meshes/{mesh}/primitives/{primitive}: {vertices} vertices with {kept} joints kept each is more than direct delta mush precomputes ({MAX_TERMS} terms at most; lower the cap of joints kept)"
    )]
    TooBig {
        mesh: usize,
        primitive: usize,
        vertices: usize,
        kept: usize,
    },
    #[error("/meshes/{mesh}/primitives/{primitive}: the smoothing matrix: {why}")]
    Solve {
        mesh: usize,
        primitive: usize,
        why: String,
    },
}

/// One primitive's Ω: each vertex's range of entries (welded vertices share theirs), centred on
/// its smoothed centroid.
#[derive(Clone, Debug, PartialEq)]
pub struct DdmPrimitive {
    /// Per vertex: the first entry and the count.
    pub ranges: Vec<[u32; 2]>,
    /// Per vertex: the smoothed centroid p its entries are centred on (`anim::ddm_transform`).
    pub centroids: Vec<glam::Vec3>,
    pub entries: Vec<OmegaEntry>,
    /// Vertices after welding.
    pub welded: usize,
    /// (vertex, joint) terms with a non-zero smoothed weight beyond the cap, dropped.
    pub dropped: usize,
}

impl DdmPrimitive {
    /// Vertex `v`'s centroid and entries.
    pub fn of(&self, v: usize) -> (glam::Vec3, &[OmegaEntry]) {
        let entries = self
            .ranges
            .get(v)
            .and_then(|&[first, count]| {
                self.entries
                    .get(first as usize..first as usize + count as usize)
            })
            .unwrap_or(&[]);
        (self.centroids.get(v).copied().unwrap_or_default(), entries)
    }
}

/// A character's direct delta mush: Ω per mesh per primitive (`None` where unskinned).
#[derive(Clone, Debug, PartialEq)]
pub struct DdmData {
    pub params: DdmParams,
    pub meshes: Vec<Vec<Option<DdmPrimitive>>>,
}

/// What `inspect` reports of a precomputation.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct DdmStats {
    pub vertices: usize,
    pub welded: usize,
    pub entries: usize,
    /// Entries of the vertex with the most.
    pub most_per_vertex: usize,
    pub dropped: usize,
    /// Bytes on the GPU: 48 per entry, 16 per vertex.
    pub bytes: usize,
    pub cap: usize,
}

impl DdmData {
    /// Primitive `p` of mesh `mesh`'s Ω, if precomputed.
    pub fn primitive(&self, mesh: usize, p: usize) -> Option<&DdmPrimitive> {
        self.meshes.get(mesh)?.get(p)?.as_ref()
    }

    pub fn stats(&self) -> DdmStats {
        let mut s = DdmStats {
            cap: self.params.cap,
            ..Default::default()
        };
        for p in self.meshes.iter().flatten().flatten() {
            s.vertices += p.ranges.len();
            s.welded += p.welded;
            s.entries += p.entries.len();
            s.dropped += p.dropped;
            let most = p.ranges.iter().map(|r| r[1] as usize).max().unwrap_or(0);
            s.most_per_vertex = s.most_per_vertex.max(most);
            s.bytes += p.entries.len() * 48 + p.ranges.len() * 16;
        }
        s
    }
}

/// Precomputes every skinned primitive of `c` (checking `params` first); `progress` is told the
/// fraction done, 0 to 1, after each sparse solve.
pub fn precompute(
    c: &Character,
    params: &DdmParams,
    progress: &mut dyn FnMut(f32),
) -> Result<DdmData, DdmError> {
    params.check()?;
    let work: Vec<(usize, usize)> = (c.meshes.iter().enumerate())
        .flat_map(|(m, mesh)| {
            (mesh.primitives.iter().enumerate())
                .filter(|(_, p)| p.skinning.is_some())
                .map(move |(p, _)| (m, p))
        })
        .collect();
    let mut meshes: Vec<Vec<Option<DdmPrimitive>>> = c
        .meshes
        .iter()
        .map(|m| vec![None; m.primitives.len()])
        .collect();
    // The skinned primitives of each mesh are smoothed together: they share the skin, and a
    // seam between two materials (a sleeve and a hand) is welded like any other.
    let mut by_mesh: Vec<(usize, Vec<usize>)> = Vec::new();
    for &(m, p) in &work {
        match by_mesh.last_mut() {
            Some((last, parts)) if *last == m => parts.push(p),
            _ => by_mesh.push((m, vec![p])),
        }
    }
    let total = by_mesh.len().max(1) as f32;
    for (done, (m, parts)) in by_mesh.iter().enumerate() {
        let primitives: Vec<&Primitive> =
            parts.iter().map(|&p| &c.meshes[*m].primitives[p]).collect();
        let mut inner = |f: f32| progress((done as f32 + f) / total);
        let kept = smoothed_omega_of(&primitives, params, params.cap, &mut inner)
            .map_err(|e| e.at(*m, parts[0]))?;
        let mut first = 0;
        for (&p, primitive) in parts.iter().zip(&primitives) {
            let count = primitive.positions.len();
            let mut sparse = kept.to_sparse_range(first..first + count);
            // The terms dropped are the mesh's: counted once, at its first primitive.
            if first > 0 {
                sparse.dropped = 0;
            }
            meshes[*m][p] = Some(sparse);
            first += count;
        }
    }
    progress(1.0);
    Ok(DdmData {
        params: *params,
        meshes,
    })
}

/// A primitive's Ω in f64 before it is stored: per welded vertex the kept (joint, Ω_ij) and the
/// smoothed centroid p_i, and each vertex's welded vertex.
#[derive(Clone, Debug)]
pub struct SmoothedOmega {
    pub welded_of: Vec<u32>,
    pub omega: Vec<Vec<(u32, [f64; 10])>>,
    pub centroid: Vec<glam::DVec3>,
    pub dropped: usize,
}

impl SmoothedOmega {
    /// Stored as f32 entries centred on each vertex's centroid (Ω' = T₋ₚ Ω T₋ₚᵀ, in f64), the
    /// kept corners renormalised to sum to one.
    pub fn to_sparse(&self) -> DdmPrimitive {
        self.to_sparse_range(0..self.welded_of.len())
    }

    /// `to_sparse` of the vertices `vertices` alone (one primitive of several smoothed
    /// together): the welded vertices they use, and only those, stored.
    pub fn to_sparse_range(&self, vertices: std::ops::Range<usize>) -> DdmPrimitive {
        let welded_of = &self.welded_of[vertices];
        let mut local = vec![u32::MAX; self.omega.len()];
        let mut used = Vec::new();
        for &w in welded_of {
            if local[w as usize] == u32::MAX {
                local[w as usize] = used.len() as u32;
                used.push(w as usize);
            }
        }
        let mut entries = Vec::new();
        let mut first_of = Vec::with_capacity(used.len());
        for (kept, &p) in used.iter().map(|&w| (&self.omega[w], &self.centroid[w])) {
            first_of.push([entries.len() as u32, kept.len() as u32]);
            let corner: f64 = kept.iter().map(|(_, o)| o[9]).sum();
            let scale = if corner.abs() > 1e-300 {
                1.0 / corner
            } else {
                1.0
            };
            entries.extend(kept.iter().map(|&(joint, o)| OmegaEntry {
                omega: centred(&o, p).map(|x| (x * scale) as f32),
                joint,
            }));
        }
        DdmPrimitive {
            ranges: (welded_of.iter())
                .map(|&w| first_of[local[w as usize] as usize])
                .collect(),
            centroids: (welded_of.iter())
                .map(|&w| self.centroid[w as usize].as_vec3())
                .collect(),
            entries,
            welded: used.len(),
            dropped: self.dropped,
        }
    }
}

/// The upper triangle of T₋ₚ Ω T₋ₚᵀ: Ω's second moments and first moments about p.
fn centred(o: &[f64; 10], p: glam::DVec3) -> [f64; 10] {
    let (xx, xy, xz, x1, yy, yz, y1, zz, z1, w) =
        (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9]);
    let m1 = glam::DVec3::new(x1, y1, z1);
    let c1 = m1 - p * w;
    // E[(u - p)(u - p)ᵀ] = E[u uᵀ] - p m1ᵀ - m1 pᵀ + w p pᵀ.
    let second = |a: f64, i: usize, j: usize| a - p[i] * m1[j] - m1[i] * p[j] + w * p[i] * p[j];
    [
        second(xx, 0, 0),
        second(xy, 0, 1),
        second(xz, 0, 2),
        c1.x,
        second(yy, 1, 1),
        second(yz, 1, 2),
        c1.y,
        second(zz, 2, 2),
        c1.z,
        w,
    ]
}

/// An error of one primitive, before it knows where it is.
pub enum PrimitiveError {
    /// Welded vertices, joints kept per vertex.
    TooBig(usize, usize),
    Solve(String),
}

impl PrimitiveError {
    fn at(self, mesh: usize, primitive: usize) -> DdmError {
        match self {
            PrimitiveError::TooBig(vertices, kept) => DdmError::TooBig {
                mesh,
                primitive,
                vertices,
                kept,
            },
            PrimitiveError::Solve(why) => DdmError::Solve {
                mesh,
                primitive,
                why,
            },
        }
    }
}

/// Vertices welded by position: each vertex's welded index, and the welded positions (the
/// first vertex's) and representatives.
pub fn weld(positions: &[glam::Vec3]) -> (Vec<u32>, Vec<usize>) {
    let mut index: HashMap<[u32; 3], u32> = HashMap::with_capacity(positions.len());
    let mut representative = Vec::new();
    let welded_of = (positions.iter().enumerate())
        .map(|(v, p)| {
            // -0.0 and 0.0 are one position.
            let key = (*p + glam::Vec3::ZERO).to_array().map(f32::to_bits);
            *index.entry(key).or_insert_with(|| {
                representative.push(v);
                (representative.len() - 1) as u32
            })
        })
        .collect();
    (welded_of, representative)
}

/// The cotangent Laplacian of the welded triangles as (row, column, value) triplets,
/// duplicates to be summed, positive diagonal (libigl's cotmatrix negated); degenerate triangles
/// add nothing.
pub fn cotangent_laplacian(
    positions: &[glam::DVec3],
    triangles: &[[u32; 3]],
) -> Vec<(u32, u32, f64)> {
    let mut out = Vec::with_capacity(triangles.len() * 12);
    for t in triangles {
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            continue;
        }
        for k in 0..3 {
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let (pa, pb, pc) = (
                positions[a as usize],
                positions[b as usize],
                positions[c as usize],
            );
            let (e1, e2) = (pb - pa, pc - pa);
            let cross = e1.cross(e2).length();
            if cross <= 1e-300 {
                continue;
            }
            // The edge (b, c) weighs half the cotangent of the angle at a.
            let w = 0.5 * e1.dot(e2) / cross;
            out.extend([(b, c, -w), (c, b, -w), (b, b, w), (c, c, w)]);
        }
    }
    out
}

/// The smoothing operator (I + s L̄)ᵀ = I + s D⁻¹ L for Laplacian triplets `laplacian` of `n`
/// vertices (a row with a zero diagonal stays the identity's).
fn smoothing_matrix(
    n: usize,
    laplacian: &[(u32, u32, f64)],
    diagonal: &[f64],
    s: f64,
) -> Vec<(u32, u32, f64)> {
    let mut out: Vec<(u32, u32, f64)> = (0..n as u32).map(|i| (i, i, 1.0)).collect();
    out.extend(laplacian.iter().filter_map(|&(i, j, v)| {
        let d = diagonal[i as usize];
        (d.abs() > 1e-300).then(|| (i, j, s * v / d))
    }));
    out
}

/// The 10 entries of u uᵀ's upper triangle for u = (x, y, z, 1), row by row.
fn outer_upper(u: glam::DVec3) -> [f64; 10] {
    let (x, y, z) = (u.x, u.y, u.z);
    [x * x, x * y, x * z, x, y * y, y * z, y, z * z, z, 1.0]
}

/// A term kept for a vertex while the joints are solved: (|Ω_ij[3][3]|, joint, Ψ_ij, W'_ij).
type Kept = (f64, u32, [f64; 10], f64);

/// Ω of one primitive in f64, keeping per welded vertex the `cap` joints of largest
/// `|Ω_ij[3][3]|` (every joint with `cap` at least the joint count: the dense evaluation).
pub fn smoothed_omega(
    primitive: &Primitive,
    params: &DdmParams,
    cap: usize,
    progress: &mut dyn FnMut(f32),
) -> Result<SmoothedOmega, PrimitiveError> {
    smoothed_omega_of(&[primitive], params, cap, progress)
}

/// `smoothed_omega` of several skinned primitives of one mesh as one surface: their vertices
/// in order (the second's after the first's), welded across primitives, so a seam between two
/// materials moves as one. Primitives without skinning are left out of the surface.
pub fn smoothed_omega_of(
    primitives: &[&Primitive],
    params: &DdmParams,
    cap: usize,
    progress: &mut dyn FnMut(f32),
) -> Result<SmoothedOmega, PrimitiveError> {
    let Some(surface) = Surface::of(primitives) else {
        return Ok(SmoothedOmega {
            welded_of: Vec::new(),
            omega: Vec::new(),
            centroid: Vec::new(),
            dropped: 0,
        });
    };
    let n = surface.positions.len();
    let kept_each = cap.min(surface.joints_used());
    if n.saturating_mul(kept_each) > MAX_TERMS {
        return Err(PrimitiveError::TooBig(n, kept_each));
    }
    let solved = solve_joints(&surface, params, cap, progress)?;
    let alpha = f64::from(params.alpha);
    let centroid: Vec<glam::DVec3> = (solved.centroid.iter().zip(&surface.positions))
        .map(|(&[px, py, pz, last], &p)| {
            if last.abs() > 1e-300 {
                glam::DVec3::new(px, py, pz) / last
            } else {
                p
            }
        })
        .collect();
    let omega = (solved.kept.iter().zip(&centroid))
        .map(|(kept, &c)| {
            let big_p = outer_upper(c);
            kept.iter()
                .map(|&(_, joint, psi_ij, w_ij)| {
                    let o: [f64; 10] = std::array::from_fn(|x| {
                        (1.0 - alpha) * psi_ij[x] + alpha * w_ij * big_p[x]
                    });
                    (joint, o)
                })
                .collect()
        })
        .collect();
    Ok(SmoothedOmega {
        welded_of: surface.welded_of,
        omega,
        centroid,
        dropped: solved.dropped,
    })
}

/// Skinned primitives as one welded surface: each vertex's welded index, and per welded vertex
/// its position, influences (its first vertex's, as palette joint and weight) and the
/// triangles between them.
struct Surface {
    welded_of: Vec<u32>,
    positions: Vec<glam::DVec3>,
    triangles: Vec<[u32; 3]>,
    influences: Vec<Vec<(u32, f64)>>,
    /// One past the largest joint weighed on.
    joints: usize,
}

impl Surface {
    /// The skinned primitives' vertices in order, welded (`None` when none is skinned).
    fn of(primitives: &[&Primitive]) -> Option<Self> {
        let mut all_positions = Vec::new();
        let mut triangles_of_all: Vec<[u32; 3]> = Vec::new();
        let mut vertex_influences: Vec<Vec<(u32, f64)>> = Vec::new();
        for primitive in primitives {
            let Some(skin) = primitive.skinning.as_ref() else {
                continue;
            };
            let first = all_positions.len() as u32;
            let count = primitive.positions.len() as u32;
            all_positions.extend_from_slice(&primitive.positions);
            let corner = |v: u32| first + v.min(count.saturating_sub(1));
            match &primitive.indices {
                Some(indices) => triangles_of_all.extend(
                    indices
                        .chunks_exact(3)
                        .map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]),
                ),
                None => triangles_of_all
                    .extend((0..count / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2].map(corner))),
            }
            vertex_influences.extend((0..primitive.positions.len()).map(|v| {
                skin.influences(v)
                    .filter(|&(_, w)| w != 0.0)
                    .map(|(j, w)| (u32::from(j), f64::from(w)))
                    .collect::<Vec<_>>()
            }));
        }
        if all_positions.is_empty() {
            return None;
        }
        let (welded_of, representative) = weld(&all_positions);
        let positions = (representative.iter())
            .map(|&v| all_positions[v].as_dvec3())
            .collect();
        let triangles = (triangles_of_all.iter())
            .map(|t| t.map(|v| welded_of[v as usize]))
            .collect();
        let influences: Vec<Vec<(u32, f64)>> = (representative.iter())
            .map(|&v| std::mem::take(&mut vertex_influences[v]))
            .collect();
        let joints = (influences.iter().flatten())
            .map(|&(j, _)| j as usize + 1)
            .max()
            .unwrap_or(0);
        Some(Self {
            welded_of,
            positions,
            triangles,
            influences,
            joints,
        })
    }

    /// How many joints some vertex weighs on. A joint no vertex weighs on keeps a zero weight
    /// through the smoothing: at most these are kept.
    fn joints_used(&self) -> usize {
        let mut used = vec![false; self.joints];
        for &(j, _) in self.influences.iter().flatten() {
            used[j as usize] = true;
        }
        used.iter().filter(|&&u| u).count()
    }
}

/// What the smoothing solves leave per welded vertex: Σ_j Ψ_ij's last column, the best-kept
/// terms (score, joint, Ψ_ij, W'_ij), and how many terms were dropped in all.
struct Solved {
    centroid: Vec<[f64; 4]>,
    kept: Vec<Vec<Kept>>,
    dropped: usize,
}

/// The weights W and the moments Ψ = W u uᵀ smoothed `iterations` times by the implicit
/// Laplacian solves (κ for W, λ for Ψ), a group of joints at a time so that the columns fit
/// `GROUP_BYTES`, keeping per vertex the `cap` terms of largest |Ω_ij[3][3]|.
fn solve_joints(
    surface: &Surface,
    params: &DdmParams,
    cap: usize,
    progress: &mut dyn FnMut(f32),
) -> Result<Solved, PrimitiveError> {
    let (positions, joints) = (&surface.positions, surface.joints);
    let n = positions.len();
    let laplacian = cotangent_laplacian(positions, &surface.triangles);
    let mut diagonal = vec![0.0f64; n];
    for &(i, j, v) in &laplacian {
        if i == j {
            diagonal[i as usize] += v;
        }
    }
    let factor = |s: f32| {
        Factored::new(n, &smoothing_matrix(n, &laplacian, &diagonal, f64::from(s)))
            .map_err(|e| PrimitiveError::Solve(e.0))
    };
    let (weights_op, psi_op) = (factor(params.kappa)?, factor(params.lambda)?);
    // Each joint of a group takes 11 columns of n f64 (W and Ψ's 10).
    let group_size = (GROUP_BYTES / (n.max(1) * 11 * 8)).clamp(1, JOINT_GROUP);
    let groups = joints.div_ceil(group_size).max(1);
    let solves = (groups * 2 * params.iterations as usize).max(1) as f32;
    let mut solved = 0usize;
    let mut tick = || {
        solved += 1;
        progress(solved as f32 / solves);
    };
    let u: Vec<[f64; 10]> = positions.iter().map(|&p| outer_upper(p)).collect();
    let mut out = Solved {
        centroid: vec![[0.0f64; 4]; n],
        kept: vec![Vec::new(); n],
        dropped: 0,
    };
    let alpha = f64::from(params.alpha);
    let p = params.iterations as usize;
    for group in 0..groups {
        let first = group * group_size;
        let count = group_size.min(joints.saturating_sub(first));
        if count == 0 {
            break;
        }
        let mut w = vec![0.0f64; n * count];
        for (i, inf) in surface.influences.iter().enumerate() {
            for &(j, weight) in inf {
                let j = j as usize;
                if (first..first + count).contains(&j) {
                    w[(j - first) * n + i] += weight;
                }
            }
        }
        let mut psi = vec![0.0f64; n * count * 10];
        for c in 0..count {
            for x in 0..10 {
                let column = &mut psi[(c * 10 + x) * n..(c * 10 + x + 1) * n];
                for i in 0..n {
                    column[i] = w[c * n + i] * u[i][x];
                }
            }
        }
        weights_op.solve_repeated(&mut w, p, &mut tick);
        psi_op.solve_repeated(&mut psi, p, &mut tick);
        for i in 0..n {
            for c in 0..count {
                let at = |x: usize| psi[(c * 10 + x) * n + i];
                let psi_ij: [f64; 10] = std::array::from_fn(at);
                for (k, x) in [3usize, 6, 8, 9].into_iter().enumerate() {
                    out.centroid[i][k] += psi_ij[x];
                }
                let w_ij = w[c * n + i];
                let score = ((1.0 - alpha) * psi_ij[9] + alpha * w_ij).abs();
                if score <= 1e-12 {
                    continue;
                }
                let list = &mut out.kept[i];
                let at = list.partition_point(|e| e.0 >= score);
                list.insert(at, (score, (first + c) as u32, psi_ij, w_ij));
                if list.len() > cap {
                    list.pop();
                    out.dropped += 1;
                }
            }
        }
    }
    Ok(out)
}
