//! An HDR environment on the GPU, prefiltered once at load (`shaders/environment.wgsl`): a
//! 32-texel Lambertian irradiance cube, a 256-texel specular cube whose mip levels are the GGX
//! lobes of roughness 0, 1/6, ... 1, and a 64x64 split-sum BRDF table; and the 1x1 stand-ins
//! bound where the generated sky lights the scene instead. The scene group binds them
//! (`light.wgsl`, bindings 4 to 7).

use half::f16;

use super::shaders;
use crate::panorama::EnvironmentImage;

/// The specular cube's side at roughness 0, and its levels (256 down to 4 texels).
pub const SPECULAR_SIDE: u32 = 256;
pub const SPECULAR_LEVELS: u32 = 7;
/// The irradiance cube's side.
pub const IRRADIANCE_SIDE: u32 = 32;
/// The BRDF table's side (N.V across, roughness down).
pub const BRDF_SIDE: u32 = 64;
/// Importance samples per specular texel, and per BRDF texel.
const SPECULAR_SAMPLES: u32 = 256;
const BRDF_SAMPLES: u32 = 256;
/// The irradiance sum reads the first panorama level at most this many texels wide.
const IRRADIANCE_SOURCE_WIDTH: u32 = 64;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// The maps the shaded pipelines read, and the textures behind them (for read-backs).
pub struct EnvironmentMaps {
    /// Whether these are a file's prefiltered maps (else 1x1 stand-ins: the generated sky).
    pub prefiltered: bool,
    pub irradiance: wgpu::Texture,
    pub specular: wgpu::Texture,
    pub brdf: wgpu::Texture,
    pub irradiance_view: wgpu::TextureView,
    pub specular_view: wgpu::TextureView,
    pub brdf_view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
}

/// A half-float texture of `layers` square layers (6: a cube) the compute passes write.
/// The usage a prefiltered map is written through (a compute pass's storage texture), where
/// the device has storage textures; a device without (WebGL2) holds the placeholder's maps.
fn written_by_compute(device: &wgpu::Device) -> wgpu::TextureUsages {
    if device.limits().max_storage_textures_per_shader_stage > 0 {
        wgpu::TextureUsages::STORAGE_BINDING
    } else {
        wgpu::TextureUsages::empty()
    }
}

fn map_texture(
    device: &wgpu::Device,
    label: &str,
    side: u32,
    (layers, levels): (u32, u32),
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: layers,
        },
        mip_level_count: levels,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING
            | written_by_compute(device)
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

fn cube_texture(device: &wgpu::Device, label: &str, side: u32, levels: u32) -> wgpu::Texture {
    map_texture(device, label, side, (6, levels))
}

fn cube_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::Cube),
        ..Default::default()
    })
}

fn plain_texture(device: &wgpu::Device, label: &str, side: u32) -> wgpu::Texture {
    map_texture(device, label, side, (1, 1))
}

fn sampler(device: &wgpu::Device, label: &str, u: wgpu::AddressMode) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        address_mode_u: u,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        ..Default::default()
    })
}

/// The panorama and its mip chain as a half-float texture.
fn panorama(device: &wgpu::Device, queue: &wgpu::Queue, image: &EnvironmentImage) -> wgpu::Texture {
    let chain = image.chain();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("environment panorama"),
        size: wgpu::Extent3d {
            width: image.width,
            height: image.height,
            depth_or_array_layers: 1,
        },
        mip_level_count: chain.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, l) in chain.iter().enumerate() {
        let halves: Vec<f16> = l
            .texels
            .iter()
            .flat_map(|t| [t[0], t[1], t[2], 1.0].map(f16::from_f32))
            .collect();
        let size = wgpu::Extent3d {
            width: l.width,
            height: l.height,
            depth_or_array_layers: 1,
        };
        let bytes = bytemuck::cast_slice(&halves);
        super::textures::write_level(
            queue,
            &texture,
            level as u32,
            bytes,
            (8 * l.width, l.height),
            size,
        );
    }
    texture
}

impl EnvironmentMaps {
    /// 1x1 stand-ins (never read: the shaders light with the generated sky).
    pub fn placeholder(device: &wgpu::Device) -> Self {
        let irradiance = cube_texture(device, "no irradiance", 1, 1);
        let specular = cube_texture(device, "no specular", 1, 1);
        let brdf = plain_texture(device, "no BRDF table", 1);
        Self::of(device, false, irradiance, specular, brdf)
    }

    fn of(
        device: &wgpu::Device,
        prefiltered: bool,
        irradiance: wgpu::Texture,
        specular: wgpu::Texture,
        brdf: wgpu::Texture,
    ) -> Self {
        Self {
            prefiltered,
            irradiance_view: cube_view(&irradiance),
            specular_view: cube_view(&specular),
            brdf_view: brdf.create_view(&Default::default()),
            irradiance,
            specular,
            brdf,
            sampler: sampler(device, "environment", wgpu::AddressMode::ClampToEdge),
        }
    }

    /// Prefilters `image` on the GPU: the specular levels, the irradiance cube and the BRDF
    /// table, each one compute dispatch (8x8 texels a group, one face per layer).
    pub fn prefilter(device: &wgpu::Device, queue: &wgpu::Queue, image: &EnvironmentImage) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("environment.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shaders::ENVIRONMENT.into()),
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let source = panorama(device, queue, image);
        let source_view = source.create_view(&Default::default());
        // The panorama wraps around in u and stops at the poles in v.
        let source_sampler = sampler(device, "panorama", wgpu::AddressMode::Repeat);
        let irradiance = cube_texture(device, "environment irradiance", IRRADIANCE_SIDE, 1);
        let specular = cube_texture(
            device,
            "environment specular",
            SPECULAR_SIDE,
            SPECULAR_LEVELS,
        );
        let brdf = plain_texture(device, "environment BRDF table", BRDF_SIDE);
        let mut irradiance_level = 0;
        while (image.width >> irradiance_level) > IRRADIANCE_SOURCE_WIDTH {
            irradiance_level += 1;
        }
        // Roughness 0 reads the level whose texels match a face texel's (a face spans a
        // quarter of the panorama's width).
        let sharp = (image.width as f32 / (4.0 * SPECULAR_SIDE as f32))
            .log2()
            .max(0.0);
        let source_size = [image.width as f32, image.height as f32];
        let mut jobs: Vec<(&str, [f32; 4], wgpu::TextureView, u32)> = (0..SPECULAR_LEVELS)
            .map(|level| {
                let roughness = level as f32 / (SPECULAR_LEVELS - 1) as f32;
                let side = SPECULAR_SIDE >> level;
                let params = [roughness, side as f32, SPECULAR_SAMPLES as f32, sharp];
                ("cs_specular", params, layers_view(&specular, level), side)
            })
            .collect();
        jobs.push((
            "cs_irradiance",
            [0.0, IRRADIANCE_SIDE as f32, 0.0, 0.0],
            layers_view(&irradiance, 0),
            IRRADIANCE_SIDE,
        ));
        jobs.push((
            "cs_brdf",
            [0.0, BRDF_SIDE as f32, BRDF_SAMPLES as f32, 0.0],
            brdf.create_view(&Default::default()),
            BRDF_SIDE,
        ));
        let mut encoder = device.create_command_encoder(&Default::default());
        let pipelines: Vec<_> = ["cs_specular", "cs_irradiance", "cs_brdf"]
            .map(|e| (e, pipeline(e)))
            .into_iter()
            .collect();
        for (entry, params, target, side) in &jobs {
            let (_, pipeline) = pipelines.iter().find(|(e, _)| e == entry).unwrap();
            let filter = [
                *params,
                [source_size[0], source_size[1], irradiance_level as f32, 0.0],
            ];
            let uniform = wgpu::util::DeviceExt::create_buffer_init(
                device,
                &wgpu::util::BufferInitDescriptor {
                    label: Some("environment filter"),
                    contents: bytemuck::cast_slice(&filter),
                    usage: wgpu::BufferUsages::UNIFORM,
                },
            );
            let mut entries = vec![
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: if *entry == "cs_brdf" { 4 } else { 3 },
                    resource: wgpu::BindingResource::TextureView(target),
                },
            ];
            if *entry != "cs_brdf" {
                entries.push(wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&source_view),
                });
            }
            if *entry == "cs_specular" {
                entries.push(wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&source_sampler),
                });
            }
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("environment filter"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            let layers = if *entry == "cs_brdf" { 1 } else { 6 };
            pass.dispatch_workgroups(side.div_ceil(8), side.div_ceil(8), layers);
        }
        queue.submit([encoder.finish()]);
        Self::of(device, true, irradiance, specular, brdf)
    }
}

/// Level `level` of a cube texture as the six layers a compute shader writes.
fn layers_view(texture: &wgpu::Texture, level: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        base_mip_level: level,
        mip_level_count: Some(1),
        ..Default::default()
    })
}
