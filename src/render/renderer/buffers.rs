//! A renderer's per-view buffers, sized by its capacity: each view's camera and frames in flight
//! (palette, per-draw data, morph weights, bone lines) and the bind groups over them.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};

use super::{Capacity, DrawUniform, FRAMES_IN_FLIGHT, SkinPassTargets, ToneMap};
use crate::anim::SkinningMethod;
use crate::render::meshes::GpuPrimitive;
use crate::render::pipelines::{Faces, Layouts};

/// One frame in flight's buffers of one view.
pub(super) struct FrameBuffers {
    pub(super) palette: wgpu::Buffer,
    pub(super) draws: wgpu::Buffer,
    /// Non-zero morph weights as (target, weight bits); one bind group per mesh primitive
    /// pairs them with its deltas: `[mesh][primitive]`.
    pub(super) morph_active: wgpu::Buffer,
    pub(super) morph_groups: Vec<Vec<wgpu::BindGroup>>,
    pub(super) morph_generation: u64,
    pub(super) scene_group: wgpu::BindGroup,
    pub(super) palette_group: wgpu::BindGroup,
    /// Bone lines of this frame slot and how many vertices they hold.
    pub(super) bones: (wgpu::Buffer, u32),
    /// Generation of the palette / draw data these buffers hold.
    pub(super) palette_generation: u64,
    pub(super) draws_generation: u64,
    /// The muscles' displacements and the ML deformer's weights (`muscle.wgsl`'s uniform), and
    /// their generation.
    pub(super) muscles: wgpu::Buffer,
    pub(super) muscle_generation: u64,
}

/// One view's camera, its frames in flight and the data last given to it.
pub(super) struct ViewSlot {
    pub(super) camera: wgpu::Buffer,
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
    /// The muscles' displacements last given (xyz, 0) and the ML deformer's weights (four a
    /// vec4), and their generation (one: they share a uniform).
    pub(super) muscle_offsets: Vec<[f32; 4]>,
    pub(super) ml_weights: Vec<[f32; 4]>,
    pub(super) muscle_generation: u64,
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
        placeholder: &wgpu::Buffer,
    ) -> Self {
        let camera = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("camera"),
            size: size_of::<CameraUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
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
                FrameBuffers::new(
                    device,
                    layouts,
                    (&camera, placeholder),
                    sizes,
                    primitives,
                    f,
                )
            })
            .collect();
        Self {
            camera,
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
            muscle_offsets: Vec::new(),
            ml_weights: Vec::new(),
            muscle_generation: 0,
        }
    }
}

impl FrameBuffers {
    pub(super) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        (camera, placeholder): (&wgpu::Buffer, &wgpu::Buffer),
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
        let palette = buffer("palette", sizes.palette, wgpu::BufferUsages::STORAGE);
        let draws = buffer("draws", sizes.draws, wgpu::BufferUsages::STORAGE);
        let bones = buffer("bones", sizes.bones, wgpu::BufferUsages::VERTEX);
        let morph_active = buffer("morph active", sizes.morph, wgpu::BufferUsages::STORAGE);
        let muscles = buffer(
            "muscle offsets",
            super::skin_pass::MUSCLE_UNIFORM_BYTES,
            wgpu::BufferUsages::UNIFORM,
        );
        let group = |label, layout, entries: &[_]| bind_group(device, label, layout, entries);
        Self {
            scene_group: group(
                "scene",
                &layouts.scene,
                &[entry(0, camera), entry(1, &draws)],
            ),
            palette_group: group(
                "palette",
                &layouts.palette,
                &[entry(0, &palette), entry(1, placeholder)],
            ),
            morph_groups: primitives
                .iter()
                .map(|mesh| {
                    mesh.iter()
                        .map(|p| {
                            let entries = [
                                entry(0, &morph_active),
                                entry(1, &p.morph_positions),
                                entry(2, &p.morph_normals),
                                entry(3, &p.morph_tangent_deltas),
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
            muscles,
            muscle_generation: 0,
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
}

/// The tone map's code in the shaders' uniform.
fn tone_map_code(t: ToneMap) -> u32 {
    match t {
        ToneMap::None => 0,
        ToneMap::Aces => 1,
        ToneMap::KhronosNeutral => 2,
    }
}

/// The key light's intensity (radiance scale) beside the generated sky.
const KEY_LIGHT: f32 = 2.5;

/// The camera uniform of `frame`, its skinning code `skinning`'s.
pub(super) fn camera_uniform(
    frame: &super::FrameInput<'_>,
    skinning: SkinningMethod,
) -> CameraUniform {
    let light = Vec3::new(-0.4, -1.0, -0.6).normalize();
    let options = frame.options;
    CameraUniform {
        clip_from_world: frame.camera.clip_from_world(frame.aspect).to_cols_array(),
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
    }
}
