//! A renderer's per-view buffers, sized by its capacity: each view's camera and frames in flight
//! (palette, per-draw data, morph weights, bone lines) and the bind groups over them.

use bytemuck::{Pod, Zeroable};
use glam::Mat4;

use super::shadow::{ShadowFit, ShadowMaps, key_light};
use super::{Capacity, DrawUniform, FRAMES_IN_FLIGHT, SkinPassTargets, ToneMap};
use crate::anim::SkinningMethod;
use crate::environment::EnvironmentMaps;
use crate::layouts::Layouts;
use crate::meshes::GpuPrimitive;
use crate::panorama::Background;
use crate::pipelines::Faces;
use crate::words::Words;

/// One frame in flight's buffers of one view.
pub(super) struct FrameBuffers {
    pub(super) palette: Words,
    pub(super) draws: Words,
    /// Non-zero morph weights as (target, weight bits); one bind group per mesh primitive
    /// pairs them with its deltas: `[mesh][primitive]`.
    pub(super) morph_active: Words,
    pub(super) morph_groups: Vec<Vec<wgpu::BindGroup>>,
    pub(super) morph_generation: u64,
    pub(super) scene_group: wgpu::BindGroup,
    /// The shadow maps' group 0, one per layer: its caster camera and the per-draw data.
    pub(super) caster_groups: [wgpu::BindGroup; 2],
    pub(super) palette_group: wgpu::BindGroup,
    /// Bone lines of this frame slot and how many vertices they hold.
    pub(super) bones: (wgpu::Buffer, u32),
    /// Generation of the palette / draw data these buffers hold.
    pub(super) palette_generation: u64,
    pub(super) draws_generation: u64,
    /// The deformers' per-frame values (`muscle.wgsl`'s uniform), and their generation.
    pub(super) deformer_values: wgpu::Buffer,
    pub(super) deformer_generation: u64,
}

/// One view's camera, its frames in flight and the data last given to it.
pub(super) struct ViewSlot {
    pub(super) camera: wgpu::Buffer,
    /// The camera of each shadow map (the view's camera uniform seen from the map's view).
    pub(super) caster_cameras: [wgpu::Buffer; 2],
    /// Whether the last `prepare` fitted the shadow maps.
    pub(super) shadowed: bool,
    pub(super) line_group: wgpu::BindGroup,
    pub(super) frames: Vec<FrameBuffers>,
    pub(super) frame: usize,
    pub(super) palette: Vec<Mat4>,
    /// How `palette` is skinned; under dual quaternions `packed` holds what is uploaded (under
    /// weight-blended skinning each matrix then its dual quaternion, whose fourth column holds
    /// the entry's method weight).
    pub(super) skinning: SkinningMethod,
    pub(super) packed: Vec<Mat4>,
    /// The method weights `packed` was made with.
    pub(super) method: Vec<f32>,
    pub(super) palette_generation: u64,
    pub(super) draw_data: Vec<DrawUniform>,
    pub(super) draws_generation: u64,
    pub(super) morph_active: Vec<[u32; 2]>,
    pub(super) morph_generation: u64,
    /// Per draw slot, which faces its pipeline culls (its material, its node's determinant).
    pub(super) faces: Vec<Faces>,
    /// The draw slots of blended materials, farthest from this view's camera first.
    pub(super) blend_order: Vec<usize>,
    /// The skin pass's output and bind groups, made the first time the view uses it.
    pub(super) skin_pass: Option<SkinPassTargets>,
    /// The deformers' per-frame values last given (`Posed::deformer_values`), and their
    /// generation.
    pub(super) deformer_values: Vec<[f32; 4]>,
    pub(super) deformer_generation: u64,
    /// The first copy drawn as an onion-skin ghost (`Posed::tints`; the copy count: none).
    pub(super) ghost_from: u32,
}

/// Bytes of each per-frame buffer of a view.
#[derive(Clone, Copy)]
pub(super) struct BufferSizes {
    pub(super) palette: u64,
    pub(super) draws: u64,
    pub(super) bones: u64,
    pub(super) morph: u64,
}

impl BufferSizes {
    /// One copy's palette, per-draw data (`draw_slots` slots) and morph weights, each at least
    /// one entry (bones are per view, not per copy: zero here).
    pub(super) fn per_copy(capacity: &Capacity, draw_slots: usize) -> Self {
        Self {
            palette: (capacity.palette_entries.max(1) * size_of::<Mat4>()) as u64,
            draws: (draw_slots.max(1) * size_of::<DrawUniform>()) as u64,
            bones: 0,
            morph: (capacity.morph_weights.max(1) * size_of::<[u32; 2]>()) as u64,
        }
    }
}

impl ViewSlot {
    pub(super) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        sizes: BufferSizes,
        primitives: &[Vec<GpuPrimitive>],
        (placeholder, shadow, environment): (&Words, &ShadowMaps, &EnvironmentMaps),
    ) -> Self {
        let uniform = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size_of::<CameraUniform>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let camera = uniform("camera");
        let caster_cameras = [uniform("shadow camera 0"), uniform("shadow camera 1")];
        let line_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lines"),
            layout: &layouts.line,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: camera.as_entire_binding(),
            }],
        });
        let frames = (0..FRAMES_IN_FLIGHT)
            .map(|f| {
                let cameras = Cameras {
                    camera: &camera,
                    casters: &caster_cameras,
                    placeholder,
                    shadow,
                    environment,
                };
                FrameBuffers::new(device, layouts, cameras, sizes, primitives, f)
            })
            .collect();
        Self {
            camera,
            caster_cameras,
            shadowed: false,
            line_group,
            frames,
            frame: 0,
            palette: Vec::new(),
            skinning: SkinningMethod::Linear,
            packed: Vec::new(),
            method: Vec::new(),
            palette_generation: 0,
            draw_data: Vec::new(),
            draws_generation: 0,
            morph_active: Vec::new(),
            morph_generation: 0,
            faces: Vec::new(),
            blend_order: Vec::new(),
            skin_pass: None,
            deformer_values: Vec::new(),
            ghost_from: u32::MAX,
            deformer_generation: 0,
        }
    }
}

/// What a frame's bind groups share with its view: the cameras, the skin pass's placeholder,
/// the shadow maps and the environment's maps.
pub(super) struct Cameras<'a> {
    camera: &'a wgpu::Buffer,
    casters: &'a [wgpu::Buffer; 2],
    placeholder: &'a Words,
    shadow: &'a ShadowMaps,
    environment: &'a EnvironmentMaps,
}

/// A view's scene group (`camera.wgsl`, `draw.wgsl`, `shadow.wgsl`, `light.wgsl`): its camera,
/// a frame's per-draw data, the shadow maps and the environment's maps.
pub(super) fn scene_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    camera: &wgpu::Buffer,
    draws: &Words,
    (shadow, environment): (&ShadowMaps, &EnvironmentMaps),
) -> wgpu::BindGroup {
    let view = |binding, view| wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::TextureView(view),
    };
    let entries = [
        entry(0, camera),
        draws.entry(1),
        wgpu::BindGroupEntry {
            binding: 2,
            resource: wgpu::BindingResource::TextureView(&shadow.binding),
        },
        wgpu::BindGroupEntry {
            binding: 3,
            resource: wgpu::BindingResource::Sampler(&shadow.sampler),
        },
        view(4, &environment.irradiance_view),
        view(5, &environment.specular_view),
        view(6, &environment.brdf_view),
        wgpu::BindGroupEntry {
            binding: 7,
            resource: wgpu::BindingResource::Sampler(&environment.sampler),
        },
    ];
    bind_group(device, "scene", &layouts.scene, &entries)
}

impl FrameBuffers {
    pub(super) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        cameras: Cameras<'_>,
        sizes: BufferSizes,
        primitives: &[Vec<GpuPrimitive>],
        f: usize,
    ) -> Self {
        let buffer = |label: &str, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{label} {f}")),
                size,
                usage: usage | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let words = |label: &str, size| {
            let label = format!("{label} {f}");
            Words::new(
                device,
                layouts.data,
                &label,
                size,
                wgpu::BufferUsages::empty(),
            )
        };
        let palette = words("palette", sizes.palette);
        let draws = words("draws", sizes.draws);
        let bones = buffer("bones", sizes.bones, wgpu::BufferUsages::VERTEX);
        let morph_active = words("morph active", sizes.morph);
        let deformer_values = buffer(
            "deformer values",
            super::skin_pass::VALUES_BYTES,
            wgpu::BufferUsages::UNIFORM,
        );
        let group = |label, layout, entries: &[_]| bind_group(device, label, layout, entries);
        let caster = |c| {
            group(
                "shadow caster",
                &layouts.caster,
                &[entry(0, c), draws.entry(1)],
            )
        };
        Self {
            scene_group: scene_group(
                device,
                layouts,
                cameras.camera,
                &draws,
                (cameras.shadow, cameras.environment),
            ),
            caster_groups: [caster(&cameras.casters[0]), caster(&cameras.casters[1])],
            palette_group: group(
                "palette",
                &layouts.palette,
                &[palette.entry(0), cameras.placeholder.entry(1)],
            ),
            morph_groups: primitives
                .iter()
                .map(|mesh| {
                    mesh.iter()
                        .map(|p| {
                            let entries = [
                                morph_active.entry(0),
                                p.morph_positions.entry(1),
                                p.morph_normals.entry(2),
                                p.morph_tangent_deltas.entry(3),
                            ];
                            group("morph", &layouts.morph, &entries)
                        })
                        .collect()
                })
                .collect(),
            morph_active,
            morph_generation: 0,
            palette,
            draws,
            bones: (bones, 0),
            palette_generation: 0,
            draws_generation: 0,
            deformer_values,
            deformer_generation: 0,
        }
    }
}

pub(super) fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    entries: &[wgpu::BindGroupEntry<'_>],
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries,
    })
}

pub(super) fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

/// What the palette buffer holds beyond the matrices, into `packed`: under dual quaternions
/// each entry's `dq_entry`; under weight-blended skinning each matrix followed by its
/// `dq_entry` with the entry's method weight in the fourth column (`skinning.wgsl`).
pub(super) fn pack_palette(
    posed: &super::Posed<'_>,
    palette: &[Mat4],
    skinning: SkinningMethod,
    packed: &mut Vec<Mat4>,
) {
    packed.clear();
    match skinning {
        SkinningMethod::Linear | SkinningMethod::DeltaMush => {}
        SkinningMethod::DualQuaternion => packed.extend(palette.iter().map(crate::anim::dq_entry)),
        SkinningMethod::Blended => {
            let stride = posed.palette_stride.max(1);
            for (i, m) in palette.iter().enumerate() {
                let method = posed.palette_method.get(i % stride).copied().unwrap_or(0.0);
                let mut dq = crate::anim::dq_entry(m);
                dq.w_axis = glam::Vec4::new(method, 0.0, 0.0, 0.0);
                packed.push(*m);
                packed.push(dq);
            }
        }
    }
}

/// The camera buffer's contents (`camera.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct CameraUniform {
    clip_from_world: [f32; 16],
    eye: [f32; 4],
    light_dir: [f32; 4],
    mode: [u32; 4],
    shadow_from_world: [[f32; 16]; 2],
    shadow: [f32; 4],
    ground: [f32; 4],
    world_from_clip: [f32; 16],
    environment: [f32; 4],
    background: [f32; 4],
}

impl CameraUniform {
    /// The same uniform seen through `clip_from_world` (a shadow map's view).
    pub(super) fn seen_by(self, clip_from_world: Mat4) -> Self {
        Self {
            clip_from_world: clip_from_world.to_cols_array(),
            ..self
        }
    }
}

/// The tone map's code in the shaders' uniform.
fn tone_map_code(t: ToneMap) -> u32 {
    match t {
        ToneMap::None => 0,
        ToneMap::Aces => 1,
        ToneMap::KhronosNeutral => 2,
    }
}

/// The roughness a blurred background is the environment's lobe of (the Sample Viewer's blur).
const BLURRED_ROUGHNESS: f32 = 0.5;

/// The key light's intensity (radiance scale) beside the generated sky.
const KEY_LIGHT: f32 = 2.5;

/// The camera uniform of `frame`, its skinning code `skinning`'s, with the shadow maps' views
/// when shadows are drawn, the ground's square (centre x, height, centre z, half side) and the
/// environment (`prefiltered`: a file's maps are bound).
pub(super) fn camera_uniform(
    frame: &super::FrameInput<'_>,
    skinning: SkinningMethod,
    shadow: Option<&ShadowFit>,
    (ground, prefiltered): (glam::Vec4, bool),
) -> CameraUniform {
    let light = key_light();
    let options = frame.options;
    let clip_from_world = frame.camera.clip_from_world(frame.aspect);
    let environment = options.environment;
    let last_level = (crate::environment::SPECULAR_LEVELS - 1) as f32;
    CameraUniform {
        clip_from_world: clip_from_world.to_cols_array(),
        eye: frame
            .camera
            .eye
            .extend(options.exposure_ev.exp2())
            .to_array(),
        light_dir: light.extend(KEY_LIGHT).to_array(),
        mode: [
            u32::from(options.vertex_colors && !options.silhouette),
            tone_map_code(options.tone_map),
            skinning.code(),
            0,
        ],
        shadow_from_world: [
            shadow.map_or(Mat4::IDENTITY, |s| s.key).to_cols_array(),
            shadow.map_or(Mat4::IDENTITY, |s| s.below).to_cols_array(),
        ],
        shadow: shadow.map_or([0.0; 4], |s| s.row().to_array()),
        ground: ground.to_array(),
        world_from_clip: clip_from_world.inverse().to_cols_array(),
        environment: [
            f32::from(u8::from(prefiltered)),
            environment.rotation_degrees.to_radians(),
            environment.intensity,
            last_level,
        ],
        background: [
            f32::from(u8::from(environment.background != Background::Flat)),
            if environment.background == Background::Blurred {
                BLURRED_ROUGHNESS
            } else {
                0.0
            },
            0.0,
            0.0,
        ],
    }
}

impl super::Renderer {
    /// Makes the shadow maps full size the first time shadows are drawn, and binds them in every
    /// view's scene groups.
    pub(super) fn ensure_shadow_maps(&mut self, device: &wgpu::Device) {
        let side = self.shadows.maps.full_side;
        if self.shadows.maps.side == side {
            return;
        }
        self.shadows.maps = ShadowMaps::new(device, side, side);
        self.rebind_scene_groups(device);
    }

    /// Every view's scene groups bound again, to the shadow maps and the environment now held.
    pub(super) fn rebind_scene_groups(&mut self, device: &wgpu::Device) {
        for view in &mut self.views {
            for frame in &mut view.frames {
                frame.scene_group = scene_group(
                    device,
                    &self.layouts,
                    &view.camera,
                    &frame.draws,
                    (&self.shadows.maps, &self.environment),
                );
            }
        }
    }
}
