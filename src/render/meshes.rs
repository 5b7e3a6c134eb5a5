//! The character's meshes on the GPU: vertex, index and edge buffers per primitive, debug-colour
//! buffers, and each primitive's material (base colour texture and sampler). Uploaded once when a
//! renderer is built.

use std::collections::HashSet;

use wgpu::util::DeviceExt;

use super::pipelines::{GpuVertex, Layouts};
use crate::character::{Character, Primitive, Texture};

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
    pub morph_positions: wgpu::Buffer,
    pub morph_normals: wgpu::Buffer,
    /// Targets the GPU morphs (0 when the deltas would not fit a storage binding).
    pub morph_targets: u32,
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
                .map(|p| upload_primitive(device, &materials, p))
                .collect()
        })
        .collect()
}

fn upload_primitive(
    device: &wgpu::Device,
    materials: &Materials<'_>,
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
    let limit = device.limits().max_storage_buffer_binding_size;
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
        buffer(
            "morph deltas",
            bytemuck::cast_slice(values),
            wgpu::BufferUsages::STORAGE,
        )
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
            bytemuck::cast_slice(&vertices),
            wgpu::BufferUsages::VERTEX,
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
        material: materials.bind_group(p.material.base_color_texture.as_ref()),
        morph_positions: deltas(&positions),
        morph_normals: deltas(&normals),
        morph_targets: if fits {
            p.morph_targets.len() as u32
        } else {
            0
        },
    }
}

/// Makes material bind groups: a texture (white when the primitive has none) and one sampler.
struct Materials<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    layout: &'a wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    white: wgpu::TextureView,
}

impl<'a> Materials<'a> {
    fn new(device: &'a wgpu::Device, queue: &'a wgpu::Queue, layouts: &'a Layouts) -> Self {
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("base colour"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let white = texture_view(device, queue, 1, 1, &[255; 4]);
        Self {
            device,
            queue,
            layout: &layouts.material,
            sampler,
            white,
        }
    }

    fn bind_group(&self, texture: Option<&Texture>) -> wgpu::BindGroup {
        let uploaded =
            texture.map(|t| texture_view(self.device, self.queue, t.width, t.height, &t.rgba8));
        let view = uploaded.as_ref().unwrap_or(&self.white);
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        })
    }
}

/// An sRGB RGBA8 texture holding `rgba`, and a view of it.
fn texture_view(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> wgpu::TextureView {
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("base colour"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        texture.as_image_copy(),
        rgba,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(4 * width),
            rows_per_image: Some(height),
        },
        size,
    );
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

fn vertices_of(p: &Primitive) -> Vec<GpuVertex> {
    (0..p.positions.len())
        .map(|v| {
            let (joints, weights) = match &p.skinning {
                Some(s) => (s.joints[v].map(u32::from), s.weights[v]),
                // Unskinned: the draw's palette_base is the identity entry.
                None => ([0; 4], [1.0, 0.0, 0.0, 0.0]),
            };
            GpuVertex {
                position: p.positions[v].to_array(),
                normal: p.normals[v].to_array(),
                uv: p.uvs.as_ref().map_or([0.0; 2], |uv| uv[v].to_array()),
                joints,
                weights,
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
