//! The skin pass: skinning once a frame in a compute pass every draw reads (the README's
//! "Skinning once a frame"), its per-view output and bind groups, and reading the output back
//! (`--skin-on gpu`).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::{FrameBuffers, Renderer, View, bind_group, entry};
use crate::render::meshes::GpuPrimitive;
use crate::render::pipelines::Layouts;

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
}

/// A primitive's vertex words followed by its direct delta mush Ω (`shaders/ddm.wgsl`): per
/// vertex its centroid and packed range (4 words), then per entry 12 words. One binding, so the
/// skin pass stays within WebGPU's eight storage buffers a stage.
pub(super) struct DdmBuffers {
    words: wgpu::Buffer,
    /// Where the Ω words start (after the vertex words).
    base: u32,
}

impl DdmBuffers {
    /// `None` when it would not fit a storage binding of `max_binding` bytes or its ranges
    /// the packing (2^25 entries).
    fn new(
        (device, encoder): (&wgpu::Device, &mut wgpu::CommandEncoder),
        vertices: &GpuPrimitive,
        p: &crate::deform::DdmPrimitive,
        max_binding: u64,
    ) -> Option<Self> {
        if p.entries.is_empty() || p.entries.len() >= 1 << 25 {
            return None;
        }
        let mut words: Vec<u32> = Vec::with_capacity(p.ranges.len() * 4 + p.entries.len() * 12);
        for (&[first, count], c) in p.ranges.iter().zip(&p.centroids) {
            words.extend([
                c.x.to_bits(),
                c.y.to_bits(),
                c.z.to_bits(),
                first << 7 | count.min(127),
            ]);
        }
        for e in &p.entries {
            words.extend(e.omega.map(f32::to_bits));
            words.extend([e.joint, 0]);
        }
        let vertex_bytes = vertices.vertices.size();
        let bytes = vertex_bytes + 4 * words.len() as u64;
        if bytes > max_binding || !vertex_bytes.is_multiple_of(4) {
            return None;
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vertices and ddm omega"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: true,
        });
        buffer
            .slice(vertex_bytes..)
            .get_mapped_range_mut()
            .ok()?
            .copy_from_slice(bytemuck::cast_slice(&words));
        buffer.unmap();
        encoder.copy_buffer_to_buffer(&vertices.vertices, 0, &buffer, 0, vertex_bytes);
        Some(Self {
            words: buffer,
            base: (vertex_bytes / 4) as u32,
        })
    }
}

/// One view's skin-pass output and the bind groups that write and read it.
pub(super) struct SkinPassTargets {
    pub(super) output: wgpu::Buffer,
    /// Per frame in flight.
    pub(super) frames: Vec<SkinPassGroups>,
    /// The (palette, draws, morph) generations the output was last skinned from.
    pub(super) holds: Option<[u64; 3]>,
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
        draws: &[(usize, usize, usize)],
        primitives: &[Vec<GpuPrimitive>],
        slot_params: &[wgpu::Buffer],
        ddm: &[Vec<Option<DdmBuffers>>],
    ) -> Self {
        let group = |label, layout, entries: &[_]| bind_group(device, label, layout, entries);
        Self {
            palette: group(
                "skin pass palette",
                &layouts.skin_palette,
                &[entry(0, &frame.palette)],
            ),
            slots: (draws.iter().zip(slot_params))
                .map(|(&(_, mesh, p), params)| {
                    let omega = ddm
                        .get(mesh)
                        .and_then(|m| m.get(p))
                        .and_then(Option::as_ref);
                    let entries = [
                        entry(0, camera),
                        entry(1, &frame.draws),
                        entry(2, params),
                        entry(3, omega.map_or(&primitives[mesh][p].vertices, |o| &o.words)),
                        entry(4, output),
                    ];
                    group("skin pass slot", &layouts.skin_pass, &entries)
                })
                .collect(),
            render: group(
                "palette and skin pass output",
                &layouts.palette,
                &[entry(0, &frame.palette), entry(1, output)],
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
    /// Uploads direct delta mush's Ω for the skin pass (`None` drops it): a primitive without
    /// one, or whose Ω would not fit a storage binding, is skinned by linear blend under
    /// `SkinningMethod::DeltaMush`. The skin pass's bind groups are made again.
    pub fn set_ddm(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        data: Option<&crate::deform::DdmData>,
    ) {
        if data.is_none() && self.ddm.is_empty() {
            // Nothing held, nothing given: no upload, and the skin pass's groups stand.
            return;
        }
        let max_binding = self.max_binding;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("ddm upload"),
        });
        let primitives = &self.primitives;
        self.ddm = data.map_or_else(Vec::new, |d| {
            (d.meshes.iter().enumerate())
                .map(|(mesh, m)| {
                    (m.iter().enumerate())
                        .map(|(pi, p)| {
                            let vertices = primitives.get(mesh)?.get(pi)?;
                            let p = p.as_ref()?;
                            DdmBuffers::new((device, &mut encoder), vertices, p, max_binding)
                        })
                        .collect()
                })
                .collect()
        });
        queue.submit([encoder.finish()]);
        self.slot_params.clear();
        for view in &mut self.views {
            view.skin_pass = None;
        }
    }

    /// Bytes the skin pass's output takes (one `SkinnedVertex` per vertex per copy), and
    /// whether it fits one storage binding of this device.
    pub fn skin_pass_bytes(&self) -> (u64, bool) {
        let bytes = self.out_vertices * size_of::<SkinnedVertex>() as u64;
        let dispatchable = self.draws.iter().all(|&(_, mesh, p)| {
            self.primitives[mesh][p].vertex_count.div_ceil(64) <= self.max_workgroups
        });
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
        if self.slot_params.is_empty() {
            self.slot_params = (self.draws.iter().enumerate())
                .map(|(d, &(_, mesh, p))| {
                    let params = SkinPassSlot {
                        first_draw: d as u32 * copies,
                        copies,
                        vertex_count: self.primitives[mesh][p].vertex_count,
                        ddm_base: (self.ddm.get(mesh).and_then(|m| m.get(p)))
                            .and_then(Option::as_ref)
                            .map_or(0, |o| o.base),
                    };
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("skin pass slot"),
                        contents: bytemuck::bytes_of(&params),
                        usage: wgpu::BufferUsages::UNIFORM,
                    })
                })
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
                        &self.slot_params,
                        &self.ddm,
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
        for (d, &(_, mesh, p)) in self.draws.iter().enumerate() {
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
        let raw = crate::render::gpu::read_buffer(device, queue, &targets.output, bytes)?;
        Ok(SkinnedFrame {
            vertices: bytemuck::pod_collect_to_vec(&raw),
            slots: (self.draws.iter().zip(&self.out_first))
                .map(|(&(instance, mesh, p), &first)| SkinnedSlot {
                    instance,
                    primitive: p,
                    first,
                    vertex_count: self.primitives[mesh][p].vertex_count,
                })
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
    Read(#[from] crate::render::gpu::GpuError),
}
