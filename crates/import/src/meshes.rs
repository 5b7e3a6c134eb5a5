//! Meshes and the scene's mesh instances, their geometry: vertex attributes checked against each
//! other and the vertex count, normals computed when absent, tangents generated, morph targets,
//! strips and fans turned into triangle lists. The influences are `influences.rs`, the
//! materials and their textures `materials.rs`.

use std::collections::HashMap;

use glam::{Vec2, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::accessor::{Buffers, expect_format, read_f32, read_normalized_f32, read_u32};
use super::hierarchy::Hierarchy;
use super::influences::read_skinning;
use super::materials::{TextureCache, read_material};
use super::problem::{Optional, Problems, Recorded};
use crate::character::Problem;
use crate::character::{MeshData, MeshInstance, MorphTarget, Primitive, SkinData};

pub(crate) fn build(
    document: &gltf::Document,
    buffers: &Buffers,
    base: &super::UriBase,
    hierarchy: &Hierarchy,
    skins: &[SkinData],
    problems: &mut Problems,
) -> (Vec<MeshData>, Vec<MeshInstance>) {
    let nodes: Vec<gltf::Node<'_>> = document.nodes().collect();
    let mut meshes = Vec::new();
    let mut instances = Vec::new();
    let mut loaded: HashMap<(usize, Option<usize>), usize> = HashMap::new();
    let mut textures = TextureCache {
        document,
        decoded: HashMap::new(),
    };
    for &node_index in &hierarchy.scene_nodes {
        let node = &nodes[node_index];
        let at = format!("/nodes/{node_index}");
        let Some(mesh) = node.mesh() else { continue };
        // A node's own default weights must match its mesh's targets, as the mesh's must.
        let targets = mesh
            .primitives()
            .next()
            .map_or(0, |p| p.morph_targets().len());
        if let Some(w) = node.weights()
            && w.len() != targets
        {
            problems.error(
                format!("{at}/weights"),
                format!(
                    "{} default weights for the {targets} morph targets of its mesh {}",
                    w.len(),
                    mesh.index()
                ),
            );
        }
        let skin_position = node
            .skin()
            .and_then(|s| skins.iter().position(|d| d.index == s.index()));
        if node.skin().is_some() && skin_position.is_none() {
            // The skin was refused; its error is already recorded.
            continue;
        }
        if skin_position.is_some() {
            warn_ignored_transforms(node_index, hierarchy, problems);
        }
        let key = (mesh.index(), skin_position);
        let mesh_slot = match loaded.get(&key) {
            Some(&slot) => slot,
            None => {
                let skin = skin_position.map(|s| &skins[s]);
                let Some(data) = build_mesh(
                    &mesh,
                    skin,
                    Some(node_index),
                    buffers,
                    base,
                    &mut textures,
                    problems,
                ) else {
                    continue;
                };
                meshes.push(data);
                loaded.insert(key, meshes.len() - 1);
                meshes.len() - 1
            }
        };
        let default_weights = match node.weights() {
            Some(w) if w.len() == targets => w.to_vec(),
            _ => meshes[mesh_slot].morph_weights.clone(),
        };
        instances.push(MeshInstance {
            node: node_index,
            skeleton_joint: hierarchy.joint_of_node[node_index],
            mesh: mesh_slot,
            skin: skin_position,
            default_weights,
        });
    }
    // Meshes no scene node draws are still checked: a broken mesh is a broken file.
    for mesh in document.meshes() {
        if !loaded.keys().any(|(m, _)| *m == mesh.index()) {
            let _ = build_mesh(&mesh, None, None, buffers, base, &mut textures, problems);
        }
    }
    (meshes, instances)
}

/// glTF: a skinned mesh ignores its node's transform and its parents'. Say so when they exist.
fn warn_ignored_transforms(node: usize, hierarchy: &Hierarchy, problems: &mut Problems) {
    let mut chain = Vec::new();
    let mut n = Some(node);
    while let Some(i) = n {
        if hierarchy.has_transform[i] {
            chain.push(i);
        }
        n = hierarchy.parent_of_node[i];
    }
    if !chain.is_empty() {
        problems.note_coded(
            "NODE_SKINNED_MESH_PARENT_TRANSFORMS",
            format!("/nodes/{node}"),
            format!(
                "transforms of the skinned mesh node and its parents (nodes {chain:?}) do not move a skinned mesh (glTF rule): ignored for skinning"
            ),
        );
    }
}

fn build_mesh(
    mesh: &gltf::Mesh<'_>,
    skin: Option<&SkinData>,
    node: Option<usize>,
    buffers: &Buffers,
    base: &super::UriBase,
    textures: &mut TextureCache<'_>,
    problems: &mut Problems,
) -> Option<MeshData> {
    let at = format!("/meshes/{}", mesh.index());
    let mut primitives = Vec::new();
    let mut target_count: Option<usize> = None;
    let errors_before = problems.errors.len();
    for primitive in mesh.primitives() {
        let p_at = format!("{at}/primitives/{}", primitive.index());
        let targets = primitive.morph_targets().len();
        match target_count {
            None => target_count = Some(targets),
            Some(n) if n != targets => problems.error(
                format!("{p_at}/targets"),
                format!("{targets} morph targets where the mesh's first primitive has {n}: all primitives need the same count"),
            ),
            Some(_) => {}
        }
        if let Some(p) = build_primitive(
            &primitive, &p_at, skin, node, buffers, base, textures, problems,
        ) {
            primitives.push(p);
        }
    }
    let targets = target_count.unwrap_or(0);
    let morph_weights = match mesh.weights() {
        Some(w) if w.len() != targets => {
            problems.error(
                format!("{at}/weights"),
                format!("{} default weights for {targets} morph targets", w.len()),
            );
            Vec::new()
        }
        Some(w) => w.to_vec(),
        None => vec![0.0; targets],
    };
    if problems.errors.len() > errors_before {
        return None;
    }
    let target_names = target_names(mesh, targets);
    Some(MeshData {
        name: mesh
            .name()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("mesh {}", mesh.index())),
        index: mesh.index(),
        primitives,
        morph_weights,
        target_names,
    })
}

/// The targets' names from `mesh.extras.targetNames` (the convention Blender and three.js
/// follow), else their indices.
fn target_names(mesh: &gltf::Mesh<'_>, targets: usize) -> Vec<String> {
    let named: Option<Vec<String>> = mesh
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| {
            v.get("targetNames")?
                .as_array()?
                .iter()
                .map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .filter(|names: &Vec<String>| names.len() == targets);
    named.unwrap_or_else(|| (0..targets).map(|t| t.to_string()).collect())
}

fn vec3s(values: Vec<f32>) -> Vec<Vec3> {
    values.chunks_exact(3).map(Vec3::from_slice).collect()
}

/// Reads a VEC3 float (or normalised integer) attribute of exactly `count` elements.
fn read_vec3_attribute(
    accessor: gltf::Accessor<'_>,
    at: &str,
    what: &str,
    count: Option<usize>,
    buffers: &Buffers,
) -> Result<Vec<Vec3>, Problem> {
    expect_format(
        &accessor,
        at,
        what,
        &[Dimensions::Vec3],
        &[
            DataType::F32,
            DataType::I8,
            DataType::U8,
            DataType::I16,
            DataType::U16,
        ],
    )?;
    if let Some(count) = count
        && accessor.count() != count
    {
        return Err(Problem::new(
            at,
            format!("{} {what} values for {count} vertices", accessor.count()),
        ));
    }
    let values = vec3s(read_f32(&accessor, buffers)?);
    if let Some(v) = values.iter().position(|v| !v.is_finite()) {
        return Err(Problem::new(
            at,
            format!(
                "{what} of vertex {v} is not finite (accessor {})",
                accessor.index()
            ),
        ));
    }
    Ok(values)
}

#[allow(clippy::too_many_arguments)]
fn build_primitive(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    skin: Option<&SkinData>,
    node: Option<usize>,
    buffers: &Buffers,
    base: &super::UriBase,
    textures: &mut TextureCache<'_>,
    problems: &mut Problems,
) -> Option<Primitive> {
    let attr = |name: &str| format!("{at}/attributes/{name}");
    let mode = primitive.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        problems.warn(
            format!("{at}/mode"),
            format!("{mode:?} primitives are not drawn (triangles only)"),
        );
        return None;
    }
    let Some(position_accessor) = primitive.get(&gltf::Semantic::Positions) else {
        problems.warn(format!("{at}/attributes"), "has no POSITION: not drawn");
        return None;
    };
    let positions = problems.take(read_vec3_attribute(
        position_accessor,
        &attr("POSITION"),
        "POSITION",
        None,
        buffers,
    ))?;
    let count = positions.len();

    let indices = read_indices(primitive, at, count, buffers, problems).ok()?;
    let triangles = triangle_list(mode, indices, count, at, problems);

    let normals = match primitive.get(&gltf::Semantic::Normals) {
        Some(accessor) => {
            let normals = problems.take(read_vec3_attribute(
                accessor,
                &attr("NORMAL"),
                "NORMAL",
                Some(count),
                buffers,
            ))?;
            normals
                .into_iter()
                .map(|n| n.normalize_or(Vec3::Y))
                .collect()
        }
        // glTF expects flat normals when absent; smooth ones read better on a character. A
        // morphed primitive's follow its drawn triangles (`Primitive::needs_face_normals`).
        None => crate::character::area_weighted_normals(&positions, triangles.as_deref()),
    };
    let normals_computed = primitive.get(&gltf::Semantic::Normals).is_none();

    let uvs = read_uvs(primitive, at, 0, count, buffers, problems).ok()?;
    let uvs1 = read_uvs(primitive, at, 1, count, buffers, problems).ok()?;
    let colors = read_colors(primitive, at, count, buffers, problems).ok()?;
    let tangents = read_tangents(primitive, at, count, buffers, problems).ok()?;

    let skinning = read_skinning(primitive, at, skin, node, count, buffers, problems).ok()?;

    let morph_targets = read_morph_targets(primitive, at, count, buffers, problems)?;

    let material = read_material(&primitive.material(), buffers, base, textures, problems);
    // A normal map needs tangents: generated from its texture coordinates when the file has none.
    let tangents = tangents.or_else(|| {
        let map = material.normal_texture.as_ref()?;
        let uv = if map.tex_coord == 1 {
            uvs1.as_ref()
        } else {
            uvs.as_ref()
        }?;
        Some(generate_tangents(
            &positions,
            &normals,
            uv,
            triangles.as_deref(),
        ))
    });
    Some(Primitive {
        positions,
        normals,
        uvs,
        uvs1,
        colors,
        tangents,
        indices: triangles,
        skinning,
        material,
        morph_targets,
        normals_computed,
    })
}

/// What one optional vertex attribute may be.
struct AttributeFormat<'a> {
    semantic: gltf::Semantic,
    name: &'a str,
    dimensions: &'a [Dimensions],
    types: &'a [DataType],
    /// Integers are always normalised (colours, tangents); else as the accessor says.
    normalized: bool,
}

/// An optional attribute's values and dimensions, checked against its format and the vertex
/// count; `Ok(None)` without it, `Err(Recorded)` when refused.
fn read_attribute(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    format: AttributeFormat<'_>,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<(Vec<f32>, Dimensions)> {
    let Some(accessor) = primitive.get(&format.semantic) else {
        return Ok(None);
    };
    let a_at = format!("{at}/attributes/{}", format.name);
    problems
        .take(expect_format(
            &accessor,
            &a_at,
            format.name,
            format.dimensions,
            format.types,
        ))
        .ok_or(Recorded)?;
    if accessor.count() != count {
        problems.error(
            a_at,
            format!("{} values for {count} vertices", accessor.count()),
        );
        return Err(Recorded);
    }
    let values = if format.normalized {
        read_normalized_f32(&accessor, buffers)
    } else {
        read_f32(&accessor, buffers)
    };
    Ok(Some((
        problems.take(values).ok_or(Recorded)?,
        accessor.dimensions(),
    )))
}

/// COLOR_0 as linear RGBA (alpha 1 for RGB colours); `Ok(None)` without it.
fn read_colors(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<Vec<Vec4>> {
    let format = AttributeFormat {
        semantic: gltf::Semantic::Colors(0),
        name: "COLOR_0",
        dimensions: &[Dimensions::Vec3, Dimensions::Vec4],
        types: &[DataType::F32, DataType::U8, DataType::U16],
        normalized: true,
    };
    let read = read_attribute(primitive, at, format, count, buffers, problems)?;
    Ok(read.map(|(values, dimensions)| {
        let n = if dimensions == Dimensions::Vec3 { 3 } else { 4 };
        values
            .chunks_exact(n)
            .map(|c| Vec4::new(c[0], c[1], c[2], if n == 4 { c[3] } else { 1.0 }))
            .collect()
    }))
}

/// TANGENT (xyz unit, w the handedness); `Ok(None)` without it.
fn read_tangents(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<Vec<Vec4>> {
    let format = AttributeFormat {
        semantic: gltf::Semantic::Tangents,
        name: "TANGENT",
        dimensions: &[Dimensions::Vec4],
        types: &[DataType::F32, DataType::I8, DataType::I16],
        normalized: true,
    };
    let read = read_attribute(primitive, at, format, count, buffers, problems)?;
    Ok(read.map(|(values, _)| {
        values
            .chunks_exact(4)
            .map(|t| {
                let xyz = Vec3::new(t[0], t[1], t[2]).normalize_or(Vec3::X);
                xyz.extend(if t[3] < 0.0 { -1.0 } else { 1.0 })
            })
            .collect()
    }))
}

/// Per-vertex tangents from the texture coordinates' gradients over each triangle, summed and
/// made perpendicular to the normal (Lengyel's method; the Khronos viewer uses MikkTSpace, which
/// agrees on smooth, well-mapped meshes).
fn generate_tangents(
    positions: &[Vec3],
    normals: &[Vec3],
    uvs: &[Vec2],
    indices: Option<&[u32]>,
) -> Vec<Vec4> {
    let n = positions.len();
    let mut tangent = vec![Vec3::ZERO; n];
    let mut bitangent = vec![Vec3::ZERO; n];
    let list: Vec<u32> = indices.map_or_else(|| (0..(n - n % 3) as u32).collect(), <[u32]>::to_vec);
    for t in list.chunks_exact(3) {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        if a.max(b).max(c) >= n || c >= uvs.len() || a >= uvs.len() || b >= uvs.len() {
            continue;
        }
        let (e1, e2) = (positions[b] - positions[a], positions[c] - positions[a]);
        let (d1, d2) = (uvs[b] - uvs[a], uvs[c] - uvs[a]);
        let det = d1.x * d2.y - d2.x * d1.y;
        if det.abs() < 1e-12 {
            continue;
        }
        let r = 1.0 / det;
        let t_dir = (e1 * d2.y - e2 * d1.y) * r;
        let b_dir = (e2 * d1.x - e1 * d2.x) * r;
        for v in [a, b, c] {
            tangent[v] += t_dir;
            bitangent[v] += b_dir;
        }
    }
    (0..n)
        .map(|v| {
            let normal = normals[v];
            let t = (tangent[v] - normal * normal.dot(tangent[v]))
                .normalize_or(normal.any_orthonormal_vector());
            let w = if normal.cross(t).dot(bitangent[v]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            t.extend(w)
        })
        .collect()
}

/// The index accessor, checked against the vertex count; `Ok(None)` without one.
fn read_indices(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<Vec<u32>> {
    let Some(accessor) = primitive.indices() else {
        return Ok(None);
    };
    let i_at = format!("{at}/indices");
    problems
        .take(expect_format(
            &accessor,
            &i_at,
            "index",
            &[Dimensions::Scalar],
            &[DataType::U8, DataType::U16, DataType::U32],
        ))
        .ok_or(Recorded)?;
    let values = problems
        .take(read_u32(&accessor, buffers))
        .ok_or(Recorded)?;
    if let Some(k) = values.iter().position(|&i| i as usize >= count) {
        problems.error(
            i_at,
            format!("index {k} is {}, but there are {count} vertices", values[k]),
        );
        return Err(Recorded);
    }
    Ok(Some(values))
}

/// TEXCOORD_0, one per vertex; `Ok(None)` without it.
fn read_uvs(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    set: u32,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<Vec<Vec2>> {
    let name = format!("TEXCOORD_{set}");
    let format = AttributeFormat {
        semantic: gltf::Semantic::TexCoords(set),
        name: &name,
        dimensions: &[Dimensions::Vec2],
        types: &[
            DataType::F32,
            DataType::U8,
            DataType::U16,
            DataType::I8,
            DataType::I16,
        ],
        normalized: false,
    };
    let read = read_attribute(primitive, at, format, count, buffers, problems)?;
    Ok(read.map(|(values, _)| values.chunks_exact(2).map(Vec2::from_slice).collect()))
}

/// Each morph target's position, normal and tangent displacements (those it has).
fn read_morph_targets(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Option<Vec<MorphTarget>> {
    let mut morph_targets = Vec::new();
    for (t, target) in primitive.morph_targets().enumerate() {
        let t_at = format!("{at}/targets/{t}");
        let mut read = |accessor: Option<gltf::Accessor<'_>>, name: &str| -> Optional<_> {
            match accessor {
                None => Ok(None),
                Some(a) => problems
                    .take(read_vec3_attribute(
                        a,
                        &format!("{t_at}/{name}"),
                        name,
                        Some(count),
                        buffers,
                    ))
                    .map(Some)
                    .ok_or(Recorded),
            }
        };
        let positions = read(target.positions(), "POSITION").ok()?;
        let normals = read(target.normals(), "NORMAL").ok()?;
        let tangents = read(target.tangents(), "TANGENT").ok()?;
        morph_targets.push(MorphTarget {
            positions,
            normals,
            tangents,
        });
    }
    Some(morph_targets)
}

/// Indices as a triangle list: strips and fans are unrolled; a non-indexed strip or fan gets
/// indices; a plain non-indexed list stays `None`.
fn triangle_list(
    mode: Mode,
    indices: Option<Vec<u32>>,
    count: usize,
    at: &str,
    problems: &mut Problems,
) -> Option<Vec<u32>> {
    let get = |i: usize| indices.as_ref().map_or(i as u32, |v| v[i]);
    let n = indices.as_ref().map_or(count, Vec::len);
    let list = match mode {
        Mode::TriangleStrip => Some(
            (0..n.saturating_sub(2))
                .flat_map(|i| {
                    if i % 2 == 0 {
                        [get(i), get(i + 1), get(i + 2)]
                    } else {
                        [get(i + 1), get(i), get(i + 2)]
                    }
                })
                .collect(),
        ),
        Mode::TriangleFan => Some(
            (1..n.saturating_sub(1))
                .flat_map(|i| [get(0), get(i), get(i + 1)])
                .collect(),
        ),
        _ => indices,
    };
    let len = list.as_ref().map_or(count, Vec::len);
    if len % 3 != 0 {
        problems.warn(
            at,
            format!("{len} vertices or indices is not a whole number of triangles: the last {} are dropped", len % 3),
        );
        return Some(
            list.unwrap_or_else(|| (0..count as u32).collect())
                .into_iter()
                .take(len - len % 3)
                .collect(),
        );
    }
    list
}
