//! The skinned-character renderer. `prepare` writes buffers (only what changed), `paint` records
//! draws into a `TextureView` it is given: the window and headless rendering share every line.
//! It takes plain data (palettes, per-draw instance data, a camera), never animation state.
//!
//! Each view (the main one, and the compared palette of the split view) has its own camera and
//! palette slot: per frame in flight, one palette storage buffer, one per-draw buffer and one
//! bone-line buffer, so the CPU never writes a buffer the GPU may still be reading. A buffer is
//! rewritten only when its view's data changed since it was last written, so a paused character
//! (split or not) uploads nothing.
//!
//! Vertices are skinned either in the vertex shader of every pass that draws them (`vs_main`), or
//! once per frame by the skin pass, a compute pass that morphs and skins every vertex of every copy
//! into one output buffer per view, which every pass then reads (`vs_skinned`) and the CPU can
//! read back (`read_skinned`). `SkinPass` chooses; the skin pass runs again only when its view's
//! palette, draws or morph weights changed.
//!
//! Split by lifetime: `new` uploads the character's meshes, textures and a static draw table
//! (its materials) and compiles the pipelines, once per character; `resize` sizes the per-view
//! buffers (`buffers.rs`) for a capacity, so a new crowd size uploads and compiles nothing;
//! `prepare` writes a frame's plain data. The skin pass lives in `skin_pass.rs`, the shadows in
//! `shadow.rs`, the per-draw data in `draw_data.rs`, the options and capacity in `options.rs`.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};
use wgpu::util::DeviceExt;

use super::camera::Camera;
use super::environment::EnvironmentMaps;
use super::layouts::Layouts;
use super::lines::{LineVertex, grid_lines, ground_square};
use super::meshes::{self, GpuPrimitive};
use super::pipelines::{DEPTH_FORMAT, Faces, Look, PipelineCache, Pipelines, VertexStage};
use super::words::Words;
use crate::anim::SkinningMethod;
use crate::character::{AlphaMode, Character};
pub use crate::display::{SkinPass, ToneMap};

/// Frames the CPU may run ahead of the GPU: one set of buffers each, per view.
mod buffers;
mod draw_data;
mod environment;
mod options;
mod shadow;
mod skin_pass;

/// Why a device without compute shaders skins in the vertex shader, and what it leaves out.
pub const NO_COMPUTE: &str = "no compute shaders here (WebGL2): skinned in the vertex shader; direct delta mush, the muscles and the ML corrective are not drawn";

use buffers::{BufferSizes, FrameBuffers, ViewSlot, bind_group, entry};
use options::max_copies_of;
pub use options::{Capacity, DrawOptions, Painted, RendererStats};

use shadow::{Casters, ShadowMaps};
use skin_pass::SkinPassTargets;
pub use skin_pass::{SkinPassError, SkinnedFrame, SkinnedSlot, SkinnedVertex};

pub const FRAMES_IN_FLIGHT: usize = 2;

/// The views a renderer keeps apart, each with its own camera and palette slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The character as posed (the left half of a split view).
    Main,
    /// The compared palette (the right half of a split view).
    Compared,
}

impl View {
    const ALL: [View; 2] = [View::Main, View::Compared];

    fn index(self) -> usize {
        match self {
            View::Main => 0,
            View::Compared => 1,
        }
    }
}

/// One draw (an instance's primitive), as `mesh.wgsl` reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
struct DrawUniform {
    world_from_mesh: [f32; 16],
    base_color: [f32; 4],
    palette_base: u32,
    morph_first: u32,
    morph_count: u32,
    morph_vertices: u32,
    /// Fragments with alpha below it are discarded (MASK); negative: never.
    alpha_cutoff: f32,
    /// 1: the fragment keeps its alpha (BLEND); 0: opaque.
    alpha_blend: u32,
    morph_tangents: u32,
    /// Where this draw's vertices start in the skin pass's output.
    out_base: u32,
    /// 1: shaded with the drawn triangle's normal (a morphed primitive without normals).
    face_normals: u32,
    /// WGSL rounds the struct to 16 bytes.
    _pad: [u32; 3],
}

/// What is drawn, as plain data (bevy's extract step): one or more posed copies of a character.
#[derive(Clone, Copy, Debug)]
pub struct Posed<'a> {
    /// Every copy's palette entries, copy after copy (`palette_stride` entries each).
    pub palette: &'a [Mat4],
    /// Palette entries per copy.
    pub palette_stride: usize,
    /// Where each mesh instance's palette starts within its copy's entries.
    pub palette_base: &'a [u32],
    /// `world_from_mesh` per copy per mesh instance, copies major.
    pub world_from_mesh: &'a [Mat4],
    /// Every copy's morph weights, copy after copy (`morph_stride` each).
    pub morph_weights: &'a [f32],
    /// Weights per copy.
    pub morph_stride: usize,
    /// Mesh instance `i`'s weights within its copy's: `morph_base[i]..morph_base[i + 1]`.
    pub morph_base: &'a [u32],
    /// Weight-blended skinning's method weight per entry of one copy's palette (0: linear
    /// blend, 1: dual quaternions; a missing entry is 0).
    pub palette_method: &'a [f32],
    /// The post-skin deformers' values this frame, laid out as `deformers::DEFORMER_VALUES`
    /// says (the muscles' displacements, world space, then the ML deformer's weights; empty:
    /// none). One simulation, one pose: only a single copy follows them.
    pub deformer_values: &'a [[f32; 4]],
    /// Onion skins: from copy `copies - tints.len()` on, each copy is a ghost drawn in its
    /// tint (linear RGB and alpha), simply lit, before the solid copies and without writing
    /// depth, so the solid copies are drawn whole over them. Empty: every copy is solid.
    pub tints: &'a [[f32; 4]],
}

/// What one `prepare` writes: posed copies of a character seen by a camera.
#[derive(Clone, Copy)]
pub struct FrameInput<'a> {
    pub posed: Posed<'a>,
    pub camera: &'a Camera,
    /// Width over height of the viewport drawn into.
    pub aspect: f32,
    /// Bone lines to draw on top (`bones::bone_shapes_into`), possibly empty.
    pub bones: &'a [LineVertex],
    pub options: &'a DrawOptions,
}

/// Line vertices the overlay holds beyond the bones: the ground's outline, a trail of
/// `graph::TRAIL_LEN` points and the reach target's cross.
pub const OVERLAY_VERTICES: usize = 2 * 1024;

/// One draw slot: a primitive of a mesh instance. Each slot is drawn once per copy: draw data
/// index `slot * copies + copy`, the copy being the instance index of the draw call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DrawSlot {
    /// The mesh instance (`Character::instances`).
    pub instance: usize,
    pub mesh: usize,
    pub primitive: usize,
}

/// (instance, mesh, primitive) per draw slot: every primitive of every mesh instance.
fn draw_slots(character: &Character) -> Vec<DrawSlot> {
    let mut draws = Vec::new();
    for (i, instance) in character.instances.iter().enumerate() {
        for p in 0..character.meshes[instance.mesh].primitives.len() {
            draws.push(DrawSlot {
                instance: i,
                mesh: instance.mesh,
                primitive: p,
            });
        }
    }
    draws
}

/// What a `prepare` wrote: palette bytes, and morph-weight bytes (non-zero weights only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uploaded {
    pub palette_bytes: u64,
    pub morph_bytes: u64,
}

/// What a draw slot's material and instance say, fixed for the character: read by every
/// `prepare` instead of the character.
#[derive(Clone, Copy, Debug)]
struct SlotMaterial {
    base_color: Vec4,
    alpha_cutoff: f32,
    alpha_blend: u32,
    double_sided: bool,
}

/// The skin pass's resources: where each draw slot's vertices start in its output (its copies
/// follow each other) and the output's length in vertices, each slot's `SkinPassSlot` (made
/// with the first skin pass), per mesh per primitive its vertex words with the deformers'
/// words after them when it has any, the deformers' words held and the per-frame values'
/// scratch.
#[derive(Default)]
struct SkinPassResources {
    out_first: Vec<u32>,
    out_vertices: u64,
    slot_params: Vec<wgpu::Buffer>,
    slot_words: Vec<Vec<Option<skin_pass::SlotWords>>>,
    deformers: std::sync::Arc<crate::deformers::DeformerWords>,
    values_scratch: Vec<[f32; 4]>,
}

/// The shadows' resources: the two maps and what bounds the casters, per draw slot.
struct Shadows {
    maps: ShadowMaps,
    casters: Casters,
}

pub struct Renderer {
    pipelines: std::sync::Arc<Pipelines>,
    layouts: std::sync::Arc<Layouts>,
    /// The device's largest storage binding and compute dispatch dimension.
    max_binding: u64,
    max_workgroups: u32,
    views: Vec<ViewSlot>,
    /// The draw slots, in draw order.
    draws: Vec<DrawSlot>,
    /// Per draw slot, its material's constants.
    materials: Vec<SlotMaterial>,
    /// The mesh each instance draws (`Character::instances`).
    instance_meshes: Vec<usize>,
    /// The meshes were uploaded, and pipelines compiled, this many times (see `stats`).
    mesh_uploads: u32,
    /// The draw slots of opaque and masked materials, in draw order.
    opaque: Vec<usize>,
    /// The draw slots of blended materials (each view sorts them by distance).
    blended: Vec<usize>,
    capacity: Capacity,
    draw_scratch: Vec<DrawUniform>,
    /// This frame's non-zero morph weights, and each (copy, instance)'s range in them.
    morph_scratch: Vec<[u32; 2]>,
    morph_ranges: Vec<(u32, u32)>,
    primitives: Vec<Vec<GpuPrimitive>>,
    /// Bound where a mesh pipeline's group 1 expects the skin pass's output and none is read.
    placeholder: Words,
    /// The skin pass's buffers and the deformers' words it reads.
    skin: SkinPassResources,
    /// The grid's bounds, its lines and their count.
    grid: Option<((Vec3, Vec3), wgpu::Buffer, u32)>,
    /// The solid ground's square under the grid (`lines::ground_square`).
    ground: Vec4,
    /// The shadow maps and what bounds the casters.
    shadows: Shadows,
    /// The environment's maps (stand-ins under the generated sky; `set_environment`).
    environment: std::sync::Arc<EnvironmentMaps>,
    /// Line vertices the bones take (a segment and a cross a joint, the selected marker).
    joint_lines: usize,
    /// Line vertices the overlay buffer holds: the bones' and `Capacity::overlay_vertices`.
    bone_capacity: usize,
    depth: Option<(wgpu::TextureView, (u32, u32))>,
}

impl Renderer {
    /// Uploads the character's meshes and textures, builds the pipelines for targets of
    /// `color_format`, and sizes every buffer for `capacity`. Copies beyond what the device's
    /// limits hold (`Capacity::max_copies`) are not drawn: callers refuse or clamp first.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        character: &Character,
        color_format: wgpu::TextureFormat,
        capacity: Capacity,
    ) -> Self {
        let cache = PipelineCache::new(device);
        Self::with_cache(&cache, device, queue, character, color_format, capacity)
    }

    /// `new` with the pipelines (and layouts) of `cache`: compiled once per device and format,
    /// whatever the characters and crowds shown.
    pub fn with_cache(
        cache: &PipelineCache,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        character: &Character,
        color_format: wgpu::TextureFormat,
        capacity: Capacity,
    ) -> Self {
        let layouts = cache.layouts();
        let pipelines = cache.pipelines(device, color_format);
        let draws = draw_slots(character);
        let (blended, opaque) = (0..draws.len()).partition(|&d| {
            let DrawSlot {
                mesh, primitive: p, ..
            } = draws[d];
            character.meshes[mesh].primitives[p].material.alpha_mode == AlphaMode::Blend
        });
        let materials = draws
            .iter()
            .map(
                |&DrawSlot {
                     mesh, primitive: p, ..
                 }| {
                    let material = &character.meshes[mesh].primitives[p].material;
                    let (alpha_cutoff, alpha_blend) = match material.alpha_mode {
                        AlphaMode::Opaque => (-1.0, 0),
                        AlphaMode::Mask { cutoff } => (cutoff, 0),
                        AlphaMode::Blend => (-1.0, 1),
                    };
                    SlotMaterial {
                        base_color: material.base_color_factor,
                        alpha_cutoff,
                        alpha_blend,
                        double_sided: material.double_sided,
                    }
                },
            )
            .collect();
        // Per joint a segment and a cross, plus the selected joint's marker; the scene's
        // overlays come on top (`Capacity::overlay_vertices`).
        let joint_lines = character.skins.iter().map(|s| s.skin.len()).sum::<usize>() * 8 + 8;
        let primitives = meshes::upload(device, queue, &layouts, character);
        // Bound where a mesh pipeline's group 1 expects the skin pass's output and none is read.
        let placeholder = Words::new(
            device,
            layouts.data,
            "skin pass placeholder",
            size_of::<SkinnedVertex>() as u64,
            wgpu::BufferUsages::empty(),
        );
        let limits = device.limits();
        let casters = Casters::new(character, &draws);
        let mut renderer = Self {
            pipelines,
            layouts,
            skin: SkinPassResources::default(),
            max_binding: limits
                .max_storage_buffer_binding_size
                .min(limits.max_buffer_size),
            max_workgroups: limits.max_compute_workgroups_per_dimension,
            views: Vec::new(),
            draws,
            materials,
            instance_meshes: character.instances.iter().map(|i| i.mesh).collect(),
            mesh_uploads: 1,
            opaque,
            blended,
            capacity,
            draw_scratch: Vec::new(),
            morph_scratch: Vec::new(),
            morph_ranges: Vec::new(),
            primitives,
            placeholder,
            grid: None,
            ground: Vec4::ZERO,
            shadows: Shadows {
                maps: ShadowMaps::new(device, 1, ShadowMaps::side_for(&limits)),
                casters,
            },
            environment: std::sync::Arc::new(EnvironmentMaps::placeholder(device)),
            joint_lines,
            bone_capacity: joint_lines + capacity.overlay_vertices,
            depth: None,
        };
        renderer.resize(device, capacity);
        renderer
    }

    /// Sizes the per-view buffers for `capacity` (a crowd of another size), keeping the
    /// character's meshes, textures and the pipelines: nothing is uploaded or compiled again.
    /// Every view's data is written afresh by its next `prepare`.
    pub fn resize(&mut self, device: &wgpu::Device, capacity: Capacity) {
        let limits = device.limits();
        let most = max_copies_of(&capacity, &limits, self.draws.len());
        let capacity = Capacity {
            copies: capacity.copies.clamp(1, most.max(1)),
            palette_entries: capacity.palette_entries.max(1),
            ..capacity
        };
        self.bone_capacity = self.joint_lines + capacity.overlay_vertices;
        let one = BufferSizes::per_copy(&capacity, self.draws.len());
        let copies = capacity.copies as u64;
        // One character has room for weight-blended skinning's two entries a joint.
        let sizes = BufferSizes {
            palette: one.palette * copies.max(2),
            draws: one.draws * copies,
            bones: (self.bone_capacity * size_of::<LineVertex>()) as u64,
            morph: one.morph * copies,
        };
        self.views = View::ALL
            .iter()
            .map(|_| {
                ViewSlot::new(
                    device,
                    &self.layouts,
                    sizes,
                    &self.primitives,
                    (&self.placeholder, &self.shadows.maps, &self.environment),
                )
            })
            .collect();
        self.skin.out_first.clear();
        self.skin.out_vertices = 0;
        for &DrawSlot {
            mesh, primitive: p, ..
        } in &self.draws
        {
            self.skin
                .out_first
                .push(u32::try_from(self.skin.out_vertices).unwrap_or(u32::MAX));
            self.skin.out_vertices += u64::from(self.primitives[mesh][p].vertex_count) * copies;
        }
        // The skin pass's per-slot parameters hold the copies' output offsets.
        self.skin.slot_params.clear();
        self.lay_grid(device, capacity.grid_around);
        self.capacity = capacity;
    }

    /// The grid and the shadow-receiving ground laid around `around` (min, max): the rest
    /// bounds, or where a travelling character stands now (the lines stay on world multiples
    /// of their step, so the grid moves in whole steps). Only the grid's buffer is made again,
    /// and only when the bounds change.
    pub fn lay_grid(&mut self, device: &wgpu::Device, around: (Vec3, Vec3)) {
        if self.grid.as_ref().is_some_and(|g| g.0 == around) {
            return;
        }
        let grid = grid_lines(around);
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("grid"),
            contents: bytemuck::cast_slice(&grid),
            usage: wgpu::BufferUsages::VERTEX,
        });
        self.grid = Some((around, buffer, grid.len() as u32));
        self.ground = ground_square(around);
        self.capacity.grid_around = around;
    }

    /// How often this renderer uploaded the character's meshes and compiled pipelines: once
    /// each, at `new` (and the lazily built skin pass and vertex-skinning pipelines), however
    /// often it was `resize`d.
    pub fn stats(&self) -> RendererStats {
        RendererStats {
            mesh_uploads: self.mesh_uploads,
            pipelines_built: self.pipelines.built(),
        }
    }

    /// What the buffers were sized for.
    pub fn capacity(&self) -> Capacity {
        self.capacity
    }

    /// The most line vertices (bones and overlays) a frame draws; more are cut.
    pub fn line_capacity(&self) -> usize {
        self.bone_capacity
    }

    /// The overlay buffer grown, by doubling, to hold `lines` line vertices (muscles loaded, a
    /// long trail), so a frame's lines are never cut; the other buffers are sized as they were
    /// (`resize`: every view's data is written afresh by its next `prepare`).
    pub fn fit_lines(&mut self, device: &wgpu::Device, lines: usize) {
        if lines > self.bone_capacity {
            let capacity = Capacity {
                overlay_vertices: (self.capacity.overlay_vertices * 2)
                    .max(lines.next_power_of_two()),
                ..self.capacity
            };
            self.resize(device, capacity);
        }
    }

    /// Writes this frame's buffers of `view`: the camera always (272 bytes, and the shadow
    /// maps' two cameras when shadows are drawn), the palette and per-draw data only when they
    /// changed since this view's buffers of this frame slot were last written, the bone lines
    /// when given. Copies beyond the capacity are not drawn.
    pub fn prepare(&mut self, view: View, queue: &wgpu::Queue, frame: &FrameInput<'_>) -> Uploaded {
        let copies = self.capacity.copies;
        self.fill_morph_active(frame, copies);
        self.fill_draw_data(frame, copies);
        let slot = &mut self.views[view.index()];
        slot.ghost_from = copies.saturating_sub(frame.posed.tints.len()) as u32;
        faces_and_blend_order(frame, (&self.draws, &self.materials), &self.blended, slot);
        slot.frame = (slot.frame + 1) % slot.frames.len();
        // A crowd's palette has one entry a joint: weight-blended skinning draws it by linear blend.
        let skinning = match frame.options.skinning {
            SkinningMethod::Blended if copies > 1 => SkinningMethod::Linear,
            s => s,
        };
        let (fit, ground) = match self.fit_shadows(frame, copies) {
            Some((fit, ground)) => (Some(fit), ground),
            None => (None, self.ground),
        };
        let slot = &mut self.views[view.index()];
        let environment = (ground, self.environment.prefiltered);
        let uniform = buffers::camera_uniform(frame, skinning, fit.as_ref(), environment);
        queue.write_buffer(&slot.camera, 0, bytemuck::bytes_of(&uniform));
        slot.shadowed = fit.is_some();
        if let Some(fit) = fit {
            for (camera, seen_by) in slot.caster_cameras.iter().zip([fit.key, fit.below]) {
                queue.write_buffer(camera, 0, bytemuck::bytes_of(&uniform.seen_by(seen_by)));
            }
        }
        let palette_len = (self.capacity.palette_entries * copies).min(frame.posed.palette.len());
        let palette = &frame.posed.palette[..palette_len];
        let method = frame.posed.palette_method;
        let method_changed = skinning == SkinningMethod::Blended && slot.method != method;
        if slot.palette != palette || slot.skinning != skinning || method_changed {
            slot.method.clear();
            slot.method.extend_from_slice(method);
            slot.palette.clear();
            slot.palette.extend_from_slice(palette);
            slot.skinning = skinning;
            buffers::pack_palette(&frame.posed, palette, skinning, &mut slot.packed);
            slot.palette_generation += 1;
        }
        if self.draw_scratch != slot.draw_data {
            std::mem::swap(&mut self.draw_scratch, &mut slot.draw_data);
            slot.draws_generation += 1;
        }
        if self.morph_scratch != slot.morph_active {
            std::mem::swap(&mut self.morph_scratch, &mut slot.morph_active);
            slot.morph_generation += 1;
        }
        let buffers = &mut slot.frames[slot.frame];
        let mut uploaded = Uploaded::default();
        if buffers.palette_generation != slot.palette_generation {
            let entries = match slot.skinning {
                SkinningMethod::Linear | SkinningMethod::DeltaMush => &slot.palette,
                SkinningMethod::DualQuaternion | SkinningMethod::Blended => &slot.packed,
            };
            let bytes: &[u8] = bytemuck::cast_slice(entries);
            buffers.palette.write(queue, bytes);
            buffers.palette_generation = slot.palette_generation;
            uploaded.palette_bytes = bytes.len() as u64;
        }
        if buffers.draws_generation != slot.draws_generation && !slot.draw_data.is_empty() {
            buffers
                .draws
                .write(queue, bytemuck::cast_slice(&slot.draw_data));
            buffers.draws_generation = slot.draws_generation;
        }

        if buffers.morph_generation != slot.morph_generation && !slot.morph_active.is_empty() {
            let bytes: &[u8] = bytemuck::cast_slice(&slot.morph_active);
            buffers.morph_active.write(queue, bytes);
            buffers.morph_generation = slot.morph_generation;
            uploaded.morph_bytes = bytes.len() as u64;
        }
        let n = frame.bones.len().min(self.bone_capacity);
        if n > 0 {
            queue.write_buffer(&buffers.bones.0, 0, bytemuck::cast_slice(&frame.bones[..n]));
        }
        buffers.bones.1 = n as u32;
        self.prepare_deformers(view, queue, &frame.posed, copies);
        uploaded
    }

    /// Sets the per-vertex debug colours of each mesh (as `debug::colors::vertex_colors` gives
    /// them, per instance; a mesh drawn by several instances takes the first one's).
    pub fn set_vertex_colors(&self, queue: &wgpu::Queue, colors: &[Vec<Vec<Vec4>>]) {
        let mut done = vec![false; self.primitives.len()];
        for (&mesh, per_primitive) in self.instance_meshes.iter().zip(colors) {
            if std::mem::replace(&mut done[mesh], true) {
                continue;
            }
            for (gpu, c) in self.primitives[mesh].iter().zip(per_primitive) {
                if !c.is_empty() && c.len() as u32 == gpu.vertex_count {
                    queue.write_buffer(&gpu.colors, 0, bytemuck::cast_slice(c));
                }
            }
        }
    }

    /// Records the draws of `view`'s last `prepare` into `target` (of `size` pixels): first the
    /// skin pass when `options.skin_pass` resolves to it (and the view's data changed since it
    /// last ran), then the character pass.
    pub fn paint(
        &mut self,
        view: View,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: (u32, u32),
        options: &DrawOptions,
    ) -> Painted {
        let (from_skin_pass, why) = self.skin_where(view, device, options);
        let mut painted = Painted {
            skinned_in: SkinPass::Vertex,
            skin_pass_ran: false,
            why,
            shadows_from: None,
        };
        if from_skin_pass {
            painted.skin_pass_ran = self.record_skin_pass(view, encoder, false);
            painted.skinned_in = SkinPass::Compute;
        }
        let shadows = options.shadows && !options.silhouette;
        if shadows {
            painted.shadows_from = self.cast_shadows(view, device, encoder, from_skin_pass);
        }
        self.ensure_depth(device, size);
        self.ensure_background(device, options);
        let Some((depth, _)) = self.depth.as_ref() else {
            return painted;
        };
        let mut pass = begin_pass(encoder, target, depth, options);
        if let Some([x, y, w, h]) = options.viewport {
            let (x, y) = (x.clamp(0.0, size.0 as f32), y.clamp(0.0, size.1 as f32));
            let (w, h) = (w.min(size.0 as f32 - x), h.min(size.1 as f32 - y));
            if w < 1.0 || h < 1.0 {
                return painted;
            }
            pass.set_viewport(x, y, w, h, 0.0, 1.0);
        }
        let slot = &self.views[view.index()];
        let frame = &slot.frames[slot.frame];
        self.draw_background(&mut pass, &frame.scene_group, options);
        if let Some(ground) = self.pipelines.shadows().filter(|_| shadows) {
            // The solid ground replaces the grid's lines.
            pass.set_pipeline(&ground.ground);
            pass.set_bind_group(0, &frame.scene_group, &[]);
            pass.draw(0..6, 0..1);
        } else if let Some((_, grid, count)) = self.grid.as_ref().filter(|g| g.2 > 0)
            && options.grid
            && !options.silhouette
        {
            pass.set_pipeline(self.pipelines.grid(device));
            pass.set_bind_group(0, &slot.line_group, &[]);
            pass.set_vertex_buffer(0, grid.slice(..));
            pass.draw(0..*count, 0..1);
        }
        // The skin pass's output in group 1, read by the `vs_skinned` pipelines; or the palette
        // beside the placeholder, for `vs_main`.
        let (palette_group, stage) = match (from_skin_pass, &slot.skin_pass) {
            (true, Some(targets)) => (
                &targets.frames[slot.frame].render,
                VertexStage::FromSkinPass,
            ),
            _ => (&frame.palette_group, VertexStage::Skinning),
        };
        pass.set_bind_group(0, &frame.scene_group, &[]);
        pass.set_bind_group(1, palette_group, &[]);
        let all = 0..self.draws.len();
        let faces_of = |look| Triangles::ByFaces(look, device, stage);
        let n = self.capacity.copies as u32;
        // The solid copies, and the onion-skin ghosts.
        let (solid, ghosts) = (0..slot.ghost_from.min(n), slot.ghost_from.min(n)..n);
        if options.silhouette {
            let what = faces_of(Look::Silhouette);
            self.draw_meshes(&mut pass, frame, slot, (all, 0..n), what);
        } else {
            // Onion-skin ghosts first, writing no depth: the frame's own copy is then drawn
            // whole over them, and they show around it.
            if options.mesh && !ghosts.is_empty() {
                let what = faces_of(Look::Ghost);
                self.draw_meshes(&mut pass, frame, slot, (all.clone(), ghosts), what);
            }
            if options.mesh {
                let opaque = self.opaque.iter().copied();
                let what = faces_of(Look::Shaded);
                self.draw_meshes(&mut pass, frame, slot, (opaque, solid.clone()), what);
            }
            if options.wireframe {
                let wireframe = self
                    .pipelines
                    .mesh(device, stage, Look::Wireframe, Faces::Both);
                pass.set_pipeline(wireframe);
                let edges = Triangles::Edges;
                self.draw_meshes(&mut pass, frame, slot, (all.clone(), solid.clone()), edges);
            }
            // Blended materials last, farthest first, over everything opaque.
            if options.mesh {
                let blended = slot.blend_order.iter().copied();
                let what = faces_of(Look::Blended);
                self.draw_meshes(&mut pass, frame, slot, (blended, solid), what);
            }
        }
        if options.bones && !options.silhouette && frame.bones.1 > 0 {
            pass.set_pipeline(self.pipelines.overlay(device));
            pass.set_bind_group(0, &slot.line_group, &[]);
            pass.set_vertex_buffer(0, frame.bones.0.slice(..));
            pass.draw(0..frame.bones.1, 0..1);
        }
        painted
    }

    /// Whether the renderer can skin in a compute pass: not on a device whose arrays are textures
    /// (WebGL2), which has no compute shaders. Direct delta mush, the muscles and the ML
    /// corrective, which run in that pass, are then not drawn.
    pub fn has_skin_pass(&self) -> bool {
        self.layouts.data == crate::words::DataMode::Storage
    }

    /// Whether `view` is skinned in the skin pass this `paint` (made ready when it is), and why.
    fn skin_where(
        &mut self,
        view: View,
        device: &wgpu::Device,
        options: &DrawOptions,
    ) -> (bool, &'static str) {
        if self.layouts.data == crate::words::DataMode::Textures {
            return (false, NO_COMPUTE);
        }
        let (wanted, why) = match self.deformers_drawn(view) {
            Some(why) => (SkinPass::Compute, why),
            None => options.skin_pass_wanted(),
        };
        if wanted != SkinPass::Compute {
            return (false, why);
        }
        if self.ensure_skin_pass(view, device) {
            (true, why)
        } else if self.skin_pass_bytes().0 == 0 {
            (false, "nothing is skinned")
        } else {
            (
                false,
                "the skin pass's output would not fit a storage binding of the device",
            )
        }
    }

    /// Draw slots `slots`, instanced over the copies `copies`, as `what` says.
    fn draw_meshes(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame: &FrameBuffers,
        view: &ViewSlot,
        (slots, range): (impl IntoIterator<Item = usize>, std::ops::Range<u32>),
        what: Triangles<'_>,
    ) {
        if range.is_empty() {
            return;
        }
        let n = self.capacity.copies as u32;
        let edges = what == Triangles::Edges;
        for draw in slots {
            let Some(&DrawSlot {
                mesh, primitive: p, ..
            }) = self.draws.get(draw)
            else {
                continue;
            };
            if let Triangles::ByFaces(look, device, stage) = what {
                let faces = view.faces.get(draw).copied().unwrap_or(Faces::Both);
                pass.set_pipeline(self.pipelines.mesh(device, stage, look, faces));
            }
            let primitive = &self.primitives[mesh][p];
            // This slot's draw data for the copies drawn: the instance range of the call.
            let copies = draw as u32 * n + range.start..draw as u32 * n + range.end;
            pass.set_bind_group(2, &primitive.material, &[]);
            pass.set_bind_group(3, &frame.morph_groups[mesh][p], &[]);
            pass.set_vertex_buffer(0, primitive.vertices.slice(..));
            pass.set_vertex_buffer(1, primitive.colors.slice(..));
            if edges {
                pass.set_index_buffer(primitive.edges.0.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..primitive.edges.1, 0, copies);
            } else if let Some((indices, count)) = &primitive.indices {
                pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..*count, 0, copies);
            } else {
                pass.draw(
                    0..primitive.vertex_count - primitive.vertex_count % 3,
                    copies,
                );
            }
        }
    }

    fn ensure_depth(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        if self.depth.as_ref().is_some_and(|(_, s)| *s == size) {
            return;
        }
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
}

/// How `draw_meshes` draws its slots.
#[derive(Clone, Copy, PartialEq)]
enum Triangles<'d> {
    /// Triangles of this look and vertex stage, each slot with the pipeline of its faces
    /// (compiled on the device the first time it draws).
    ByFaces(Look, &'d wgpu::Device, VertexStage),
    /// The triangles' edges (the caller set the wireframe pipeline).
    Edges,
    /// Triangles with the pipeline the caller set.
    Set,
}

/// Each draw slot's faces (single-sided materials cull back faces; a node with a negative
/// determinant flips the winding), and the blended slots farthest first from the camera.
fn faces_and_blend_order(
    frame: &FrameInput<'_>,
    (draws, materials): (&[DrawSlot], &[SlotMaterial]),
    blended: &[usize],
    slot: &mut ViewSlot,
) {
    let world = |i: usize| {
        let world_from_mesh = frame.posed.world_from_mesh;
        world_from_mesh.get(i).copied().unwrap_or(Mat4::IDENTITY)
    };
    slot.faces.clear();
    for (&DrawSlot { instance: i, .. }, material) in draws.iter().zip(materials) {
        slot.faces.push(
            match (material.double_sided, world(i).determinant() < 0.0) {
                (true, _) => Faces::Both,
                (false, false) => Faces::FrontCcw,
                (false, true) => Faces::FrontCw,
            },
        );
    }
    let eye = frame.camera.eye;
    let distance = |d: usize| {
        world(draws[d].instance)
            .w_axis
            .truncate()
            .distance_squared(eye)
    };
    slot.blend_order.clear();
    slot.blend_order.extend_from_slice(blended);
    slot.blend_order
        .sort_by(|a, b| distance(*b).total_cmp(&distance(*a)));
}

/// The character pass: clears (unless drawing beside another view) and clears depth.
fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    depth: &wgpu::TextureView,
    options: &DrawOptions,
) -> wgpu::RenderPass<'e> {
    let [r, g, b] = if options.silhouette {
        [0.0; 3]
    } else {
        options.background
    };
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
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
        depth_stencil_attachment: Some(depth_cleared(depth)),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// `depth` as a pass's depth attachment, cleared to the far plane and kept.
fn depth_cleared(depth: &wgpu::TextureView) -> wgpu::RenderPassDepthStencilAttachment<'_> {
    wgpu::RenderPassDepthStencilAttachment {
        view: depth,
        depth_ops: Some(wgpu::Operations {
            load: wgpu::LoadOp::Clear(1.0),
            store: wgpu::StoreOp::Store,
        }),
        stencil_ops: None,
    }
}
