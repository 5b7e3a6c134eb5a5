//! Exports for other tools: the skin palettes and world transforms of a posed frame (text or
//! JSON), and the posed mesh in world space as OBJ or GLB.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::character::Character;
use crate::pose::{CharacterPose, PoseRequest};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaletteExport {
    pub file: String,
    pub clip: Option<String>,
    pub time_secs: f32,
    /// One palette per skinned mesh node.
    pub instances: Vec<InstancePalette>,
    /// Every node of the file (every skeleton joint), posed.
    pub nodes: Vec<NodeWorld>,
    /// Every node that draws a mesh, skinned or not.
    pub mesh_nodes: Vec<MeshNodeWorld>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstancePalette {
    pub node: usize,
    pub skin: String,
    /// The mesh node's `world_from_mesh` (16 floats column-major): a palette entry maps bind
    /// space to mesh space; this maps mesh space to the world.
    pub world_from_mesh: [f32; 16],
    pub joints: Vec<PaletteEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaletteEntry {
    pub name: String,
    pub palette_index: usize,
    /// `mesh_from_bind`, 16 floats column-major.
    pub matrix: [f32; 16],
    /// The joint's `world_from_joint`, 16 floats column-major.
    pub world_from_joint: [f32; 16],
}

/// A node's posed world transform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeWorld {
    /// glTF node index.
    pub node: usize,
    pub name: String,
    /// `world_from_joint`, 16 floats column-major.
    pub world_from_joint: [f32; 16],
}

/// A mesh node's posed world transform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshNodeWorld {
    pub node: usize,
    pub mesh: String,
    pub skinned: bool,
    /// `world_from_mesh`, 16 floats column-major.
    pub world_from_mesh: [f32; 16],
}

/// The palettes and world transforms of a character posed by `request`.
pub fn palettes(c: &Character, pose: &CharacterPose, request: &PoseRequest) -> PaletteExport {
    let model = pose.model.as_slice();
    let world = |joint: usize| {
        model
            .get(joint)
            .map_or(glam::Mat4::IDENTITY, |m| glam::Mat4::from(*m))
            .to_cols_array()
    };
    let instances = c
        .instances
        .iter()
        .enumerate()
        .filter_map(|(i, instance)| {
            let skin = &c.skins[instance.skin?];
            let palette = pose.instance_palette(i)?;
            Some(InstancePalette {
                node: instance.node,
                skin: skin.name.clone(),
                world_from_mesh: pose.world_from_mesh[i].to_cols_array(),
                joints: palette
                    .iter()
                    .enumerate()
                    .map(|(p, m)| {
                        let joint = skin.skin.joint(p).unwrap_or(0);
                        PaletteEntry {
                            name: c.skeleton.names()[joint].clone(),
                            palette_index: p,
                            matrix: m.to_cols_array(),
                            world_from_joint: world(joint),
                        }
                    })
                    .collect(),
            })
        })
        .collect();
    let nodes = c
        .node_of_skeleton_joint
        .iter()
        .enumerate()
        .map(|(joint, &node)| NodeWorld {
            node,
            name: c.skeleton.names()[joint].clone(),
            world_from_joint: world(joint),
        })
        .collect();
    let mesh_nodes = c
        .instances
        .iter()
        .enumerate()
        .map(|(i, instance)| MeshNodeWorld {
            node: instance.node,
            mesh: c.meshes[instance.mesh].name.clone(),
            skinned: instance.skin.is_some(),
            world_from_mesh: pose.world_from_mesh[i].to_cols_array(),
        })
        .collect();
    PaletteExport {
        file: c.name.clone(),
        clip: request
            .clip
            .and_then(|k| c.clips.get(k.clip))
            .map(|k| k.clip.name().to_owned()),
        time_secs: request.clip.map_or(0.0, |k| k.time_secs),
        instances,
        nodes,
        mesh_nodes,
    }
}

impl PaletteExport {
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for instance in &self.instances {
            let _ = writeln!(s, "node {} skin {:?}", instance.node, instance.skin);
            for j in &instance.joints {
                let values: Vec<String> = j.matrix.iter().map(|v| format!("{v}")).collect();
                let _ = writeln!(
                    s,
                    "{:>4} {:<24} {}",
                    j.palette_index,
                    j.name,
                    values.join(" ")
                );
            }
        }
        s
    }
}

/// The posed character in world space as Wavefront OBJ: an `o` per mesh node (scene order), its
/// primitives' vertices in file order, triangles as `f` lines.
pub fn posed_obj(c: &Character, pose: &CharacterPose) -> String {
    let mut s = format!("# {} posed by skinscope; world space\n", c.name);
    let mut base = 1usize;
    for (i, instance) in c.instances.iter().enumerate() {
        let name = c.skeleton.names()[instance.skeleton_joint].replace(char::is_whitespace, "_");
        let _ = writeln!(s, "o {name}");
        let world = pose.instance_world_positions(c, i);
        for p in &world {
            let _ = writeln!(s, "v {} {} {}", p.x, p.y, p.z);
        }
        let mut first = base;
        for primitive in &c.meshes[instance.mesh].primitives {
            let n = primitive.positions.len();
            let triangles: Vec<u32> = primitive
                .indices
                .clone()
                .unwrap_or_else(|| (0..(n - n % 3) as u32).collect());
            for t in triangles.chunks_exact(3) {
                let _ = writeln!(
                    s,
                    "f {} {} {}",
                    first + t[0] as usize,
                    first + t[1] as usize,
                    first + t[2] as usize
                );
            }
            first += n;
        }
        base += world.len();
    }
    s
}

/// The posed character in world space as GLB: one unskinned mesh node per mesh node of the file
/// (scene order, named after it), its primitives' vertices in file order with skinned normals,
/// triangles, and base colour factors. Other tools open it as a static snapshot of the pose.
pub fn posed_glb(c: &Character, pose: &CharacterPose) -> Vec<u8> {
    use crate::glb::GlbWriter;
    use serde_json::json;

    let mut w = GlbWriter::new("skinscope pose");
    let mut roots = Vec::new();
    for (i, instance) in c.instances.iter().enumerate() {
        let world = pose.instance_world_positions(c, i);
        let world_from_mesh = pose.world_from_mesh[i];
        let palette = pose.instance_palette(i);
        let mut primitives = Vec::new();
        let mut offset = 0;
        for primitive in &c.meshes[instance.mesh].primitives {
            let n = primitive.positions.len();
            let positions: Vec<f32> = world[offset..offset + n]
                .iter()
                .flat_map(|p| p.to_array())
                .collect();
            let normals: Vec<f32> = (0..n)
                .flat_map(|v| {
                    let normal = match (palette, &primitive.skinning) {
                        (Some(palette), Some(s)) => crate::anim::skin_normal(
                            palette,
                            s.joints[v].map(u32::from),
                            s.weights[v],
                            primitive.normals[v],
                        )
                        .unwrap_or(primitive.normals[v]),
                        _ => primitive.normals[v],
                    };
                    world_from_mesh
                        .transform_vector3(normal)
                        .normalize_or(glam::Vec3::Y)
                        .to_array()
                })
                .collect();
            offset += n;
            let position = w.floats(&positions, "VEC3", true, Some(34962));
            let normal = w.floats(&normals, "VEC3", false, Some(34962));
            let triangles: Vec<u32> = primitive
                .indices
                .clone()
                .unwrap_or_else(|| (0..(n - n % 3) as u32).collect());
            let indices = w.indices(&triangles);
            let material = w.push(
                "materials",
                json!({"pbrMetallicRoughness": {"baseColorFactor": primitive.material.base_color_factor.to_array(), "metallicFactor": 0.0}}),
            );
            primitives.push(json!({"attributes": {"POSITION": position, "NORMAL": normal}, "indices": indices, "material": material}));
        }
        let mesh = w.push(
            "meshes",
            json!({"name": c.meshes[instance.mesh].name, "primitives": primitives}),
        );
        let name = &c.skeleton.names()[instance.skeleton_joint];
        roots.push(w.push("nodes", json!({"name": name, "mesh": mesh})));
    }
    w.json["scenes"] = json!([{"nodes": roots}]);
    w.json["scene"] = json!(0);
    w.finish()
}
