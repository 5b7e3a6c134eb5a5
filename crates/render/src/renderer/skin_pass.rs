//! The skin pass: skinning once a frame in a compute pass every draw reads (the README's
//! "Skinning once a frame"), its per-view output and bind groups, and reading the output back
//! (`--skin-on gpu`).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::{DrawSlot, FrameBuffers, Renderer, View, bind_group, entry};
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

/// Particles `muscle.wgsl`'s uniform holds (its array's length), and its bytes.
pub const MAX_GPU_PARTICLES: usize = 4000;
// Every particle a muscles file may hold fits the uniform.
const _: () =
    assert!(crate::pose::MAX_MUSCLES * crate::anim::PARTICLES_PER_MUSCLE <= MAX_GPU_PARTICLES);
/// The ML deformer's weights the uniform holds after the particles (`ml.wgsl`).
pub const MAX_GPU_COMPONENTS: usize = 64;
const _: () = assert!(crate::pose::ML_MAX_COMPONENTS <= MAX_GPU_COMPONENTS);
const OFFSET_BYTES: usize = 16 * MAX_GPU_PARTICLES;
pub(super) const MUSCLE_UNIFORM_BYTES: u64 = (OFFSET_BYTES + 4 * MAX_GPU_COMPONENTS) as u64;
static ZEROS: [u8; OFFSET_BYTES] = [0; OFFSET_BYTES];

/// The muscles' and the ML deformer's words as the skin pass packs them, per mesh per
/// primitive, what they were made from, and the per-frame scratch of their uniform.
#[derive(Default)]
pub(super) struct Deformers {
    muscle_words: Vec<Vec<Option<Vec<u32>>>>,
    muscle_scratch: Vec<[f32; 4]>,
    muscle_rig: Option<std::sync::Arc<crate::pose::MuscleRig>>,
    ml_words: Vec<Vec<Option<Vec<u32>>>>,
    ml_scratch: Vec<[f32; 4]>,
    ml_model: Option<std::sync::Arc<crate::pose::MlModel>>,
    /// The held model's components (K).
    ml_count: u32,
}

impl Deformers {
    /// Primitive `pi` of mesh `mesh`'s muscle and ML words.
    fn tails(&self, mesh: usize, pi: usize) -> [Option<&[u32]>; 2] {
        fn of(w: &[Vec<Option<Vec<u32>>>], mesh: usize, pi: usize) -> Option<&[u32]> {
            w.get(mesh)?.get(pi)?.as_deref()
        }
        [
            of(&self.muscle_words, mesh, pi),
            of(&self.ml_words, mesh, pi),
        ]
    }
}

/// A primitive's vertex words followed by its direct delta mush Ω (`shaders/ddm.wgsl`: per
/// vertex its centroid and packed range, 4 words, then per entry 12 words) and the muscles'
/// skin weights (`shaders/muscle.wgsl`). One binding, so the skin pass stays within WebGPU's
/// eight storage buffers a stage.
pub(super) struct SlotWords {
    words: wgpu::Buffer,
    /// Where the Ω words start (after the vertex words); 0: none.
    ddm_base: u32,
    /// Where the muscle words start; 0: none.
    muscle_base: u32,
    /// Where the ML deformer's components start; 0: none.
    ml_base: u32,
    /// Bytes of the vertex words and Ω: what a new muscle or ML section keeps.
    kept: u64,
}

/// Ω's words for the skin pass; `None` when its ranges exceed the packing (2^25 entries).
fn ddm_words(p: &crate::deform::DdmPrimitive) -> Option<Vec<u32>> {
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
    Some(words)
}

/// The muscles' skin weights for the skin pass: per vertex first * 8 + count, then per entry
/// (particle, weight bits); particles past the uniform's are dropped.
fn muscle_words(skin: &crate::pose::MuscleSkin, vertex_count: usize) -> Option<Vec<u32>> {
    let mut heads = Vec::with_capacity(vertex_count);
    let mut entries = Vec::new();
    for v in 0..vertex_count {
        let first = (entries.len() / 2) as u32;
        for &(k, w) in skin
            .of(v)
            .iter()
            .filter(|e| (e.0 as usize) < MAX_GPU_PARTICLES)
        {
            entries.extend([k, w.to_bits()]);
        }
        let count = (entries.len() / 2) as u32 - first;
        heads.push(first << 3 | count.min(7));
    }
    (!entries.is_empty() && entries.len() / 2 < 1 << 28).then(|| [heads, entries].concat())
}

/// The ML deformer's components of one primitive for the skin pass: vertex v's component k at
/// 3 * (v * K + k), three floats (`ml.wgsl`).
fn ml_words(p: &crate::pose::MlPrimitive, vertex_count: usize, k: usize) -> Option<Vec<u32>> {
    (p.deltas.len() == vertex_count * k && k > 0).then(|| {
        p.deltas
            .iter()
            .flat_map(|d| d.to_array().map(f32::to_bits))
            .collect()
    })
}

impl SlotWords {
    /// `prefix`'s first `bytes` (vertex words, and Ω from word `ddm_base` when it is not 0),
    /// then `ddm` (Ω, when the prefix has none), the muscles' and the ML deformer's words
    /// (`tails`). `None` when there is nothing past the vertex words or it would not fit a
    /// storage binding of `max_binding` bytes.
    fn new(
        (device, encoder): (&wgpu::Device, &mut wgpu::CommandEncoder),
        (prefix, bytes, mut ddm_base): (&wgpu::Buffer, u64, u32),
        (ddm, tails): (Option<&[u32]>, [Option<&[u32]>; 2]),
        max_binding: u64,
    ) -> Option<Self> {
        if ddm_base == 0 && ddm.is_none() && tails.iter().all(Option::is_none) {
            return None;
        }
        let mut words = Vec::new();
        if let Some(ddm) = ddm {
            ddm_base = (bytes / 4) as u32;
            words.extend_from_slice(ddm);
        }
        let kept = bytes + 4 * words.len() as u64;
        let mut bases = [0u32; 2];
        for (base, tail) in bases.iter_mut().zip(tails) {
            if let Some(tail) = tail {
                *base = ((bytes / 4) as usize + words.len()) as u32;
                words.extend_from_slice(tail);
            }
        }
        let [muscle_base, ml_base] = bases;
        let total = bytes + 4 * words.len() as u64;
        if total > max_binding || !bytes.is_multiple_of(4) {
            log::warn!(
                "a primitive's deformer words ({total} bytes) exceed a storage binding of this device ({max_binding} bytes): its Ω, muscles and ML corrective are not drawn"
            );
            return None;
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vertices, ddm omega, muscle weights and ml components"),
            size: total,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        });
        if !words.is_empty() {
            buffer
                .slice(bytes..)
                .get_mapped_range_mut()
                .ok()?
                .copy_from_slice(bytemuck::cast_slice(&words));
        }
        buffer.unmap();
        encoder.copy_buffer_to_buffer(prefix, 0, &buffer, 0, bytes);
        Some(Self {
            words: buffer,
            ddm_base,
            muscle_base,
            ml_base,
            kept,
        })
    }
}

/// Whether two optional `Arc`s are the same one (or both none).
fn same_arc<T>(a: Option<&std::sync::Arc<T>>, b: Option<&std::sync::Arc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// One view's skin-pass output and the bind groups that write and read it.
pub(super) struct SkinPassTargets {
    pub(super) output: wgpu::Buffer,
    /// Per frame in flight.
    pub(super) frames: Vec<SkinPassGroups>,
    /// The (palette, draws, morph, muscles) generations the output was last skinned from.
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
                &[entry(0, &frame.palette)],
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
                            entry(1, &frame.draws),
                            entry(2, params),
                            entry(3, words.map_or(&primitives[mesh][p].vertices, |o| &o.words)),
                            entry(4, output),
                            entry(5, &frame.muscles),
                        ];
                        group("skin pass slot", &layouts.skin_pass, &entries)
                    },
                )
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
        let held = self
            .skin
            .slot_words
            .iter()
            .flatten()
            .flatten()
            .any(|w| w.ddm_base != 0);
        if data.is_none() && !held {
            // Nothing held, nothing given: no upload, and the skin pass's groups stand.
            return;
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("ddm upload"),
        });
        let mut words: Vec<Vec<Option<SlotWords>>> = Vec::with_capacity(self.primitives.len());
        for (mesh, prims) in self.primitives.iter().enumerate() {
            let row = (prims.iter().enumerate())
                .map(|(pi, vertices)| {
                    let omega = data
                        .and_then(|d| d.meshes.get(mesh)?.get(pi)?.as_ref())
                        .and_then(ddm_words);
                    let prefix = (&vertices.vertices, vertices.vertices.size(), 0);
                    let sections = (omega.as_deref(), self.skin.deformers.tails(mesh, pi));
                    SlotWords::new((device, &mut encoder), prefix, sections, self.max_binding)
                })
                .collect();
            words.push(row);
        }
        self.install_slot_words(queue, encoder, words);
    }

    /// Uploads the muscles' skin weights for the skin pass (`None` drops them), keeping any
    /// Ω; nothing is done when `rig` is the one held (the same `Arc`). The skin pass's bind
    /// groups are made again when they change.
    pub fn set_muscles(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        rig: Option<&std::sync::Arc<crate::pose::MuscleRig>>,
    ) {
        if same_arc(rig, self.skin.deformers.muscle_rig.as_ref()) {
            return;
        }
        self.skin.deformers.muscle_rig = rig.cloned();
        let wanted = self.per_primitive(|mesh, pi, v| {
            let skin = rig?.skin.get(mesh)?.get(pi)?.as_ref()?;
            muscle_words(skin, v.vertex_count as usize)
        });
        if wanted != self.skin.deformers.muscle_words {
            self.skin.deformers.muscle_words = wanted;
            self.rebuild_tails(device, queue);
        }
    }

    /// Uploads the ML deformer's components for the skin pass (`None` drops them), keeping
    /// any Ω and muscles; nothing is done when `model` is the one held (the same `Arc`). Every
    /// instance of the model's mesh follows the corrective.
    pub fn set_ml(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: Option<&std::sync::Arc<crate::pose::MlModel>>,
    ) {
        if same_arc(model, self.skin.deformers.ml_model.as_ref()) {
            return;
        }
        self.skin.deformers.ml_model = model.cloned();
        let k = model.map_or(0, |m| m.components as usize);
        self.skin.deformers.ml_count = k as u32;
        let wanted = self.per_primitive(|mesh, pi, v| {
            let m = model.filter(|m| m.mesh as usize == mesh)?;
            ml_words(m.primitives.get(pi)?.as_ref()?, v.vertex_count as usize, k)
        });
        if wanted != self.skin.deformers.ml_words {
            self.skin.deformers.ml_words = wanted;
            self.rebuild_tails(device, queue);
        }
    }

    /// `f(mesh, primitive, its upload)` for every primitive, or empty when none gives words.
    fn per_primitive(
        &self,
        f: impl Fn(usize, usize, &GpuPrimitive) -> Option<Vec<u32>>,
    ) -> Vec<Vec<Option<Vec<u32>>>> {
        let all: Vec<Vec<Option<Vec<u32>>>> = (self.primitives.iter().enumerate())
            .map(|(mesh, prims)| {
                (prims.iter().enumerate())
                    .map(|(pi, v)| f(mesh, pi, v))
                    .collect()
            })
            .collect();
        if all.iter().flatten().all(Option::is_none) {
            Vec::new()
        } else {
            all
        }
    }

    /// The slot words made again with the held Ω (copied on the GPU) and the muscles' and
    /// ML deformer's words now held.
    fn rebuild_tails(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) {
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("muscle and ml upload"),
        });
        let old = std::mem::take(&mut self.skin.slot_words);
        let mut words: Vec<Vec<Option<SlotWords>>> = Vec::with_capacity(self.primitives.len());
        for (mesh, prims) in self.primitives.iter().enumerate() {
            let row = (prims.iter().enumerate())
                .map(|(pi, vertices)| {
                    let held = old.get(mesh).and_then(|m| m.get(pi)?.as_ref());
                    let prefix = held
                        .filter(|h| h.ddm_base != 0)
                        .map_or((&vertices.vertices, vertices.vertices.size(), 0), |h| {
                            (&h.words, h.kept, h.ddm_base)
                        });
                    let sections = (None, self.skin.deformers.tails(mesh, pi));
                    SlotWords::new((device, &mut encoder), prefix, sections, self.max_binding)
                })
                .collect();
            words.push(row);
        }
        self.install_slot_words(queue, encoder, words);
    }

    /// Submits `encoder`'s copies into the new `words` and drops the skin pass's slot
    /// parameters and bind groups, which name the old buffers.
    fn install_slot_words(
        &mut self,
        queue: &wgpu::Queue,
        encoder: wgpu::CommandEncoder,
        words: Vec<Vec<Option<SlotWords>>>,
    ) {
        queue.submit([encoder.finish()]);
        self.skin.slot_words = words;
        self.skin.slot_params.clear();
        for view in &mut self.views {
            view.skin_pass = None;
        }
    }

    /// Whether `view`'s frame has the muscles' displacement for primitives that follow them.
    pub(super) fn muscles_drawn(&self, view: View) -> bool {
        !self.views[view.index()].muscle_offsets.is_empty()
            && (self.skin.slot_words.iter().flatten().flatten()).any(|w| w.muscle_base != 0)
    }

    /// Whether `view`'s frame has the ML deformer's weights for primitives that follow it.
    pub(super) fn ml_drawn(&self, view: View) -> bool {
        !self.views[view.index()].ml_weights.is_empty()
            && (self.skin.slot_words.iter().flatten().flatten()).any(|w| w.ml_base != 0)
    }

    /// The muscles' displacements and the ML deformer's weights of `view`'s frame into its
    /// uniform, when they changed (a crowd has neither: one simulation, one pose).
    pub(super) fn prepare_deformers(
        &mut self,
        view: View,
        queue: &wgpu::Queue,
        posed: &super::Posed<'_>,
        copies: usize,
    ) {
        let d = &mut self.skin.deformers;
        d.muscle_scratch.clear();
        d.ml_scratch.clear();
        if copies == 1 {
            let n = posed.muscles.len().min(MAX_GPU_PARTICLES);
            (d.muscle_scratch).extend(posed.muscles[..n].iter().map(|d| [d.x, d.y, d.z, 0.0]));
            let k = posed.ml_weights.len().min(MAX_GPU_COMPONENTS);
            for w in posed.ml_weights[..k].chunks(4) {
                let mut v = [0.0; 4];
                v[..w.len()].copy_from_slice(w);
                d.ml_scratch.push(v);
            }
        }
        let slot = &mut self.views[view.index()];
        if d.muscle_scratch != slot.muscle_offsets || d.ml_scratch != slot.ml_weights {
            std::mem::swap(&mut d.muscle_scratch, &mut slot.muscle_offsets);
            std::mem::swap(&mut d.ml_scratch, &mut slot.ml_weights);
            slot.muscle_generation += 1;
        }
        let buffers = &mut slot.frames[slot.frame];
        if buffers.muscle_generation != slot.muscle_generation {
            // None (off, or a crowd): zeros, so no stale displacement or weight moves the skin.
            let offsets: &[u8] = if slot.muscle_offsets.is_empty() {
                &ZEROS
            } else {
                bytemuck::cast_slice(&slot.muscle_offsets)
            };
            queue.write_buffer(&buffers.muscles, 0, offsets);
            let mut weights = [[0.0f32; 4]; MAX_GPU_COMPONENTS / 4];
            weights[..slot.ml_weights.len()].copy_from_slice(&slot.ml_weights);
            queue.write_buffer(
                &buffers.muscles,
                OFFSET_BYTES as u64,
                bytemuck::cast_slice(&weights),
            );
            buffers.muscle_generation = slot.muscle_generation;
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
                        let params = SkinPassSlot {
                            first_draw: d as u32 * copies,
                            copies,
                            vertex_count: self.primitives[mesh][p].vertex_count,
                            ddm_base: words.map_or(0, |o| o.ddm_base),
                            muscle_base: words.map_or(0, |o| o.muscle_base),
                            ml_base: words.map_or(0, |o| o.ml_base),
                            ml_count: words.map_or(0, |o| {
                                if o.ml_base != 0 {
                                    self.skin.deformers.ml_count
                                } else {
                                    0
                                }
                            }),
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
            slot.muscle_generation,
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
