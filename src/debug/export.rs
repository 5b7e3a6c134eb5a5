//! Exports for other tools: the skin palettes and world transforms of a posed frame (text or
//! JSON), and the posed mesh in world space as OBJ or GLB.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::character::Character;
use crate::pose::{CharacterPose, PoseRequest};
use crate::posed::PosedVertices;

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
    /// What motion matching played, after a `--motion-matching` run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motion_matching: Option<MatchReport>,
    /// The stage of the frame whose pose this is (`palette --stage`; none: the final pose).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
}

/// One motion-matching search as `--match-report` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchExport {
    pub search: u64,
    /// The frame playing when it searched (none: nothing of the database played).
    pub playing: Option<CandidateExport>,
    /// The best candidates, nearest first.
    pub candidates: Vec<CandidateExport>,
    /// The frame that plays after the search.
    pub chosen: CandidateExport,
    pub switched: bool,
    pub why: String,
}

/// A database frame against a search's query: its cost, and each feature group's share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateExport {
    pub frame: usize,
    pub clip: String,
    pub time: f32,
    pub cost: f32,
    /// Feature group name -> its share of the cost, in the database's order.
    pub costs: Vec<(String, f32)>,
}

/// `reports` as `--match-report` writes them, clips and feature groups by name.
pub fn search_reports(
    c: &Character,
    reports: &[crate::perform::SearchReport],
) -> Vec<SearchExport> {
    let candidate =
        |r: &crate::perform::SearchReport, k: &crate::perform::Candidate| CandidateExport {
            frame: k.frame,
            clip: c
                .clips
                .get(k.clip)
                .map_or_else(String::new, |d| d.clip.name().to_string()),
            time: k.time_secs,
            cost: k.cost,
            costs: r
                .groups
                .iter()
                .cloned()
                .zip(k.group_costs.iter().copied())
                .collect(),
        };
    reports
        .iter()
        .filter_map(|r| {
            let best = r.candidates.first()?;
            let chosen = match (&r.playing, r.outcome.switched()) {
                (Some(p), false) => p,
                _ => best,
            };
            Some(SearchExport {
                search: r.search,
                playing: r.playing.as_ref().map(|p| candidate(r, p)),
                candidates: r.candidates.iter().map(|k| candidate(r, k)).collect(),
                chosen: candidate(r, chosen),
                switched: r.outcome.switched(),
                why: r.outcome.why().to_string(),
            })
        })
        .collect()
}

/// Joints' motion paths as `palette --motion-path` prints them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotionPathExport {
    pub file: String,
    /// The clip whose keys are marked (none: the rest pose).
    pub clip: Option<String>,
    pub from: f32,
    pub to: f32,
    pub step: f32,
    pub paths: Vec<JointPath>,
}

/// One joint's path: a sample per step and one at each key of the joint or an ancestor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointPath {
    pub joint: String,
    pub samples: Vec<PathPoint>,
    pub keys: Vec<PathPoint>,
}

/// The joint at one time: its origin and its whole `world_from_joint` (column-major).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathPoint {
    pub time: f32,
    pub position: [f32; 3],
    pub world_from_joint: [f32; 16],
}

impl MotionPathExport {
    /// The paths of `paths` as exported: joints by name.
    pub fn new(
        c: &Character,
        clip: Option<usize>,
        (from, to, step): (f32, f32, f32),
        paths: &[crate::pose::MotionPath],
    ) -> Self {
        let point = |s: &crate::pose::PathSample| PathPoint {
            time: s.time_secs,
            position: s.position().to_array(),
            world_from_joint: glam::Mat4::from(s.world_from_joint).to_cols_array(),
        };
        Self {
            file: c.name.clone(),
            clip: clip
                .and_then(|k| c.clips.get(k))
                .map(|k| k.clip.name().to_string()),
            from,
            to,
            step,
            paths: (paths.iter())
                .map(|p| JointPath {
                    joint: c.skeleton.names()[p.joint].clone(),
                    samples: p.samples.iter().map(point).collect(),
                    keys: p.keys.iter().map(point).collect(),
                })
                .collect(),
        }
    }

    /// A line per sample: joint, time, position; keys marked `key`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for path in &self.paths {
            let _ = writeln!(s, "joint {:?}", path.joint);
            let mut all: Vec<(&PathPoint, bool)> = (path.samples.iter().map(|p| (p, false)))
                .chain(path.keys.iter().map(|p| (p, true)))
                .collect();
            all.sort_by(|a, b| a.0.time.total_cmp(&b.0.time));
            for (p, key) in all {
                let [x, y, z] = p.position;
                let mark = if key { " key" } else { "" };
                let _ = writeln!(s, "{:>9.4} {x:.6} {y:.6} {z:.6}{mark}", p.time);
            }
        }
        s
    }
}

/// Motion matching at the end of a run: the clip and time playing, the searches and the
/// switches made, the database frame, and where the character and its goal stand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    pub clip: String,
    pub time: f32,
    pub searches: u64,
    pub switches: u64,
    pub frame: Option<usize>,
    pub position: [f32; 3],
    pub yaw: f32,
    pub goal_position: [f32; 3],
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

/// A mesh node's posed world transform and morph weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshNodeWorld {
    pub node: usize,
    pub mesh: String,
    pub skinned: bool,
    /// The frame's morph weights, one per target (empty without targets).
    #[serde(default)]
    pub morph_weights: Vec<f32>,
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
            morph_weights: pose.morph.of(i).to_vec(),
            world_from_mesh: pose.world_from_mesh[i].to_cols_array(),
        })
        .collect();
    PaletteExport {
        stage: None,
        file: c.name.clone(),
        clip: request
            .clip
            .and_then(|k| c.clips.get(k.clip))
            .map(|k| k.clip.name().to_owned()),
        time_secs: request.clip.map_or(0.0, |k| k.time_secs),
        instances,
        nodes,
        mesh_nodes,
        motion_matching: None,
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

/// The texture coordinates the base colour texture reads, its KHR_texture_transform applied
/// (the exports carry no transform).
fn base_color_uvs(primitive: &crate::character::Primitive) -> Option<Vec<glam::Vec2>> {
    let m = &primitive.material;
    let set = if m.base_color_tex_coord == 1 {
        primitive.uvs1.as_ref()
    } else {
        primitive.uvs.as_ref()
    }?;
    Some(
        set.iter()
            .map(|uv| m.base_color_transform.apply(*uv))
            .collect(),
    )
}

fn triangles_of(primitive: &crate::character::Primitive) -> Vec<u32> {
    let n = primitive.positions.len();
    primitive
        .indices
        .clone()
        .unwrap_or_else(|| (0..(n - n % 3) as u32).collect())
}

/// The posed character in world space as Wavefront OBJ: an `o` per mesh node (scene order), its
/// primitives' vertices in file order with skinned normals (`vn`) and texture coordinates (`vt`,
/// v flipped: OBJ's origin is bottom-left, glTF's top-left), triangles as `f v/vt/vn` lines.
pub fn posed_obj(c: &Character, posed: &PosedVertices) -> String {
    let mut s = format!("# {} posed by skinscope; world space\n", c.name);
    let mut base = 1usize;
    for (i, instance) in c.instances.iter().enumerate() {
        let name = c.skeleton.names()[instance.skeleton_joint].replace(char::is_whitespace, "_");
        let _ = writeln!(s, "o {name}");
        let (world, normals) = posed.of(i);
        for p in world {
            let _ = writeln!(s, "v {} {} {}", p.x, p.y, p.z);
        }
        for n in normals {
            let _ = writeln!(s, "vn {} {} {}", n.x, n.y, n.z);
        }
        // One vt per vertex (0, 0 where a primitive has no UVs), so v, vt and vn share indices.
        for primitive in &c.meshes[instance.mesh].primitives {
            let uvs = base_color_uvs(primitive);
            for v in 0..primitive.positions.len() {
                let uv = uvs.as_ref().map_or(glam::Vec2::ZERO, |uv| uv[v]);
                let _ = writeln!(s, "vt {} {}", uv.x, 1.0 - uv.y);
            }
        }
        let mut first = base;
        for primitive in &c.meshes[instance.mesh].primitives {
            for t in triangles_of(primitive).chunks_exact(3) {
                let [a, b, d] = [t[0], t[1], t[2]].map(|k| first + k as usize);
                let _ = writeln!(s, "f {a}/{a}/{a} {b}/{b}/{b} {d}/{d}/{d}");
            }
            first += primitive.positions.len();
        }
        base += world.len();
    }
    s
}

/// The posed character in world space as GLB: one unskinned mesh node per mesh node of the file
/// (scene order, named after it), its primitives' vertices in file order with skinned normals,
/// texture coordinates, triangles, and base colour factors and textures (PNG). Other tools open
/// it as a static, textured snapshot of the pose.
pub fn posed_glb(c: &Character, posed: &PosedVertices) -> Vec<u8> {
    use crate::glb::GlbWriter;
    use serde_json::json;

    let mut w = GlbWriter::new("skinscope pose");
    let mut roots = Vec::new();
    for (i, instance) in c.instances.iter().enumerate() {
        let (world, normals) = posed.of(i);
        let mut primitives = Vec::new();
        let mut offset = 0;
        for primitive in &c.meshes[instance.mesh].primitives {
            let n = primitive.positions.len();
            let range = offset..offset + n;
            offset += n;
            let positions: Vec<f32> = world[range.clone()]
                .iter()
                .flat_map(|p| p.to_array())
                .collect();
            let normals: Vec<f32> = normals[range].iter().flat_map(|p| p.to_array()).collect();
            let mut attributes = json!({
                "POSITION": w.floats(&positions, "VEC3", true, Some(34962)),
                "NORMAL": w.floats(&normals, "VEC3", false, Some(34962)),
            });
            if let Some(uvs) = &base_color_uvs(primitive) {
                let uvs: Vec<f32> = uvs.iter().flat_map(|uv| uv.to_array()).collect();
                attributes["TEXCOORD_0"] = json!(w.floats(&uvs, "VEC2", false, Some(34962)));
            }
            let indices = w.indices(&triangles_of(primitive));
            let material = posed_material(&mut w, &primitive.material);
            primitives
                .push(json!({"attributes": attributes, "indices": indices, "material": material}));
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

/// A material with the base colour factor and, when the primitive has one, its base colour
/// texture, embedded as PNG.
fn posed_material(w: &mut crate::glb::GlbWriter, material: &crate::character::Material) -> usize {
    use serde_json::json;
    let mut pbr = json!({
        "baseColorFactor": material.base_color_factor.to_array(),
        "metallicFactor": 0.0
    });
    if let Some(t) = &material.base_color_texture {
        let mut png = Vec::new();
        let encoded = image::codecs::png::PngEncoder::new(&mut png);
        let written = image::ImageEncoder::write_image(
            encoded,
            &t.rgba8,
            t.width,
            t.height,
            image::ExtendedColorType::Rgba8,
        );
        if written.is_ok() {
            let view = w.view(&png, None);
            let image = w.push(
                "images",
                json!({"bufferView": view, "mimeType": "image/png"}),
            );
            let texture = w.push("textures", json!({"source": image}));
            pbr["baseColorTexture"] = json!({"index": texture});
        }
    }
    w.push("materials", json!({"pbrMetallicRoughness": pbr}))
}
