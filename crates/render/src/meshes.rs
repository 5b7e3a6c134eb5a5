//! The character's meshes on the GPU: vertex, index and edge buffers per primitive, debug-colour
//! buffers, and each primitive's material (base colour texture and sampler). Uploaded once when a
//! renderer is built.

use std::collections::{HashMap, HashSet};

use wgpu::util::DeviceExt;

use super::layouts::Layouts;
use super::pipelines::GpuVertex;
use super::textures::texture_view;
use crate::character::{Character, Filter, Primitive, Sampler, Texture, Wrap};
use crate::words::{DataMode, Words};

pub struct GpuPrimitive {
    pub vertices: wgpu::Buffer,
    /// Per-vertex debug colours (linear RGBA), white until set.
    pub colors: wgpu::Buffer,
    pub vertex_count: u32,
    pub indices: Option<(wgpu::Buffer, u32)>,
    /// Unique triangle edges as a line list (portable wireframe, unlike polygon-mode lines).
    pub edges: (wgpu::Buffer, u32),
    pub material: wgpu::BindGroup,
    /// Morph deltas (`morph_deltas`): positions and normals, uploaded once; a zero stands in
    /// when the primitive has no targets.
    pub morph_positions: Words,
    pub morph_normals: Words,
    /// Tangent deltas (a zero when no target has them, `morph_tangents` false).
    pub morph_tangent_deltas: Words,
    pub morph_tangents: bool,
    /// Targets the GPU morphs (0 when the deltas would not fit a storage binding).
    pub morph_targets: u32,
    /// Shaded with the drawn triangle's normal (`Primitive::needs_face_normals`).
    pub face_normals: bool,
}

/// A primitive's tangent deltas, laid out as `morph_deltas` lays out positions.
pub fn morph_tangent_deltas(p: &Primitive) -> Vec<f32> {
    let n = p.positions.len();
    let mut out = Vec::with_capacity(3 * n * p.morph_targets.len());
    for target in &p.morph_targets {
        match &target.tangents {
            Some(d) if d.len() == n => out.extend(d.iter().flat_map(|v| v.to_array())),
            _ => out.extend(std::iter::repeat_n(0.0, 3 * n)),
        }
    }
    out
}

/// A primitive's morph deltas as the shader reads them: target-major, three floats per vertex
/// (target t, vertex v at `3 * (t * vertex_count + v)`), zeros where a target has none;
/// positions, then normals.
pub fn morph_deltas(p: &Primitive) -> (Vec<f32>, Vec<f32>) {
    let n = p.positions.len();
    let flatten = |pick: fn(&crate::character::MorphTarget) -> Option<&Vec<glam::Vec3>>| {
        let mut out = Vec::with_capacity(3 * n * p.morph_targets.len());
        for target in &p.morph_targets {
            match pick(target) {
                Some(d) if d.len() == n => out.extend(d.iter().flat_map(|v| v.to_array())),
                _ => out.extend(std::iter::repeat_n(0.0, 3 * n)),
            }
        }
        out
    };
    (
        flatten(|t| t.positions.as_ref()),
        flatten(|t| t.normals.as_ref()),
    )
}

/// Every mesh's primitives, uploaded: `[mesh][primitive]`, as `Character::meshes`.
pub fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layouts: &Layouts,
    character: &Character,
) -> Vec<Vec<GpuPrimitive>> {
    let materials = Materials::new(device, queue, layouts);
    character
        .meshes
        .iter()
        .map(|mesh| {
            mesh.primitives
                .iter()
                .map(|p| upload_primitive(device, queue, (&materials, layouts.data), p))
                .collect()
        })
        .collect()
}

fn upload_primitive(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (materials, data): (&Materials<'_>, DataMode),
    p: &Primitive,
) -> GpuPrimitive {
    let buffer = |label, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage,
        })
    };
    let vertices = vertices_of(p);
    let edges = edges_of(p);
    let (positions, normals) = morph_deltas(p);
    let morph_tangents = p.morph_targets.iter().any(|t| t.tangents.is_some());
    let tangents = if morph_tangents {
        morph_tangent_deltas(p)
    } else {
        Vec::new()
    };
    let limit = match data {
        DataMode::Storage => device.limits().max_storage_buffer_binding_size,
        // A words texture's rows at the device's largest side, four floats a texel.
        DataMode::Textures => {
            let side = u64::from(device.limits().max_texture_dimension_2d);
            u64::from(crate::words::ROW_TEXELS) * side * 16
        }
    };
    let fits = (positions.len() * 4) as u64 <= limit;
    if !fits {
        log::warn!(
            "a primitive's {} morph targets over {} vertices exceed a storage binding ({limit} bytes): drawn unmorphed",
            p.morph_targets.len(),
            p.positions.len()
        );
    }
    let deltas = |values: &[f32]| {
        let values = if fits && !values.is_empty() {
            values
        } else {
            &[0.0][..]
        };
        let bytes = bytemuck::cast_slice(values);
        let none = wgpu::BufferUsages::empty();
        Words::with_contents(device, queue, data, "morph deltas", bytes, none)
    };
    let no_colors = vec![[1.0f32; 4]; vertices.len().max(1)];
    GpuPrimitive {
        colors: buffer(
            "vertex colours",
            bytemuck::cast_slice(&no_colors),
            wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        ),
        vertices: buffer(
            "vertices",
            // At least one vertex: the skin pass binds the buffer, and a binding is never empty.
            if vertices.is_empty() {
                &[0; size_of::<GpuVertex>()]
            } else {
                bytemuck::cast_slice(&vertices)
            },
            // The skin pass reads it as words (and copies it before direct delta mush's Ω),
            // where there is one.
            match data {
                DataMode::Storage => {
                    wgpu::BufferUsages::VERTEX
                        | wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                }
                DataMode::Textures => wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
            },
        ),
        vertex_count: vertices.len() as u32,
        indices: p.indices.as_ref().map(|i| {
            let b = buffer(
                "indices",
                bytemuck::cast_slice(i),
                wgpu::BufferUsages::INDEX,
            );
            (b, i.len() as u32)
        }),
        edges: (
            buffer(
                "edges",
                bytemuck::cast_slice(&edges),
                wgpu::BufferUsages::INDEX,
            ),
            edges.len() as u32,
        ),
        material: materials.bind_group(&p.material),
        morph_positions: deltas(&positions),
        morph_normals: deltas(&normals),
        morph_tangent_deltas: deltas(&tangents),
        morph_tangents: fits && morph_tangents,
        face_normals: p.needs_face_normals(),
        morph_targets: if fits {
            p.morph_targets.len() as u32
        } else {
            0
        },
    }
}

/// A material's factors as `mesh.wgsl` reads them.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct MaterialUniform {
    /// Linear RGB, emissive strength included.
    emissive: [f32; 4],
    /// metallic, roughness, normal scale, occlusion strength.
    factors: [f32; 4],
    /// TEXCOORD set of the base colour, metallic-roughness, normal and occlusion textures.
    tex_coords: [u32; 4],
    /// emissive's TEXCOORD set, 1 with a normal map, 1 when unlit, unused.
    flags: [u32; 4],
    /// KHR_texture_transform per texture (base colour, metallic-roughness, normal, occlusion,
    /// emissive): two rows each, the last lane unused.
    transforms: [[f32; 4]; 10],
}

/// Makes material bind groups: the textures (neutral 1x1 ones where the material has none),
/// one sampler, and the factors.
struct Materials<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    layout: &'a wgpu::BindGroupLayout,
    /// One wgpu sampler per distinct glTF sampler (the stand-ins take glTF's default).
    samplers: std::cell::RefCell<HashMap<Sampler, wgpu::Sampler>>,
    white_srgb: wgpu::TextureView,
    white: wgpu::TextureView,
    flat_normal: wgpu::TextureView,
}

impl<'a> Materials<'a> {
    fn new(device: &'a wgpu::Device, queue: &'a wgpu::Queue, layouts: &'a Layouts) -> Self {
        let srgb = wgpu::TextureFormat::Rgba8UnormSrgb;
        let linear = wgpu::TextureFormat::Rgba8Unorm;
        Self {
            device,
            queue,
            layout: &layouts.material,
            samplers: Default::default(),
            white_srgb: texture_view(device, queue, &plain(&[255; 4]), srgb),
            white: texture_view(device, queue, &plain(&[255; 4]), linear),
            flat_normal: texture_view(device, queue, &plain(&[128, 128, 255, 255]), linear),
        }
    }

    fn bind_group(&self, m: &crate::character::Material) -> wgpu::BindGroup {
        let upload = |t: &Texture, format| texture_view(self.device, self.queue, t, format);
        let srgb = wgpu::TextureFormat::Rgba8UnormSrgb;
        let linear = wgpu::TextureFormat::Rgba8Unorm;
        let base = m.base_color_texture.as_ref().map(|t| upload(t, srgb));
        let mr = m
            .metallic_roughness_texture
            .as_ref()
            .map(|t| upload(&t.texture, linear));
        let normal = m
            .normal_texture
            .as_ref()
            .map(|t| upload(&t.texture, linear));
        let occlusion = m
            .occlusion_texture
            .as_ref()
            .map(|t| upload(&t.texture, linear));
        let emissive = m
            .emissive_texture
            .as_ref()
            .map(|t| upload(&t.texture, srgb));
        let set =
            |t: &Option<crate::character::MaterialTexture>| t.as_ref().map_or(0, |t| t.tex_coord);
        let transform = |t: &Option<crate::character::MaterialTexture>| {
            t.as_ref()
                .map_or_else(crate::character::UvTransform::default, |t| t.transform)
        };
        let mut transforms = [[0.0; 4]; 10];
        for (k, tr) in [
            m.base_color_transform,
            transform(&m.metallic_roughness_texture),
            transform(&m.normal_texture),
            transform(&m.occlusion_texture),
            transform(&m.emissive_texture),
        ]
        .iter()
        .enumerate()
        {
            for (row, values) in tr.rows.iter().enumerate() {
                transforms[2 * k + row] = [values[0], values[1], values[2], 0.0];
            }
        }
        let uniform = MaterialUniform {
            emissive: m.emissive_factor.extend(0.0).to_array(),
            factors: [
                m.metallic_factor,
                m.roughness_factor,
                m.normal_scale,
                m.occlusion_strength,
            ],
            tex_coords: [
                m.base_color_tex_coord,
                set(&m.metallic_roughness_texture),
                set(&m.normal_texture),
                set(&m.occlusion_texture),
            ],
            flags: [
                set(&m.emissive_texture),
                u32::from(m.normal_texture.is_some()),
                u32::from(m.unlit),
                0,
            ],
            transforms,
        };
        let factors = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("material factors"),
                contents: bytemuck::bytes_of(&uniform),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        fn view(binding: u32, v: &wgpu::TextureView) -> wgpu::BindGroupEntry<'_> {
            wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::TextureView(v),
            }
        }
        // Each texture's own sampler (bindings 1, 7, 8, 9, 10), glTF's default for stand-ins.
        let sampler_of =
            |t: Option<&Texture>| self.sampler(t.map_or_else(Sampler::default, |t| t.sampler));
        let samplers = [
            sampler_of(m.base_color_texture.as_ref()),
            sampler_of(m.metallic_roughness_texture.as_ref().map(|t| &t.texture)),
            sampler_of(m.normal_texture.as_ref().map(|t| &t.texture)),
            sampler_of(m.occlusion_texture.as_ref().map(|t| &t.texture)),
            sampler_of(m.emissive_texture.as_ref().map(|t| &t.texture)),
        ];
        fn sampler(binding: u32, s: &wgpu::Sampler) -> wgpu::BindGroupEntry<'_> {
            wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::Sampler(s),
            }
        }
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: self.layout,
            entries: &[
                view(0, base.as_ref().unwrap_or(&self.white_srgb)),
                sampler(1, &samplers[0]),
                sampler(7, &samplers[1]),
                sampler(8, &samplers[2]),
                sampler(9, &samplers[3]),
                sampler(10, &samplers[4]),
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: factors.as_entire_binding(),
                },
                view(3, mr.as_ref().unwrap_or(&self.white)),
                view(4, normal.as_ref().unwrap_or(&self.flat_normal)),
                view(5, occlusion.as_ref().unwrap_or(&self.white)),
                view(6, emissive.as_ref().unwrap_or(&self.white_srgb)),
            ],
        })
    }
}

impl Materials<'_> {
    /// The wgpu sampler for a glTF one, made once per distinct sampler.
    fn sampler(&self, s: Sampler) -> wgpu::Sampler {
        let mut made = self.samplers.borrow_mut();
        let sampler = made.entry(s).or_insert_with(|| {
            let address = |w| match w {
                Wrap::Repeat => wgpu::AddressMode::Repeat,
                Wrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
                Wrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
            };
            let filter = |f| match f {
                Filter::Nearest => wgpu::FilterMode::Nearest,
                Filter::Linear => wgpu::FilterMode::Linear,
            };
            self.device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("material"),
                address_mode_u: address(s.wrap_s),
                address_mode_v: address(s.wrap_t),
                mag_filter: filter(s.mag),
                min_filter: filter(s.min),
                mipmap_filter: match s.mipmap {
                    Some(Filter::Linear) => wgpu::MipmapFilterMode::Linear,
                    Some(Filter::Nearest) | None => wgpu::MipmapFilterMode::Nearest,
                },
                // glTF's NEAREST and LINEAR minification read the full-size image only.
                lod_max_clamp: if s.mipmap.is_some() { 32.0 } else { 0.0 },
                ..Default::default()
            })
        });
        sampler.clone()
    }
}

/// A 1x1 stand-in texture of one colour.
fn plain(rgba: &[u8; 4]) -> Texture {
    Texture {
        width: 1,
        height: 1,
        rgba8: rgba.to_vec(),
        basis: None,
        sampler: Sampler::default(),
    }
}

fn vertices_of(p: &Primitive) -> Vec<GpuVertex> {
    (0..p.positions.len())
        .map(|v| {
            let ((joints, weights), (joints1, weights1)) = match &p.skinning {
                Some(s) => ((s.joints[v], s.weights[v]), s.second(v)),
                // Unskinned: the draw's palette_base is the identity entry.
                None => (([0; 4], [1.0, 0.0, 0.0, 0.0]), ([0; 4], [0.0; 4])),
            };
            GpuVertex {
                position: p.positions[v].to_array(),
                normal: p.normals[v].to_array(),
                uv: p.uvs.as_ref().map_or([0.0; 2], |uv| uv[v].to_array()),
                joints,
                weights,
                joints1,
                weights1,
                uv1: p.uvs1.as_ref().map_or([0.0; 2], |uv| uv[v].to_array()),
                color: p.colors.as_ref().map_or([1.0; 4], |c| c[v].to_array()),
                tangent: p.tangents.as_ref().map_or([0.0; 4], |t| t[v].to_array()),
            }
        })
        .collect()
}

/// Unique triangle edges as a line list.
fn edges_of(p: &Primitive) -> Vec<u32> {
    let triangles: Vec<u32> = p
        .indices
        .clone()
        .unwrap_or_else(|| (0..p.positions.len() as u32 - p.positions.len() as u32 % 3).collect());
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for t in triangles.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if seen.insert((a.min(b), a.max(b))) {
                out.extend([a, b]);
            }
        }
    }
    out
}
