//! A loaded character: the animated node hierarchy, skins, meshes ready to upload, clips, and what
//! the importer warned about. Plain data (anim types, glam and vectors); filled by `import`.
//!
//! Three index spaces are kept apart and named:
//! - **node**: the glTF scene node index (`/nodes/N`);
//! - **joint ordinal**: a joint's position in a glTF skin's `joints` list (what `JOINTS_0` stores
//!   in the file);
//! - **palette index**: a joint's entry in a skin's palette (what `JOINTS_0` stores once imported;
//!   palette order is parent-before-child, so a skin listed child-before-parent is reordered and
//!   its vertices remapped).
//!
//! The animated skeleton holds *every* node, so non-joint ancestors of joints (armatures), nodes
//! inside a joint chain, rigid mesh nodes and the skinned mesh nodes all animate the same way; each
//! skin maps its palette to skeleton joints (ozz's joint remaps). Skeleton joint indices are a
//! fourth space, `skeleton_joint_of_node` maps nodes into it.

use std::fmt;

use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::anim::{Clip, Interpolation, ModelPose, PoseError, Skeleton, Skin, build_palette_into};

/// Everything the viewer needs from one glTF file.
#[derive(Clone, Debug)]
pub struct Character {
    /// File name, for titles and messages.
    pub name: String,
    /// Every node of the file, parent-before-child.
    pub skeleton: Skeleton,
    /// glTF node index of each skeleton joint.
    pub node_of_skeleton_joint: Vec<usize>,
    /// Skeleton joint of each glTF node (inverse of `node_of_skeleton_joint`).
    pub skeleton_joint_of_node: Vec<usize>,
    pub skins: Vec<SkinData>,
    /// Mesh data per (glTF mesh, skin) pair in use: a mesh drawn with two skins is stored twice,
    /// since its joint indices are remapped into each skin's palette order.
    pub meshes: Vec<MeshData>,
    /// The scene's nodes that draw a mesh, in scene order (depth-first from the scene's roots).
    pub instances: Vec<MeshInstance>,
    pub clips: Vec<ClipData>,
    /// Problems the importer worked around, each with its JSON pointer.
    pub warnings: Vec<Problem>,
    /// glTF rules the file relies on that a reader may not expect (a skinned mesh node's
    /// transform is ignored): not problems; `inspect` lists them.
    pub notes: Vec<Problem>,
    /// The file's scenes by name (`scene N` when unnamed), and the one displayed.
    pub scenes: Vec<String>,
    pub scene: usize,
    /// The displayed scene's camera nodes, by glTF camera index (`/cameras/N`), then in scene
    /// order for a camera that several nodes use.
    pub cameras: Vec<CameraData>,
    /// Pose drivers an exporter wrote in node extras (`extras.skinscope_drivers`, an array of
    /// drivers as a drivers file holds them): (glTF node, its skeleton joint, the array's JSON
    /// text). Read by `pose::DriverSet::from_extras`.
    pub driver_extras: Vec<(usize, usize, String)>,
}

/// A camera node of the displayed scene: glTF's camera looks down its node's -Z, +Y up.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraData {
    /// The camera's name (`/cameras/N`), else its node's, else `camera N`.
    pub name: String,
    /// glTF camera index (`/cameras/N`): `Character::cameras` runs in this order.
    pub index: usize,
    /// glTF node index; its skeleton joint's `world_from_joint` places the camera (animated).
    pub node: usize,
    pub skeleton_joint: usize,
    pub projection: Projection,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    Perspective {
        yfov_radians: f32,
        znear: f32,
        /// Infinite when absent.
        zfar: Option<f32>,
    },
    Orthographic {
        /// Half the view's height.
        ymag: f32,
        znear: f32,
        zfar: f32,
    },
}

/// One glTF skin, in palette order.
#[derive(Clone, Debug)]
pub struct SkinData {
    pub name: String,
    /// `/skins/N`.
    pub index: usize,
    /// Palette index -> skeleton joint, and `joint_from_bind` per palette index.
    pub skin: Skin,
    /// Joint ordinal (position in the file's `joints` list) of each palette index.
    pub ordinal_of_palette: Vec<usize>,
    /// Palette index of each joint ordinal.
    pub palette_of_ordinal: Vec<usize>,
    /// Palette indices of the joints whose parent is not a joint of this skin.
    pub root_joints: Vec<usize>,
    /// Each palette index's nearest ancestor that is a joint of this skin (its palette index),
    /// found once at load.
    pub palette_parents: Vec<Option<usize>>,
    /// Whether the file gives inverse bind matrices (without them each is the identity).
    pub has_inverse_binds: bool,
    /// Skeleton joints above the root joints that are not joints of this skin (armatures), from
    /// the scene root down.
    pub non_joint_ancestors: Vec<usize>,
}

impl SkinData {
    /// Palette index -> its nearest ancestor's palette index in this skin, when an ancestor is a
    /// joint of it.
    pub fn palette_parent(&self, palette_index: usize) -> Option<usize> {
        self.palette_parents.get(palette_index).copied().flatten()
    }

    /// Each palette index's nearest ancestor in the skin: one walk up from each joint, with the
    /// skeleton joint -> palette index map (linear in the joints, whatever their number).
    pub fn find_palette_parents(
        skin: &crate::anim::Skin,
        skeleton: &Skeleton,
    ) -> Vec<Option<usize>> {
        let mut palette_of_joint = vec![None; skeleton.joint_count()];
        for p in 0..skin.len() {
            if let Some(slot) = skin.joint(p).and_then(|j| palette_of_joint.get_mut(j)) {
                slot.get_or_insert(p);
            }
        }
        (0..skin.len())
            .map(|p| {
                let mut ancestor = skin.joint(p).and_then(|j| skeleton.parent(j));
                while let Some(a) = ancestor {
                    if let Some(q) = palette_of_joint.get(a).copied().flatten() {
                        return Some(q);
                    }
                    ancestor = skeleton.parent(a);
                }
                None
            })
            .collect()
    }
}

/// A scene node that draws a mesh.
#[derive(Clone, Debug)]
pub struct MeshInstance {
    /// glTF node index.
    pub node: usize,
    /// Skeleton joint of the node: its animated `model_from_joint` is `world_from_mesh`.
    pub skeleton_joint: usize,
    /// Index into `Character::meshes`.
    pub mesh: usize,
    /// Index into `Character::skins` when the mesh is skinned.
    pub skin: Option<usize>,
    /// Morph weights when no clip drives them: the node's `weights`, else the mesh's.
    pub default_weights: Vec<f32>,
}

/// One glTF mesh (for one skin, see `Character::meshes`).
#[derive(Clone, Debug)]
pub struct MeshData {
    pub name: String,
    /// `/meshes/N`.
    pub index: usize,
    pub primitives: Vec<Primitive>,
    /// Default morph target weights (`mesh.weights`), one per target.
    pub morph_weights: Vec<f32>,
    /// The targets' names (`mesh.extras.targetNames`, else their indices), one per target.
    pub target_names: Vec<String>,
}

/// Triangles with their vertex attributes, in the mesh node's space.
#[derive(Clone, Debug)]
pub struct Primitive {
    pub positions: Vec<Vec3>,
    /// Unit normals; computed from the triangles when the file has none.
    pub normals: Vec<Vec3>,
    pub uvs: Option<Vec<Vec2>>,
    /// TEXCOORD_1.
    pub uvs1: Option<Vec<Vec2>>,
    /// COLOR_0 as linear RGBA (white when absent).
    pub colors: Option<Vec<Vec4>>,
    /// Unit tangents with their handedness in w: the file's TANGENT, or generated from the
    /// texture coordinates when a normal map needs them.
    pub tangents: Option<Vec<Vec4>>,
    /// Triangle list (strips and fans are converted); `None` draws the vertices in order.
    pub indices: Option<Vec<u32>>,
    /// Skinning influences in palette indices of the instance's skin, weights summing to one.
    pub skinning: Option<VertexInfluences>,
    pub material: Material,
    /// Morph targets: displacements per vertex, applied before skinning.
    pub morph_targets: Vec<MorphTarget>,
    /// The file has no NORMAL: `normals` were computed from the triangles at load.
    pub normals_computed: bool,
}

impl Primitive {
    /// Whether its normals must follow its drawn (morphed) positions: computed at load (the
    /// file has none) and displaced by a morph target, so a face the target turns or flips
    /// shades as turned or flipped (glTF's flat normals, from the drawn triangle).
    pub fn needs_face_normals(&self) -> bool {
        self.normals_computed && self.morph_targets.iter().any(|t| t.positions.is_some())
    }
}

/// Area-weighted vertex normals from the triangles (`indices`, else the vertices in threes):
/// flat for a lone triangle, smooth over shared vertices (three.js's computeVertexNormals).
pub fn area_weighted_normals(positions: &[Vec3], indices: Option<&[u32]>) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    let triangle_count = indices.map_or(positions.len(), <[u32]>::len) / 3;
    for t in 0..triangle_count {
        let [a, b, c] = [0, 1, 2].map(|k| indices.map_or(3 * t + k, |i| i[3 * t + k] as usize));
        let (Some(&pa), Some(&pb), Some(&pc)) =
            (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        let n = (pb - pa).cross(pc - pa);
        for v in [a, b, c] {
            normals[v] += n;
        }
    }
    normals
        .into_iter()
        .map(|n| n.normalize_or(Vec3::Y))
        .collect()
}

/// Each vertex's joints and weights: up to eight influences (two sets of four), as drawn.
#[derive(Clone, Debug)]
pub struct VertexInfluences {
    /// The first four influences per vertex (JOINTS_0 / WEIGHTS_0), palette indices.
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Influences five to eight (JOINTS_1 / WEIGHTS_1), one per vertex, or empty when the file
    /// has no second set. Drawn: skinning blends all eight.
    pub joints_1: Vec<[u16; 4]>,
    pub weights_1: Vec<[f32; 4]>,
    /// Vertices whose weights did not sum to one and were renormalised on import.
    pub renormalised_vertices: usize,
    /// Vertices with all-zero weights, bound to the skin's root joint on import.
    pub unweighted_vertices: usize,
    /// Per vertex, the weight the file gives joints beyond the first four (JOINTS_1, ...), which
    /// a four-influence engine drops (skinscope draws eight); empty when the file has no such
    /// sets.
    pub dropped_weight: Vec<f32>,
    /// Per vertex, the sum of all its weights as the file stores them (before renormalising).
    pub file_weight_sums: Vec<f32>,
}

impl VertexInfluences {
    /// Vertex `v`'s second set of four (joints, weights), zeros without one.
    pub fn second(&self, v: usize) -> ([u16; 4], [f32; 4]) {
        match (self.joints_1.get(v), self.weights_1.get(v)) {
            (Some(j), Some(w)) => (*j, *w),
            _ => ([0; 4], [0.0; 4]),
        }
    }

    /// Vertex `v`'s influences (palette joint, weight), up to eight, zero weights included.
    pub fn influences(&self, v: usize) -> impl Iterator<Item = (u16, f32)> + Clone + '_ {
        let (j1, w1) = self.second(v);
        let first = self.joints[v].into_iter().zip(self.weights[v]);
        first.chain(
            j1.into_iter()
                .zip(w1)
                .filter(move |_| !self.joints_1.is_empty()),
        )
    }
}

#[derive(Clone, Debug)]
pub struct MorphTarget {
    pub positions: Option<Vec<Vec3>>,
    pub normals: Option<Vec<Vec3>>,
    pub tangents: Option<Vec<Vec3>>,
}

#[derive(Clone, Debug)]
pub struct Material {
    /// Linear RGBA factor.
    pub base_color_factor: Vec4,
    pub base_color_texture: Option<Texture>,
    /// The TEXCOORD_n the base colour texture reads, and its transform.
    pub base_color_tex_coord: u32,
    pub base_color_transform: UvTransform,
    /// Both faces drawn; otherwise back faces are culled (the winding flips under a node with
    /// a negative determinant).
    pub double_sided: bool,
    pub alpha_mode: AlphaMode,
    pub metallic_factor: f32,
    pub roughness_factor: f32,
    /// Metalness in B, roughness in G (linear).
    pub metallic_roughness_texture: Option<MaterialTexture>,
    /// Tangent-space normals (linear), and the scale of their X and Y.
    pub normal_texture: Option<MaterialTexture>,
    pub normal_scale: f32,
    /// Ambient occlusion in R (linear), and its strength.
    pub occlusion_texture: Option<MaterialTexture>,
    pub occlusion_strength: f32,
    /// Linear RGB, times KHR_materials_emissive_strength.
    pub emissive_factor: Vec3,
    pub emissive_texture: Option<MaterialTexture>,
    /// KHR_materials_unlit: the base colour as it is, no lighting.
    pub unlit: bool,
}

/// A texture a material reads, with the texture-coordinate set it reads it with and how those
/// coordinates are transformed first (KHR_texture_transform).
#[derive(Clone, Debug)]
pub struct MaterialTexture {
    pub texture: Texture,
    /// TEXCOORD_n (KHR_texture_transform's `texCoord` when it sets one).
    pub tex_coord: u32,
    pub transform: UvTransform,
}

/// KHR_texture_transform: `uv' = T * R * S * uv`, as a 2x3 matrix (rows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvTransform {
    pub rows: [[f32; 3]; 2],
}

impl Default for UvTransform {
    fn default() -> Self {
        Self {
            rows: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        }
    }
}

impl UvTransform {
    /// glTF's offset, rotation (radians, counter-clockwise in UV space) and scale.
    pub fn new(offset: [f32; 2], rotation: f32, scale: [f32; 2]) -> Self {
        let (sin, cos) = rotation.sin_cos();
        Self {
            rows: [
                [cos * scale[0], sin * scale[1], offset[0]],
                [-sin * scale[0], cos * scale[1], offset[1]],
            ],
        }
    }

    pub fn apply(&self, uv: Vec2) -> Vec2 {
        let [a, b] = self.rows;
        Vec2::new(
            a[0] * uv.x + a[1] * uv.y + a[2],
            b[0] * uv.x + b[1] * uv.y + b[2],
        )
    }
}

/// glTF's `alphaMode`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaMode {
    /// Alpha ignored.
    Opaque,
    /// Fragments with alpha below the cutoff are discarded.
    Mask { cutoff: f32 },
    /// Blended over what is behind, drawn after everything opaque, farthest first.
    Blend,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            base_color_factor: Vec4::ONE,
            base_color_texture: None,
            base_color_tex_coord: 0,
            base_color_transform: UvTransform::default(),
            // glTF's default material is single-sided.
            double_sided: false,
            alpha_mode: AlphaMode::Opaque,
            metallic_factor: 1.0,
            roughness_factor: 1.0,
            metallic_roughness_texture: None,
            normal_texture: None,
            normal_scale: 1.0,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive_factor: Vec3::ZERO,
            emissive_texture: None,
            unlit: false,
        }
    }
}

/// Decoded sRGB RGBA8 pixels, and how the glTF texture that reads them samples them.
#[derive(Clone, Debug)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    /// The full-size image (a KTX2's level 0, transcoded).
    pub rgba8: Vec<u8>,
    /// KHR_texture_basisu's KTX2 image, which the renderer transcodes (mip chain included) to a
    /// block format its adapter samples; `None` for PNG, JPEG and WebP.
    pub basis: Option<crate::basis::Basis>,
    pub sampler: Sampler,
}

/// A glTF sampler: wrapping per axis, magnification and minification filters, and how mip
/// levels are blended. Where the file leaves a filter undefined, the Khronos Sample Viewer's and
/// three.js's choices: linear magnification, trilinear minification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampler {
    pub wrap_s: Wrap,
    pub wrap_t: Wrap,
    pub mag: Filter,
    pub min: Filter,
    /// Between mip levels (`None`: the full-size image only, glTF's NEAREST and LINEAR).
    pub mipmap: Option<Filter>,
}

/// A glTF wrapping mode (10497, 33071, 33648).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wrap {
    #[default]
    Repeat,
    ClampToEdge,
    MirroredRepeat,
}

/// Nearest or linear filtering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    Nearest,
    #[default]
    Linear,
}

impl Default for Sampler {
    fn default() -> Self {
        Self {
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            mag: Filter::Linear,
            min: Filter::Linear,
            mipmap: Some(Filter::Linear),
        }
    }
}

/// One glTF animation.
#[derive(Clone, Debug)]
pub struct ClipData {
    /// `/animations/N`.
    pub index: usize,
    /// Joint and rigid-node tracks (targets are skeleton joints).
    pub clip: Clip,
    /// Morph-weight tracks, one per animated mesh node.
    pub morph_tracks: Vec<MorphTrack>,
    /// One entry per glTF channel, in file order.
    pub channels: Vec<ChannelInfo>,
    /// The joint tracks compressed (`pose::compress_clips`), played when a request asks for
    /// compressed clips; `None` until compressed. Morph weights stay raw.
    pub compressed: Option<crate::anim::CompressedClip>,
}

impl ClipData {
    /// The clip's length: its latest key time over joint and morph-weight tracks alike.
    pub fn duration_secs(&self) -> f32 {
        self.morph_tracks
            .iter()
            .filter_map(|t| t.times.last().copied())
            .fold(self.clip.duration_secs(), f32::max)
    }
}

/// What one glTF channel drives, for `inspect`.
#[derive(Clone, Debug)]
pub struct ChannelInfo {
    pub node: usize,
    pub path: &'static str,
    pub interpolation: Interpolation,
    pub keys: usize,
}

/// Morph weights of the mesh drawn by `node` over time: `values` holds `targets` weights per key
/// (times 3 for cubic splines: in-tangents, values, out-tangents).
#[derive(Clone, Debug)]
pub struct MorphTrack {
    pub node: usize,
    pub targets: usize,
    pub times: Vec<f32>,
    pub values: Vec<f32>,
    pub interpolation: Interpolation,
}

impl Character {
    /// A clip by name, or by index when no clip has that name.
    pub fn find_clip(&self, key: &str) -> Result<usize, String> {
        if let Some(i) = self.clips.iter().position(|c| c.clip.name() == key) {
            return Ok(i);
        }
        match key.trim().parse::<i64>() {
            Ok(i) if (0..self.clips.len() as i64).contains(&i) => Ok(i as usize),
            Ok(i) if self.clips.is_empty() => {
                Err(format!("clip index {i}: {} has no clips", self.name))
            }
            Ok(i) => Err(format!(
                "clip index {i} is outside 0..={} (the clips of {})",
                self.clips.len() - 1,
                self.name
            )),
            Err(_) => {
                let names: Vec<String> = self
                    .clips
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{i}: {:?}", c.clip.name()))
                    .collect();
                Err(format!(
                    "no clip {key:?} in {}; its clips are {}",
                    self.name,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            }
        }
    }

    /// `world_from_mesh` of an instance in a posed model: its node's `model_from_joint` (the
    /// skeleton holds every node from the scene root, so model space is world space).
    pub fn world_from_mesh(&self, instance: &MeshInstance, model: &ModelPose) -> Mat4 {
        model
            .as_slice()
            .get(instance.skeleton_joint)
            .map_or(Mat4::IDENTITY, |m| Mat4::from(*m))
    }

    /// The palette of a skinned instance, in its mesh node's space:
    /// `mesh_from_bind = mesh_from_world * world_from_joint * joint_from_bind`.
    /// `world_from_joint` already holds every ancestor of the joint (armatures included), since
    /// the skeleton holds every node; `mesh_from_world` is the cancellation term that undoes the
    /// mesh node's own transform, which glTF says must not move a skinned mesh, so that drawing
    /// with `world_from_mesh` lands it exactly where glTF puts it.
    /// Written into `out`, a slice of the skin's length (a part of a larger palette array).
    pub fn instance_palette_into(
        &self,
        instance: &MeshInstance,
        model: &ModelPose,
        out: &mut [Mat4],
    ) -> Result<(), PoseError> {
        let Some(skin) = instance.skin.and_then(|s| self.skins.get(s)) else {
            return Ok(());
        };
        let mesh_from_world = mesh_from_world(self.world_from_mesh(instance, model));
        build_palette_into(model, &skin.skin, Mat4::from(mesh_from_world), out)
    }

    pub fn vertex_count(&self) -> usize {
        self.meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(|p| p.positions.len())
            .sum()
    }
}

/// The inverse of a mesh node's `world_from_mesh`, which is affine (most mesh nodes sit at the
/// scene's origin: no inverse to take).
pub(crate) fn mesh_from_world(world_from_mesh: Mat4) -> glam::Affine3A {
    if world_from_mesh == Mat4::IDENTITY {
        glam::Affine3A::IDENTITY
    } else {
        glam::Affine3A::from_mat4(world_from_mesh).inverse()
    }
}

/// One problem in a glTF file: where (a JSON pointer such as `/skins/0/joints/3`; empty for the
/// file as a whole, e.g. a GLB header) and what, in a plain sentence; with the Khronos
/// glTF-Validator's issue code when the validator reports the same problem
/// (`INVALID_IBM_ACCESSOR_COUNT`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub pointer: String,
    pub message: String,
    pub code: Option<&'static str>,
}

impl Problem {
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
            code: None,
        }
    }

    /// The same problem, with the glTF-Validator's code for it.
    pub fn coded(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.pointer.is_empty() {
            write!(f, "{}: ", self.pointer)?;
        }
        write!(f, "{}", self.message)?;
        match self.code {
            Some(code) => write!(f, " [{code}]"),
            None => Ok(()),
        }
    }
}
