//! Runs the WGSL `morph_vertex` and `skin_vertex` on the GPU over a list of vertices, for
//! comparison with the CPU reference (`anim::morph_vertex`, `anim::skin_position`,
//! `anim::skin_normal`).

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::gpu::{Gpu, GpuError};
use super::shaders;
use crate::anim::SkinningMethod;

/// One vertex as `skin_check.wgsl` reads it (four 16-byte rows).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CheckVertex {
    pub position: [f32; 4],
    pub normal: [f32; 4],
    pub joints: [u32; 4],
    pub weights: [f32; 4],
    /// Influences five to eight (zero weights for a four-influence vertex).
    pub joints1: [u32; 4],
    pub weights1: [f32; 4],
}

impl CheckVertex {
    pub fn new(position: Vec3, normal: Vec3, joints: [u32; 4], weights: [f32; 4]) -> Self {
        Self {
            position: position.extend(1.0).to_array(),
            normal: normal.extend(0.0).to_array(),
            joints,
            weights,
            joints1: [0; 4],
            weights1: [0.0; 4],
        }
    }

    /// The same vertex with influences five to eight.
    pub fn with_second(self, joints1: [u32; 4], weights1: [f32; 4]) -> Self {
        Self {
            joints1,
            weights1,
            ..self
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CheckParams {
    vertex_count: u32,
    palette_base: u32,
    morph_first: u32,
    morph_count: u32,
    skinning: u32,
    pad: [u32; 3],
}

/// Morph targets for the check, laid out as the renderer uploads them: deltas target-major, three
/// floats per vertex (`render::meshes::morph_deltas`), and the non-zero weights as
/// (target, weight).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckMorph<'a> {
    pub positions: &'a [f32],
    pub normals: &'a [f32],
    pub active: &'a [(u32, f32)],
}

/// Skinned (position, normal) of each vertex, computed by the shader's `skin_vertex`.
pub fn skin_on_gpu(
    gpu: &Gpu,
    palette: &[Mat4],
    vertices: &[CheckVertex],
) -> Result<Vec<(Vec3, Vec3)>, GpuError> {
    morph_and_skin_on_gpu(gpu, palette, vertices, CheckMorph::default())
}

/// Morphed, then skinned (position, normal) of each vertex, computed by the shaders'
/// `morph_vertex` and `skin_vertex`.
pub fn morph_and_skin_on_gpu(
    gpu: &Gpu,
    palette: &[Mat4],
    vertices: &[CheckVertex],
    morph: CheckMorph<'_>,
) -> Result<Vec<(Vec3, Vec3)>, GpuError> {
    check_on_gpu(gpu, palette, vertices, morph, SkinningMethod::Linear)
}

/// Skinned (position, normal) of each vertex under `skinning` (`palette` as the shader reads it:
/// matrices for linear blend skinning, packed entries, `anim::dq_entry`, for dual quaternions).
pub fn check_on_gpu(
    gpu: &Gpu,
    palette: &[Mat4],
    vertices: &[CheckVertex],
    morph: CheckMorph<'_>,
    skinning: SkinningMethod,
) -> Result<Vec<(Vec3, Vec3)>, GpuError> {
    if vertices.is_empty() {
        return Ok(Vec::new());
    }
    if palette.is_empty() {
        return Err(GpuError::Validation("the palette is empty".into()));
    }
    let device = &gpu.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("skin_check.wgsl"),
        source: wgpu::ShaderSource::Wgsl(shaders::SKIN_CHECK.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("skin check"),
        layout: None,
        module: &module,
        entry_point: Some("cs_main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let groups = bind_groups(device, &pipeline, palette, vertices, morph, skinning);
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &groups.io, &[]);
        pass.set_bind_group(1, &groups.palette, &[]);
        pass.set_bind_group(3, &groups.morph, &[]);
        pass.dispatch_workgroups((vertices.len() as u32).div_ceil(64), 1, 1);
    }
    gpu.queue.submit([encoder.finish()]);
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(GpuError::Validation(error.to_string()));
    }
    let bytes = gpu.read_buffer(&groups.out, groups.out_size)?;
    let rows: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
    Ok(rows
        .chunks_exact(2)
        .map(|pair| {
            (
                Vec3::from_slice(&pair[0][..3]),
                Vec3::from_slice(&pair[1][..3]),
            )
        })
        .collect())
}

/// The check's bind groups and its output buffer.
struct CheckGroups {
    io: wgpu::BindGroup,
    palette: wgpu::BindGroup,
    morph: wgpu::BindGroup,
    out: wgpu::Buffer,
    out_size: u64,
}

/// Uploads the vertices, palette and morph data and binds them as `skin_check.wgsl` reads them.
fn bind_groups(
    device: &wgpu::Device,
    pipeline: &wgpu::ComputePipeline,
    palette: &[Mat4],
    vertices: &[CheckVertex],
    morph: CheckMorph<'_>,
    skinning: SkinningMethod,
) -> CheckGroups {
    let storage = |label, contents: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let palette_buffer = storage("palette", bytemuck::cast_slice(palette));
    let vertex_buffer = storage("check vertices", bytemuck::cast_slice(vertices));
    let out_size = (vertices.len() * 2 * 16) as u64;
    let out_buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skinned"),
        size: out_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let params = CheckParams {
        vertex_count: vertices.len() as u32,
        palette_base: 0,
        morph_first: 0,
        morph_count: morph.active.len() as u32,
        skinning: skinning.code(),
        pad: [0; 3],
    };
    // Storage bindings must not be empty: a zero stands in for absent data.
    let or_zero = |data: &[f32]| -> Vec<f32> {
        if data.is_empty() {
            vec![0.0]
        } else {
            data.to_vec()
        }
    };
    let active: Vec<[u32; 2]> = morph
        .active
        .iter()
        .map(|&(t, w)| [t, w.to_bits()])
        .chain(std::iter::once([0, 0]))
        .collect();
    let morph_active = storage("morph active", bytemuck::cast_slice(&active));
    let morph_positions = storage(
        "morph positions",
        bytemuck::cast_slice(&or_zero(morph.positions)),
    );
    let morph_normals = storage(
        "morph normals",
        bytemuck::cast_slice(&or_zero(morph.normals)),
    );
    let params_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("check params"),
        contents: bytemuck::bytes_of(&params),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("check io"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: vertex_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: out_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: params_buffer.as_entire_binding(),
            },
        ],
    });
    let palette_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("check palette"),
        layout: &pipeline.get_bind_group_layout(1),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: palette_buffer.as_entire_binding(),
        }],
    });
    let morph_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("check morph"),
        layout: &pipeline.get_bind_group_layout(3),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: morph_active.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: morph_positions.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: morph_normals.as_entire_binding(),
            },
        ],
    });
    CheckGroups {
        io: io_group,
        palette: palette_group,
        morph: morph_group,
        out: out_buffer,
        out_size,
    }
}
