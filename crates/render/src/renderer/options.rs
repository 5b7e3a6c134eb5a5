//! What a renderer is asked: how a view is drawn (`DrawOptions`), what its buffers hold
//! (`Capacity`), what a `paint` did (`Painted`), and what it did once (`RendererStats`).

use glam::Vec3;

use super::{BufferSizes, SkinPass, ToneMap, draw_slots};
use crate::anim::SkinningMethod;
use crate::character::Character;

/// What `paint` draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    pub mesh: bool,
    pub wireframe: bool,
    pub bones: bool,
    pub grid: bool,
    /// The key light's shadows on a solid ground (in place of the grid's lines).
    pub shadows: bool,
    /// Every mesh flat white on black; no grid, overlays or shading (mask comparisons).
    pub silhouette: bool,
    /// Linear RGB: the flat background (`environment.background` may draw the environment over
    /// it).
    pub background: [f64; 3],
    /// The environment's rotation and intensity, and what the background shows.
    pub environment: crate::panorama::EnvironmentView,
    /// The part of the target the 3D view fills, in pixels (x, y, width, height); `None` is all
    /// of it. The background is cleared everywhere.
    pub viewport: Option<[f32; 4]>,
    /// Colour meshes by the debug colours of `set_vertex_colors` instead of their materials.
    pub vertex_colors: bool,
    /// Clear the target first (off to draw a second view beside the first).
    pub clear: bool,
    pub tone_map: ToneMap,
    /// Exposure in stops: the lit colour is scaled by 2^EV before tone mapping.
    pub exposure_ev: f32,
    /// Linear blend or dual-quaternion skinning (the palette is packed for the latter as it is
    /// uploaded).
    pub skinning: SkinningMethod,
    /// Where the vertices are skinned.
    pub skin_pass: SkinPass,
    /// How many times the frame draws the mesh (views, and the wireframe over the shading),
    /// and the adapter: what `SkinPass::Auto` decides by.
    pub mesh_passes: u32,
    pub adapter: crate::display::AdapterKind,
}

impl DrawOptions {
    /// Whether the meshes cast shadows this frame: shadows on, the meshes drawn, and not the
    /// silhouette (which draws no ground either).
    pub fn casts_shadows(&self) -> bool {
        self.shadows && !self.silhouette && self.mesh
    }

    /// Where `paint` means to skin and why: direct delta mush in the skin pass, the other
    /// methods where `skin_pass` resolves (`SkinPass::resolve`).
    pub fn skin_pass_wanted(&self) -> (SkinPass, &'static str) {
        if self.skinning == SkinningMethod::DeltaMush {
            return (
                SkinPass::Compute,
                "direct delta mush skins in the skin pass",
            );
        }
        // Where the user chose the vertex shader, the casters skin there too.
        if self.casts_shadows() && self.skin_pass == SkinPass::Auto {
            return (
                SkinPass::Compute,
                "the shadows and the shaded pass read one skinning",
            );
        }
        self.skin_pass.resolve(self.mesh_passes, self.adapter)
    }
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self {
            mesh: true,
            wireframe: false,
            bones: false,
            grid: true,
            shadows: false,
            silhouette: false,
            background: [0.16, 0.17, 0.2],
            environment: Default::default(),
            viewport: None,
            vertex_colors: false,
            clear: true,
            tone_map: ToneMap::default(),
            exposure_ev: 0.0,
            skinning: SkinningMethod::Linear,
            skin_pass: SkinPass::Auto,
            mesh_passes: 1,
            adapter: crate::display::AdapterKind::Other,
        }
    }
}

/// How a `paint` skinned: in the skin pass (`Compute`) or the vertex shader, and whether it ran
/// the skin pass (it does not when the view's data did not change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Painted {
    pub skinned_in: SkinPass,
    pub skin_pass_ran: bool,
    /// Why the vertices were skinned where they were.
    pub why: &'static str,
    /// Where the shadow casters' vertices were skinned (the skin pass's output, or their own
    /// vertex shader where the skin pass cannot run); `None` when no shadow was cast.
    pub shadows_from: Option<SkinPass>,
}

/// What a renderer's buffers hold, decided when it is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capacity {
    /// Copies of the character drawn at once (1 unless a crowd).
    pub copies: usize,
    /// Palette entries per copy (`CharacterPose::palette`'s length).
    pub palette_entries: usize,
    /// Morph weights per copy (every instance's targets).
    pub morph_weights: usize,
    /// The grid is laid around these bounds (min, max; the character's rest pose).
    pub grid_around: (Vec3, Vec3),
    /// Overlay line vertices beside the bones' (the scene's outline, the trail, the reach
    /// target, motion matching's paths, the muscles).
    pub overlay_vertices: usize,
}

impl Capacity {
    /// The most copies of `character` (with this capacity's palette entries and morph weights
    /// per copy) whose palettes, per-draw data and morph weights each fit a storage buffer
    /// binding of a device with `limits`.
    pub fn max_copies(&self, limits: &wgpu::Limits, character: &Character) -> usize {
        max_copies_of(self, limits, draw_slots(character).len())
    }
}

/// Counts of the work a renderer did once (see `Renderer::stats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RendererStats {
    pub mesh_uploads: u32,
    pub pipelines_built: u32,
}

pub(super) fn max_copies_of(
    capacity: &Capacity,
    limits: &wgpu::Limits,
    draw_slots: usize,
) -> usize {
    let binding = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    let per_copy = BufferSizes::per_copy(capacity, draw_slots);
    let largest = per_copy.palette.max(per_copy.draws).max(per_copy.morph);
    usize::try_from(binding / largest.max(1)).unwrap_or(usize::MAX)
}
