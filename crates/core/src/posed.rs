//! The CPU skinning reference: every vertex of a posed character, morphed, corrected, skinned
//! (linear blend, dual quaternions, weight-blended or direct delta mush) and displaced as the
//! GPU's skin pass does it, placed in the world. What the exports write, what `render` checks
//! for non-finite vertices and what the GPU's read-back is compared against.

use glam::{Mat4, Vec3};

use crate::anim::SkinningMethod;
use crate::character::Character;
use crate::pose::CharacterPose;

/// Every vertex of a posed character in world space, per mesh instance (primitive after
/// primitive, file order): what the exports write. From the CPU reference (`on_cpu`) or from the
/// GPU's skin pass read back (`from_mesh_space`), so an export can be the very vertices drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PosedVertices {
    /// Per instance: world positions and unit world normals.
    pub instances: Vec<(Vec<Vec3>, Vec<Vec3>)>,
}

impl PosedVertices {
    /// Morphed in bind space, then skinned (linear blend, dual quaternions or weight-blended, as
    /// the shader does), then placed by `world_from_mesh`.
    pub fn on_cpu(c: &Character, pose: &CharacterPose, skinning: SkinningMethod) -> Self {
        Self::on_cpu_with(c, pose, skinning, None)
    }

    /// `on_cpu`, with direct delta mush's Ω for `SkinningMethod::DeltaMush` (a primitive without
    /// one is skinned by linear blend, as the skin pass does).
    pub fn on_cpu_with(
        c: &Character,
        pose: &CharacterPose,
        skinning: SkinningMethod,
        ddm: Option<&crate::deform::DdmData>,
    ) -> Self {
        let dq: Vec<Mat4> = if skinning.uses_dual_quaternions() {
            pose.palette.iter().map(crate::anim::dq_entry).collect()
        } else {
            Vec::new()
        };
        let instances = (c.instances.iter().enumerate())
            .map(|(i, instance)| {
                let base = pose.palette_base.get(i).map_or(0, |&b| b as usize);
                let palette = pose.instance_palette(i);
                let packed = &dq[base.min(dq.len())..];
                let method = &pose.palette_method[base.min(pose.palette_method.len())..];
                let mut mesh_space = Vec::new();
                let mesh_from_world =
                    (pose.world_from_mesh.get(i)).map_or(Mat4::IDENTITY, |m| m.inverse());
                for (pi, primitive) in c.meshes[instance.mesh].primitives.iter().enumerate() {
                    let omega = ddm
                        .filter(|_| skinning == SkinningMethod::DeltaMush)
                        .and_then(|d| d.primitive(instance.mesh, pi));
                    let (positions, normals) =
                        crate::pose::morphed_vertices(primitive, pose.morph.of(i));
                    for (v, (&p, &n)) in positions.iter().zip(&normals).enumerate() {
                        // The ML deformer's corrective, in bind space before skinning.
                        let p = p + pose
                            .ml
                            .as_ref()
                            .map_or(Vec3::ZERO, |m| m.offset(instance.mesh, pi, v));
                        let skinned = match (palette, &primitive.skinning) {
                            (Some(palette), Some(s)) => {
                                let influences =
                                    s.influences(v).map(|(j, w): (u16, f32)| (u32::from(j), w));
                                let (centroid, entries) =
                                    omega.map_or((Vec3::ZERO, &[][..]), |o| o.of(v));
                                crate::anim::ddm_skin(palette, centroid, entries, p, n).or_else(
                                    || {
                                        skin_vertex(
                                            skinning,
                                            (palette, packed, method),
                                            influences,
                                            (p, n),
                                        )
                                    },
                                )
                            }
                            _ => None,
                        };
                        let (mut p, n) = skinned.unwrap_or((p, n));
                        // The muscles' displacement, after skinning (world, into mesh space).
                        if let Some(m) = &pose.muscles {
                            let offset = m.skin_offset(instance.mesh, pi, v);
                            p += mesh_from_world.transform_vector3(offset);
                        }
                        mesh_space.push((p, n));
                    }
                }
                mesh_space
            })
            .collect::<Vec<_>>();
        Self::from_mesh_space(pose, &instances)
    }

    /// Mesh-space (position, normal) per vertex per instance, placed in the world by the pose's
    /// `world_from_mesh`.
    pub fn from_mesh_space(pose: &CharacterPose, instances: &[Vec<(Vec3, Vec3)>]) -> Self {
        Self {
            instances: (instances.iter().enumerate())
                .map(|(i, vertices)| {
                    let world_from_mesh = pose
                        .world_from_mesh
                        .get(i)
                        .copied()
                        .unwrap_or(Mat4::IDENTITY);
                    vertices
                        .iter()
                        .map(|&(p, n)| {
                            (
                                world_from_mesh.transform_point3(p),
                                world_from_mesh.transform_vector3(n).normalize_or(Vec3::Y),
                            )
                        })
                        .unzip()
                })
                .collect(),
        }
    }

    /// Normals recomputed from the posed positions for the primitives whose normals follow
    /// their drawn triangles (`Primitive::needs_face_normals`), as the shader shades them.
    pub fn with_drawn_normals(mut self, c: &Character) -> Self {
        for (instance, (world, normals)) in c.instances.iter().zip(&mut self.instances) {
            let mut first = 0;
            for primitive in &c.meshes[instance.mesh].primitives {
                let range = first..(first + primitive.positions.len()).min(world.len());
                first = range.end;
                if primitive.needs_face_normals() && range.end <= normals.len() {
                    let drawn = crate::character::area_weighted_normals(
                        &world[range.clone()],
                        primitive.indices.as_deref(),
                    );
                    normals[range].copy_from_slice(&drawn);
                }
            }
        }
        self
    }

    /// (vertices with a non-finite position or normal, all vertices).
    pub fn non_finite(&self) -> (usize, usize) {
        let all = self.instances.iter().map(|(p, _)| p.len()).sum();
        let bad = (self.instances.iter())
            .flat_map(|(p, n)| p.iter().zip(n))
            .filter(|(p, n)| !p.is_finite() || !n.is_finite())
            .count();
        (bad, all)
    }

    /// The largest distance between the two sets' matching positions (infinite when their
    /// shapes differ).
    pub fn max_distance(&self, other: &PosedVertices) -> f32 {
        if self.instances.len() != other.instances.len()
            || (self.instances.iter().zip(&other.instances)).any(|(a, b)| a.0.len() != b.0.len())
        {
            return f32::INFINITY;
        }
        (self.instances.iter().zip(&other.instances))
            .flat_map(|(a, b)| a.0.iter().zip(&b.0).map(|(p, q)| p.distance(*q)))
            .fold(0.0, f32::max)
    }

    /// Instance `i`'s world positions and normals (empty when there is none).
    pub fn of(&self, i: usize) -> (&[Vec3], &[Vec3]) {
        self.instances
            .get(i)
            .map_or((&[][..], &[][..]), |(p, n)| (p.as_slice(), n.as_slice()))
    }
}

/// One vertex (position, normal) skinned on the CPU by `skinning` over an instance's palette,
/// its dual quaternions and its method weights (`None` when an index is outside the palette).
fn skin_vertex(
    skinning: SkinningMethod,
    palettes: (&[Mat4], &[Mat4], &[f32]),
    influences: impl Iterator<Item = (u32, f32)> + Clone,
    (p, n): (Vec3, Vec3),
) -> Option<(Vec3, Vec3)> {
    let (palette, packed, _) = palettes;
    match skinning {
        SkinningMethod::Linear | SkinningMethod::DeltaMush => {
            crate::anim::blend_matrix(palette, influences).map(|m| {
                (
                    m.transform_point3(p),
                    m.transform_vector3(n).normalize_or_zero(),
                )
            })
        }
        SkinningMethod::DualQuaternion => {
            crate::anim::dq_skin_position(packed, influences.clone(), p)
                .zip(crate::anim::dq_skin_direction(packed, influences, n, true))
        }
        SkinningMethod::Blended => {
            crate::anim::blended_skin_position(palettes, influences.clone(), p).zip(
                crate::anim::blended_skin_direction(palettes, influences, n, true),
            )
        }
    }
}
