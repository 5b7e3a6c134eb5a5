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
