//! Meshes and the scene's mesh instances: vertex attributes checked against each other and the
//! skin, joints remapped to palette indices, weights normalised, normals computed when absent,
//! strips and fans turned into triangle lists, base colour textures decoded.

use std::collections::HashMap;
use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::accessor::{Buffers, expect_format, read_f32, read_normalized_f32, read_u32};
use super::hierarchy::Hierarchy;
use super::problem::{Optional, Problems, Recorded};
use crate::character::Problem;
use crate::character::{
    AlphaMode, Material, MaterialTexture, MeshData, MeshInstance, MorphTarget, Primitive, SkinData,
    Texture, UvTransform, VertexInfluences,
};

/// Weight sums further than this from one are renormalised (three.js does the same).
const WEIGHT_SUM_TOLERANCE: f32 = 1e-3;

pub(crate) fn build(
    document: &gltf::Document,
    buffers: &Buffers,
    base: &Path,
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
        if let (Some(_), None) = (node.skin(), node.mesh()) {
            problems.warn(
                format!("{at}/skin"),
                "the node has a skin but no mesh; the skin is unused",
            );
        }
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
        problems.note(
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
    base: &Path,
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
    base: &Path,
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
        let mut read = |accessor: Option<gltf::Accessor<'_>>, name: &str| match accessor {
            None => Some(None),
            Some(a) => problems
                .take(read_vec3_attribute(
                    a,
                    &format!("{t_at}/{name}"),
                    name,
                    Some(count),
                    buffers,
                ))
                .map(Some),
        };
        let positions = read(target.positions(), "POSITION")?;
        let normals = read(target.normals(), "NORMAL")?;
        let tangents = read(target.tangents(), "TANGENT")?;
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

/// The most pixels on an image's side, and the most memory its decoding may take: a tiny file
/// that declares a huge image is refused, not allocated.
const MAX_IMAGE_SIDE: u32 = 16_384;
const MAX_IMAGE_DECODE_BYTES: u64 = 1 << 30;

fn decode_bounded(encoded: &[u8]) -> Result<image::DynamicImage, String> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(encoded))
        .with_guessed_format()
        .map_err(|e| format!("cannot read the image: {e}"))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_IMAGE_DECODE_BYTES);
    reader.limits(limits);
    reader.decode().map_err(|e| {
        format!(
            "cannot decode the image (at most {MAX_IMAGE_SIDE} pixels a side, 1 GiB decoded): {e}"
        )
    })
}

fn read_skinning(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    skin: Option<&SkinData>,
    node: Option<usize>,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<VertexInfluences> {
    let Some((joints, weights, joint_sets)) =
        skinning_accessors(primitive, at, skin, node, count, problems)?
    else {
        return Ok(None);
    };
    let Some(skin) = skin else {
        // A mesh no node draws (`node` is None) is only checked.
        let Some(node) = node else { return Ok(None) };
        problems.warn(
            format!("/nodes/{node}"),
            format!("the node has no skin but its mesh has JOINTS_0/WEIGHTS_0 ({at}/attributes/JOINTS_0): drawn rigidly at the node"),
        );
        return Ok(None);
    };
    let extra =
        extra_weights(primitive, at, joint_sets, count, buffers, problems).ok_or(Recorded)?;
    let joint_values = problems.take(read_u32(&joints, buffers)).ok_or(Recorded)?;
    let weight_values = problems
        .take(read_normalized_f32(&weights, buffers))
        .ok_or(Recorded)?;
    let skinning =
        influences(at, skin, &joint_values, &weight_values, extra, problems).ok_or(Recorded)?;
    let weights_at = format!("{at}/attributes/WEIGHTS_0");
    if skinning.renormalised_vertices > 0 {
        problems.warn(
            &weights_at,
            format!("{} vertices have weights that do not sum to 1 (within {WEIGHT_SUM_TOLERANCE}): renormalised", skinning.renormalised_vertices),
        );
    }
    if skinning.unweighted_vertices > 0 {
        problems.warn(
            &weights_at,
            format!(
                "{} vertices have all-zero weights: bound to the skin's root joint",
                skinning.unweighted_vertices
            ),
        );
    }
    Ok(Some(skinning))
}

/// JOINTS_0 and WEIGHTS_0, checked against each other and the vertex count, and the number of
/// JOINTS sets; `Ok(None)` without either (a skinned node's primitive drawn rigidly).
fn skinning_accessors<'a>(
    primitive: &gltf::Primitive<'a>,
    at: &str,
    skin: Option<&SkinData>,
    node: Option<usize>,
    count: usize,
    problems: &mut Problems,
) -> Optional<(gltf::Accessor<'a>, gltf::Accessor<'a>, usize)> {
    let sets = |joints: bool| {
        primitive
            .attributes()
            .filter(|(semantic, _)| {
                matches!(
                    (semantic, joints),
                    (gltf::Semantic::Joints(_), true) | (gltf::Semantic::Weights(_), false)
                )
            })
            .count()
    };
    let (joint_sets, weight_sets) = (sets(true), sets(false));
    if joint_sets != weight_sets {
        problems.error(
            format!("{at}/attributes"),
            format!("{joint_sets} JOINTS sets but {weight_sets} WEIGHTS sets: each JOINTS_n needs its WEIGHTS_n"),
        );
        return Err(Recorded);
    }
    let joints_at = format!("{at}/attributes/JOINTS_0");
    let weights_at = format!("{at}/attributes/WEIGHTS_0");
    let joints = primitive.get(&gltf::Semantic::Joints(0));
    let weights = primitive.get(&gltf::Semantic::Weights(0));
    let (joints, weights) = match (joints, weights) {
        (None, None) => {
            if let (Some(_), Some(node)) = (skin, node) {
                problems.warn(
                    format!("{at}/attributes"),
                    format!("node {node} has a skin but this primitive has no JOINTS_0/WEIGHTS_0: drawn rigidly at the node"),
                );
            }
            return Ok(None);
        }
        (Some(_), None) => {
            problems.error(joints_at, "JOINTS_0 without WEIGHTS_0");
            return Err(Recorded);
        }
        (None, Some(_)) => {
            problems.error(weights_at, "WEIGHTS_0 without JOINTS_0");
            return Err(Recorded);
        }
        (Some(j), Some(w)) => (j, w),
    };
    problems
        .take(expect_format(
            &joints,
            &joints_at,
            "JOINTS_0",
            &[Dimensions::Vec4],
            &[DataType::U8, DataType::U16],
        ))
        .ok_or(Recorded)?;
    problems
        .take(expect_format(
            &weights,
            &weights_at,
            "WEIGHTS_0",
            &[Dimensions::Vec4],
            &[DataType::F32, DataType::U8, DataType::U16],
        ))
        .ok_or(Recorded)?;
    if joints.count() != count || weights.count() != count {
        problems.error(
            format!("{at}/attributes"),
            format!(
                "JOINTS_0 has {} and WEIGHTS_0 has {} elements for {count} vertices",
                joints.count(),
                weights.count()
            ),
        );
        return Err(Recorded);
    }
    Ok(Some((joints, weights, joint_sets)))
}

/// The influence sets after the first: the second (JOINTS_1 / WEIGHTS_1: influences five to
/// eight, drawn), and per vertex the weight beyond the first four (what a four-influence engine
/// drops) and beyond the first eight (what skinscope drops).
struct ExtraSets {
    second: Option<(Vec<u32>, Vec<f32>)>,
    beyond_four: Vec<f32>,
    beyond_eight: Vec<f32>,
}

fn extra_weights(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    joint_sets: usize,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Option<ExtraSets> {
    let mut out = ExtraSets {
        second: None,
        beyond_four: Vec::new(),
        beyond_eight: Vec::new(),
    };
    for set in 1..joint_sets as u32 {
        let Some(w) = primitive.get(&gltf::Semantic::Weights(set)) else {
            continue;
        };
        let w_at = format!("{at}/attributes/WEIGHTS_{set}");
        problems.take(expect_format(
            &w,
            &w_at,
            "WEIGHTS",
            &[Dimensions::Vec4],
            &[DataType::F32, DataType::U8, DataType::U16],
        ))?;
        if w.count() != count {
            problems.error(w_at, format!("{} elements for {count} vertices", w.count()));
            return None;
        }
        let values = problems.take(read_normalized_f32(&w, buffers))?;
        let positive = |v: usize| {
            values[4 * v..4 * v + 4]
                .iter()
                .filter(|x| x.is_finite() && **x > 0.0)
                .sum::<f32>()
        };
        out.beyond_four.resize(count, 0.0f32);
        for (v, e) in out.beyond_four.iter_mut().enumerate() {
            *e += positive(v);
        }
        if set == 1 {
            let j_at = format!("{at}/attributes/JOINTS_1");
            let Some(j) = primitive.get(&gltf::Semantic::Joints(1)) else {
                problems.error(j_at, "WEIGHTS_1 without JOINTS_1");
                return None;
            };
            problems.take(expect_format(
                &j,
                &j_at,
                "JOINTS",
                &[Dimensions::Vec4],
                &[DataType::U8, DataType::U16],
            ))?;
            if j.count() != count {
                problems.error(j_at, format!("{} elements for {count} vertices", j.count()));
                return None;
            }
            let joints = problems.take(read_u32(&j, buffers))?;
            out.second = Some((joints, values));
        } else {
            out.beyond_eight.resize(count, 0.0f32);
            for (v, e) in out.beyond_eight.iter_mut().enumerate() {
                *e += positive(v);
            }
        }
    }
    if out.beyond_eight.iter().any(|&e| e > 0.0) {
        problems.warn(
            format!("{at}/attributes/JOINTS_2"),
            "influences beyond the first eight (JOINTS_2/WEIGHTS_2 and on) are dropped; the first eight are renormalised",
        );
    }
    Some(out)
}

/// Up to eight influences per vertex in palette indices (the first four, and the second set's
/// four when the file has one), weights renormalised where they do not sum to one (with the
/// sets beyond the eighth) and all-zero weights bound to the skin's root joint.
fn influences(
    at: &str,
    skin: &SkinData,
    joint_values: &[u32],
    weight_values: &[f32],
    extra: ExtraSets,
    problems: &mut Problems,
) -> Option<VertexInfluences> {
    let count = joint_values.len() / 4;
    let joint_count = skin.palette_of_ordinal.len();
    let root = skin.root_joints.first().copied().unwrap_or(0) as u16;
    let mut out = VertexInfluences {
        joints: Vec::with_capacity(count),
        weights: Vec::with_capacity(count),
        joints_1: Vec::new(),
        weights_1: Vec::new(),
        renormalised_vertices: 0,
        unweighted_vertices: 0,
        dropped_weight: extra.beyond_four,
        file_weight_sums: Vec::with_capacity(count),
    };
    // One set's four (palette joints, weights) of vertex v, checked.
    let set = |v: usize,
               joints: &[u32],
               weights: &[f32],
               n: usize|
     -> Result<([u16; 4], [f32; 4]), Problem> {
        let w: [f32; 4] = std::array::from_fn(|k| weights[4 * v + k]);
        if w.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(Problem::new(
                format!("{at}/attributes/WEIGHTS_{n}"),
                format!("vertex {v} has weights {w:?}: weights must be finite and not negative"),
            ));
        }
        let mut j = [0u16; 4];
        for k in 0..4 {
            let ordinal = joints[4 * v + k] as usize;
            let Some(&palette) = skin.palette_of_ordinal.get(ordinal) else {
                return Err(Problem::new(
                    format!("{at}/attributes/JOINTS_{n}"),
                    format!(
                        "vertex {v} uses joint {ordinal}, but skin {} ({}) has {joint_count} joints",
                        skin.index, skin.name
                    ),
                ));
            };
            j[k] = palette as u16;
        }
        Ok((j, w))
    };
    for v in 0..count {
        let (mut j, w) = problems.take(set(v, joint_values, weight_values, 0))?;
        let second = match &extra.second {
            Some((joints, weights)) => Some(problems.take(set(v, joints, weights, 1))?),
            None => None,
        };
        let beyond = extra.beyond_eight.get(v).copied().unwrap_or(0.0);
        let sum: f32 = w.iter().sum::<f32>() + second.map_or(0.0, |s| s.1.iter().sum());
        out.file_weight_sums.push(sum + beyond);
        let scale = if sum == 0.0 {
            out.unweighted_vertices += 1;
            j = [root, 0, 0, 0];
            None
        } else if (sum + beyond - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
            out.renormalised_vertices += 1;
            Some(1.0 / sum)
        } else if beyond > 0.0 {
            // The weights sum to one only with the dropped sets: the first eight are rescaled.
            Some(1.0 / sum)
        } else {
            Some(1.0)
        };
        let w = scale.map_or([1.0, 0.0, 0.0, 0.0], |k| w.map(|x| x * k));
        out.joints.push(j);
        out.weights.push(w);
        if let Some((j1, w1)) = second {
            let w1 = scale.map_or([0.0; 4], |k| w1.map(|x| x * k));
            out.joints_1.push(j1);
            out.weights_1.push(w1);
        }
    }
    Some(out)
}

/// Decoded images by glTF image index (`None`: failed, already warned).
struct TextureCache<'d> {
    document: &'d gltf::Document,
    decoded: HashMap<usize, Option<Texture>>,
}

fn read_material(
    material: &gltf::Material<'_>,
    buffers: &Buffers,
    base: &Path,
    textures: &mut TextureCache<'_>,
    problems: &mut Problems,
) -> Material {
    let pbr = material.pbr_metallic_roughness();
    let mut load = |texture: gltf::Texture<'_>,
                    tex_coord: u32,
                    transform: Option<gltf::texture::TextureTransform<'_>>| {
        let image = texture.source();
        let document = textures.document;
        let decoded = textures
            .decoded
            .entry(image.index())
            .or_insert_with(|| match decode_image(document, &image, buffers, base) {
                Ok(t) => Some(t),
                Err(message) => {
                    problems.warn(
                        format!("/images/{}", image.index()),
                        format!("{message}; drawn without it"),
                    );
                    None
                }
            })
            .clone()?;
        let tex_coord = transform
            .as_ref()
            .and_then(|t| t.tex_coord())
            .unwrap_or(tex_coord);
        Some(MaterialTexture {
            texture: decoded,
            tex_coord: tex_coord.min(1),
            transform: transform.map_or_else(UvTransform::default, |t| {
                UvTransform::new(t.offset(), t.rotation(), t.scale())
            }),
        })
    };
    // gltf 1.4 reads KHR_texture_transform on `textureInfo`s; on normal and occlusion textures
    // it is read from the raw extension (`texture_transform_of`).
    let base_color = pbr
        .base_color_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let metallic_roughness_texture = pbr
        .metallic_roughness_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let normal = material.normal_texture();
    let normal_scale = normal.as_ref().map_or(1.0, |n| n.scale());
    let normal_texture = normal.and_then(|n| {
        let (tex_coord, transform) =
            texture_transform_of(n.extension_value("KHR_texture_transform"), n.tex_coord());
        load(n.texture(), tex_coord, None).map(|t| MaterialTexture { transform, ..t })
    });
    let occlusion = material.occlusion_texture();
    let occlusion_strength = occlusion.as_ref().map_or(1.0, |o| o.strength());
    let occlusion_texture = occlusion.and_then(|o| {
        let (tex_coord, transform) =
            texture_transform_of(o.extension_value("KHR_texture_transform"), o.tex_coord());
        load(o.texture(), tex_coord, None).map(|t| MaterialTexture { transform, ..t })
    });
    let emissive_texture = material
        .emissive_texture()
        .and_then(|i| load(i.texture(), i.tex_coord(), i.texture_transform()));
    let strength = material.emissive_strength().unwrap_or(1.0);
    Material {
        base_color_factor: Vec4::from(pbr.base_color_factor()),
        base_color_tex_coord: base_color.as_ref().map_or(0, |t| t.tex_coord),
        base_color_transform: base_color
            .as_ref()
            .map_or_else(UvTransform::default, |t| t.transform),
        base_color_texture: base_color.map(|t| t.texture),
        double_sided: material.double_sided(),
        alpha_mode: match material.alpha_mode() {
            gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                cutoff: material.alpha_cutoff().unwrap_or(0.5),
            },
            gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        },
        metallic_factor: pbr.metallic_factor(),
        roughness_factor: pbr.roughness_factor(),
        metallic_roughness_texture,
        normal_texture,
        normal_scale,
        occlusion_texture,
        occlusion_strength,
        emissive_factor: Vec3::from(material.emissive_factor()) * strength,
        emissive_texture,
        unlit: material.unlit(),
    }
}

/// KHR_texture_transform from its raw JSON: the texture-coordinate set it names (else
/// `tex_coord`) and its transform (glTF's defaults for absent fields).
fn texture_transform_of(value: Option<&serde_json::Value>, tex_coord: u32) -> (u32, UvTransform) {
    let Some(v) = value else {
        return (tex_coord, UvTransform::default());
    };
    let pair = |key: &str, default: [f32; 2]| {
        v.get(key)
            .and_then(|p| p.as_array())
            .and_then(|p| Some([p.first()?.as_f64()? as f32, p.get(1)?.as_f64()? as f32]))
            .unwrap_or(default)
    };
    let rotation = v.get("rotation").and_then(|r| r.as_f64()).unwrap_or(0.0) as f32;
    let set = v
        .get("texCoord")
        .and_then(|t| t.as_u64())
        .map_or(tex_coord, |t| t as u32);
    (
        set,
        UvTransform::new(
            pair("offset", [0.0, 0.0]),
            rotation,
            pair("scale", [1.0, 1.0]),
        ),
    )
}

fn decode_image(
    document: &gltf::Document,
    image: &gltf::Image<'_>,
    buffers: &Buffers,
    base: &Path,
) -> Result<Texture, String> {
    // From the JSON, not gltf's Image::source(), which unwraps a missing mimeType or uri (a
    // panic on such files). The image crate finds the format from the bytes.
    let json = document
        .as_json()
        .images
        .get(image.index())
        .ok_or("the image does not exist")?;
    let encoded: Vec<u8> = match (&json.buffer_view, &json.uri) {
        (Some(view), _) => {
            let view = document
                .views()
                .nth(view.value())
                .ok_or("its buffer view does not exist")?;
            let buffer = match buffers.get(view.buffer().index()) {
                Some(Ok(data)) => data,
                Some(Err(reason)) => return Err(format!("its buffer has no data: {reason}")),
                None => return Err("its buffer was not loaded".into()),
            };
            view.offset()
                .checked_add(view.length())
                .and_then(|end| buffer.get(view.offset()..end))
                .ok_or("its buffer view runs past its buffer")?
                .to_vec()
        }
        (None, Some(uri)) => super::read_uri(base, uri, crate::files::MAX_IMAGE_BYTES + 1)
            .and_then(|bytes| {
                if bytes.len() as u64 > crate::files::MAX_IMAGE_BYTES {
                    return Err(format!(
                        "the image file is larger than {}",
                        crate::files::describe_bytes(crate::files::MAX_IMAGE_BYTES)
                    ));
                }
                Ok(bytes)
            })?,
        (None, None) => return Err("the image has neither a uri nor a bufferView".into()),
    };
    let decoded = decode_bounded(&encoded)?;
    let rgba = decoded.to_rgba8();
    Ok(Texture {
        width: rgba.width(),
        height: rgba.height(),
        rgba8: rgba.into_raw(),
    })
}
