//! The skinned-character renderer. `prepare` writes buffers (only what changed), `paint` records
//! draws into a `TextureView` it is given: the window and headless rendering share every line.
//!
//! Bind groups: 0 = camera + per-draw data, 1 = skin palette (see `skinning.wgsl`), 2 = material.
//! The palette lives in one storage buffer per frame in flight, so the CPU never writes a buffer
//! the GPU may still be reading; a buffer is rewritten only when the palette changed since it was
//! last written, so a paused character uploads nothing.

use std::collections::HashSet;

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};
use wgpu::util::DeviceExt;

use super::camera::Camera;
use super::shaders;
use crate::character::{Character, Primitive};
use crate::crowd::Crowd;
use crate::posing::CharacterPose;

pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Frames the CPU may run ahead of the GPU: one palette buffer each.
pub const FRAMES_IN_FLIGHT: usize = 2;

/// A vertex as the mesh pipelines read it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct GpuVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    pub joints: [u32; 4],
    pub weights: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CameraUniform {
    clip_from_world: [f32; 16],
    eye: [f32; 4],
    light_dir: [f32; 4],
    mode: [u32; 4],
}

/// One draw (an instance's primitive), as `mesh.wgsl` reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
struct DrawUniform {
    world_from_mesh: [f32; 16],
    base_color: [f32; 4],
    palette_base: u32,
    _pad: [u32; 3],
}

/// A coloured world-space line vertex (bones, grid).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LineVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
}

/// What is drawn: one posed character, or a crowd of copies.
#[derive(Clone, Copy)]
pub enum Posed<'a> {
    One(&'a CharacterPose),
    Crowd(&'a Crowd),
}

/// What one `prepare` writes: a posed character (or crowd) seen by a camera.
#[derive(Clone, Copy)]
pub struct FrameInput<'a> {
    pub character: &'a Character,
    pub posed: Posed<'a>,
    pub camera: &'a Camera,
    /// Width over height of the viewport drawn into.
    pub aspect: f32,
    /// Bone lines to draw on top (`bone_lines`), possibly empty.
    pub bones: &'a [LineVertex],
    pub options: &'a DrawOptions,
}

/// What `paint` draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    pub mesh: bool,
    pub wireframe: bool,
    pub bones: bool,
    pub grid: bool,
    /// Every mesh flat white on black; no grid, overlays or shading (mask comparisons).
    pub silhouette: bool,
    /// Linear RGB.
    pub background: [f64; 3],
    /// The part of the target the 3D view fills, in pixels (x, y, width, height); `None` is all
    /// of it. The background is cleared everywhere.
    pub viewport: Option<[f32; 4]>,
    /// Colour meshes by the debug colours of `set_vertex_colors` instead of their materials.
    pub vertex_colors: bool,
    /// Clear the target first (off to draw a second view beside the first).
    pub clear: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self {
            mesh: true,
            wireframe: false,
            bones: false,
            grid: true,
            silhouette: false,
            background: [0.16, 0.17, 0.2],
            viewport: None,
            vertex_colors: false,
            clear: true,
        }
    }
}

struct GpuPrimitive {
    vertices: wgpu::Buffer,
    /// Per-vertex debug colours (linear RGBA), white until set.
    colors: wgpu::Buffer,
    vertex_count: u32,
    indices: Option<(wgpu::Buffer, u32)>,
    edges: (wgpu::Buffer, u32),
    material: wgpu::BindGroup,
}

struct FrameBuffers {
    palette: wgpu::Buffer,
    draws: wgpu::Buffer,
    scene_group: wgpu::BindGroup,
    palette_group: wgpu::BindGroup,
    /// Bone lines of this frame slot and how many vertices they hold.
    bones: (wgpu::Buffer, u32),
    /// Generation of the palette / draw data this frame's buffers hold.
    palette_generation: u64,
    draws_generation: u64,
}

pub struct Renderer {
    shaded: wgpu::RenderPipeline,
    wireframe: wgpu::RenderPipeline,
    silhouette: wgpu::RenderPipeline,
    grid_pipeline: wgpu::RenderPipeline,
    overlay_pipeline: wgpu::RenderPipeline,
    camera_buffer: wgpu::Buffer,
    line_group: wgpu::BindGroup,
    frames: Vec<FrameBuffers>,
    frame: usize,
    /// (instance, mesh, primitive) per draw slot, in draw order. Each slot is drawn once per
    /// crowd member: draw data index `slot * members + member`, the member being the instance
    /// index of the draw call.
    draws: Vec<(usize, usize, usize)>,
    /// Copies drawn (1 unless a crowd).
    members: usize,
    draw_scratch: Vec<DrawUniform>,
    primitives: Vec<Vec<GpuPrimitive>>,
    palette: Vec<Mat4>,
    palette_generation: u64,
    draw_data: Vec<DrawUniform>,
    draws_generation: u64,
    grid: (wgpu::Buffer, u32),
    bone_capacity: usize,
    depth: Option<(wgpu::TextureView, (u32, u32))>,
    /// Palette bytes written by the last `prepare`.
    pub palette_bytes_uploaded: u64,
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

const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
    0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Uint32x4, 4 => Float32x4
];
const COLOR_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![5 => Float32x4];
const LINE_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];

impl Renderer {
    /// Uploads the character's meshes and textures and builds the pipelines for targets of
    /// `color_format`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        character: &Character,
        color_format: wgpu::TextureFormat,
    ) -> Self {
        Self::with_members(device, queue, character, color_format, 1)
    }

    /// A renderer for a crowd of `members` copies of `character`, all drawn instanced from one
    /// palette storage buffer.
    pub fn with_members(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        character: &Character,
        color_format: wgpu::TextureFormat,
        members: usize,
    ) -> Self {
        let members = members.max(1);
        let uniform_entry = |binding, visibility| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let storage_entry = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let both = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let scene_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene"),
            entries: &[uniform_entry(0, both), storage_entry(1)],
        });
        let palette_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("palette"),
            entries: &[wgpu::BindGroupLayoutEntry {
                visibility: wgpu::ShaderStages::VERTEX,
                ..storage_entry(0)
            }],
        });
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("material"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let line_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lines"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::VERTEX)],
        });

        let mesh_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mesh.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shaders::MESH.into()),
        });
        let line_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("lines.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shaders::LINES.into()),
        });
        let mesh_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("mesh"),
            bind_group_layouts: &[
                Some(&scene_layout),
                Some(&palette_layout),
                Some(&material_layout),
            ],
            immediate_size: 0,
        });
        let lines_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lines"),
            bind_group_layouts: &[Some(&line_layout)],
            immediate_size: 0,
        });
        let mesh_pipeline = |label, fragment: &str, topology, depth_write, depth_compare| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&mesh_layout),
                vertex: wgpu::VertexState {
                    module: &mesh_module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[
                        Some(wgpu::VertexBufferLayout {
                            array_stride: std::mem::size_of::<GpuVertex>() as u64,
                            step_mode: wgpu::VertexStepMode::Vertex,
                            attributes: &VERTEX_ATTRIBUTES,
                        }),
                        Some(wgpu::VertexBufferLayout {
                            array_stride: 16,
                            step_mode: wgpu::VertexStepMode::Vertex,
                            attributes: &COLOR_ATTRIBUTES,
                        }),
                    ],
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(depth_write),
                    depth_compare: Some(depth_compare),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &mesh_module,
                    entry_point: Some(fragment),
                    compilation_options: Default::default(),
                    targets: &[Some(color_format.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let lines = wgpu::PrimitiveTopology::LineList;
        let less = wgpu::CompareFunction::Less;
        let less_equal = wgpu::CompareFunction::LessEqual;
        let shaded = mesh_pipeline("shaded", "fs_shaded", triangles, true, less);
        let wireframe = mesh_pipeline("wireframe", "fs_wireframe", lines, false, less_equal);
        let silhouette = mesh_pipeline("silhouette", "fs_silhouette", triangles, true, less);
        let line_pipeline = |label, depth_compare| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&lines_layout),
                vertex: wgpu::VertexState {
                    module: &line_module,
                    entry_point: Some("vs_line"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<LineVertex>() as u64,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &LINE_ATTRIBUTES,
                    })],
                },
                primitive: wgpu::PrimitiveState {
                    topology: lines,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(depth_compare),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &line_module,
                    entry_point: Some("fs_line"),
                    compilation_options: Default::default(),
                    targets: &[Some(color_format.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        // The grid hides behind the character; bones are drawn on top of everything.
        let grid_pipeline = line_pipeline("grid", less_equal);
        let overlay_pipeline = line_pipeline("bones", wgpu::CompareFunction::Always);

        let camera_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("camera"),
            size: std::mem::size_of::<CameraUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let line_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lines"),
            layout: &line_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: camera_buffer.as_entire_binding(),
            }],
        });

        // Draw list and palette size come from the character's instances.
        let pose = CharacterPose::new(character);
        let mut draws = Vec::new();
        for (i, instance) in character.instances.iter().enumerate() {
            for p in 0..character.meshes[instance.mesh].primitives.len() {
                draws.push((i, instance.mesh, p));
            }
        }
        let palette_size =
            (pose.palette.len().max(1) * members * std::mem::size_of::<Mat4>()) as u64;
        let draws_size = (draws.len().max(1) * members * std::mem::size_of::<DrawUniform>()) as u64;
        // Per joint a segment and a cross, plus the selected joint's marker.
        let bone_capacity = character.skins.iter().map(|s| s.skin.len()).sum::<usize>() * 8 + 8;
        let frames = (0..FRAMES_IN_FLIGHT)
            .map(|f| {
                let storage = |label: &str, size| {
                    device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(&format!("{label} {f}")),
                        size,
                        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    })
                };
                let palette = storage("palette", palette_size);
                let draws = storage("draws", draws_size);
                let scene_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("scene"),
                    layout: &scene_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: camera_buffer.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: draws.as_entire_binding(),
                        },
                    ],
                });
                let palette_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("palette"),
                    layout: &palette_layout,
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: palette.as_entire_binding(),
                    }],
                });
                let bones = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&format!("bones {f}")),
                    size: (bone_capacity * std::mem::size_of::<LineVertex>()) as u64,
                    usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                FrameBuffers {
                    palette,
                    draws,
                    scene_group,
                    palette_group,
                    bones: (bones, 0),
                    palette_generation: 0,
                    draws_generation: 0,
                }
            })
            .collect();

        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("base colour"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let texture = |width: u32, height: u32, rgba: &[u8]| {
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
        };
        let white = texture(1, 1, &[255; 4]);
        let material = |view: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("material"),
                layout: &material_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                ],
            })
        };
        let primitives = character
            .meshes
            .iter()
            .map(|mesh| {
                mesh.primitives
                    .iter()
                    .map(|p| {
                        let vertices = vertices_of(p);
                        let buffer = |label, contents: &[u8], usage| {
                            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                                label: Some(label),
                                contents,
                                usage,
                            })
                        };
                        let edges = edges_of(p);
                        let texture_view = p
                            .material
                            .base_color_texture
                            .as_ref()
                            .map(|t| texture(t.width, t.height, &t.rgba8));
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
                                (
                                    buffer(
                                        "indices",
                                        bytemuck::cast_slice(i),
                                        wgpu::BufferUsages::INDEX,
                                    ),
                                    i.len() as u32,
                                )
                            }),
                            edges: (
                                buffer(
                                    "edges",
                                    bytemuck::cast_slice(&edges),
                                    wgpu::BufferUsages::INDEX,
                                ),
                                edges.len() as u32,
                            ),
                            material: material(texture_view.as_ref().unwrap_or(&white)),
                        }
                    })
                    .collect()
            })
            .collect();

        let grid = grid_lines(character);
        let grid_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("grid"),
            contents: bytemuck::cast_slice(&grid),
            usage: wgpu::BufferUsages::VERTEX,
        });
        Self {
            shaded,
            wireframe,
            silhouette,
            grid_pipeline,
            overlay_pipeline,
            camera_buffer,
            line_group,
            frames,
            frame: 0,
            draws,
            members,
            draw_scratch: Vec::new(),
            primitives,
            palette: Vec::new(),
            palette_generation: 0,
            draw_data: Vec::new(),
            draws_generation: 0,
            grid: (grid_buffer, grid.len() as u32),
            bone_capacity,
            depth: None,
            palette_bytes_uploaded: 0,
        }
    }

    /// Writes this frame's buffers: the camera always (96 bytes), the palette and per-draw data
    /// only when they changed since the buffers of this frame slot were last written, the bone
    /// lines when given.
    pub fn prepare(&mut self, queue: &wgpu::Queue, frame: &FrameInput<'_>) {
        let FrameInput {
            character,
            posed,
            camera,
            aspect,
            bones,
            options,
        } = *frame;
        self.frame = (self.frame + 1) % self.frames.len();
        let light = Vec3::new(-0.4, -1.0, -0.6).normalize();
        let camera_uniform = CameraUniform {
            clip_from_world: camera.clip_from_world(aspect).to_cols_array(),
            eye: camera.eye.extend(1.0).to_array(),
            light_dir: light.extend(0.0).to_array(),
            mode: [
                u32::from(options.vertex_colors && !options.silhouette),
                0,
                0,
                0,
            ],
        };
        queue.write_buffer(&self.camera_buffer, 0, bytemuck::bytes_of(&camera_uniform));

        let palette: &[Mat4] = match posed {
            Posed::One(pose) => &pose.palette,
            Posed::Crowd(crowd) => &crowd.palette,
        };
        if self.palette != palette {
            self.palette.clear();
            self.palette.extend_from_slice(palette);
            self.palette_generation += 1;
        }
        let members = self.members;
        self.draw_scratch.clear();
        for &(i, mesh, p) in &self.draws {
            let factor: Vec4 = character.meshes[mesh].primitives[p]
                .material
                .base_color_factor;
            for k in 0..members {
                let (world_from_mesh, palette_base) = match posed {
                    Posed::One(pose) => (pose.world_from_mesh[i], pose.palette_base[i]),
                    Posed::Crowd(crowd) => (
                        crowd
                            .world_from_mesh
                            .get(k * character.instances.len() + i)
                            .copied()
                            .unwrap_or(Mat4::IDENTITY),
                        (k * crowd.palette_len()) as u32 + crowd.palette_base[i],
                    ),
                };
                self.draw_scratch.push(DrawUniform {
                    world_from_mesh: world_from_mesh.to_cols_array(),
                    base_color: factor.to_array(),
                    palette_base,
                    _pad: [0; 3],
                });
            }
        }
        if self.draw_scratch != self.draw_data {
            std::mem::swap(&mut self.draw_scratch, &mut self.draw_data);
            self.draws_generation += 1;
        }
        let frame = &mut self.frames[self.frame];
        self.palette_bytes_uploaded = 0;
        if frame.palette_generation != self.palette_generation {
            let bytes: &[u8] = bytemuck::cast_slice(&self.palette);
            queue.write_buffer(&frame.palette, 0, bytes);
            frame.palette_generation = self.palette_generation;
            self.palette_bytes_uploaded = bytes.len() as u64;
        }
        if frame.draws_generation != self.draws_generation && !self.draw_data.is_empty() {
            queue.write_buffer(&frame.draws, 0, bytemuck::cast_slice(&self.draw_data));
            frame.draws_generation = self.draws_generation;
        }
        let n = bones.len().min(self.bone_capacity);
        let frame = &mut self.frames[self.frame];
        if n > 0 {
            queue.write_buffer(&frame.bones.0, 0, bytemuck::cast_slice(&bones[..n]));
        }
        frame.bones.1 = n as u32;
    }

    /// Sets the per-vertex debug colours of each mesh (as `debug_views::vertex_colors` gives them,
    /// per instance; a mesh drawn by several instances takes the first one's).
    pub fn set_vertex_colors(
        &self,
        queue: &wgpu::Queue,
        character: &Character,
        colors: &[Vec<Vec<Vec4>>],
    ) {
        let mut done = vec![false; self.primitives.len()];
        for (instance, per_primitive) in character.instances.iter().zip(colors) {
            if std::mem::replace(&mut done[instance.mesh], true) {
                continue;
            }
            for (gpu, c) in self.primitives[instance.mesh].iter().zip(per_primitive) {
                if !c.is_empty() && c.len() as u32 == gpu.vertex_count {
                    queue.write_buffer(&gpu.colors, 0, bytemuck::cast_slice(c));
                }
            }
        }
    }

    /// Records the draws of the last `prepare` into `target` (of `size` pixels).
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: (u32, u32),
        options: &DrawOptions,
    ) {
        if self.depth.as_ref().is_none_or(|(_, s)| *s != size) {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("depth"),
                size: wgpu::Extent3d {
                    width: size.0.max(1),
                    height: size.1.max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: DEPTH_FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            });
            self.depth = Some((texture.create_view(&Default::default()), size));
        }
        let Some((depth, _)) = self.depth.as_ref() else {
            return;
        };
        let [r, g, b] = if options.silhouette {
            [0.0; 3]
        } else {
            options.background
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("character"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: if options.clear {
                        wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a: 1.0 })
                    } else {
                        wgpu::LoadOp::Load
                    },
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if let Some([x, y, w, h]) = options.viewport {
            let (x, y) = (x.clamp(0.0, size.0 as f32), y.clamp(0.0, size.1 as f32));
            let (w, h) = (w.min(size.0 as f32 - x), h.min(size.1 as f32 - y));
            if w < 1.0 || h < 1.0 {
                return;
            }
            pass.set_viewport(x, y, w, h, 0.0, 1.0);
        }
        let frame = &self.frames[self.frame];
        if options.grid && !options.silhouette && self.grid.1 > 0 {
            pass.set_pipeline(&self.grid_pipeline);
            pass.set_bind_group(0, &self.line_group, &[]);
            pass.set_vertex_buffer(0, self.grid.0.slice(..));
            pass.draw(0..self.grid.1, 0..1);
        }
        let mut mesh_passes: Vec<(&wgpu::RenderPipeline, bool)> = Vec::new();
        if options.silhouette {
            mesh_passes.push((&self.silhouette, false));
        } else {
            if options.mesh {
                mesh_passes.push((&self.shaded, false));
            }
            if options.wireframe {
                mesh_passes.push((&self.wireframe, true));
            }
        }
        for (pipeline, edges) in mesh_passes {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &frame.scene_group, &[]);
            pass.set_bind_group(1, &frame.palette_group, &[]);
            for (draw, &(_, mesh, p)) in self.draws.iter().enumerate() {
                let primitive = &self.primitives[mesh][p];
                // This slot's draw data for every member: the instance range of the call.
                let n = self.members as u32;
                let members = draw as u32 * n..(draw as u32 + 1) * n;
                pass.set_bind_group(2, &primitive.material, &[]);
                pass.set_vertex_buffer(0, primitive.vertices.slice(..));
                pass.set_vertex_buffer(1, primitive.colors.slice(..));
                if edges {
                    pass.set_index_buffer(primitive.edges.0.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..primitive.edges.1, 0, members.clone());
                } else if let Some((indices, count)) = &primitive.indices {
                    pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..*count, 0, members.clone());
                } else {
                    pass.draw(
                        0..primitive.vertex_count - primitive.vertex_count % 3,
                        members,
                    );
                }
            }
        }
        if options.bones && !options.silhouette && frame.bones.1 > 0 {
            pass.set_pipeline(&self.overlay_pipeline);
            pass.set_bind_group(0, &self.line_group, &[]);
            pass.set_vertex_buffer(0, frame.bones.0.slice(..));
            pass.draw(0..frame.bones.1, 0..1);
        }
    }
}

/// A ground grid on y = 0 around the character's rest-pose bounds.
fn grid_lines(character: &Character) -> Vec<LineVertex> {
    let mut pose = CharacterPose::new(character);
    let bounds = pose
        .update(character, crate::posing::PaletteMode::Bind)
        .ok()
        .and_then(|_| pose.world_bounds(character));
    let (min, max) = bounds.unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
    let radius = ((max - min).length() * 0.5).max(1e-3);
    // A step of 1, 2 or 5 times a power of ten, about a tenth of the character.
    let raw = radius / 5.0;
    let magnitude = 10f32.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    let n = 10;
    let center = ((min + max) * 0.5 / step).round() * step;
    let mut out = Vec::new();
    for i in -n..=n {
        let color = if i == 0 {
            [0.45, 0.45, 0.5, 1.0]
        } else {
            [0.3, 0.3, 0.34, 1.0]
        };
        let o = i as f32 * step;
        let e = n as f32 * step;
        for (a, b) in [
            (
                Vec3::new(center.x + o, 0.0, center.z - e),
                Vec3::new(center.x + o, 0.0, center.z + e),
            ),
            (
                Vec3::new(center.x - e, 0.0, center.z + o),
                Vec3::new(center.x + e, 0.0, center.z + o),
            ),
        ] {
            out.push(LineVertex {
                position: a.to_array(),
                color,
            });
            out.push(LineVertex {
                position: b.to_array(),
                color,
            });
        }
    }
    out
}

/// The bones overlay for a posed character: a segment from each joint to its parent joint, and a
/// small cross at every joint, sized from the character's bounds.
pub fn bone_lines(character: &Character, pose: &CharacterPose, size: f32) -> Vec<LineVertex> {
    let mut out = Vec::new();
    bone_lines_into(character, pose, size, &mut out);
    out
}

/// A large bright cross at one skeleton joint (the selected joint).
pub fn joint_marker(pose: &CharacterPose, joint: usize, size: f32, out: &mut Vec<LineVertex>) {
    let Some(m) = pose.model.as_slice().get(joint) else {
        return;
    };
    let at = Vec3::from(m.translation);
    let color = [0.2, 1.0, 0.9, 1.0];
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        out.push(LineVertex {
            position: (at - axis * size).to_array(),
            color,
        });
        out.push(LineVertex {
            position: (at + axis * size).to_array(),
            color,
        });
    }
}

/// `bone_lines` into a reused vector (cleared first).
pub fn bone_lines_into(
    character: &Character,
    pose: &CharacterPose,
    size: f32,
    out: &mut Vec<LineVertex>,
) {
    out.clear();
    let model = pose.model.as_slice();
    let segment = [1.0, 0.85, 0.2, 1.0];
    let point = [1.0, 0.35, 0.25, 1.0];
    for skin in &character.skins {
        for p in 0..skin.skin.len() {
            let Some(joint) = skin.skin.joint(p) else {
                continue;
            };
            let at = Vec3::from(model[joint].translation);
            if let Some(parent) = skin
                .palette_parent(&character.skeleton, p)
                .and_then(|pp| skin.skin.joint(pp))
            {
                out.push(LineVertex {
                    position: Vec3::from(model[parent].translation).to_array(),
                    color: segment,
                });
                out.push(LineVertex {
                    position: at.to_array(),
                    color: segment,
                });
            }
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                out.push(LineVertex {
                    position: (at - axis * size).to_array(),
                    color: point,
                });
                out.push(LineVertex {
                    position: (at + axis * size).to_array(),
                    color: point,
                });
            }
        }
    }
}
