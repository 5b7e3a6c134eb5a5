//! The skin pass: skinning once a frame in a compute pass every draw reads (`docs/skinning.md`,
//! "Skinning once a frame"), its per-view output and bind groups, and reading the output back
//! (`--skin-on gpu`).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::{DrawSlot, FrameBuffers, Renderer, View, bind_group, entry};
use crate::deformers::{DEFORMER_VALUES, DeformerKind, DeformerWords};
use crate::layouts::Layouts;
use crate::meshes::GpuPrimitive;

/// One vertex of the skin pass's output (`SkinnedVertex` in `draw.wgsl`), mesh space.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SkinnedVertex {
    /// w = 1.
    pub position: [f32; 4],
    /// Unit (zero stays zero); w = 0.
    pub normal: [f32; 4],
    /// xyz skinned, w the handedness.
    pub tangent: [f32; 4],
}

/// One skin-pass dispatch's slot (`SkinPassSlot` in `skin_pass.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct SkinPassSlot {
    pub(super) first_draw: u32,
    pub(super) copies: u32,
    pub(super) vertex_count: u32,
    /// Where the slot's direct delta mush Ω starts in its words (0: none).
    pub(super) ddm_base: u32,
    /// Where the muscles' skin weights start in its words (0: none).
    pub(super) muscle_base: u32,
    /// Where the ML deformer's components start in its words, and their count (0: none).
    pub(super) ml_base: u32,
    pub(super) ml_count: u32,
    pub(super) pad: u32,
}

/// Bytes of the per-frame values' uniform (`muscle.wgsl`).
pub(super) const VALUES_BYTES: u64 = (16 * DEFORMER_VALUES) as u64;
static ZEROS: [u8; 16 * DEFORMER_VALUES] = [0; 16 * DEFORMER_VALUES];

/// A primitive's vertex words followed by its deformers' words (`DeformerWords`), each from
/// its base. One binding, so the skin pass stays within WebGPU's eight storage buffers a
/// stage.
pub(super) struct SlotWords {
    words: wgpu::Buffer,
    /// Where each deformer's words start (`DeformerKind as usize`); 0: none.
    bases: [u32; DeformerKind::COUNT],
}

impl SlotWords {
    /// `vertices`' words, then every deformer's words of `sections`. `None` when there is
    /// nothing past the vertex words or it would not fit a storage binding of `max_binding`
    /// bytes.
    fn new(
        (device, encoder): (&wgpu::Device, &mut wgpu::CommandEncoder),
        vertices: &wgpu::Buffer,
        sections: [Option<&[u32]>; DeformerKind::COUNT],
        max_binding: u64,
    ) -> Option<Self> {
        if sections.iter().all(Option::is_none) {
            return None;
        }
        let bytes = vertices.size();
        let mut words = Vec::new();
        let mut bases = [0u32; DeformerKind::COUNT];
        for (base, section) in bases.iter_mut().zip(sections) {
            if let Some(section) = section {
                *base = ((bytes / 4) as usize + words.len()) as u32;
                words.extend_from_slice(section);
            }
        }
        if words.is_empty() {
            return None;
        }
        let total = bytes + 4 * words.len() as u64;
        if total > max_binding || !bytes.is_multiple_of(4) {
            log::warn!(
                "a primitive's deformer words ({total} bytes) exceed a storage binding of this device ({max_binding} bytes): its Ω, muscles and ML corrective are not drawn"
            );
            return None;
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vertices and deformer words"),
            size: total,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        });
        buffer
            .slice(bytes..)
            .get_mapped_range_mut()
            .ok()?
            .copy_from_slice(bytemuck::cast_slice(&words));
        buffer.unmap();
        encoder.copy_buffer_to_buffer(vertices, 0, &buffer, 0, bytes);
        Some(Self {
            words: buffer,
            bases,
        })
    }

    /// Where `kind`'s words start; 0: none.
    fn base(&self, kind: DeformerKind) -> u32 {
        self.bases[kind as usize]
    }
}

/// One view's skin-pass output and the bind groups that write and read it.
pub(super) struct SkinPassTargets {
    pub(super) output: wgpu::Buffer,
    /// Per frame in flight.
    pub(super) frames: Vec<SkinPassGroups>,
    /// The (palette, draws, morph, deformer values) generations the output was last skinned from.
    pub(super) holds: Option<[u64; 4]>,
}

pub(super) struct SkinPassGroups {
    /// The palette alone (the pass's group 1).
    pub(super) palette: wgpu::BindGroup,
    /// Per draw slot: camera, draws, the slot, its vertices, the output (group 0).
    pub(super) slots: Vec<wgpu::BindGroup>,
    /// The mesh pipelines' group 1 with the output in place of the placeholder.
    pub(super) render: wgpu::BindGroup,
}

/// Copies along y and z of a dispatch: y at most `max`, z enough to cover the rest.
pub(super) fn split_dispatch(copies: u32, max: u32) -> (u32, u32) {
    let y = copies.clamp(1, max.max(1));
    (y, copies.div_ceil(y).max(1))
}

impl SkinPassGroups {
    pub(super) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        (camera, frame, output): (&wgpu::Buffer, &FrameBuffers, &wgpu::Buffer),
        draws: &[DrawSlot],
        primitives: &[Vec<GpuPrimitive>],
        slot_params: &[wgpu::Buffer],
        slot_words: &[Vec<Option<SlotWords>>],
    ) -> Self {
        let group = |label, layout, entries: &[_]| bind_group(device, label, layout, entries);
        Self {
            palette: group(
                "skin pass palette",
                &layouts.skin_palette,
                &[frame.palette.entry(0)],
            ),
            slots: (draws.iter().zip(slot_params))
                .map(
                    |(
                        &DrawSlot {
                            mesh, primitive: p, ..
                        },
                        params,
                    )| {
                        let words =
                            (slot_words.get(mesh).and_then(|m| m.get(p))).and_then(Option::as_ref);
                        let entries = [
                            entry(0, camera),
                            frame.draws.entry(1),
                            entry(2, params),
                            entry(3, words.map_or(&primitives[mesh][p].vertices, |o| &o.words)),
                            entry(4, output),
                            entry(5, &frame.deformer_values),
                        ];
                        group("skin pass slot", &layouts.skin_pass, &entries)
                    },
                )
                .collect(),
            render: group(
                "palette and skin pass output",
                &layouts.palette,
                &[frame.palette.entry(0), entry(1, output)],
            ),
        }
    }
}

/// Where one draw slot's vertices lie in a `SkinnedFrame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkinnedSlot {
    /// The mesh instance and the primitive of its mesh.
    pub instance: usize,
    pub primitive: usize,
    /// The first vertex of copy 0; copy k's follow at `first + k * vertex_count`.
    pub first: u32,
    pub vertex_count: u32,
}

/// The skin pass's output read back: every vertex of every draw slot of every copy, mesh space.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinnedFrame {
    pub vertices: Vec<SkinnedVertex>,
    pub slots: Vec<SkinnedSlot>,
    pub copies: usize,
}

impl SkinnedFrame {
    /// Copy `copy`'s vertices of `instance`'s `primitive` (empty when there is none).
    pub fn of(&self, instance: usize, primitive: usize, copy: usize) -> &[SkinnedVertex] {
        self.slots
            .iter()
            .find(|s| s.instance == instance && s.primitive == primitive)
            .filter(|_| copy < self.copies)
            .and_then(|s| {
                let n = s.vertex_count as usize;
                let first = s.first as usize + copy * n;
                self.vertices.get(first..first + n)
            })
            .unwrap_or(&[])
    }
}

impl Renderer {
    /// Uploads the post-skin deformers' words for the skin pass after each primitive's vertex
    /// words (empty words drop them); nothing is done when `words` is the set held (the same
    /// `Arc`) or equal to it. A primitive without words, or whose words would not fit a
    /// storage binding, is skinned without those deformers (linear blend under
    /// `SkinningMethod::DeltaMush`). The skin pass's bind groups are made again when the words
    /// change.
    pub fn set_deformers(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        words: &std::sync::Arc<DeformerWords>,
    ) {
        let held = &self.skin.deformers;
        if std::sync::Arc::ptr_eq(held, words) || **held == **words {
            self.skin.deformers = words.clone();
            return;
        }
        self.skin.deformers = words.clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("deformer words upload"),
        });
        let slot_words: Vec<Vec<Option<SlotWords>>> = (self.primitives.iter().enumerate())
            .map(|(mesh, prims)| {
                (prims.iter().enumerate())
                    .map(|(pi, vertices)| {
                        let sections = words.of(mesh, pi);
                        let gpu = (device, &mut encoder);
                        SlotWords::new(gpu, &vertices.vertices, sections, self.max_binding)
                    })
                    .collect()
            })
            .collect();
        queue.submit([encoder.finish()]);
        self.skin.slot_words = slot_words;
        // The slot parameters and bind groups name the old buffers.
        self.skin.slot_params.clear();
        for view in &mut self.views {
            view.skin_pass = None;
        }
    }

    /// Why `view`'s frame needs the skin pass for a deformer its values move: it has values
    /// and some primitive has that deformer's words.
    pub(super) fn deformers_drawn(&self, view: View) -> Option<&'static str> {
        if self.views[view.index()].deformer_values.is_empty() {
            return None;
        }
        let words = || self.skin.slot_words.iter().flatten().flatten();
        DeformerKind::ALL
            .into_iter()
            .filter(|&kind| words().any(|w| w.base(kind) != 0))
            .find_map(DeformerKind::moves_each_frame)
    }

    /// The deformers' per-frame values of `view`'s frame into its uniform, when they changed
    /// (a crowd has none: one simulation, one pose).
    pub(super) fn prepare_deformers(
        &mut self,
        view: View,
        queue: &wgpu::Queue,
        posed: &super::Posed<'_>,
        copies: usize,
    ) {
        let scratch = &mut self.skin.values_scratch;
        scratch.clear();
        if copies == 1 {
            let n = posed.deformer_values.len().min(DEFORMER_VALUES);
            scratch.extend_from_slice(&posed.deformer_values[..n]);
        }
        let slot = &mut self.views[view.index()];
        if *scratch != slot.deformer_values {
            std::mem::swap(scratch, &mut slot.deformer_values);
            slot.deformer_generation += 1;
        }
        let buffers = &mut slot.frames[slot.frame];
        if buffers.deformer_generation != slot.deformer_generation {
            // Zeros past the values (none: off, or a crowd), so no stale displacement or
            // weight moves the skin.
            let values: &[u8] = bytemuck::cast_slice(&slot.deformer_values);
            queue.write_buffer(&buffers.deformer_values, 0, values);
            let rest = &ZEROS[values.len()..];
            if !rest.is_empty() {
                queue.write_buffer(&buffers.deformer_values, values.len() as u64, rest);
            }
            buffers.deformer_generation = slot.deformer_generation;
        }
    }

    /// Bytes the skin pass's output takes (one `SkinnedVertex` per vertex per copy), and
    /// whether it fits one storage binding of this device.
    pub fn skin_pass_bytes(&self) -> (u64, bool) {
        let bytes = self.skin.out_vertices * size_of::<SkinnedVertex>() as u64;
        let dispatchable = self.draws.iter().all(
            |&DrawSlot {
                 mesh, primitive: p, ..
             }| {
                self.primitives[mesh][p].vertex_count.div_ceil(64) <= self.max_workgroups
            },
        );
        (bytes, bytes <= self.max_binding && dispatchable)
    }

    /// Makes the skin pass's compute pipeline, slot parameters and `view`'s output and bind
    /// groups if they are not there yet. False (the vertex shader skins instead) when the output would
    /// not fit a storage binding, or the view has nothing to skin.
    pub(super) fn ensure_skin_pass(&mut self, view: View, device: &wgpu::Device) -> bool {
        let (bytes, fits) = self.skin_pass_bytes();
        if !fits || bytes == 0 {
            return false;
        }
        self.pipelines.ensure_skin_pass(device, &self.layouts);
        let copies = self.capacity.copies as u32;
        if self.skin.slot_params.is_empty() {
            self.skin.slot_params = (self.draws.iter().enumerate())
                .map(
                    |(
                        d,
                        &DrawSlot {
                            mesh, primitive: p, ..
                        },
                    )| {
                        let words = (self.skin.slot_words.get(mesh).and_then(|m| m.get(p)))
                            .and_then(Option::as_ref);
                        let base = |kind| words.map_or(0, |w| w.base(kind));
                        let params = SkinPassSlot {
                            first_draw: d as u32 * copies,
                            copies,
                            vertex_count: self.primitives[mesh][p].vertex_count,
                            ddm_base: base(DeformerKind::DeltaMush),
                            muscle_base: base(DeformerKind::Muscles),
                            ml_base: base(DeformerKind::Ml),
                            ml_count: if base(DeformerKind::Ml) != 0 {
                                self.skin.deformers.ml_components
                            } else {
                                0
                            },
                            pad: 0,
                        };
                        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: Some("skin pass slot"),
                            contents: bytemuck::bytes_of(&params),
                            usage: wgpu::BufferUsages::UNIFORM,
                        })
                    },
                )
                .collect();
        }
        let slot = &mut self.views[view.index()];
        if slot.skin_pass.is_none() {
            let output = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("skin pass output"),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let frames = slot
                .frames
                .iter()
                .map(|frame| {
                    SkinPassGroups::new(
                        device,
                        &self.layouts,
                        (&slot.camera, frame, &output),
                        &self.draws,
                        &self.primitives,
                        &self.skin.slot_params,
                        &self.skin.slot_words,
                    )
                })
                .collect();
            slot.skin_pass = Some(SkinPassTargets {
                output,
                frames,
                holds: None,
            });
        }
        true
    }

    /// Records the skin pass of `view` (whose targets exist) into `encoder`: every slot's
    /// vertices for every copy. Skipped when the output already holds this frame's data, unless
    /// `always`. Whether it was recorded.
    pub(super) fn record_skin_pass(
        &mut self,
        view: View,
        encoder: &mut wgpu::CommandEncoder,
        always: bool,
    ) -> bool {
        let slot = &mut self.views[view.index()];
        let Some(targets) = slot.skin_pass.as_mut() else {
            return false;
        };
        let data = [
            slot.palette_generation,
            slot.draws_generation,
            slot.morph_generation,
            slot.deformer_generation,
        ];
        if !always && targets.holds == Some(data) {
            return false;
        }
        let Some(pipeline) = self.pipelines.skin_pass() else {
            return false;
        };
        targets.holds = Some(data);
        let groups = &targets.frames[slot.frame];
        let frame = &slot.frames[slot.frame];
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("skin pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(1, &groups.palette, &[]);
        let copies = self.capacity.copies as u32;
        let (y, z) = split_dispatch(copies, self.max_workgroups);
        for (
            d,
            &DrawSlot {
                mesh, primitive: p, ..
            },
        ) in self.draws.iter().enumerate()
        {
            let vertices = self.primitives[mesh][p].vertex_count;
            if vertices == 0 {
                continue;
            }
            pass.set_bind_group(0, &groups.slots[d], &[]);
            pass.set_bind_group(3, &frame.morph_groups[mesh][p], &[]);
            pass.dispatch_workgroups(vertices.div_ceil(64), y, z);
        }
        true
    }

    /// Runs `view`'s skin pass on its last `prepare` and reads the output back: what every
    /// pass draws when the skin pass is on. Errors when the output would not fit a storage
    /// binding of this device, or the readback fails.
    pub fn read_skinned(
        &mut self,
        view: View,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<SkinnedFrame, SkinPassError> {
        let (bytes, fits) = self.skin_pass_bytes();
        if !self.ensure_skin_pass(view, device) {
            return Err(if fits {
                SkinPassError::NoVertices
            } else {
                SkinPassError::TooBig {
                    bytes,
                    most: self.max_binding,
                }
            });
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        self.record_skin_pass(view, &mut encoder, true);
        queue.submit([encoder.finish()]);
        let Some(targets) = &self.views[view.index()].skin_pass else {
            return Err(SkinPassError::NoVertices);
        };
        let raw = crate::gpu::read_buffer(device, queue, &targets.output, bytes)?;
        Ok(SkinnedFrame {
            vertices: bytemuck::pod_collect_to_vec(&raw),
            slots: (self.draws.iter().zip(&self.skin.out_first))
                .map(
                    |(
                        &DrawSlot {
                            instance,
                            mesh,
                            primitive: p,
                        },
                        &first,
                    )| SkinnedSlot {
                        instance,
                        primitive: p,
                        first,
                        vertex_count: self.primitives[mesh][p].vertex_count,
                    },
                )
                .collect(),
            copies: self.capacity.copies,
        })
    }
}

/// Why the skin pass's output was not read back.
#[derive(Debug, thiserror::Error)]
pub enum SkinPassError {
    #[error("the character has no vertices to skin")]
    NoVertices,
    #[error("the skin pass's output ({bytes} bytes) exceeds what this GPU binds ({most} bytes)")]
    TooBig { bytes: u64, most: u64 },
    #[error(transparent)]
    Read(#[from] crate::gpu::GpuError),
}
