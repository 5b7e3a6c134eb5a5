//! The renderer's bind group layouts, shared by every pipeline and bind group of a device.
//!
//! Bind groups: 0 = camera + per-draw data + the shadow maps, 1 = skin palette (see
//! `skinning.wgsl`) and the skin pass's output, 2 = material, 3 = morph targets; the shadow
//! casters' group 0 holds a camera and the per-draw data alone (they draw into the maps the
//! others read); the line pipelines bind the camera alone. The
//! skin pass (a compute pipeline) binds 0 = camera, per-draw data, its draw slot, the slot's
//! vertices and its output, 1 = the palette alone, 3 = morph targets.

use crate::words::DataMode;

pub struct Layouts {
    /// Camera (0), per-draw data (1), the shadow maps (2) and their comparison sampler (3).
    pub scene: wgpu::BindGroupLayout,
    /// The shadow casters' group 0: a shadow map's camera (0) and the per-draw data (1).
    pub caster: wgpu::BindGroupLayout,
    /// The palette (0) and the skin pass's output (1), as the mesh pipelines read them.
    pub palette: wgpu::BindGroupLayout,
    /// The skin pass's group 0: camera, per-draw data, slot, vertex words, output.
    pub skin_pass: wgpu::BindGroupLayout,
    /// The skin pass's group 1: the palette alone (the output is written in group 0).
    pub skin_palette: wgpu::BindGroupLayout,
    pub material: wgpu::BindGroupLayout,
    pub line: wgpu::BindGroupLayout,
    /// The frame's non-zero morph weights and a primitive's deltas (`morph.wgsl`).
    pub morph: wgpu::BindGroupLayout,
    /// How the arrays are bound: storage buffers, or textures of words (WebGL2; the skin pass's
    /// layouts are then empty, as there is no compute pass).
    pub data: DataMode,
}

/// The scene group's environment maps (bindings 4 to 7: irradiance and specular cubes, the BRDF
/// table, their sampler), read by fragments and by the ground's vertices (its ambient).
fn environment_entries(visibility: wgpu::ShaderStages) -> [wgpu::BindGroupLayoutEntry; 4] {
    let texture = |binding, view_dimension| wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension,
            multisampled: false,
        },
        count: None,
    };
    let cube = wgpu::TextureViewDimension::Cube;
    [
        texture(4, cube),
        texture(5, cube),
        texture(6, wgpu::TextureViewDimension::D2),
        wgpu::BindGroupLayoutEntry {
            binding: 7,
            visibility,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        },
    ]
}

fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn storage_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    storage(binding, visibility, true)
}

fn storage(
    binding: u32,
    visibility: wgpu::ShaderStages,
    read_only: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Layouts {
    /// The layouts for `device`'s arrays (`DataMode::for_device`).
    pub fn new(device: &wgpu::Device) -> Self {
        Self::with_data(device, DataMode::for_device(device))
    }

    /// The layouts with the arrays bound as `data` says (textures also work where storage
    /// buffers do: the tests draw both ways on one device).
    pub fn with_data(device: &wgpu::Device, data: DataMode) -> Self {
        let both = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        let texture = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let sampler = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        };
        // Base colour (0) and its sampler (1), the material's factors (2), metallic-roughness
        // (3), normal (4), occlusion (5), emissive (6), and their samplers (7 to 10).
        let material = [
            texture(0),
            sampler(1),
            uniform_entry(2, wgpu::ShaderStages::FRAGMENT),
            texture(3),
            texture(4),
            texture(5),
            texture(6),
            sampler(7),
            sampler(8),
            sampler(9),
            sampler(10),
        ];
        let vertex = wgpu::ShaderStages::VERTEX;
        let compute = wgpu::ShaderStages::COMPUTE;
        // The morph targets are read by the skin pass too, where there is one.
        let morphed = match data {
            DataMode::Storage => vertex | compute,
            DataMode::Textures => vertex,
        };
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let shadow_maps = wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility: fragment,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Depth,
                view_dimension: wgpu::TextureViewDimension::D2Array,
                multisampled: false,
            },
            count: None,
        };
        let comparison = wgpu::BindGroupLayoutEntry {
            binding: 3,
            visibility: fragment,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
            count: None,
        };
        let array = |binding, visibility| data.layout_entry(binding, visibility);
        let camera_and_draws = [uniform_entry(0, both), array(1, both)];
        let computes = data == DataMode::Storage;
        let skin_pass = [
            uniform_entry(0, compute),
            storage_entry(1, compute),
            uniform_entry(2, compute),
            storage_entry(3, compute),
            storage(4, compute, false),
            uniform_entry(5, compute),
        ];
        let skin_palette = [storage_entry(0, compute)];
        let environment_entries = environment_entries(both);
        Self {
            scene: layout(
                "scene",
                &[
                    camera_and_draws[0],
                    camera_and_draws[1],
                    shadow_maps,
                    comparison,
                    // The environment's maps (light.wgsl).
                    environment_entries[0],
                    environment_entries[1],
                    environment_entries[2],
                    environment_entries[3],
                ],
            ),
            caster: layout("shadow caster", &camera_and_draws),
            palette: layout("palette", &[array(0, vertex), array(1, vertex)]),
            skin_pass: layout("skin pass", if computes { &skin_pass[..] } else { &[] }),
            skin_palette: layout(
                "skin pass palette",
                if computes { &skin_palette[..] } else { &[] },
            ),
            material: layout("material", &material),
            line: layout("lines", &[uniform_entry(0, wgpu::ShaderStages::VERTEX)]),
            morph: layout(
                "morph",
                &[
                    array(0, morphed),
                    array(1, morphed),
                    array(2, morphed),
                    array(3, morphed),
                ],
            ),
            data,
        }
    }
}
